// Package restart is `kubectl-rolloutplan restart`: what `kubectl rollout
// restart` prints for a Deployment in a given cluster state, and the patch
// it would send.
package restart

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// Run runs the subcommand with the wall clock (kubectl's restartedAt is its
// local time); see the package rolloutio for the common flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr, time.Now)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, clock func() time.Time) int {
	c := rolloutio.NewCommand("restart", "[deployment/NAME] [flags]", `Prints what 'kubectl rollout restart' prints for the Deployment in a cluster
state ('kubectl get deployment -o json' or -o yaml). Nothing is sent.`,
		`Exit codes: 0 printed; 1 kubectl's errors (paused, restarted within the same
second) or unreadable input; 2 bad flags or arguments.`, stderr)
	fs, t := c.FlagSet, &c.Target
	nowFlag := fs.String("now", "", "kubectl's clock, RFC 3339 (default: now, in local time as kubectl)")
	showPatch := fs.Bool("show-patch", false, "also print the strategic merge patch kubectl would send")
	if code, stop := c.Parse(args, stdout); stop {
		return code
	}
	now, err := rolloutio.ParseNow(*nowFlag, clock)
	if err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	s, err := t.Read(stdin, stderr, "restart", now)
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	d := s.Deployment
	patch, err := rollout.Restart(d, now)
	switch {
	case errors.Is(err, rollout.ErrRestartPaused):
		return rolloutio.Refused(stderr, d, err)
	case err != nil:
		return rolloutio.Fail(stderr, err)
	case string(patch) == "{}":
		return rolloutio.Fail(stderr, fmt.Errorf("failed to create patch for %v: if restart has already been triggered within the past second, please wait before attempting to trigger another", d.Name))
	}
	fmt.Fprintf(stdout, "%s restarted\n", rolloutio.ObjectName(d))
	if *showPatch {
		fmt.Fprintf(stdout, "%s\n", patch)
	}
	return 0
}
