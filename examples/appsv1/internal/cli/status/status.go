// Package status is `kubectl-rolloutplan status`: what `kubectl rollout
// status --watch=false` prints for a Deployment in a given cluster state,
// with --explain why the rollout waits, from the Deployment controller's own
// reasons for its next sync, and with --predict how long it will take, from
// the simulator (package predict, shared with the simulate subcommand).
package status

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// Run runs the subcommand: flags and arguments in args, the state on stdin
// (or -f), kubectl's output on stdout and stderr. It returns the exit
// status: 0 when kubectl exits 0 (done or still waiting: a state is one
// look, as with --watch=false), 1 for kubectl's errors, unreadable input and
// a failed prediction, 2 for bad flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr, time.Now)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, clock func() time.Time) int {
	c := rolloutio.NewCommand("status", "[deployment/NAME] [flags]", `Prints what 'kubectl rollout status --watch=false' prints for the Deployment
in a cluster state ('kubectl get deployment,replicasets,pods -o json' or -o yaml).
--explain adds why the rollout waits, --predict how long it will take (as
'kubectl-rolloutplan simulate' predicts it; -ready-after, -grace, -never-ready,
-fidelity, -max-work and -svg set its world model).`,
		`Exit codes (kubectl's): 0 the rollout is done or still in progress (one look,
as --watch=false), 1 kubectl's errors (revision mismatch, progress deadline
exceeded), unreadable input or a failed prediction; 2 bad flags or arguments.
A predicted stall is printed; it does not change the exit code.`, stderr)
	fs, t := c.FlagSet, &c.Target
	revision := fs.Int64("revision", 0, "require this `revision`: a Deployment at another one is an error (0: any)")
	explain := fs.Bool("explain", false, "after kubectl's line, say why the rollout waits: the controller's next sync and the budget arithmetic behind it")
	nowFlag := fs.String("now", "", "the controller's clock for --explain and the start of --predict, RFC 3339 (default: now)")
	predictFlag := fs.Bool("predict", false, "after kubectl's line, predict how long the rollout will take (or why it will stall): the simulator from this state, under the world-model flags below")
	var w predict.World
	w.AddFlags(fs)
	if code, stop := c.Parse(args, stdout); stop {
		return code
	}
	if err := w.Validate(); err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	if err := rolloutio.CheckRevision(*revision); err != nil {
		return rolloutio.Fail(stderr, err)
	}
	now, err := rolloutio.ParseNow(*nowFlag, clock)
	if err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	s, err := t.Read(stdin, stderr, "status", now)
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	msg, _, statusErr := rollout.Status(s.Deployment, *revision)
	fmt.Fprint(stdout, msg)
	if *explain {
		if err := explainSync(stdout, s.Apps); err != nil {
			return rolloutio.Fail(stderr, err)
		}
	}
	if *predictFlag {
		p, err := predict.Run(s.Apps, w)
		if err != nil {
			return rolloutio.Fail(stderr, fmt.Errorf("predict: %w", err))
		}
		// The assumptions first: a prediction is only as good as them.
		p.WriteHeader(stdout)
		p.WriteVerdict(stdout)
		if err := p.WriteChart(stdout); err != nil {
			return rolloutio.Fail(stderr, fmt.Errorf("predict: %w", err))
		}
	}
	if statusErr != nil {
		return rolloutio.Fail(stderr, statusErr)
	}
	return 0
}

// explainSync plans the controller's next sync of the state and prints its
// writes and notes with the numbers behind them.
func explainSync(w io.Writer, s appsv1.State) error {
	_, p, err := appsv1.Sync(s)
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return fmt.Errorf("explain: planning the next sync: %w", err)
	}
	fmt.Fprintf(w, "Why: the Deployment controller's next sync (at %s)", s.Now.UTC().Format(time.RFC3339))
	if len(p.Actions) == 0 {
		fmt.Fprintln(w, " writes nothing.")
	} else {
		fmt.Fprintln(w, " writes:")
		for _, a := range p.Actions {
			fmt.Fprintf(w, "  - %s %s/%s", writeKind(a.Kind), a.Object.Namespace, a.Object.Name)
			if a.Conflict {
				fmt.Fprint(w, " (rejected with a conflict by a real API server)")
			}
			fmt.Fprintf(w, "\n    %s\n", reasonLine(a.Reason))
		}
	}
	if len(p.Notes) > 0 {
		fmt.Fprintln(w, "and notes:")
		for _, n := range p.Notes {
			fmt.Fprintf(w, "  - %s\n", reasonLine(n))
		}
	}
	if syncErr != nil {
		fmt.Fprintf(w, "The sync ends with the error: %s\n", syncErr.Message)
	}
	if p.Requeue.Kind == plan.RequeueAfter {
		fmt.Fprintf(w, "The controller checks the progress deadline again in %s.\n", p.Requeue.After)
	}
	return nil
}

// writeKind names an action by the write request upstream sends for it, as
// package plan/render names it: a scale is an update of the ReplicaSet.
func writeKind(k plan.ActionKind) plan.ActionKind {
	if k == plan.ScaleReplicaSet {
		return plan.UpdateReplicaSet
	}
	return k
}

// reasonLine renders a reason with its numbers: "Code: message [a=1 b=2]".
func reasonLine(r plan.Reason) string {
	if len(r.Values) == 0 {
		return r.String()
	}
	vals := make([]string, len(r.Values))
	for i, v := range r.Values {
		vals[i] = fmt.Sprintf("%s=%d", v.Name, v.Value)
	}
	return fmt.Sprintf("%s [%s]", r, strings.Join(vals, " "))
}
