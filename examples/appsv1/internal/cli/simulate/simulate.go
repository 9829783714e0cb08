// Package simulate is `kubectl rolloutplan simulate`: it predicts the rest
// of a rollout. It reads a Deployment's state (the live cluster, or a
// snapshot with -f), simulates the Deployment and ReplicaSet controllers
// from it sync after sync under a world model (how long a new pod takes to
// become ready, whether the current template's pods ever do, how long a
// deleted pod terminates), and prints the timeline, the predicted time to
// completion or the reason the rollout will stall, and optionally a chart.
//
// This answers what `kubectl rollout status` cannot: when will it finish,
// and will it?
package simulate

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

const long = `Predicts the rest of a Deployment's rollout: simulates the Deployment and
ReplicaSet controllers from its current state, sync after sync, and prints
the timeline, when the rollout completes or why it stalls, and with --svg a
chart.

The simulation starts at the time used (live: now; a snapshot: the latest
timestamp it holds, unless --now). Pods that are ready stay ready; the
others become ready --ready-after after their creation (or never, with
--never-ready, for the Deployment's current template).

With -o json|yaml it prints the prediction and the simulator's trace.`

const example = `  # How long will the rollout of deployment/web take, if pods are ready 20s after they start?
  kubectl rolloutplan simulate deployment/web --ready-after 20s

  # The first rollout of a manifest, with a chart
  kubectl rolloutplan simulate -f nginx-deployment.yaml --ready-after 10s --svg rollout.svg`

// Result is what -o json|yaml prints.
type Result struct {
	Deployment string          `json:"deployment"`
	Time       time.Time       `json:"time"`
	Prediction predict.Summary `json:"prediction"`
	Trace      *sim.Trace      `json:"trace"`
}

// NewCommand returns the simulate subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t          rolloutio.Target
		w          predict.World
		out        rolloutio.Output
		deployment string
	)
	cmd := &cobra.Command{
		Use:               "simulate (NAME | deployment/NAME) [flags]",
		Short:             "Predict the rest of a rollout: timeline, time to completion or the stall",
		Long:              long,
		Example:           example,
		ValidArgsFunction: t.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.ParseArgs(args); err != nil {
				return err
			}
			rolloutio.Warn(env, cmd, "deployment", "give the name as the argument: simulate NAME")
			if err := t.TakeNameFlag(deployment); err != nil {
				return err
			}
			if err := t.Validate(env); err != nil {
				return err
			}
			if err := w.Validate(); err != nil {
				return &rolloutio.UsageError{Err: err}
			}
			if err := out.Validate(); err != nil {
				return err
			}
			src, err := t.Open(env, "simulate")
			if err != nil {
				return err
			}
			refs, err := src.Refs()
			if err != nil {
				return err
			}
			st, err := src.Get(refs[0], rolloutio.NeedReplicaSets|rolloutio.NeedPods)
			if err != nil {
				return err
			}
			st.Time.Print(env.ErrOut)
			p, err := predict.Run(st.Apps, w)
			if err != nil {
				return err
			}
			if out.Structured() {
				if err := out.Print(env.Out, Result{Deployment: st.Ref.String(), Time: st.Apps.Now.UTC(), Prediction: p.Summarize(), Trace: p.Trace}); err != nil {
					return err
				}
			} else {
				p.WriteHeader(env.Out)
				fmt.Fprintln(env.Out)
				if err := p.Trace.WriteTimeline(env.Out); err != nil {
					return err
				}
				fmt.Fprintln(env.Out)
				p.WriteVerdict(env.Out)
			}
			if err := p.WriteChart(env.ErrOut); err != nil {
				return err
			}
			switch {
			case p.Violations() > 0:
				return rolloutio.Exit(rolloutio.ExitViolation)
			case !p.Completed():
				return rolloutio.Exit(rolloutio.ExitStall)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	t.AddFlags(fs, rolloutio.WithNow)
	out.AddFlag(fs)
	w.AddFlags(fs)
	fs.StringVar(&deployment, "deployment", "", "The Deployment's name, as the NAME argument")
	rolloutio.Deprecate(cmd, "deployment")
	rolloutio.CompleteOutput(cmd)
	return cmd
}
