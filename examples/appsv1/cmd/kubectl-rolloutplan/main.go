// Command kubectl-rolloutplan is a kubectl plugin: on PATH, kubectl runs it
// as `kubectl rolloutplan`. It answers what `kubectl rollout` answers for a
// Deployment, a StatefulSet or a DaemonSet, byte for byte as kubectl v0.36,
// and what kubectl cannot tell: why a rollout waits, what the controller
// does next, and how long the rollout will take.
//
//	kubectl rolloutplan status deployment/web --explain --predict
//	kubectl rolloutplan history web --revision=2
//	kubectl rolloutplan undo sts/db --dry-run=client
//	kubectl rolloutplan next ds/fluentd -n kube-system -o yaml
//	kubectl rolloutplan simulate statefulset/db --ready-after 20s
//	kubectl rolloutplan explain -f nginx-deployment.yaml
//	kubectl rolloutplan config-restarts -f scenario.yaml
//
// The workload is NAME (a Deployment; in a snapshot, the workload of that
// name), KIND/NAME or KIND NAME, with kubectl's kinds and short names
// (deployment, deploy, statefulset, sts, daemonset, ds). explain and
// config-restarts work on Deployments only, and simulate does not simulate
// DaemonSets yet; pause and resume refuse StatefulSets and DaemonSets with
// kubectl's error.
//
// Without -f every subcommand reads the live cluster through the kubeconfig
// (--kubeconfig, --context, -n defaulting to the context's namespace, and
// the other flags of k8s.io/cli-runtime); undo, restart, pause and resume
// send kubectl's patches. With -f FILE (- for standard input) they read a
// snapshot and send nothing: a manifest, `kubectl get deployment NAME -o
// yaml`, or where the whole state is needed `kubectl get
// deployment,replicasets,pods -o yaml` (`statefulset,controllerrevisions,
// pods,pvc`; `daemonset,controllerrevisions,pods,nodes`). Objects without a
// namespace take -n or the context's namespace, as with `kubectl apply -f`.
//
// The time: live, now; on a snapshot, the latest timestamp it holds unless
// --now. Subcommands that use it print it on standard error.
//
// Errors are one line on standard error; the exit codes are one table for
// every subcommand (see `kubectl rolloutplan --help`): 0 success, 1 an
// error (kubectl's, the cluster's or the input's), 2 bad flags or
// arguments, 3 simulate predicts a stall, 4 simulate found an invariant
// violation.
//
// Each subcommand lives in its own package under internal/cli, the shared
// machinery in internal/cli/rolloutio; this file only assembles them.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/configrestarts"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/explain"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/history"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/next"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/pauseresume"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/restart"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/simulate"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/status"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/undo"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	env := rolloutio.NewEnv(os.Stdin, os.Stdout, os.Stderr)
	env.Context = ctx
	code := run(env, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(env *rolloutio.Env, args []string) int {
	return rolloutio.Execute(newRoot(env), env, args)
}

// newRoot assembles the command.
func newRoot(env *rolloutio.Env) *cobra.Command {
	return rolloutio.NewRoot(env,
		status.NewCommand(env),
		history.NewCommand(env),
		undo.NewCommand(env),
		restart.NewCommand(env),
		pauseresume.NewPause(env),
		pauseresume.NewResume(env),
		explain.NewCommand(env),
		next.NewCommand(env),
		simulate.NewCommand(env),
		configrestarts.NewCommand(env),
	)
}
