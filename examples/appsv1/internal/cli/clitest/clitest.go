// Package clitest runs a subcommand of kubectl-rolloutplan in tests, the
// way the command runs it (under the root command, with the cluster flags),
// and compares what it printed.
package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/kubernetes"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// Case is one invocation: the arguments, standard input, and what must come
// out. Stdout and Stderr are compared exactly unless their Contains variant
// is set.
type Case struct {
	Name           string
	Args           []string
	Stdin          string
	Code           int
	Stdout         string
	Stderr         string
	StderrContains string
	StdoutContains string
}

// Clock is the wall clock of the tests: 2026-03-01T10:00:00Z.
var Clock = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// Options change the environment of Exec.
type Options struct {
	// Clock replaces the wall clock (zero: Clock).
	Clock time.Time
	// Client is the live cluster (client-go's fake clientset); nil means a
	// cluster that cannot be reached.
	Client kubernetes.Interface
	// Namespace is the kubeconfig context's namespace ("" : default).
	Namespace string
}

// NewCommand builds a subcommand.
type NewCommand func(*rolloutio.Env) *cobra.Command

// Run runs every case with the subcommand newCmd and reports mismatches.
func Run(t *testing.T, newCmd NewCommand, cases []Case) {
	t.Helper()
	RunWith(t, newCmd, Options{}, cases)
}

// RunWith is Run in the environment opts gives.
func RunWith(t *testing.T, newCmd NewCommand, opts Options, cases []Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			code, out, errOut := Exec(t, newCmd, opts, tc.Stdin, tc.Args...)
			if code != tc.Code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.Code, errOut)
			}
			check(t, "stdout", out, tc.Stdout, tc.StdoutContains)
			check(t, "stderr", errOut, tc.Stderr, tc.StderrContains)
		})
	}
}

// Exec runs the subcommand newCmd builds with args (the subcommand's name
// is put in front) under the root command, with a kubeconfig whose current
// context has opts.Namespace, and returns the exit code, standard output
// and standard error.
func Exec(t testing.TB, newCmd NewCommand, opts Options, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut strings.Builder
	env := Env(t, opts, stdin, &out, &errOut)
	sub := newCmd(env)
	root := rolloutio.NewRoot(env, sub)
	code := rolloutio.Execute(root, env, append([]string{sub.Name()}, args...))
	return code, out.String(), errOut.String()
}

// Env returns the environment Exec runs in.
func Env(t testing.TB, opts Options, stdin string, out, errOut *strings.Builder) *rolloutio.Env {
	t.Helper()
	env := rolloutio.NewEnv(strings.NewReader(stdin), out, errOut)
	*env.ConfigFlags.KubeConfig = Kubeconfig(t, opts.Namespace)
	at := opts.Clock
	if at.IsZero() {
		at = Clock
	}
	env.Clock = func() time.Time { return at }
	if opts.Client != nil {
		env.NewClient = func() (kubernetes.Interface, error) { return opts.Client, nil }
	}
	return env
}

// Kubeconfig writes a kubeconfig with one context, "test", whose namespace
// is ns (none when empty) and whose server cannot be reached, and returns
// its path.
func Kubeconfig(t testing.TB, ns string) string {
	t.Helper()
	nsLine := ""
	if ns != "" {
		nsLine = "\n    namespace: " + ns
	}
	cfg := `apiVersion: v1
kind: Config
clusters:
- name: test
  cluster:
    server: https://127.0.0.1:1
contexts:
- name: test
  context:
    cluster: test
    user: test` + nsLine + `
- name: other
  context:
    cluster: test
    user: test
    namespace: other
current-context: test
users:
- name: test
  user: {}
`
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// check compares one stream: it must contain contains when that is set,
// else equal want.
func check(t *testing.T, stream, got, want, contains string) {
	t.Helper()
	switch {
	case contains != "":
		if !strings.Contains(got, contains) {
			t.Errorf("%s %q does not contain %q", stream, got, contains)
		}
	case got != want:
		t.Errorf("%s\n%q\nwant\n%q", stream, got, want)
	}
}

// Data is the directory of the sample cluster states, relative to a
// subcommand package: public conformance states s1-0006 (rollout.json, a
// rollout with three revisions), s1-0029 (paused.json) and s1-0131
// (deadline.json, progress deadline exceeded), as v1 Lists; rollout.yaml is
// rollout.json as `kubectl get … -o yaml` prints it (sigs.k8s.io/yaml's
// JSONToYAML, the conversion kubectl's YAML printer makes); nginx-deployment.yaml
// is the Kubernetes documentation's Deployment manifest;
// web-statefulset.yaml is public StatefulSet state sts-s1-0166 as `kubectl
// get statefulset,controllerrevisions,pods,pvc -o yaml` prints it, and
// cilium-daemonset.yaml public DaemonSet state ds-s1-0183 as `kubectl get
// daemonset,controllerrevisions,pods,nodes -o yaml` prints it.
const Data = "../rolloutio/testdata/"
