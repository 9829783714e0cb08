// Package explain is `kubectl rolloutplan explain`: a what-if review of a
// Deployment's strategy before it is applied (plan/rollout.Lint): the
// resolved fenceposts, the peak pods, the minimum available, the scaling
// steps and the duration of a simulated rollout, and the pitfalls found.
package explain

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

const long = `Reviews a Deployment's rollout strategy before a change is applied: the
maxSurge and maxUnavailable it resolves to, and a simulated change of its pod
template (the peak pods, the fewest available, the scaling steps, how long it
takes), with the pitfalls found (percentages that round to zero, a progress
deadline shorter than the rollout, a single replica, …).

Unless --ready-after is given, pods are taken to become ready as the
Deployment's own pods did: the median delay from creation to ready of
those seen (none, for a manifest: at once).

It reads the Deployment from the live cluster, or from -f: a manifest such
as the Kubernetes documentation's nginx-deployment.yaml (without a namespace
it takes -n or the context's namespace, as 'kubectl apply -f' does; the API
server's defaults are filled in), 'kubectl get deployment NAME -o yaml', or
a List. With -o json|yaml it prints the review as data.

--max-work bounds the simulated rollout, and with it the memory explain
takes beyond its input: the objects each sync models and those the trace
keeps count a unit each, at about %d bytes a unit. A rollout past it (a
Deployment of millions of replicas rolled a pod at a time) is refused.`

const example = `  # Review a manifest before applying it
  kubectl rolloutplan explain -f nginx-deployment.yaml --ready-after 10s

  # Review every Deployment of the namespace labelled tier=web
  kubectl rolloutplan explain -l tier=web`

// Review is what -o json|yaml prints for one Deployment.
type Review struct {
	Deployment     string `json:"deployment"`
	Strategy       string `json:"strategy"`
	Replicas       int32  `json:"replicas"`
	MaxSurge       int32  `json:"maxSurge"`
	MaxUnavailable int32  `json:"maxUnavailable"`
	ReadyAfter     string `json:"readyAfter"`
	// ReadyAfterFrom says where ReadyAfter comes from when it was read
	// from the Deployment's pods: "the median of 3 pods seen".
	ReadyAfterFrom string            `json:"readyAfterFrom,omitempty"`
	PeakPods       int32             `json:"peakPods"`
	MinAvailable   int32             `json:"minAvailable"`
	Steps          int               `json:"steps"`
	Completed      bool              `json:"completed"`
	Duration       string            `json:"duration,omitempty"`
	Findings       []rollout.Finding `json:"findings"`
}

// NewCommand returns the explain subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t            rolloutio.Target
		out          rolloutio.Output
		readyAfter   time.Duration
		grace        time.Duration
		minAvailable int
		maxWork      int64
	)
	cmd := &cobra.Command{
		Use:               "explain (NAME | deployment/NAME | -f FILE) [flags]",
		Short:             "Review a Deployment's rollout strategy before it is applied",
		Long:              fmt.Sprintf(long, predict.BytesPerUnit),
		Example:           example,
		ValidArgsFunction: t.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.Prepare(env, args); err != nil {
				return err
			}
			if err := out.Validate(); err != nil {
				return err
			}
			switch {
			case readyAfter < 0:
				return rolloutio.Usagef("--ready-after %s: must not be negative", readyAfter)
			case grace < 0:
				return rolloutio.Usagef("--grace %s: must not be negative", grace)
			case minAvailable < 0 || minAvailable > 1<<31-1:
				return rolloutio.Usagef("--min-available %d: must be between 0 and 2147483647", minAvailable)
			}
			if err := predict.ValidateMaxWork(maxWork); err != nil {
				return &rolloutio.UsageError{Err: err}
			}
			src, err := t.Open(env, "explain")
			if err != nil {
				return err
			}
			refs, err := src.Refs()
			if err != nil {
				return err
			}
			// Without --ready-after, the Deployment's pods say how long
			// pods take to become ready: those of the snapshot, or, live,
			// those listed (the ReplicaSets too, to know which pods are
			// the Deployment's). A snapshot without them is not an error.
			fromPods := !cmd.Flags().Changed("ready-after")
			need := rolloutio.Need(0)
			if fromPods && src.Live() {
				need = rolloutio.NeedReplicaSets | rolloutio.NeedPods
			}
			for _, ref := range refs {
				st, err := src.Get(ref, need)
				if err != nil {
					return err
				}
				d := st.Deployment
				ready := readiness{after: readyAfter}
				if fromPods {
					if ready, err = seen(st); err != nil {
						return err
					}
				}
				r, err := rollout.Lint(d, rollout.LintOptions{ReadyAfter: ready.after, TerminationGrace: grace, MinAvailable: int32(minAvailable), MaxWork: maxWork})
				if errors.Is(err, sim.ErrWorkBound) {
					return fmt.Errorf("%s: %w (--max-work %d: the simulated rollout takes too many syncs: raise --max-work)", rolloutio.ObjectName(d), err, maxWork)
				}
				if err != nil {
					return err
				}
				if out.Structured() {
					if err := out.Print(env.Out, review(st, r, ready)); err != nil {
						return err
					}
					continue
				}
				if st.Manifest != nil {
					// The fenceposts as the manifest writes them.
					if d, err = appsv1.DeploymentToModel(st.Manifest); err != nil {
						return err
					}
				}
				report(env.Out, d, r, ready)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	t.AddFlags(fs, rolloutio.WithSelector|rolloutio.WithAllNamespaces)
	out.AddFlag(fs)
	fs.DurationVar(&readyAfter, "ready-after", 0, "How long a new pod takes to become ready (e.g. 30s)")
	fs.DurationVar(&grace, "grace", 0, "How long a deleted pod keeps terminating (also --termination-grace)")
	fs.IntVar(&minAvailable, "min-available", 0, "Pods that must stay available, as a PodDisruptionBudget's minAvailable (0: none)")
	predict.AddMaxWorkFlag(fs, &maxWork, predict.MaxWorkUsage)
	rolloutio.Normalize(fs, map[string]string{"termination-grace": "grace"})
	rolloutio.CompleteOutput(cmd)
	return cmd
}

// readiness is the readiness delay the review assumes and, when it was
// read from the Deployment's pods, from how many.
type readiness struct {
	after time.Duration
	from  string
}

// seen reads the readiness delay from the pods of st's Deployment: the
// median seen (package plan/evidence), 0 when none was seen.
func seen(st *rolloutio.State) (readiness, error) {
	m, err := st.Apps.Model()
	if err != nil {
		return readiness{}, err
	}
	r := evidence.Observe(predict.DeploymentPods(m.Deployment, m.ReplicaSets, m.Pods))
	switch n := len(r.Samples); n {
	case 0:
		return readiness{}, nil
	case 1:
		return readiness{after: r.Median(), from: "the one pod seen"}, nil
	default:
		return readiness{after: r.Median(), from: fmt.Sprintf("the median of %d pods seen", n)}, nil
	}
}

func review(st *rolloutio.State, r rollout.Report, ready readiness) Review {
	rv := Review{Deployment: st.Ref.String(), Strategy: string(r.Strategy), Replicas: r.Replicas, MaxSurge: r.MaxSurge, MaxUnavailable: r.MaxUnavailable,
		ReadyAfter: ready.after.String(), ReadyAfterFrom: ready.from, PeakPods: r.PeakPods, MinAvailable: r.MinAvailable, Steps: r.Steps, Completed: r.Completed, Findings: r.Findings}
	if r.Completed {
		rv.Duration = r.Duration.String()
	}
	if rv.Findings == nil {
		rv.Findings = []rollout.Finding{}
	}
	return rv
}

func report(w io.Writer, d *model.Deployment, r rollout.Report, ready readiness) {
	fmt.Fprintf(w, "%s: %s, %d replicas\n", rolloutio.ObjectName(d), r.Strategy, r.Replicas)
	if ru := d.Spec.Strategy.RollingUpdate; r.Strategy == model.RollingUpdateStrategy && ru != nil {
		fmt.Fprintf(w, "  maxSurge %s → %d, maxUnavailable %s → %d: at most %d pods, at least %d available\n",
			fence(ru.MaxSurge, model.DefaultMaxSurge), r.MaxSurge, fence(ru.MaxUnavailable, model.DefaultMaxUnavailable), r.MaxUnavailable,
			r.Replicas+r.MaxSurge, r.Replicas-r.MaxUnavailable)
	} else if r.Strategy == model.RollingUpdateStrategy {
		fmt.Fprintf(w, "  maxSurge %s → %d, maxUnavailable %s → %d (the defaults)\n", model.DefaultMaxSurge, r.MaxSurge, model.DefaultMaxUnavailable, r.MaxUnavailable)
	}
	if ready.from != "" {
		fmt.Fprintf(w, "  simulated template change, pods ready %s after they start (%s):\n", ready.after, ready.from)
	} else {
		fmt.Fprintf(w, "  simulated template change, pods ready %s after they start:\n", ready.after)
	}
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
