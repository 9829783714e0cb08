package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

const data = "../../internal/cli/rolloutio/testdata/"

// exec runs the command with args in the environment opts gives.
func exec(t *testing.T, opts clitest.Options, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut strings.Builder
	env := clitest.Env(t, opts, stdin, &out, &errOut)
	code := run(env, args)
	return code, out.String(), errOut.String()
}

// subcommands lists the subcommands of the root, help and completion
// aside.
func subcommands(t *testing.T) []*cobra.Command {
	t.Helper()
	var out strings.Builder
	env := clitest.Env(t, clitest.Options{}, "", &out, &out)
	cmds := newRoot(env).Commands()
	require.Len(t, cmds, 11)
	return cmds
}

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		code       int
		out, errIn string
	}{
		// As kubectl: no subcommand prints the help.
		{nil, 0, "Available Commands:", ""},
		{[]string{"-h"}, 0, "kubectl rolloutplan [command]", ""},
		{[]string{"help"}, 0, "  status          Show the status of a rollout", ""},
		{[]string{"help", "status"}, 0, "kubectl rolloutplan status (NAME | KIND/NAME) [flags]", ""},
		{[]string{"rollback"}, 2, "", "error: unknown command \"rollback\" for \"kubectl rolloutplan\". See 'kubectl rolloutplan --help'.\n"},
		{[]string{"stauts"}, 2, "", `(did you mean "status"?)`},
		{[]string{"version"}, 0, "kubectl-rolloutplan ", ""},
		{[]string{"version", "-o", "json"}, 0, `"kubernetes": "v1.36`, ""},
		{[]string{"version", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"completion", "bash"}, 0, "bash completion V2 for kubectl-rolloutplan", ""},
		{[]string{"completion", "zsh"}, 0, "#compdef kubectl-rolloutplan", ""},
		{[]string{"status", "-f", data + "rollout.json"}, 0,
			"Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n", ""},
		// cobra's hidden completion command completes names from the
		// snapshot.
		{[]string{"__complete", "status", "-f", data + "rollout.json", ""}, 0, "api\n:4\n", ""},
		{[]string{"__complete", "status", "-o", ""}, 0, "json\nyaml\n:4\n", ""},
		// StatefulSets and DaemonSets: by kind, and KIND/NAME.
		{[]string{"status", "sts/web", "-f", statefulSet}, 0, "Waiting for 1 pods to be ready...\n", ""},
		{[]string{"pause", "ds/cilium", "-f", daemonSet}, 1, "", "error: daemonsets.apps \"cilium\" pausing is not supported\n"},
		{[]string{"explain", "sts/web", "-f", statefulSet}, 2, "", `argument "sts/web": only deployments are supported (deployment/NAME)`},
		{[]string{"__complete", "status", "-f", statefulSet, "sts/"}, 0, "sts/web\n:4\n", ""},
		{[]string{"__complete", "history", "-f", daemonSet, "daemonset", ""}, 0, "cilium\n:4\n", ""},
		{[]string{"__complete", "undo", "-f", statefulSet, ""}, 0, "web\n:4\n", ""},
		{[]string{"__complete", "simulate", "-f", daemonSet, "ds/"}, 0, "ds/cilium\n:4\n", ""},
	} {
		code, out, errOut := exec(t, clitest.Options{}, "", tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errIn) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
}

// Every subcommand has the same help style, the same exit code table, and
// reports a bad flag on one line that ends with where to look.
func TestEverySubcommand(t *testing.T) {
	for _, c := range subcommands(t) {
		name := c.Name()
		code, out, errOut := exec(t, clitest.Options{}, "", name, "-h")
		assert.Equal(t, 0, code, name)
		assert.Empty(t, errOut, name)
		assert.Contains(t, out, rolloutio.ExitCodes, "%s -h does not end with the exit codes", name)
		assert.Contains(t, out, "Usage:\n  kubectl rolloutplan "+name, name)
		short := c.Short
		assert.NotEmpty(t, short, name)
		assert.Equal(t, strings.ToUpper(short[:1]), short[:1], "%s: Short starts with a capital", name)
		assert.False(t, strings.HasSuffix(short, "."), "%s: Short ends without a stop", name)
		if name != "completion" {
			assert.NotEmpty(t, c.Long, name)
		}
		code, out, errOut = exec(t, clitest.Options{}, "", name, "--no-such-flag")
		if name == "completion" {
			continue // cobra's
		}
		assert.Equal(t, 2, code, name)
		assert.Empty(t, out, name)
		assert.Equal(t, "error: unknown flag: --no-such-flag. See 'kubectl rolloutplan "+name+" --help'.\n", errOut, name)
	}
}

// The Kubernetes documentation's nginx-deployment.yaml (no namespace) works
// with every subcommand that applies to a manifest, and takes -n or the
// context's namespace as kubectl apply -f does.
func TestNginxDeploymentManifest(t *testing.T) {
	manifest := data + "nginx-deployment.yaml"
	shop := clitest.Options{Namespace: "shop"}
	for _, tc := range []struct {
		opts    clitest.Options
		args    []string
		code    int
		out     string
		errText string
	}{
		{shop, []string{"explain", "-f", manifest}, 0, "deployment.apps/nginx-deployment: RollingUpdate, 3 replicas\n  maxSurge 25% → 1, maxUnavailable 25% → 0 (the defaults)\n", ""},
		{shop, []string{"explain", "-f", manifest, "-o", "json"}, 0, `"deployment": "shop/nginx-deployment"`, ""},
		{shop, []string{"explain", "-f", manifest, "-n", "prod", "-o", "yaml"}, 0, "deployment: prod/nginx-deployment\n", ""},
		{shop, []string{"explain", "nginx-deployment", "-f", manifest}, 0, "deployment.apps/nginx-deployment: RollingUpdate", ""},
		{shop, []string{"status", "-f", manifest}, 0, "Waiting for deployment spec update to be observed...\n", ""},
		{shop, []string{"status", "-f", manifest, "--watch=false", "--explain"}, 0, "Why: the Deployment controller's next sync (at 2026-03-01T10:00:00Z) writes:\n  - CreateReplicaSet shop/nginx-deployment-", "Time: 2026-03-01T10:00:00Z (now: the snapshot holds no timestamp"},
		{shop, []string{"history", "-f", manifest}, 0, "deployment.apps/nginx-deployment \nNo rollout history found.\n", ""},
		{shop, []string{"undo", "-f", manifest}, 1, "", "error: no rollout history found for deployment \"nginx-deployment\"\n"},
		{shop, []string{"restart", "-f", manifest, "--show-patch"}, 0, "deployment.apps/nginx-deployment restarted\n{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/restartedAt\":\"2026-03-01T10:00:00Z\"}}}}}\n", ""},
		{shop, []string{"pause", "-f", manifest}, 0, "deployment.apps/nginx-deployment paused\n", ""},
		{shop, []string{"resume", "-f", manifest}, 1, "", "error: deployments.apps \"nginx-deployment\" is not paused\n"},
		{shop, []string{"next", "-f", manifest}, 0, `"namespace": "shop"`, ""},
		{shop, []string{"next", "-f", manifest, "-o", "yaml"}, 0, "  verb: create\n", ""},
		{shop, []string{"simulate", "-f", manifest, "--ready-after", "10s"}, 0, "prediction: the rollout completes in 10s", ""},
		{shop, []string{"simulate", "-f", manifest, "-o", "json"}, 0, `"deployment": "shop/nginx-deployment"`, ""},
		// A namespace the manifest does not name is looked up as kubectl
		// does: -n wins over the context's.
		{clitest.Options{}, []string{"explain", "-f", manifest}, 0, "deployment.apps/nginx-deployment", ""},
		{shop, []string{"explain", "-f", manifest, "--context", "other", "-o", "json"}, 0, `"deployment": "other/nginx-deployment"`, ""},
		// config-restarts says what it wants.
		{shop, []string{"config-restarts", "-f", manifest}, 1, "", "error: the input is a Kubernetes Deployment, not a restart script"},
	} {
		code, out, errOut := exec(t, tc.opts, "", tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errText) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
}

// What kubectl get deployment NAME -o yaml prints is a single object the
// subcommands that need only the Deployment read.
func TestKubectlGetOneObject(t *testing.T) {
	// rollout.json's Deployment alone, as kubectl get deployment api -o json
	// prints it.
	code, out, _ := exec(t, clitest.Options{}, "", "next", "-f", data+"rollout.json", "-o", "json")
	require.Equal(t, 0, code)
	require.NotEmpty(t, out)
	one := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api","namespace":"default","uid":"u","generation":3},` +
		`"spec":{"replicas":1,"selector":{"matchLabels":{"app":"api"}},"template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"api","image":"api:1"}]}}},` +
		`"status":{"observedGeneration":3,"replicas":2,"updatedReplicas":1,"availableReplicas":1}}`
	for _, tc := range []struct {
		args    []string
		code    int
		out     string
		errText string
	}{
		{[]string{"status", "-f", "-"}, 0, "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n", ""},
		{[]string{"pause", "-f", "-", "--show-patch"}, 0, "deployment.apps/api paused\n{\"spec\":{\"paused\":true}}\n", ""},
		{[]string{"explain", "-f", "-"}, 0, "deployment.apps/api: RollingUpdate, 1 replicas", ""},
		// history, undo, next and simulate need the ReplicaSets: refused,
		// not answered from half the state.
		{[]string{"history", "-f", "-"}, 1, "", "history needs them: give 'kubectl get deployment,replicasets,pods -n default -o yaml'"},
		{[]string{"next", "-f", "-"}, 1, "", "next needs them"},
	} {
		code, out, errOut := exec(t, clitest.Options{}, one, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errText) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
}

// Flags that only the live mode reads are refused with a snapshot rather
// than ignored; -A and -l choose among a snapshot's Deployments too.
func TestSnapshotFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		code    int
		out     string
		errText string
	}{
		{[]string{"status", "-f", data + "rollout.json", "--server", "https://x"}, 2, "", "error: --server applies to the live cluster, not to a snapshot (-f). See 'kubectl rolloutplan status --help'.\n"},
		{[]string{"history", "-f", data + "rollout.json", "--request-timeout", "5s"}, 2, "", "--request-timeout applies to the live cluster"},
		{[]string{"history", "-A", "-f", data + "rollout.json"}, 0, "deployment.apps/api \nREVISION", ""},
		{[]string{"history", "-l", "app=api", "-f", data + "rollout.json"}, 0, "deployment.apps/api \nREVISION", ""},
		{[]string{"history", "-l", "app=web", "-f", data + "rollout.json"}, 1, "", "error: no Deployments match -l app=web in any namespace of the snapshot\n"},
		{[]string{"history", "-l", "a in (", "-f", data + "rollout.json"}, 2, "", "-l \"a in (\""},
		{[]string{"status", "-f", data + "rollout.json", "-n", "shop"}, 1, "", "no such deployment: the input has no Deployment in namespace shop"},
		{[]string{"status", "-f", data + "rollout.json", "-f", data + "paused.json"}, 1, "", "2 Deployments match (default/api, team-a/checkout)"},
		{[]string{"status", "checkout", "-f", data + "rollout.json", "-f", data + "paused.json"}, 0, "Waiting for deployment \"checkout\" rollout to finish", ""},
		{[]string{"status", "-f", data + "missing.json"}, 1, "", "error: reading the snapshot: open ../../internal/cli/rolloutio/testdata/missing.json: no such file or directory\n"},
	} {
		code, out, errOut := exec(t, clitest.Options{}, "", tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errText) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out, errOut)
		}
	}
}
