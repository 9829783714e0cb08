// Package predict is the prediction `simulate` and `status --predict` share:
// the world-model flags (how long a new pod takes to become ready, whether
// the current template's pods ever do, how long a deleted pod terminates,
// the fidelity, the work bound, the chart), one run of plan/sim from a live
// state (a Deployment's with sim.Run, a StatefulSet's with
// sim.RunStatefulSet), and the lines that report it.
package predict

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// Bounds of the world-model flags.
const (
	MaxDuration    = 365 * 24 * time.Hour
	DefaultMaxWork = 400_000_000
)

// World is the world model the prediction runs under, as the flags set it.
type World struct {
	ReadyAfter, Grace time.Duration
	NeverReady        bool
	Fidelity          string
	MaxWork           int64
	// SVG, when not empty, is the file the predicted timeline is drawn to.
	SVG string
}

// AddFlags registers the world-model flags on fs: --ready-after, --grace,
// --never-ready, --fidelity, --max-work and --svg.
func (w *World) AddFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&w.ReadyAfter, "ready-after", 0, "Time a pod takes from creation to ready, 0s to 8760h")
	fs.DurationVar(&w.Grace, "grace", 0, "Time a deleted pod keeps terminating, 0s to 8760h")
	fs.BoolVar(&w.NeverReady, "never-ready", false, "Pods of the workload's current template never become ready")
	fs.StringVar(&w.Fidelity, "fidelity", "pods", "How pods are modelled: pods (every pod, with the ReplicaSet planner) or counts (fast)")
	fs.Int64Var(&w.MaxWork, "max-work", DefaultMaxWork, "Work bound: objects modelled summed over syncs, 1 to 9223372036854775807")
	fs.StringVar(&w.SVG, "svg", "", "Write the predicted timeline as an SVG chart to this file")
}

// Validate checks the flags, naming the flag and its range.
func (w World) Validate() error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"--ready-after", w.ReadyAfter}, {"--grace", w.Grace}} {
		if f.d < 0 || f.d > MaxDuration {
			return fmt.Errorf("%s %s: out of range 0s to 8760h", f.name, f.d)
		}
	}
	if w.Fidelity != "pods" && w.Fidelity != "counts" {
		return fmt.Errorf("--fidelity %q: want pods or counts", w.Fidelity)
	}
	if w.MaxWork < 1 {
		return fmt.Errorf("--max-work %d: out of range 1 to 9223372036854775807", w.MaxWork)
	}
	return nil
}

// Prediction is one simulated future of a state: a Deployment's
// (Deployment and Trace set) or a StatefulSet's (StatefulSet and SetTrace
// set).
type Prediction struct {
	World      World
	Start      time.Time
	Deployment *model.Deployment
	Fidelity   sim.Fidelity
	Trace      *sim.Trace

	StatefulSet *model.StatefulSet
	SetTrace    *sim.StatefulSetTrace
}

// StatefulSetFlags are the world-model flags a StatefulSet's prediction
// does not read: it models every pod, and bounds its syncs itself.
var StatefulSetFlags = []string{"fidelity", "max-work"}

// RunStatefulSet simulates the rest of the rollout of s from s.Now under
// w with the StatefulSet planner (sim.RunStatefulSet, the revision data
// and template defaults the apps/v1 adapter gives upstream's): pods that
// are Running and Ready stay so, the others become ready w.ReadyAfter after
// their creation, or never with w.NeverReady for the set's template (the
// pods the simulation creates from it, and those of the update revision
// the stored status names when it is current). Invariants are checked at
// every sync. w.Fidelity and w.MaxWork are not read.
func RunStatefulSet(s appsv1.StatefulSetState, w World) (*Prediction, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	cfg := sim.StatefulSetConfig{
		StatefulSet: m.StatefulSet, Pods: m.Pods, ControllerRevisions: m.ControllerRevisions, Claims: m.Claims, Start: s.Now,
		World: sim.World{ReadyAfter: w.ReadyAfter, TerminationGrace: w.Grace},
		PlanOptions: []statefulset.Option{
			statefulset.WithEncoder(appsv1.StatefulSetRevisionData),
			statefulset.WithRevisionDefaults(appsv1.StatefulSetTemplateDefaults),
		},
		Check: true,
	}
	if w.NeverReady {
		set := m.StatefulSet
		current := set.Spec.Template.Spec
		update := ""
		if set.Status.ObservedGeneration >= set.Generation {
			update = set.Status.UpdateRevision
		}
		cfg.World.NeverReady = func(t model.PodTemplate) bool {
			return t.Spec == current || (update != "" && t.Labels[model.ControllerRevisionHashLabel] == update)
		}
	}
	trace, err := sim.RunStatefulSet(cfg)
	if err != nil {
		return nil, err
	}
	return &Prediction{World: w, Start: s.Now, StatefulSet: m.StatefulSet, Fidelity: sim.Pods, SetTrace: trace}, nil
}

// summary is the run's summary, whichever kind ran.
func (p *Prediction) summary() sim.Summary {
	if p.SetTrace != nil {
		return p.SetTrace.Summary
	}
	return p.Trace.Summary
}

// WriteTimeline writes the run's timeline and summary.
func (p *Prediction) WriteTimeline(w io.Writer) error {
	if p.SetTrace != nil {
		return p.SetTrace.WriteTimeline(w)
	}
	return p.Trace.WriteTimeline(w)
}

// TraceValue is the run's trace, as -o json|yaml prints it.
func (p *Prediction) TraceValue() any {
	if p.SetTrace != nil {
		return p.SetTrace
	}
	return p.Trace
}

// Run simulates the rest of the rollout of s from s.Now under w. A
// ReplicaSet's ready pods stay ready; the others become ready w.ReadyAfter
// after their creation, or never for the current template with
// w.NeverReady. Invariants are checked at every sync.
func Run(s appsv1.State, w World) (*Prediction, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	cfg := sim.Config{
		Deployment: m.Deployment, ReplicaSets: m.ReplicaSets, Pods: m.Pods, Start: s.Now,
		World:   sim.World{ReadyAfter: w.ReadyAfter, TerminationGrace: w.Grace},
		Check:   true,
		MaxWork: w.MaxWork,
	}
	if w.NeverReady {
		current := m.Deployment.Spec.Template
		cfg.World.NeverReady = func(t model.PodTemplate) bool { return model.EqualIgnoreHash(t, current) }
	}
	if w.Fidelity == "pods" {
		cfg.Fidelity = sim.Pods
	}
	trace, err := sim.Run(cfg)
	if err != nil {
		if errors.Is(err, sim.ErrWorkBound) {
			err = fmt.Errorf("%w (--max-work %d: use --fidelity counts or raise --max-work)", err, w.MaxWork)
		}
		return nil, err
	}
	return &Prediction{World: w, Start: s.Now, Deployment: m.Deployment, Fidelity: cfg.Fidelity, Trace: trace}, nil
}

// WriteHeader writes the line that says what is simulated: the Deployment,
// the start, the strategy and the world model.
func (p *Prediction) WriteHeader(w io.Writer) {
	if set := p.StatefulSet; set != nil {
		fmt.Fprintf(w, "StatefulSet %s/%s at %s: %d replicas, %s, %s; %s\n",
			set.Namespace, set.Name, p.Start.UTC().Format(time.RFC3339), replicas(set), policy(set), setStrategy(set), p.readiness())
		return
	}
	d := p.Deployment
	fmt.Fprintf(w, "Deployment %s/%s at %s: %d replicas, %s; %s (%s fidelity)\n",
		d.Namespace, d.Name, p.Start.UTC().Format(time.RFC3339), d.DesiredReplicas(), strategy(d), p.readiness(), p.Fidelity)
}

// WriteVerdict writes the prediction's one line: "prediction: the rollout
// completes in 4s (at 2025-03-01T10:00:10Z), after 4 syncs", or the stall
// and its reason.
func (p *Prediction) WriteVerdict(w io.Writer) {
	s := p.summary()
	if s.Completed {
		fmt.Fprintf(w, "prediction: the rollout completes in %s (at %s), after %d syncs\n",
			s.CompletedAfter, p.Start.Add(s.CompletedAfter).UTC().Format(time.RFC3339), s.CompletedSyncs)
		return
	}
	fmt.Fprintf(w, "prediction: the rollout stalls after %s: %s\n", s.Elapsed, s.StallReason)
}

// WriteChart draws the timeline to p.World.SVG when it is set and says so
// on w.
func (p *Prediction) WriteChart(w io.Writer) error {
	if p.World.SVG == "" {
		return nil
	}
	ns, name := p.name()
	title := fmt.Sprintf("%s/%s from %s (prediction)", ns, name, p.Start.UTC().Format(time.RFC3339))
	f, err := os.Create(p.World.SVG)
	if err != nil {
		return err
	}
	var werr error
	if p.SetTrace != nil {
		werr = p.SetTrace.WriteSVG(f, title)
	} else {
		werr = p.Trace.WriteSVG(f, title)
	}
	if err := errors.Join(werr, f.Close()); err != nil {
		return err
	}
	fmt.Fprintf(w, "chart written to %s\n", p.World.SVG)
	return nil
}

// Completed reports the predicted completion; Violations the invariant
// violations the run found.
func (p *Prediction) Completed() bool { return p.summary().Completed }

// Violations counts the invariant violations found during the run.
func (p *Prediction) Violations() int { return p.summary().Violations }

// name is the namespace and name of the workload simulated.
func (p *Prediction) name() (string, string) {
	if p.StatefulSet != nil {
		return p.StatefulSet.Namespace, p.StatefulSet.Name
	}
	return p.Deployment.Namespace, p.Deployment.Name
}

// replicas is a StatefulSet's spec.replicas (1 when unset, the default).
func replicas(s *model.StatefulSet) int32 {
	if s.Spec.Replicas == nil {
		return 1
	}
	return *s.Spec.Replicas
}

// policy is a StatefulSet's pod management policy (OrderedReady when
// unset, the default).
func policy(s *model.StatefulSet) string {
	if s.Spec.PodManagementPolicy == "" {
		return "OrderedReady"
	}
	return string(s.Spec.PodManagementPolicy)
}

// setStrategy is a StatefulSet's update strategy: "RollingUpdate partition
// 2", "RollingUpdate partition 0 maxUnavailable 2", "OnDelete".
func setStrategy(s *model.StatefulSet) string {
	u := s.Spec.UpdateStrategy
	if u.Type == "" {
		u.Type = model.StatefulSetUpdateStrategyType("RollingUpdate")
	}
	out := string(u.Type)
	if ru := u.RollingUpdate; ru != nil {
		if ru.Partition != nil {
			out += fmt.Sprintf(" partition %d", *ru.Partition)
		}
		if ru.MaxUnavailable != nil {
			out += fmt.Sprintf(" maxUnavailable %s", ru.MaxUnavailable)
		}
	}
	return out
}

func (p *Prediction) readiness() string {
	if p.World.NeverReady {
		return fmt.Sprintf("pods ready %s after creation, those of the current template never", p.World.ReadyAfter)
	}
	return fmt.Sprintf("pods ready %s after creation", p.World.ReadyAfter)
}

func strategy(d *model.Deployment) string {
	s := d.Spec.Strategy
	if s.Type != model.RollingUpdateStrategy || s.RollingUpdate == nil {
		return string(s.Type)
	}
	return fmt.Sprintf("RollingUpdate maxSurge %s maxUnavailable %s", s.RollingUpdate.MaxSurge, s.RollingUpdate.MaxUnavailable)
}

// Summary is a prediction as -o json|yaml prints it.
type Summary struct {
	Start       time.Time `json:"start"`
	Assumptions string    `json:"assumptions"`
	Fidelity    string    `json:"fidelity"`
	Completed   bool      `json:"completed"`
	// CompletesIn and CompletesAt are set when the rollout completes.
	CompletesIn string     `json:"completesIn,omitempty"`
	CompletesAt *time.Time `json:"completesAt,omitempty"`
	Syncs       int        `json:"syncs"`
	// StallsAfter and StallReason are set when it stalls.
	StallsAfter  string `json:"stallsAfter,omitempty"`
	StallReason  string `json:"stallReason,omitempty"`
	PeakPods     int32  `json:"peakPods"`
	MinAvailable int32  `json:"minAvailable"`
	Violations   int    `json:"violations"`
}

// Summarize returns the prediction's Summary.
func (p *Prediction) Summarize() Summary {
	s := p.summary()
	out := Summary{Start: p.Start.UTC(), Assumptions: p.readiness(), Fidelity: fmt.Sprint(p.Fidelity), Completed: s.Completed,
		PeakPods: s.PeakPods, MinAvailable: s.MinAvailable, Violations: s.Violations, Syncs: s.Syncs}
	if s.Completed {
		at := p.Start.Add(s.CompletedAfter).UTC()
		out.CompletesIn, out.CompletesAt, out.Syncs = s.CompletedAfter.String(), &at, s.CompletedSyncs
	} else {
		out.StallsAfter, out.StallReason = s.Elapsed.String(), s.StallReason
	}
	return out
}
