// Package pause is `kubectl-rolloutplan pause`: what `kubectl rollout
// pause` prints for a Deployment in a given cluster state, and the patch it
// would send.
package pause

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// Run runs the subcommand: flags and arguments in args, the state on stdin
// (or -f), kubectl's output on stdout and stderr. It returns 0, 1 for
// kubectl's errors and unreadable input, 2 for bad flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pause", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t rolloutio.Target
	t.AddFlags(fs)
	showPatch := fs.Bool("show-patch", false, "also print the strategic merge patch kubectl would send")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: kubectl-rolloutplan pause [deployment/NAME] [flags]

Prints what 'kubectl rollout pause' prints for the Deployment in a cluster
state ('kubectl get deployment -o json' or -o yaml). Nothing is sent.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), `
Exit codes: 0 printed; 1 kubectl's errors (already paused) or unreadable input;
2 bad flags or arguments.
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
	s, err := t.Read(stdin, stderr, "pause", time.Time{})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	return report(s.Deployment, *showPatch, stdout, stderr)
}

func report(d *model.Deployment, showPatch bool, stdout, stderr io.Writer) int {
	patch, err := rollout.Pause(d)
	if err != nil {
		return rolloutio.Fail(stderr, fmt.Errorf("error: deployments.apps %q %v", d.Name, err))
	}
	fmt.Fprintf(stdout, "%s paused\n", rolloutio.ObjectName(d))
	if showPatch {
		fmt.Fprintf(stdout, "%s\n", patch)
	}
	return 0
}
