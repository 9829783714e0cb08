package configrestarts

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// run runs config-restarts with args; the script is read from stdin
// unless args name a file.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	if !slices.Contains(args, "-f") && !slices.Contains(args, "-h") {
		args = append([]string{"-f", "-"}, args...)
	}
	return clitest.Exec(t, NewCommand, clitest.Options{}, stdin, args...)
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--nope"}, 2, "error: unknown flag: --nope. See 'kubectl rolloutplan config-restarts --help'."},
		{[]string{"--timestamp", "iso"}, 2, `--timestamp "iso": want stamp or rfc3339`},
		{[]string{"--compat", "no-retry,bogus"}, 2, `unknown shortfall "bogus"`},
		{[]string{"script.json"}, 2, "unexpected argument"},
		{[]string{"-o", "table"}, 2, `--output "table": want json or yaml`},
		{[]string{"-f", "a", "-f", "b"}, 2, "-f given 2 times: give one script"},
		{[]string{"--indent"}, 2, "--indent applies to -o json"},
	} {
		code, _, stderr := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
	// Help is asked for: it goes to stdout and exits 0.
	if code, stdout, stderr := run(t, "", "-h"); code != 0 || !strings.Contains(stdout, "kubectl rolloutplan config-restarts [-f SCRIPT] [flags]") ||
		!strings.Contains(stdout, "{at: 1, op: tick}") || stderr != "" {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{`{`, "bad restart script"},
		{`{"events":[],"extra":1}`, `extra: unknown field`},
		{`{"events":[{"at":0,"op":"jump"}]}`, `events[0].op "jump"`},
		{`{"events":[{"at":1,"op":"tick"},{"at":0,"op":"tick"}]}`, "non-decreasing"},
		{`{"events":[{"at":0,"op":"update","object":{"kind":"Pod","metadata":{"name":"p"}}}]}`, `object kind "Pod"`},
		{`{"events":[{"at":0,"op":"update","object":{"kind":"Secret","metadata":{"name":"s"},"data":{"k":"%%%"}}}]}`, "data.k"},
		// What a Kubernetes user may feed it first: a manifest.
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n", "the input is a Kubernetes Deployment, not a restart script: a script lists edits in time"},
		{`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"}}`, "the input is a Kubernetes ConfigMap, not a restart script"},
		{"", "empty script: give a restart script (see --help for its format)"},
		{"a: b\n---\nc: d\n", "several YAML documents"},
	} {
		code, out, stderr := run(t, tc.in)
		if code != 1 || out != "" || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.in, code, out, stderr)
		}
	}
}

// The rule-1 scenario replayed: one restart patch at t=13, with the
// original's time.Stamp or with RFC 3339; a recorded .jsonl line works too.
func TestReplay(t *testing.T) {
	script, err := os.ReadFile("testdata/readme-rule1-restart.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in    string
		args  []string
		value string
	}{
		{string(script), []string{"-o", "json"}, "Jan  1 00:00:13"},
		{string(script), []string{"-o", "json", "--timestamp", "rfc3339", "--original-references", "--compat", "all"}, "2024-01-01T00:00:13Z"},
		{`{"script":` + string(script) + `,"trace":{}}`, []string{"-o", "json", "--indent"}, "Jan  1 00:00:13"},
	} {
		code, out, stderr := run(t, tc.in, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		var tr struct {
			Steps []struct {
				I       int
				Patches []struct {
					Restart bool
					Body    json.RawMessage
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &tr); err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, st := range tr.Steps {
			for _, p := range st.Patches {
				found = append(found, string(p.Body))
			}
		}
		if len(found) != 1 || !strings.Contains(found[0], tc.value) {
			t.Errorf("%v: patches %v, want one with %q", tc.args, found, tc.value)
		}
	}
}

// By default it says which workloads restart, when and why.
func TestSummary(t *testing.T) {
	code, out, stderr := run(t, "", "-f", "testdata/readme-rule1-restart.json")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	want := "Script readme-rule1-restart: 44 events over +20s\n" +
		"+13s (2024-01-01T00:00:13Z): restart Deployment default/web (com.xing.deployment-restart.timestamp = \"Jan  1 00:00:13\")\n" +
		"    configmap/default/app-config changed at +8s (checksum ce705679c69d8e0e → 28289bc788a7f57f)\n" +
		"1 restarts of 1 workloads, 0 checksum updates without restart, 0 failed patches\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// The same script as YAML.
	b, err := os.ReadFile("testdata/readme-rule1-restart.json")
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.JSONToYAML(b)
	if err != nil {
		t.Fatal(err)
	}
	if code, got, stderr := run(t, string(y)); code != 0 || got != want {
		t.Errorf("YAML script: exit %d, stderr %q\n%s", code, stderr, got)
	}
}
