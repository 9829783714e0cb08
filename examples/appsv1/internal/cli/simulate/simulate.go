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
//	    kubectl-rolloutplan simulate -deployment web -ready-after 20s -svg web.svg
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
	"math"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// Exit codes.
const (
	exitOK         = 0
	exitStalled    = 1
	exitUsage      = 2
	exitViolations = 3
)

const (
	maxDuration    = 365 * 24 * time.Hour
	defaultMaxWork = 400_000_000
)

type options struct {
	deployment, namespace string
	now                   time.Time
	file, svg, fidelity   string
	readyAfter, grace     time.Duration
	neverReady            bool
	maxInput, maxWork     int64
}

// Run is the subcommand; it returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const name = "simulate"
	o, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	in := stdin
	if o.file != "" && o.file != "-" {
		f, err := os.Open(o.file)
		if err != nil {
			fmt.Fprintf(stderr, "%s: -f: %v\n", name, err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	objs, err := input.ReadObjects(in, input.Options{MaxBytes: o.maxInput})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	state, ignored, err := objs.Select(input.Selector{Deployment: o.deployment, Namespace: o.namespace, Now: o.now})
	if errors.Is(err, input.ErrNoClock) {
		// No -now and a List: start at the latest time the state records.
		state, ignored, err = objs.Select(input.Selector{Deployment: o.deployment, Namespace: o.namespace, Now: time.Unix(0, 0)})
		if err == nil {
			state.Now = LatestTime(state)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	input.Report(stderr, name, ignored)
	m, err := state.Model()
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	cfg := sim.Config{
		Deployment: m.Deployment, ReplicaSets: m.ReplicaSets, Pods: m.Pods, Start: state.Now,
		World:   sim.World{ReadyAfter: o.readyAfter, TerminationGrace: o.grace},
		Check:   true,
		MaxWork: o.maxWork,
	}
	if o.neverReady {
		current := m.Deployment.Spec.Template
		cfg.World.NeverReady = func(t model.PodTemplate) bool { return model.EqualIgnoreHash(t, current) }
	}
	if o.fidelity == "pods" {
		cfg.Fidelity = sim.Pods
	}
	trace, err := sim.Run(cfg)
	if err != nil {
		if errors.Is(err, sim.ErrWorkBound) {
			err = fmt.Errorf("%w (-max-work %d: use -fidelity counts or raise -max-work)", err, o.maxWork)
		}
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	d := m.Deployment
	fmt.Fprintf(stdout, "Deployment %s/%s at %s: %d replicas, %s; pods ready %s after creation (%s fidelity)\n\n",
		d.Namespace, d.Name, state.Now.UTC().Format(time.RFC3339), d.DesiredReplicas(), strategy(d), o.readiness(), cfg.Fidelity)
	if err := trace.WriteTimeline(stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	s := trace.Summary
	switch {
	case s.Completed:
		fmt.Fprintf(stdout, "\nprediction: the rollout completes in %s (at %s), after %d syncs\n",
			s.CompletedAfter, state.Now.Add(s.CompletedAfter).UTC().Format(time.RFC3339), s.CompletedSyncs)
	default:
		fmt.Fprintf(stdout, "\nprediction: the rollout stalls after %s: %s\n", s.Elapsed, s.StallReason)
	}
	if o.svg != "" {
		title := fmt.Sprintf("%s/%s from %s (prediction)", d.Namespace, d.Name, state.Now.UTC().Format(time.RFC3339))
		if err := writeSVG(o.svg, trace, title); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return exitUsage
		}
		fmt.Fprintf(stdout, "chart written to %s\n", o.svg)
	}
	switch {
	case s.Violations > 0:
		return exitViolations
	case !s.Completed:
		return exitStalled
	}
	return exitOK
}

func (o options) readiness() string {
	if o.neverReady {
		return fmt.Sprintf("%s (never for the current template)", o.readyAfter)
	}
	return o.readyAfter.String()
}

func strategy(d *model.Deployment) string {
	s := d.Spec.Strategy
	if s.Type != model.RollingUpdateStrategy || s.RollingUpdate == nil {
		return string(s.Type)
	}
	return fmt.Sprintf("RollingUpdate maxSurge %s maxUnavailable %s", s.RollingUpdate.MaxSurge, s.RollingUpdate.MaxUnavailable)
}

func writeSVG(path string, trace *sim.Trace, title string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(trace.WriteSVG(f, title), f.Close())
}

func parseFlags(args []string, stdout io.Writer) (options, error) {
	var o options
	var now string
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.deployment, "deployment", "", "`name` of the Deployment (optional when the input has one)")
	fs.StringVar(&o.namespace, "namespace", "", "`namespace` of the Deployment (optional)")
	fs.StringVar(&now, "now", "", "start of the simulation, RFC 3339 (default: a Case's clock, or the latest time the state records)")
	fs.StringVar(&o.file, "f", "", "read the state from this `file` (JSON or YAML; - or empty: standard input)")
	fs.DurationVar(&o.readyAfter, "ready-after", 0, "time a pod takes from creation to ready, 0s to 8760h")
	fs.DurationVar(&o.grace, "grace", 0, "time a deleted pod keeps terminating, 0s to 8760h")
	fs.BoolVar(&o.neverReady, "never-ready", false, "pods of the Deployment's current template never become ready")
	fs.StringVar(&o.fidelity, "fidelity", "pods", "pods (every pod, runs the ReplicaSet planner) or counts (fast)")
	fs.StringVar(&o.svg, "svg", "", "write the predicted timeline as an SVG chart to this `file`")
	fs.Int64Var(&o.maxInput, "max-input", input.DefaultMaxBytes, "input size cap in `bytes`, 1 to 9223372036854775806")
	fs.Int64Var(&o.maxWork, "max-work", defaultMaxWork, "work bound: objects modelled summed over syncs, 1 to 9223372036854775807")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: simulate [flags] < state")
			fmt.Fprintln(stdout, "Predicts the rest of a live rollout from `kubectl get deployment,replicasets,pods -o json|yaml`.")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fmt.Fprintln(stdout, "exit codes: 0 predicted to complete, 1 predicted to stall, 2 bad flags or input, 3 invariant violations")
		}
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q: the state is read from stdin or -f", fs.Arg(0))
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"-ready-after", o.readyAfter}, {"-grace", o.grace}} {
		if f.d < 0 || f.d > maxDuration {
			return o, fmt.Errorf("%s %s: out of range 0s to 8760h", f.name, f.d)
		}
	}
	if o.fidelity != "pods" && o.fidelity != "counts" {
		return o, fmt.Errorf("-fidelity %q: want pods or counts", o.fidelity)
	}
	if o.maxInput < 1 || o.maxInput > math.MaxInt64-1 {
		return o, fmt.Errorf("-max-input %d: out of range 1 to 9223372036854775806", o.maxInput)
	}
	if o.maxWork < 1 {
		return o, fmt.Errorf("-max-work %d: out of range 1 to 9223372036854775807", o.maxWork)
	}
	if now != "" {
		t, err := time.Parse(time.RFC3339Nano, now)
		if err != nil {
			return o, fmt.Errorf("-now: %q is not an RFC 3339 time such as 2025-03-01T10:00:00Z", now)
		}
		o.now = t
	}
	return o, nil
}
