// Command rolloutplan-next answers "what will the Deployment controller do
// next?": it reads a cluster state on standard input (or -f FILE), plans one
// sync of a Deployment the way kube-controller-manager v1.36 does, and
// prints the writes, events, requeue and error as the conformance Output
// JSON of the rolloutplan repository.
//
//	kubectl get deployment,replicasets,pods -n NS -o json |
//	    rolloutplan-next -deployment NAME -now 2025-03-01T10:00:00Z
//	rolloutplan-next < case.json
//
// It is the `next` subcommand of kubectl-rolloutplan (package
// internal/cli/next documents the input, -explain and the exit codes: 0 a
// plan was printed, 1 unreadable or unplannable input, 2 bad flags).
package main

import (
	"io"
	"os"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/next"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return next.RunNamed("rolloutplan-next", args, stdin, stdout, stderr)
}
