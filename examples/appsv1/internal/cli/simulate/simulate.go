// Package simulate is `kubectl rolloutplan simulate`: it predicts the rest
// of a rollout. It reads a Deployment's, a StatefulSet's or a DaemonSet's
// state (the live cluster, or a snapshot with -f), simulates its
// controllers from it sync after sync under a world model (how long a new
// pod takes to become ready, whether the current template's pods ever do,
// how long a deleted pod terminates), and prints the timeline, the
// predicted time to completion or the reason the rollout will stall, and
// optionally a chart.
//
// This answers what `kubectl rollout status` cannot: when will it finish,
// and will it?
package simulate

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

const long = `Predicts the rest of a Deployment's, a StatefulSet's or a DaemonSet's
rollout: simulates the Deployment and ReplicaSet controllers (the
StatefulSet controller and a stand-in kubelet, pod by pod and ordinal by
ordinal; the DaemonSet controller, a stand-in scheduler and kubelets, node by
node over the snapshot's nodes) from its current state, sync after sync, and
prints the timeline, when the rollout completes or why it stalls, and with
--svg a chart.

The simulation starts at the time used (live: now; a snapshot: the latest
timestamp it holds, unless --now). Pods that are ready stay ready; the
others become ready --ready-after after their creation (or never, with
--never-ready, for the workload's current template). Without
--ready-after, the delay is the median seen among the workload's own pods (creation to ready), a pod stuck past what was seen or waiting on
ImagePullBackOff, CrashLoopBackOff and the like is a stall (its template's
pods never become ready), and the line under the header says so.

With -o json|yaml it prints the prediction and the simulator's trace.`

const example = `  # How long will the rollout of deployment/web take, if pods are ready 20s after they start?
  kubectl rolloutplan simulate deployment/web --ready-after 20s

  # The first rollout of a manifest, with a chart
  kubectl rolloutplan simulate -f nginx-deployment.yaml --ready-after 10s --svg rollout.svg

  # The rest of a StatefulSet's rolling update, pods ready 30s after they start
  kubectl rolloutplan simulate statefulset/db --ready-after 30s --grace 10s

  # The rest of a DaemonSet's rolling update over the cluster's nodes
  kubectl rolloutplan simulate daemonset/fluentd -n kube-system --ready-after 15s --grace 30s`

// Result is what -o json|yaml prints: the workload (Deployment,
// StatefulSet or DaemonSet), the time, the prediction and the simulator's
// trace (a *sim.Trace, *sim.StatefulSetTrace or *sim.DaemonSetTrace).
type Result struct {
	Deployment  string          `json:"deployment,omitempty"`
	StatefulSet string          `json:"statefulSet,omitempty"`
	DaemonSet   string          `json:"daemonSet,omitempty"`
	Time        time.Time       `json:"time"`
	Prediction  predict.Summary `json:"prediction"`
	Trace       any             `json:"trace"`
}

// printBytesPerUnit is what printing the trace with -o json or -o yaml
// adds per unit of --max-work at most: the steps are printed one at a time
// (printResult), so it is mostly the collector's headroom over the trace
// held while it is printed, and the garbage each step's conversion makes.
// Measured as the peak resident memory of a 6 000-step Counts rollout of
// 57 019 units (testdata/long-rollout.yaml) over the same input stopped
// at once, per unit used, three runs each: 641 to 681 bytes in JSON, 667
// to 700 in YAML, and up to 799 in YAML once before, against the 700
// predict.BytesPerUnit + 300 stated then; ten times as long, 464 to 527.
// So 500 here (900 with the trace's), which covers them all; the
// whole trace printed at once took 2.5 KB in JSON and 17 KB in YAML.
// TestPrintedMemoryBoundedByMaxWork checks it.
const printBytesPerUnit = 500

// maxWorkUsage is --max-work's help here: predict's, and what printing the
// trace adds.
var maxWorkUsage = fmt.Sprintf("%s (printing the trace with -o json or -o yaml about %d more)", predict.MaxWorkUsage, printBytesPerUnit)

// NewCommand returns the simulate subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t          rolloutio.Target
		w          predict.World
		out        rolloutio.Output
		deployment string
	)
	t.Accept(rolloutio.Deployment, rolloutio.StatefulSet, rolloutio.DaemonSet)
	cmd := &cobra.Command{
		Use:               "simulate (NAME | deployment/NAME | statefulset/NAME | daemonset/NAME) [flags]",
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
			p, res, err := run(cmd, env.ErrOut, src, refs[0], w)
			if err != nil {
				return err
			}
			if out.Structured() {
				res.Prediction, res.Trace = p.Summarize(), p.TraceValue()
				if err := printResult(env.Out, &out, res); err != nil {
					return err
				}
			} else {
				p.WriteHeader(env.Out)
				fmt.Fprintln(env.Out)
				if err := p.WriteTimeline(env.Out); err != nil {
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
	fs.Lookup("max-work").Usage = maxWorkUsage
	fs.StringVar(&deployment, "deployment", "", "The Deployment's name, as the NAME argument")
	rolloutio.Deprecate(cmd, "deployment")
	rolloutio.CompleteOutput(cmd)
	return cmd
}

// run reads the workload ref and simulates it, printing the time used on
// standard error; the Result is returned without its prediction and
// trace.
func run(cmd *cobra.Command, errOut io.Writer, src *rolloutio.Source, ref rolloutio.Ref, w predict.World) (*predict.Prediction, Result, error) {
	if ref.Kind == rolloutio.DaemonSet {
		for _, name := range predict.StatefulSetFlags {
			if cmd.Flags().Changed(name) {
				return nil, Result{}, rolloutio.Usagef("--%s applies to Deployments: a DaemonSet is simulated pod by pod, node by node", name)
			}
		}
		st, err := src.GetDaemonSet(ref, rolloutio.NeedRevisions|rolloutio.NeedPods)
		if err != nil {
			return nil, Result{}, err
		}
		st.Time.Print(errOut)
		p, err := predict.RunDaemonSet(st.Apps, w)
		if err != nil {
			return nil, Result{}, err
		}
		return p, Result{DaemonSet: st.Ref.String(), Time: st.Apps.Now.UTC()}, nil
	}
	if ref.Kind == rolloutio.StatefulSet {
		for _, name := range predict.StatefulSetFlags {
			if cmd.Flags().Changed(name) {
				return nil, Result{}, rolloutio.Usagef("--%s applies to Deployments: a StatefulSet is simulated pod by pod", name)
			}
		}
		st, err := src.GetStatefulSet(ref, rolloutio.NeedRevisions|rolloutio.NeedPods)
		if err != nil {
			return nil, Result{}, err
		}
		st.Time.Print(errOut)
		p, err := predict.RunStatefulSet(st.Apps, w)
		if err != nil {
			return nil, Result{}, err
		}
		return p, Result{StatefulSet: st.Ref.String(), Time: st.Apps.Now.UTC()}, nil
	}
	st, err := src.Get(ref, rolloutio.NeedReplicaSets|rolloutio.NeedPods)
	if err != nil {
		return nil, Result{}, err
	}
	st.Time.Print(errOut)
	p, err := predict.Run(st.Apps, w)
	if err != nil {
		return nil, Result{}, err
	}
	return p, Result{Deployment: st.Ref.String(), Time: st.Apps.Now.UTC()}, nil
}
