// Package pauseresume is `kubectl-rolloutplan pause` and `resume`: what
// `kubectl rollout pause` and `kubectl rollout resume` print for a
// Deployment in a given cluster state, and the patch each would send. The
// two differ only in the patch and the words, so one implementation serves
// both.
package pauseresume

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// command is one of the two subcommands.
type command struct {
	name    string // the subcommand and kubectl's verb
	done    string // what kubectl prints after the object's name
	refusal string // kubectl's refusal, as named in the usage
	patch   func(*model.Deployment) ([]byte, error)
}

var (
	pause  = command{"pause", "paused", "already paused", rollout.Pause}
	resume = command{"resume", "resumed", "not paused", rollout.Resume}
)

// RunPause runs `pause`: flags and arguments in args, the state on stdin
// (or -f), kubectl's output on stdout and stderr. It returns 0, 1 for
// kubectl's errors and unreadable input, 2 for bad flags.
func RunPause(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return pause.run(args, stdin, stdout, stderr)
}

// RunResume runs `resume`, as RunPause runs `pause`.
func RunResume(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return resume.run(args, stdin, stdout, stderr)
}

func (c command) run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t rolloutio.Target
	t.AddFlags(fs)
	showPatch := fs.Bool("show-patch", false, "also print the strategic merge patch kubectl would send")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: kubectl-rolloutplan %[1]s [deployment/NAME] [flags]

Prints what 'kubectl rollout %[1]s' prints for the Deployment in a cluster
state ('kubectl get deployment -o json' or -o yaml). Nothing is sent.

Flags:
`, c.name)
		fs.PrintDefaults()
		fmt.Fprintf(fs.Output(), `
Exit codes: 0 printed; 1 kubectl's errors (%s) or unreadable input;
2 bad flags or arguments.
`, c.refusal)
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
	s, err := t.Read(stdin, stderr, c.name, time.Time{})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	d := s.Deployment
	patch, err := c.patch(d)
	if err != nil {
		return rolloutio.Fail(stderr, fmt.Errorf("error: deployments.apps %q %v", d.Name, err))
	}
	fmt.Fprintf(stdout, "%s %s\n", rolloutio.ObjectName(d), c.done)
	if *showPatch {
		fmt.Fprintf(stdout, "%s\n", patch)
	}
	return 0
}
