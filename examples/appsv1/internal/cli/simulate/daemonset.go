package simulate

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"time"

	apps "k8s.io/api/apps/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// prediction is what simulate prints of a run, whichever workload ran:
// *predict.Prediction (a Deployment's or a StatefulSet's) or
// *daemonSetPrediction.
type prediction interface {
	WriteHeader(w io.Writer)
	WriteTimeline(w io.Writer) error
	WriteVerdict(w io.Writer)
	WriteChart(w io.Writer) error
	Summarize() predict.Summary
	TraceValue() any
	Completed() bool
	Violations() int
}

// daemonSetPrediction is one simulated future of a DaemonSet's state, with
// sim.RunDaemonSet over the snapshot's node pool.
type daemonSetPrediction struct {
	world   predict.World
	start   time.Time
	ds      *model.DaemonSet
	desired int // nodes that should run a daemon pod at the start
	nodes   int
	trace   *sim.DaemonSetTrace
}

// runDaemonSet simulates the rest of the rollout of s from s.Now under w,
// with the upstream hash and revision data (as appsv1.SyncDaemonSet plans),
// over the snapshot's nodes: pods that are Running and Ready stay so, the
// others become ready w.ReadyAfter after their creation, or never with
// w.NeverReady for the DaemonSet's template (the pods the simulation
// creates from it, and those already labelled with its hash). Invariants
// are checked at every sync. w.Fidelity and w.MaxWork are not read.
func runDaemonSet(s appsv1.DaemonSetState, w predict.World) (*daemonSetPrediction, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	opts, hash, err := upstreamDaemonSetOptions(s.DaemonSet, m.DaemonSet.Spec.Template)
	if err != nil {
		return nil, err
	}
	cfg := sim.DaemonSetConfig{
		DaemonSet: m.DaemonSet, Nodes: m.Nodes, Pods: m.Pods, ControllerRevisions: m.ControllerRevisions, PodNodeAffinity: m.PodNodeAffinity,
		Start: s.Now, World: sim.World{ReadyAfter: w.ReadyAfter, TerminationGrace: w.Grace}, PlanOptions: opts, Check: true,
	}
	if w.NeverReady {
		current := m.DaemonSet.Spec.Template.Spec
		cfg.World.NeverReady = func(t model.PodTemplate) bool {
			return t.Spec == current || t.Labels[model.DaemonSetUniqueLabel] == hash
		}
	}
	trace, err := sim.RunDaemonSet(cfg)
	if err != nil {
		return nil, err
	}
	desired := 0
	for _, n := range m.Nodes {
		if daemonset.NodeShouldRunDaemonPod(n, m.DaemonSet).ShouldRun {
			desired++
		}
	}
	return &daemonSetPrediction{world: w, start: s.Now, ds: m.DaemonSet, desired: desired, nodes: len(m.Nodes), trace: trace}, nil
}

// upstreamDaemonSetOptions are the planner options that hash and record
// the DaemonSet's template as upstream does (controller.ComputeHash of the
// apps/v1 template, getPatch for the revision data), so that the live pods
// and revisions count as current; other templates (a revision a script
// would restore) keep the planner's own encoding. hash is the template's
// hash.
func upstreamDaemonSetOptions(ds *apps.DaemonSet, conv model.PodTemplate) ([]daemonset.Option, string, error) {
	patch, err := appsv1.DaemonSetPatch(&ds.Spec.Template)
	if err != nil {
		return nil, "", err
	}
	same := func(t model.PodTemplate) bool {
		return t.Spec == conv.Spec && (t.Labels == nil) == (conv.Labels == nil) && maps.Equal(t.Labels, conv.Labels) &&
			(t.Annotations == nil) == (conv.Annotations == nil) && maps.Equal(t.Annotations, conv.Annotations)
	}
	tmpl := ds.Spec.Template.DeepCopy()
	opts := []daemonset.Option{
		daemonset.WithHasher(func(t model.PodTemplate, collisionCount *int32) string {
			if same(t) {
				return appsv1.ComputeHash(tmpl, collisionCount)
			}
			return appsv1.PodTemplateHash(t, collisionCount)
		}),
		daemonset.WithPatcher(func(t model.PodTemplate) string {
			if same(t) {
				return string(patch)
			}
			return daemonset.DefaultPatch(t)
		}),
	}
	return opts, appsv1.ComputeHash(tmpl, ds.Status.CollisionCount), nil
}

// WriteHeader writes the line that says what is simulated.
func (p *daemonSetPrediction) WriteHeader(w io.Writer) {
	ds := p.ds
	fmt.Fprintf(w, "DaemonSet %s/%s at %s: %d of %d nodes should run a daemon pod, %s; %s\n",
		ds.Namespace, ds.Name, p.start.UTC().Format(time.RFC3339), p.desired, p.nodes, daemonSetStrategy(ds), p.readiness())
}

func daemonSetStrategy(ds *model.DaemonSet) string {
	u := ds.Spec.UpdateStrategy
	if u.Type != model.DaemonSetRollingUpdate || u.RollingUpdate == nil {
		return string(u.Type)
	}
	out := "RollingUpdate"
	if ru := u.RollingUpdate; ru.MaxSurge != nil && daemonset.AllowsSurge(ds) {
		out += " maxSurge " + ru.MaxSurge.String()
	} else if ru.MaxUnavailable != nil {
		out += " maxUnavailable " + ru.MaxUnavailable.String()
	}
	if ds.Spec.MinReadySeconds > 0 {
		out += fmt.Sprintf(", minReadySeconds %d", ds.Spec.MinReadySeconds)
	}
	return out
}

func (p *daemonSetPrediction) readiness() string {
	if p.world.NeverReady {
		return fmt.Sprintf("pods ready %s after creation, those of the current template never", p.world.ReadyAfter)
	}
	return fmt.Sprintf("pods ready %s after creation", p.world.ReadyAfter)
}

// WriteTimeline writes the run's timeline and summary.
func (p *daemonSetPrediction) WriteTimeline(w io.Writer) error { return p.trace.WriteTimeline(w) }

// WriteVerdict writes the prediction's one line.
func (p *daemonSetPrediction) WriteVerdict(w io.Writer) {
	s := p.trace.Summary
	if s.Completed {
		fmt.Fprintf(w, "prediction: the rollout completes in %s (at %s), after %d syncs\n",
			s.CompletedAfter, p.start.Add(s.CompletedAfter).UTC().Format(time.RFC3339), s.CompletedSyncs)
		return
	}
	fmt.Fprintf(w, "prediction: the rollout stalls after %s: %s\n", s.Elapsed, s.StallReason)
}

// WriteChart draws the timeline to the --svg file when it is set and says
// so on w.
func (p *daemonSetPrediction) WriteChart(w io.Writer) error {
	if p.world.SVG == "" {
		return nil
	}
	title := fmt.Sprintf("%s/%s from %s (prediction)", p.ds.Namespace, p.ds.Name, p.start.UTC().Format(time.RFC3339))
	f, err := os.Create(p.world.SVG)
	if err != nil {
		return err
	}
	if err := errors.Join(p.trace.WriteSVG(f, title), f.Close()); err != nil {
		return err
	}
	fmt.Fprintf(w, "chart written to %s\n", p.world.SVG)
	return nil
}

// Summarize returns the prediction as -o json|yaml prints it.
func (p *daemonSetPrediction) Summarize() predict.Summary {
	s := p.trace.Summary
	out := predict.Summary{Start: p.start.UTC(), Assumptions: p.readiness(), Fidelity: sim.Pods.String(), Completed: s.Completed,
		PeakPods: s.PeakPods, MinAvailable: s.MinAvailable, Violations: s.Violations, Syncs: s.Syncs}
	if s.Completed {
		at := p.start.Add(s.CompletedAfter).UTC()
		out.CompletesIn, out.CompletesAt, out.Syncs = s.CompletedAfter.String(), &at, s.CompletedSyncs
	} else {
		out.StallsAfter, out.StallReason = s.Elapsed.String(), s.StallReason
	}
	return out
}

// TraceValue is the run's trace.
func (p *daemonSetPrediction) TraceValue() any { return p.trace }

// Completed reports the predicted completion.
func (p *daemonSetPrediction) Completed() bool { return p.trace.Summary.Completed }

// Violations counts the invariant violations found during the run.
func (p *daemonSetPrediction) Violations() int { return p.trace.Summary.Violations }
