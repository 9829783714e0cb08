package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdata/report.json is a Ginkgo JSON report of e2e.test v1.36.3 (a run
// focused on two specs, cut down to a few entries), with the quota spec
// marked failed to exercise the failure path.
func readFixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/report.json")
	require.NoError(t, err)
	return b
}

func TestReadReportKeepsFocusedSpecs(t *testing.T) {
	c := config{kinds: []string{"Deployment", "ReplicaSet"}}
	specs, err := readReport(bytes.NewReader(readFixture(t)), selector{focus: regexp.MustCompile(focusOf(c))})
	require.NoError(t, err)
	assert.Equal(t, []spec{
		{Name: "[sig-apps] Deployment deployment should support proportional scaling [Conformance]", State: "passed", RunTime: 12398279261},
		{Name: "[sig-apps] ReplicaSet should surface a failure condition on a common issue like exceeded quota", State: "failed", RunTime: 4067465254,
			Failure: `rs controller never added the failure condition for replica set "condition-test": []v1.ReplicaSetCondition(nil)`},
	}, specs)
	p, f, s := counts(specs)
	assert.Equal(t, [3]int{1, 1, 0}, [3]int{p, f, s})

	// The skip drops a spec the focus keeps.
	specs, err = readReport(bytes.NewReader(readFixture(t)), selector{focus: regexp.MustCompile(focusOf(c)), skip: regexp.MustCompile(`exceeded quota`)})
	require.NoError(t, err)
	require.Len(t, specs, 1)

	// A failed suite-level node is reported under its node type.
	broken := strings.Replace(string(readFixture(t)), `"LeafNodeType": "SynchronizedBeforeSuite",`+"\n"+`    "LeafNodeLabels": null,`+"\n"+`    "LeafNodeText": "",`+"\n"+`    "State": "passed"`,
		`"LeafNodeType": "SynchronizedBeforeSuite",`+"\n"+`    "LeafNodeLabels": null,`+"\n"+`    "LeafNodeText": "",`+"\n"+`    "State": "failed"`, 1)
	require.NotEqual(t, string(readFixture(t)), broken)
	specs, err = readReport(strings.NewReader(broken), selector{focus: regexp.MustCompile(focusOf(c))})
	require.NoError(t, err)
	assert.Equal(t, "SynchronizedBeforeSuite", specs[0].Name)
	assert.Equal(t, "failed", specs[0].State)

	_, err = readReport(strings.NewReader("[]"), selector{focus: regexp.MustCompile(focusOf(c))})
	assert.ErrorContains(t, err, "no suite")
}

func TestSelection(t *testing.T) {
	base := config{kinds: []string{"Deployment", "ReplicaSet"}}
	conf := base
	conf.conformance = true
	narrow := conf
	narrow.focus = "rollover|lifecycle"
	conformance := []string{"Conformance"}
	for _, tc := range []struct {
		name   string
		labels []string
		want   [3]bool // selected by base, conf, narrow
	}{
		{"[sig-apps] Deployment deployment should support rollover [Conformance]", conformance, [3]bool{true, true, true}},
		{"[sig-apps] Deployment iterative rollouts should eventually progress", nil, [3]bool{true, false, false}},
		{"[sig-apps] ReplicaSet Replace and Patch tests [Conformance]", conformance, [3]bool{true, true, false}},
		{"[sig-apps] StatefulSet Basic StatefulSet functionality should be [Conformance]", conformance, [3]bool{false, false, false}},
		{"[sig-apps] DeploymentX should not match", nil, [3]bool{false, false, false}},
		{environmental[0].spec + " [Conformance]", conformance, [3]bool{false, false, false}},
	} {
		for i, c := range []config{base, conf, narrow} {
			assert.Equal(t, tc.want[i], selection(c).selects(tc.name, tc.labels), "%s with %+v", tc.name, c)
		}
	}
}

func TestSelectionOfKinds(t *testing.T) {
	c := config{kinds: []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"}}
	for _, name := range []string{
		"[sig-apps] Daemon set [Serial] should run and stop simple daemon [Conformance]",
		"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should have a working scale subresource [Conformance]",
		"[sig-apps] Deployment deployment should support rollover [Conformance]",
	} {
		assert.True(t, selection(c).selects(name, nil), name)
		assert.False(t, selection(config{kinds: []string{"Deployment", "ReplicaSet"}}).selects(name, nil) && !strings.Contains(name, "Deployment"), name)
	}
}

func TestDifference(t *testing.T) {
	a := []spec{{Name: "x", State: "passed"}, {Name: "y", State: "failed"}, {Name: "only-a", State: "passed"}}
	b := []spec{{Name: "y", State: "passed"}, {Name: "x", State: "passed"}, {Name: "only-b", State: "skipped"}}
	assert.Equal(t, []string{
		"only-a: passed with rolloutplan, not run with upstream",
		"only-b: not run with rolloutplan, skipped with upstream",
		"y: failed with rolloutplan, passed with upstream",
	}, difference("rolloutplan", a, "upstream", b))
	assert.Empty(t, difference("rolloutplan", a, "upstream", a))
}

func TestPrintRun(t *testing.T) {
	var out bytes.Buffer
	printRun(&out, "rolloutplan controllers", []spec{
		{Name: "[sig-apps] Deployment a", State: "passed", RunTime: 1234 * time.Millisecond},
		{Name: "[sig-apps] Deployment b", State: "failed", RunTime: 61 * time.Second, Failure: "boom"},
	}, 95*time.Second)
	assert.Equal(t, `rolloutplan controllers: 1 passed, 1 failed, 0 skipped (run 1m35s)
  passed   [sig-apps] Deployment a (1.2s)
  failed   [sig-apps] Deployment b (1m1s): boom
`, out.String())
}

func TestFlags(t *testing.T) {
	bin := os.Args[0] // any existing file stands for the binaries
	for _, tc := range []struct {
		args []string
		want string // the error line; "" for valid flags
	}{
		{[]string{"--controllers", "upstream"}, ""},
		{[]string{"--controller-binary", bin}, ""},
		{[]string{"--controller-binary", bin, "--kinds", "Deployment,ReplicaSet,DaemonSet", "--conformance", "--focus", "a|b"}, ""},
		{[]string{"--controllers", "kcm"}, `kube-e2e: --controllers "kcm": want rolloutplan, upstream or both`},
		{[]string{}, "kube-e2e: --controller-binary is required with the rolloutplan controllers"},
		{[]string{"--controller-binary", "/nonexistent"}, "kube-e2e: --controller-binary /nonexistent: not a file"},
		{[]string{"--controllers", "upstream", "--kinds", "DaemonSet"}, ""},
		{[]string{"--controllers", "upstream", "--kinds", "Deployment,ReplicaSet,Job"}, `kube-e2e: --kinds: unknown kind "Job" (want Deployment, ReplicaSet, StatefulSet, DaemonSet)`},
		{[]string{"--controllers", "upstream", "--focus", "("}, "kube-e2e: --focus: error parsing regexp: missing closing ): `(`"},
		{[]string{"--controllers", "upstream", "--nodes", "0"}, "kube-e2e: --nodes 0: want 1 to 100"},
		{[]string{"--controllers", "upstream", "--timeout", "0s"}, "kube-e2e: --timeout 0s: want more than 0"},
		{[]string{"--controllers", "upstream", "--e2e-binary", "/nonexistent"}, "kube-e2e: --e2e-binary /nonexistent: not a file"},
		{[]string{"--controllers", "upstream", "extra"}, `kube-e2e: unexpected argument "extra"`},
		{[]string{"--bogus"}, "kube-e2e: flag provided but not defined: -bogus (see kube-e2e -h)"},
	} {
		var stdout, stderr bytes.Buffer
		_, code, ok := parse(tc.args, &stdout, &stderr)
		if tc.want == "" {
			assert.True(t, ok, "%v: %s", tc.args, stderr.String())
			continue
		}
		assert.False(t, ok, "%v", tc.args)
		assert.Equal(t, exitUsage, code, "%v", tc.args)
		assert.Equal(t, tc.want+"\n", stderr.String(), "%v", tc.args)
	}
	var stdout, stderr bytes.Buffer
	_, code, ok := parse([]string{"-h"}, &stdout, &stderr)
	assert.False(t, ok)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, stdout.String(), "--controllers")
}
