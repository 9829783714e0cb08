package rolloutio

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The kinds and names kubectl rollout takes, for a subcommand that works on
// every kind; a Deployment-only subcommand refuses the others.
func TestParseArgsKinds(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		selector string
		kind     Kind
		name     string
		wantErr  string
	}{
		{[]string{"web"}, "", "", "web", ""},
		{[]string{"sts/web"}, "", StatefulSet, "web", ""},
		{[]string{"statefulset/web"}, "", StatefulSet, "web", ""},
		{[]string{"StatefulSets.apps/web"}, "", StatefulSet, "web", ""},
		{[]string{"statefulset.v1.apps/web"}, "", StatefulSet, "web", ""},
		{[]string{"ds/web"}, "", DaemonSet, "web", ""},
		{[]string{"daemonsets", "web"}, "", DaemonSet, "web", ""},
		{[]string{"deploy/web"}, "", Deployment, "web", ""},
		{[]string{"sts"}, "app=web", StatefulSet, "", ""},
		{[]string{"ds"}, "", "", "", `argument "ds": give the DaemonSet's name (daemonset/NAME or daemonset NAME) or -l SELECTOR`},
		{[]string{"job/web"}, "", "", "", `argument "job/web": only deployments, statefulsets and daemonsets are supported (KIND/NAME)`},
		{[]string{"cronjob", "web"}, "", "", "", `argument "cronjob": only deployments, statefulsets and daemonsets are supported (KIND NAME)`},
		{[]string{"sts/"}, "", "", "", "the name is empty"},
	} {
		tg := Target{Selector: tc.selector}
		tg.Accept(Kinds...)
		err := tg.ParseArgs(tc.args)
		if tc.wantErr != "" {
			var usage *UsageError
			if assert.ErrorAs(t, err, &usage, "%q", tc.args) {
				assert.Contains(t, err.Error(), tc.wantErr)
			}
			continue
		}
		require.NoError(t, err, "%q", tc.args)
		assert.Equal(t, tc.kind, tg.Kind, "%q", tc.args)
		assert.Equal(t, tc.name, tg.Name, "%q", tc.args)
	}
	// The default: Deployments only.
	var tg Target
	assert.ErrorContains(t, tg.ParseArgs([]string{"sts/web"}), `argument "sts/web": only deployments are supported (deployment/NAME)`)
	tg = Target{}
	tg.Accept(Deployment, StatefulSet)
	assert.ErrorContains(t, tg.ParseArgs([]string{"ds/web"}), `argument "ds/web": only deployments and statefulsets are supported (KIND/NAME)`)
}

func TestKindNames(t *testing.T) {
	assert.Equal(t, "statefulset.apps/web", StatefulSet.ObjectName("web"))
	assert.Equal(t, "daemonsets", DaemonSet.Resource())
	assert.Equal(t, `daemonsets.apps "x" pausing is not supported`, DaemonSet.Refused("x", errString("pausing is not supported")).Error())
	assert.Equal(t, "deployments, statefulsets and daemonsets", kindList(Kinds))
}

type errString string

func (e errString) Error() string { return string(e) }

// PrintObject writes JSON as kubectl's printer (json.MarshalIndent), Print
// leaves HTML characters alone; YAML is the same.
func TestPrintObject(t *testing.T) {
	v := map[string]string{"cmd": "a && b <c>"}
	var a, b strings.Builder
	o := Output{Format: "json"}
	require.NoError(t, o.PrintObject(&a, v))
	require.NoError(t, o.Print(&b, v))
	assert.Equal(t, "{\n    \"cmd\": \"a \\u0026\\u0026 b \\u003cc\\u003e\"\n}\n", a.String())
	assert.Equal(t, "{\n    \"cmd\": \"a && b <c>\"\n}\n", b.String())
	y := Output{Format: "yaml"}
	a.Reset()
	require.NoError(t, y.PrintObject(&a, v))
	assert.Equal(t, "cmd: a && b <c>\n", a.String())
}
