// Command simulate shows a Kubernetes rollout before it happens: it runs
// rolloutplan's Deployment and ReplicaSet planners against a modelled
// cluster, sync after sync, and prints a timeline of what the controller
// does and why, and a summary.
//
// With no arguments it simulates the nginx image update of the Kubernetes
// documentation: a Deployment of 3 replicas (maxSurge and maxUnavailable
// 25%) is created with nginx:1.14.2; once that first rollout is complete the
// image changes to nginx:1.16.1. The summary describes the second rollout on
// its own: time from the image change to completion, peak pods, minimum
// available.
//
//	go run ./examples/simulate
//	go run ./examples/simulate -replicas 10 -max-surge 3 -max-unavailable 2 -never-ready
//	go run ./examples/simulate -replicas 1000 -ready-after 20s -svg rollout.svg
//
// Exit codes: 0 the rollout completed; 1 it stalled (or the script could not
// run to its end); 2 bad flags or a failed simulation (including the work
// bound, -max-work); 3 the planner broke an invariant. -h prints the flags
// and exits 0.
//
// Memory is bounded by -max-work: the work counts the objects modelled and
// the objects the trace keeps, summed over syncs, and costs about 400 bytes
// per unit at most, so that a run of millions of cheap syncs (2147483647
// replicas moved one at a time at -fidelity counts) stops at the bound
// rather than filling the machine. The default, 10 000 000 units, keeps a
// run within about 4 GB: it refuses pod fidelity beyond about 50 000
// replicas, which take more (-replicas 100000 needs -max-work 50000000 and
// peaks near 300 MB, far below the bound's 20 GB).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// Exit codes.
const (
	exitOK         = 0
	exitStalled    = 1
	exitUsage      = 2
	exitViolations = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "simulate:", err)
		return exitUsage
	}
	cfg, err := o.config()
	if err != nil {
		fmt.Fprintln(stderr, "simulate:", err)
		return exitUsage
	}
	trace, err := sim.Run(cfg)
	if err != nil {
		if errors.Is(err, sim.ErrWorkBound) {
			err = fmt.Errorf("%w (-max-work %d: %s)", err, o.maxWork, workAdvice(cfg.Fidelity))
		}
		fmt.Fprintln(stderr, "simulate:", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "Deployment web: %d replicas, %s, image %s → %s, pods ready after %s (%s fidelity)\n\n",
		o.replicas, o.describeStrategy(), o.fromImage, o.toImage, o.readyAfter, cfg.Fidelity)
	if err := trace.WriteTimeline(stdout); err != nil {
		fmt.Fprintln(stderr, "simulate:", err)
		return exitUsage
	}
	if o.svg != "" {
		if err := writeSVG(o.svg, trace, o.title()); err != nil {
			fmt.Fprintln(stderr, "simulate:", err)
			return exitUsage
		}
		fmt.Fprintf(stdout, "\nchart written to %s\n", o.svg)
	}
	return exitCode(trace.Summary)
}

// workAdvice says what lowers the work of a simulation stopped by
// -max-work. At pod fidelity the pods dominate; at count fidelity no pod is
// charged, so the run was long: many syncs, each kept in the trace.
func workAdvice(f sim.Fidelity) string {
	if f == sim.Pods {
		return "use -fidelity counts, fewer -replicas, or raise -max-work"
	}
	return "the rollout takes too many syncs: fewer -replicas, a larger -max-surge or -max-unavailable, a lower -failure-rate, or raise -max-work"
}

// exitCode maps a summary to the documented exit codes.
func exitCode(s sim.Summary) int {
	switch {
	case s.Violations > 0:
		return exitViolations
	case s.Stalled || !s.Completed || s.Unfired > 0:
		return exitStalled
	}
	return exitOK
}

func writeSVG(path string, trace *sim.Trace, title string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(trace.WriteSVG(f, title), f.Close())
}
