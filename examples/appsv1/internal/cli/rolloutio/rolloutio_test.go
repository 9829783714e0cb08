package rolloutio

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		selector string
		name     string
		wantErr  string
	}{
		{nil, "", "", ""},
		{[]string{"web"}, "", "web", ""},
		{[]string{"deployment/web"}, "", "web", ""},
		{[]string{"deploy/web"}, "", "web", ""},
		{[]string{"deployments.apps/web"}, "", "web", ""},
		{[]string{"deployment.v1.apps/web"}, "", "web", ""},
		{[]string{"deployment", "web"}, "", "web", ""},
		{[]string{"deployment"}, "app=web", "", ""},
		{[]string{"deployment"}, "", "", `argument "deployment": give the Deployment's name`},
		{[]string{"pod/web"}, "", "", `argument "pod/web": only deployments are supported`},
		{[]string{"deployment/"}, "", "", "the name is empty"},
		{[]string{"pods", "web"}, "", "", `argument "pods": only deployments`},
		{[]string{"a", "b", "c"}, "", "", "too many arguments"},
	} {
		tg := Target{Selector: tc.selector}
		err := tg.ParseArgs(tc.args)
		if tc.wantErr != "" {
			var usage *UsageError
			if assert.ErrorAs(t, err, &usage, "%q", tc.args) {
				assert.Contains(t, err.Error(), tc.wantErr)
			}
			continue
		}
		require.NoError(t, err, "%q", tc.args)
		assert.Equal(t, tc.name, tg.Name, "%q", tc.args)
	}
}

// The flags of a Target are checked together; every refusal is a usage
// error naming the flag.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		t       Target
		ns      string
		changed []string
		want    string
	}{
		{name: "ok", t: Target{MaxInput: 1}},
		{name: "max-input zero", t: Target{MaxInput: 0}, want: "--max-input 0: out of range 1 to 9223372036854775806"},
		{name: "max-input live", t: Target{MaxInput: 5}, changed: []string{"max-input"}, want: "--max-input applies to -f only"},
		{name: "max-input file", t: Target{MaxInput: 5, Files: []string{"x"}}, changed: []string{"max-input"}},
		{name: "stdin twice", t: Target{MaxInput: 1, Files: []string{"-", "-"}}, want: "standard input given twice"},
		{name: "empty file", t: Target{MaxInput: 1, Files: []string{""}}, want: "-f: empty file name"},
		{name: "name and selector", t: Target{MaxInput: 1, Name: "web", Selector: "a=b"}, want: "name cannot be provided when a selector is specified"},
		{name: "name and -A", t: Target{MaxInput: 1, Name: "web", AllNamespaces: true}, want: "across all namespaces"},
		{name: "-A and -n", t: Target{MaxInput: 1, AllNamespaces: true}, ns: "shop", want: "-A and -n shop: give one"},
		{name: "bad now", t: Target{MaxInput: 1, NowFlag: "noon"}, want: `--now "noon": not an RFC 3339 time`},
		{name: "now", t: Target{MaxInput: 1, NowFlag: "2025-03-01T10:00:00+01:00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := NewEnv(nil, nil, nil)
			*env.ConfigFlags.Namespace = tc.ns
			cmd := &cobra.Command{Use: "x"}
			var tg Target
			tg.AddFlags(cmd.Flags(), WithNow|WithSelector|WithAllNamespaces)
			// The flags' values, as parsing sets them.
			tg.MaxInput, tg.NowFlag, tg.Files, tg.Selector, tg.AllNamespaces, tg.Name =
				tc.t.MaxInput, tc.t.NowFlag, tc.t.Files, tc.t.Selector, tc.t.AllNamespaces, tc.t.Name
			for _, name := range tc.changed {
				cmd.Flags().Lookup(name).Changed = true
			}
			err := tg.Validate(env)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			var usage *UsageError
			require.ErrorAs(t, err, &usage)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Errors are one line: usage errors end with where to look, the API
// server's errors read as kubectl prints them, a refused connection says
// how to read a snapshot instead.
func TestReport(t *testing.T) {
	root := &cobra.Command{Use: "kubectl-rolloutplan", Annotations: map[string]string{cobra.CommandDisplayNameAnnotation: DisplayName}}
	sub := &cobra.Command{Use: "status", Run: func(*cobra.Command, []string) {}}
	root.AddCommand(sub)
	refused := &url.Error{Op: "Get", URL: "https://10.0.0.1:6443/apis/apps/v1/namespaces/default/deployments/web", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}
	for _, tc := range []struct {
		name string
		err  error
		code int
		want string
	}{
		{"usage", Usagef("--timeout -1s: must not be negative"), 2, "error: --timeout -1s: must not be negative. See 'kubectl rolloutplan status --help'.\n"},
		{"cobra's", errors.New("unknown flag: --nope"), 2, "error: unknown flag: --nope. See 'kubectl rolloutplan status --help'.\n"},
		{"suggestion", errors.New("unknown command \"stauts\" for \"kubectl rolloutplan\"\n\nDid you mean this?\n\tstatus\n"), 2,
			"error: unknown command \"stauts\" for \"kubectl rolloutplan\" (did you mean \"status\"?). See 'kubectl rolloutplan status --help'.\n"},
		{"kubectl's", errors.New("deployment \"web\" exceeded its progress deadline"), 1, "error: deployment \"web\" exceeded its progress deadline\n"},
		{"prefixed", errors.New("error: x"), 1, "error: x\n"},
		{"server", apierrors.NewNotFound(schema.GroupResource{Group: "apps", Resource: "deployments"}, "web"), 1,
			"Error from server (NotFound): deployments.apps \"web\" not found\n"},
		{"refused", fmt.Errorf("reading: %w", refused), 1,
			"The connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port? (-f FILE reads a snapshot instead)\n"},
		{"exit code", &ExitError{Code: 3}, 3, ""},
		{"exit code with error", &ExitError{Code: 4, Err: errors.New("boom")}, 4, "error: boom\n"},
	} {
		var b strings.Builder
		code := report(&b, sub, tc.err)
		assert.Equal(t, tc.code, code, tc.name)
		assert.Equal(t, tc.want, b.String(), tc.name)
	}
}

func TestSingleDashLongFlag(t *testing.T) {
	env := NewEnv(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
	sub := &cobra.Command{Use: "status", RunE: func(*cobra.Command, []string) error { return nil }}
	sub.Flags().String("now", "", "")
	root := NewRoot(env, sub)
	for _, tc := range []struct {
		args []string
		bad  bool
	}{
		{[]string{"status", "-now", "x"}, true},
		{[]string{"status", "-now=x"}, true},
		{[]string{"status", "-kubeconfig", "x"}, true}, // a flag of the root
		{[]string{"status", "--now", "x"}, false},
		{[]string{"status", "-nshop"}, false}, // -n shop
		{[]string{"status", "-n", "shop"}, false},
		{[]string{"status", "--", "-now"}, false},
	} {
		err := singleDashLongFlag(root, tc.args)
		assert.Equal(t, tc.bad, err != nil, "%q: %v", tc.args, err)
	}
}

func TestOutput(t *testing.T) {
	var o Output
	require.NoError(t, o.Validate())
	o.Format = "wide"
	assert.EqualError(t, o.Validate(), `--output "wide": want json or yaml`)
	o.Format = "yaml"
	var b strings.Builder
	require.NoError(t, o.Print(&b, map[string]any{"a": 1, "b": "<x>"}))
	require.NoError(t, o.Print(&b, map[string]any{"a": 2}))
	assert.Equal(t, "a: 1\nb: <x>\n---\na: 2\n", b.String())
	o = Output{Format: "json"}
	b.Reset()
	require.NoError(t, o.Print(&b, map[string]any{"a": []int{1}}))
	assert.Equal(t, "{\n    \"a\": [\n        1\n    ]\n}\n", b.String())
}

// The namespace: -n, else the kubeconfig context's, else default; a
// snapshot's objects without one take it, as kubectl apply -f does.
func TestNamespace(t *testing.T) {
	dir := t.TempDir()
	kubeconfig := func(ns string) string {
		path := filepath.Join(dir, "config-"+ns)
		cfg := "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n" +
			"contexts: [{name: c, context: {cluster: c, user: u, namespace: '" + ns + "'}}, {name: d, context: {cluster: c, user: u, namespace: dev}}]\n" +
			"current-context: c\nusers: [{name: u, user: {}}]\n"
		require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
		return path
	}
	manifest := filepath.Join(dir, "web.yaml")
	require.NoError(t, os.WriteFile(manifest, []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}}\n"), 0o600))
	for _, tc := range []struct {
		name, kubeconfig, flag, context string
		want                            string
		explicit                        bool
	}{
		{name: "context's", kubeconfig: kubeconfig("shop"), want: "shop"},
		{name: "context without one", kubeconfig: kubeconfig(""), want: "default"},
		{name: "-n", kubeconfig: kubeconfig("shop"), flag: "prod", want: "prod", explicit: true},
		{name: "--context", kubeconfig: kubeconfig("shop"), context: "d", want: "dev"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := NewEnv(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
			*env.ConfigFlags.KubeConfig, *env.ConfigFlags.Namespace, *env.ConfigFlags.Context = tc.kubeconfig, tc.flag, tc.context
			ns, explicit, err := env.Namespace()
			require.NoError(t, err)
			assert.Equal(t, tc.want, ns)
			assert.Equal(t, tc.explicit, explicit)
			tg := Target{Files: []string{manifest}, MaxInput: 1 << 20}
			require.NoError(t, tg.Validate(env))
			src, err := tg.Open(env, "explain")
			require.NoError(t, err)
			refs, err := src.Refs()
			require.NoError(t, err)
			st, err := src.Get(refs[0], 0)
			require.NoError(t, err)
			assert.Equal(t, Ref{tc.want, "web", Deployment}, st.Ref)
		})
	}
}

// One clock: --now when given; live, now; a snapshot, its latest
// timestamp; a snapshot without one, now, said so.
func TestClock(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o600))
		return p
	}
	stamped := write("stamped.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop, uid: u, creationTimestamp: '2025-03-01T10:00:00Z'}\n"+
		"spec:\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}}\n")
	bare := write("bare.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}}\n")
	wall := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name, file, now string
		want            time.Time
		why             string
	}{
		{"snapshot", stamped, "", time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC), TimeSnapshot},
		{"snapshot, --now", stamped, "2025-04-01T00:00:00Z", time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC), TimeFlag},
		{"no timestamp", bare, "", wall, TimeNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := NewEnv(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
			env.Clock = func() time.Time { return wall }
			tg := Target{Files: []string{tc.file}, MaxInput: 1 << 20, NowFlag: tc.now}
			require.NoError(t, tg.Validate(env))
			src, err := tg.Open(env, "next")
			require.NoError(t, err)
			st, err := src.Get(Ref{}, 0)
			require.NoError(t, err)
			assert.True(t, st.Time.At.Equal(tc.want), "%v", st.Time)
			assert.True(t, st.Apps.Now.Equal(tc.want), "%v", st.Apps.Now)
			assert.Equal(t, tc.why, st.Time.Why)
		})
	}
	var b strings.Builder
	Time{At: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC), Why: TimeSnapshot}.Print(&b)
	assert.Equal(t, "Time: 2025-03-01T10:00:00Z (the latest timestamp in the snapshot; --now sets another)\n", b.String())
}

// A manifest is given what the API server gives it on creation; an object
// read from a server is left as it is.
func TestManifestDefaults(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.yaml")
	require.NoError(t, os.WriteFile(p, []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}}\n"), 0o600))
	env := NewEnv(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
	tg := Target{Files: []string{p}, MaxInput: 1 << 20}
	require.NoError(t, tg.Validate(env))
	src, err := tg.Open(env, "next")
	require.NoError(t, err)
	st, err := src.Get(Ref{}, 0)
	require.NoError(t, err)
	d := st.Apps.Deployment
	assert.Equal(t, ManifestUID, string(d.UID))
	assert.Equal(t, int64(1), d.Generation)
	assert.Equal(t, int32(1), *d.Spec.Replicas)
	assert.Equal(t, "25%", d.Spec.Strategy.RollingUpdate.MaxSurge.String())
	assert.Equal(t, int32(600), *d.Spec.ProgressDeadlineSeconds)
	assert.Equal(t, int32(10), *d.Spec.RevisionHistoryLimit)
	require.NotNil(t, st.Manifest)
	assert.Nil(t, st.Manifest.Spec.Replicas, "the manifest as written is kept")
}

// Objects the subcommand does not use are reported with their counts on
// standard error, never dropped silently.
func TestReportsIgnored(t *testing.T) {
	const list = `kind: List
apiVersion: v1
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop, creationTimestamp: "2025-03-01T10:00:00Z"}
  spec:
    selector: {matchLabels: {app: web}}
    template: {metadata: {labels: {app: web}}}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: db, namespace: other}
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
- apiVersion: v1
  kind: Pod
  metadata: {name: p, namespace: other}
`
	var stderr strings.Builder
	env := NewEnv(strings.NewReader(list), &strings.Builder{}, &stderr)
	tg := Target{Files: []string{"-"}, MaxInput: 1 << 20, Name: "web"}
	require.NoError(t, tg.Validate(env))
	src, err := tg.Open(env, "history")
	require.NoError(t, err)
	refs, err := src.Refs()
	require.NoError(t, err)
	_, err = src.Get(refs[0], 0)
	require.NoError(t, err)
	assert.Equal(t, "history: ignored 3 input objects: 1 Deployment in namespace other (another Deployment), "+
		"1 Service (v1) (not a kind rolloutplan reads), 1 Pod in namespace other (other namespace)\n", stderr.String())
}
