// Command rolloutplan-next answers "what will the controller do next?": it
// reads a Deployment's, a StatefulSet's or a DaemonSet's state from
// standard input (or -f FILE), plans one sync the way
// kube-controller-manager v1.36 does, and prints the writes, events,
// requeue and error as the conformance Output JSON of the rolloutplan
// repository.
//
//	kubectl get deployment,replicasets,pods -n NS -o yaml | rolloutplan-next NAME --explain
//	kubectl get sts,controllerrevisions,pods,pvc -n NS -o yaml | rolloutplan-next sts/NAME
//	rolloutplan-next < case.json   # a line of testdata/conformance/{,statefulset/,daemonset/}public-seed1.jsonl
//
// It is `kubectl rolloutplan next` (package internal/cli/next) reading
// standard input when -f is not given; `kubectl rolloutplan next` reads the
// live cluster instead. The exit codes are kubectl-rolloutplan's: 0 a plan
// was printed, 1 an error, 2 bad flags or arguments.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/next"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
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
	return rolloutio.Execute(rolloutio.AsRoot(env, next.NewStandalone(env)), env, args)
}

// runStreams runs the command on the given streams (tests).
func runStreams(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(rolloutio.NewEnv(stdin, stdout, stderr), args)
}
