// Package explain is `kubectl-rolloutplan explain`: a what-if review of a
// Deployment's strategy before it is applied (plan/rollout.Lint): the
// resolved fenceposts, the peak pods, the minimum available, the scaling
// steps and the duration of a simulated rollout, and the pitfalls found.
package explain

import (
	"fmt"
	"io"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// Run runs the subcommand: flags and arguments in args, the Deployment on
// stdin (or -f), the review on stdout. It returns 0 when the review was
// printed (warnings included), 1 for unreadable or invalid input, 2 for bad
// flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := rolloutio.NewCommand("explain", "[deployment/NAME] [flags]", `Reviews a Deployment's strategy before it is applied: reads a Deployment
(JSON or YAML: a manifest, 'kubectl get deployment NAME -o yaml', or a List) and
simulates a template change on it.`,
		`Exit codes: 0 the review was printed (warnings included); 1 unreadable or
invalid input; 2 bad flags or arguments.`, stderr)
	fs, t := c.FlagSet, &c.Target
	readyAfter := fs.Duration("ready-after", 0, "how long a new pod takes to become ready (`duration`, e.g. 30s)")
	grace := fs.Duration("termination-grace", 0, "how long a deleted pod keeps terminating (`duration`)")
	minAvailable := fs.Int("min-available", 0, "pods that must stay available, as a PodDisruptionBudget's minAvailable (`count`, 0: none)")
	if code, stop := c.Parse(args, stdout); stop {
		return code
	}
	switch {
	case *readyAfter < 0:
		return rolloutio.BadFlag(fs, fmt.Errorf("--ready-after %s: must not be negative", *readyAfter))
	case *grace < 0:
		return rolloutio.BadFlag(fs, fmt.Errorf("--termination-grace %s: must not be negative", *grace))
	case *minAvailable < 0 || *minAvailable > 1<<31-1:
		return rolloutio.BadFlag(fs, fmt.Errorf("--min-available %d: must be between 0 and 2147483647", *minAvailable))
	}
	t.Single = true
	st, err := t.Read(stdin, stderr, "explain", time.Time{})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	d := st.Deployment
	r, err := rollout.Lint(d, rollout.LintOptions{ReadyAfter: *readyAfter, TerminationGrace: *grace, MinAvailable: int32(*minAvailable)})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	report(stdout, d, r, *readyAfter)
	return 0
}

func report(w io.Writer, d *model.Deployment, r rollout.Report, readyAfter time.Duration) {
	fmt.Fprintf(w, "%s: %s, %d replicas\n", rolloutio.ObjectName(d), r.Strategy, r.Replicas)
	if ru := d.Spec.Strategy.RollingUpdate; r.Strategy == model.RollingUpdateStrategy && ru != nil {
		fmt.Fprintf(w, "  maxSurge %s → %d, maxUnavailable %s → %d: at most %d pods, at least %d available\n",
			fence(ru.MaxSurge, model.DefaultMaxSurge), r.MaxSurge, fence(ru.MaxUnavailable, model.DefaultMaxUnavailable), r.MaxUnavailable,
			r.Replicas+r.MaxSurge, r.Replicas-r.MaxUnavailable)
	} else if r.Strategy == model.RollingUpdateStrategy {
		fmt.Fprintf(w, "  maxSurge %s → %d, maxUnavailable %s → %d (the defaults)\n", model.DefaultMaxSurge, r.MaxSurge, model.DefaultMaxUnavailable, r.MaxUnavailable)
	}
	fmt.Fprintf(w, "  simulated template change, pods ready %s after they start:\n", readyAfter)
	fmt.Fprintf(w, "    peak pods %d, minimum available %d, %d scaling steps", r.PeakPods, r.MinAvailable, r.Steps)
	if r.Completed {
		fmt.Fprintf(w, ", done after %s\n", r.Duration)
	} else {
		fmt.Fprintln(w, ", never completes")
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "%s: %s: %s\n", f.Severity, f.Code, f.Message)
	}
}

func fence(v *model.IntOrString, def string) string {
	if v == nil {
		return def
	}
	return v.String()
}
