// Package simulate is the `simulate` subcommand: it predicts the rest of a
// live rollout. It reads a cluster state (`kubectl get
// deployment,replicasets,pods -o json` or `-o yaml`, or a conformance Case),
// simulates the Deployment and ReplicaSet controllers from it sync after sync
// under a world model (how long a new pod takes to become ready, whether the
// current template's pods ever do, how long a deleted pod terminates), and
// prints the timeline, the predicted time to completion or the reason the
// rollout will stall, and optionally a chart.
//
//	kubectl get deployment,replicasets,pods -n shop -o yaml |
//	    kubectl-rolloutplan simulate deployment/web -ready-after 20s -svg web.svg
//
// This answers what `kubectl rollout status` cannot: when will it finish,
// and will it?
//
// The simulation starts at -now, by default the latest time recorded in the
// state (a creation, deletion or condition time), so the same input always
// gives the same prediction. Pods that are ready stay ready; the others
// become ready -ready-after after their creation (or never, with
// -never-ready, for the Deployment's current template).
//
// Exit codes: 0 the rollout is predicted to complete; 1 it is predicted to
// stall; 2 bad flags or unreadable input (including the -max-input cap and
// the -max-work bound); 3 the planner broke an invariant. -h prints the
// usage on standard output and exits 0.
package simulate

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// Exit codes.
const (
	exitOK         = 0
	exitStalled    = 1
	exitUsage      = 2
	exitViolations = 3
)

// Run is the subcommand; it returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const name = "simulate"
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t rolloutio.Target
	var w predict.World
	var deployment, nowFlag string
	t.AddFlags(fs)
	fs.StringVar(&deployment, "deployment", "", "`name` of the Deployment, as the positional NAME (optional when the input has one)")
	fs.StringVar(&nowFlag, "now", "", "start of the simulation, RFC 3339 (default: a Case's clock, or the latest time the state records)")
	w.AddFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: simulate [deployment/NAME] [flags] < state
Predicts the rest of a live rollout from 'kubectl get deployment,replicasets,pods -o json|yaml'
(or a conformance Case), from -f FILE or standard input.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nexit codes: 0 predicted to complete, 1 predicted to stall, 2 bad flags or unreadable input\n(including the -max-input cap and the -max-work bound), 3 invariant violations")
	}
	pos, code, stop := rolloutio.ParseFlags(fs, args, stdout)
	if stop {
		return code
	}
	if err := t.ParseDeployment(pos, deployment); err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	if err := errors.Join(t.Validate(), w.Validate()); err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	now, err := rolloutio.ParseNow(nowFlag, nil)
	if err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	state, err := t.ReadApps(stdin, stderr, name, now)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	p, err := predict.Run(state, w)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	p.WriteHeader(stdout)
	fmt.Fprintln(stdout)
	if err := p.Trace.WriteTimeline(stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	fmt.Fprintln(stdout)
	p.WriteVerdict(stdout)
	if err := p.WriteChart(stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	switch {
	case p.Violations() > 0:
		return exitViolations
	case !p.Completed():
		return exitStalled
	}
	return exitOK
}
