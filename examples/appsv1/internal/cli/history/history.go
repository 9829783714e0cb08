// Package history is `kubectl-rolloutplan history`: what `kubectl rollout
// history` prints for a Deployment in a given cluster state, the table of
// revisions or, with --revision, one revision's pod template.
package history

import (
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
	c := rolloutio.NewCommand("history", "[deployment/NAME] [--revision=N] [flags]", `Prints what 'kubectl rollout history' prints for the Deployment in a cluster
state ('kubectl get deployment,replicasets -o json' or -o yaml).`,
		`Exit codes: 0 printed; 1 kubectl's errors (unknown revision, negative --revision)
or unreadable input; 2 bad flags or arguments.`, stderr)
	fs, t := c.FlagSet, &c.Target
	revision := fs.Int64("revision", 0, "print the pod template of this `revision` (0: the table of all)")
	if code, stop := c.Parse(args, stdout); stop {
		return code
	}
	if err := rolloutio.CheckRevision(*revision); err != nil {
		return rolloutio.Fail(stderr, err)
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
