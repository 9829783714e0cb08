// Package history is `kubectl-rolloutplan history`: what `kubectl rollout
// history` prints for a Deployment in a given cluster state, the table of
// revisions or, with --revision, one revision's pod template.
package history

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// Run runs the subcommand: flags and arguments in args, the state on stdin
// (or -f), kubectl's output on stdout and stderr. It returns 0, 1 for
// kubectl's errors and unreadable input, 2 for bad flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t rolloutio.Target
	t.AddFlags(fs)
	revision := fs.Int64("revision", 0, "print the pod template of this `revision` (0: the table of all)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: kubectl-rolloutplan history [deployment/NAME] [--revision=N] [flags]

Prints what 'kubectl rollout history' prints for the Deployment in a cluster
state ('kubectl get deployment,replicasets -o json' or -o yaml).

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), `
Exit codes: 0 printed; 1 kubectl's errors (unknown revision, negative --revision)
or unreadable input; 2 bad flags or arguments.
`)
	}
	pos, code, stop := rolloutio.ParseFlags(fs, args, stdout)
	if stop {
		return code
	}
	if err := t.ParseArgs(pos); err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	if err := t.Validate(); err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	if *revision < 0 {
		return rolloutio.Fail(stderr, fmt.Errorf("revision must be a positive integer: %v", *revision))
	}
	s, err := t.Read(stdin, stderr, "history", time.Time{})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	// kubectl logs these through klog before printing; here they are plain
	// lines on standard error.
	warnings, err := rollout.HistoryWarnings(s.Deployment, s.ReplicaSets)
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	out, err := rollout.HistoryRevision(s.Deployment, s.ReplicaSets, *revision)
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	with := ""
	if *revision > 0 {
		with = fmt.Sprintf("with revision #%d", *revision)
	}
	// kubectl prints the object's name with the history as the operation.
	fmt.Fprintf(stdout, "%s %s\n%s\n", rolloutio.ObjectName(s.Deployment), with, out)
	return 0
}
