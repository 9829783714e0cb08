// Package pauseresume is `kubectl-rolloutplan pause` and `resume`: what
// `kubectl rollout pause` and `kubectl rollout resume` print for a
// Deployment in a given cluster state, and the patch each would send. The
// two differ only in the patch and the words, so one implementation serves
// both.
package pauseresume

import (
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
	cmd := rolloutio.NewCommand(c.name, "[deployment/NAME] [flags]",
		fmt.Sprintf("Prints what 'kubectl rollout %s' prints for the Deployment in a cluster\nstate ('kubectl get deployment -o json' or -o yaml). Nothing is sent.", c.name),
		fmt.Sprintf("Exit codes: 0 printed; 1 kubectl's errors (%s) or unreadable input;\n2 bad flags or arguments.", c.refusal), stderr)
	showPatch := cmd.FlagSet.Bool("show-patch", false, "also print the strategic merge patch kubectl would send")
	if code, stop := cmd.Parse(args, stdout); stop {
		return code
	}
	t := &cmd.Target
	s, err := t.Read(stdin, stderr, c.name, time.Time{})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	d := s.Deployment
	patch, err := c.patch(d)
	if err != nil {
		return rolloutio.Refused(stderr, d, err)
	}
	fmt.Fprintf(stdout, "%s %s\n", rolloutio.ObjectName(d), c.done)
	if *showPatch {
		fmt.Fprintf(stdout, "%s\n", patch)
	}
	return 0
}
