// Package predict is the prediction `simulate` and `status --predict` share:
// the world-model flags (how long a new pod takes to become ready, whether
// the current template's pods ever do, how long a deleted pod terminates,
// the fidelity, the work bound, the chart), one run of plan/sim from a live
// state (a Deployment's with sim.Run, a StatefulSet's with
// sim.RunStatefulSet), and the lines that report it.
//
// Unless --ready-after is given, what the prediction assumes of pods comes
// from the workload's own pods (package plan/evidence): they become ready
// the median delay seen after their creation, and a pod stuck past what was
// seen (or waiting on ImagePullBackOff, CrashLoopBackOff, …) is a stall:
// the pods of its template never become ready. The assumptions are
// printed with the prediction.
package predict

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
	"github.com/rolloutplan/rolloutplan/plan/sim"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// Bounds of the world-model flags. DefaultMaxWork keeps a prediction's
// memory within about 4 GB (BytesPerUnit per unit) beyond the state it
// starts from, whatever the state, on an ordinary machine.
const (
	MaxDuration    = 365 * 24 * time.Hour
	DefaultMaxWork = 10_000_000
)

// World is the world model the prediction runs under, as the flags set it.
type World struct {
	ReadyAfter, Grace time.Duration
	NeverReady        bool
	Fidelity          string
	MaxWork           int64
	// SVG, when not empty, is the file the predicted timeline is drawn to.
	SVG string
	// ReadyAfterGiven is set when ReadyAfter is the user's rather than to
	// be read from the pods; --ready-after on the flag set of AddFlags
	// sets it too.
	ReadyAfterGiven bool
	flags           *pflag.FlagSet
}

// FromPods reports whether what the prediction assumes of pods is read
// from the workload's pods (package plan/evidence): unless ReadyAfter was
// given.
func (w World) FromPods() bool {
	return !w.ReadyAfterGiven && (w.flags == nil || !w.flags.Changed("ready-after"))
}

// AddFlags registers the world-model flags on fs: --ready-after, --grace,
// --never-ready, --fidelity, --max-work and --svg.
func (w *World) AddFlags(fs *pflag.FlagSet) {
	w.flags = fs
	fs.DurationVar(&w.ReadyAfter, "ready-after", 0, "Time a pod takes from creation to ready, 0s to 8760h (default: the median seen of the workload's pods)")
	fs.DurationVar(&w.Grace, "grace", 0, "Time a deleted pod keeps terminating, 0s to 8760h")
	fs.BoolVar(&w.NeverReady, "never-ready", false, "Pods of the workload's current template never become ready")
	fs.StringVar(&w.Fidelity, "fidelity", "pods", "How pods are modelled: pods (every pod, with the ReplicaSet planner) or counts (fast)")
	AddMaxWorkFlag(fs, &w.MaxWork, MaxWorkUsage)
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
	return ValidateMaxWork(w.MaxWork)
}

// AddMaxWorkFlag registers --max-work on fs, into p, at DefaultMaxWork,
// with usage: the flag of every command whose memory it bounds (World's,
// next's, explain's), which ValidateMaxWork checks.
func AddMaxWorkFlag(fs *pflag.FlagSet, p *int64, usage string) {
	fs.Int64Var(p, "max-work", DefaultMaxWork, usage)
}

// ValidateMaxWork checks a --max-work value, naming the flag and its
// range: 1 to 9223372036854775807 (a bound of 0 would refuse everything).
func ValidateMaxWork(n int64) error {
	if n < 1 {
		return fmt.Errorf("--max-work %d: out of range 1 to 9223372036854775807", n)
	}
	return nil
}

// Prediction is one simulated future of a state: a Deployment's
// (Deployment and Trace set), a StatefulSet's (StatefulSet and SetTrace
// set) or a DaemonSet's (DaemonSet and DaemonSetTrace set).
type Prediction struct {
	World      World
	Start      time.Time
	Deployment *model.Deployment
	Fidelity   sim.Fidelity
	Trace      *sim.Trace

	StatefulSet *model.StatefulSet
	SetTrace    *sim.StatefulSetTrace

	DaemonSet      *model.DaemonSet
	DaemonSetTrace *sim.DaemonSetTrace
	// desiredNodes counts the nodes that should run a daemon pod at the
	// start, of nodes.
	desiredNodes, nodes int

	// Evidence is what the workload's pods showed, when the readiness
	// delay was read from them (nil with --ready-after); Deadline the
	// Deployment's progress deadline, when one is pending.
	Evidence *evidence.Assessment
	Deadline *evidence.Deadline
	// neverReady names the pods taken never to become ready, as the
	// header says them: "those of the current template" (--never-ready,
	// or a stalled pod of it), "those of ReplicaSet web-5d8f" or "those
	// of revision web-8948ffb8" (the owner of a stalled pod).
	neverReady []string
}

// BytesPerUnit is the memory a unit of --max-work costs at most, measured
// as the peak process memory of the worst case (a Counts simulation whose
// trace keeps a step per sync) over a run stopped at once: about 270 bytes
// of live heap and the garbage collector's headroom.
const BytesPerUnit = 400

// MaxWorkUsage is --max-work's help: what it counts and the memory it
// bounds.
var MaxWorkUsage = fmt.Sprintf("Work bound: objects modelled and objects the trace keeps, summed over syncs, 1 to 9223372036854775807; "+
	"memory is bounded by --max-work: about %d bytes per unit at most, %.0f GB at the default", BytesPerUnit, float64(DefaultMaxWork*BytesPerUnit)/1e9)

// StatefulSetFlags are the world-model flags a StatefulSet's or a
// DaemonSet's prediction does not read: it models every pod.
var StatefulSetFlags = []string{"fidelity"}

// workBound adds to an error of a simulation stopped by --max-work
// (sim.ErrWorkBound) the bound and the advice; other errors are returned
// as they are.
func workBound(err error, w World, advice string) error {
	if errors.Is(err, sim.ErrWorkBound) {
		return fmt.Errorf("%w (--max-work %d: %s)", err, w.MaxWork, advice)
	}
	return err
}

// setWorkAdvice is what lowers the work of a StatefulSet's or DaemonSet's
// prediction: pods are modelled one by one.
const setWorkAdvice = "the rollout models too many pods over too many syncs: raise --max-work"

// RunStatefulSet simulates the rest of the rollout of s from s.Now under
// w with the StatefulSet planner (sim.RunStatefulSet, the revision data
// and template defaults the apps/v1 adapter gives upstream's): pods that
// are Running and Ready stay so, the others become ready w.ReadyAfter after
// their creation, or never with w.NeverReady for the set's template (the
// pods the simulation creates from it, and those of the update revision
// the stored status names when it is current). Invariants are checked at
// every sync, and the work is bounded by w.MaxWork; w.Fidelity is not
// read.
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
		Check:   true,
		MaxWork: w.MaxWork,
	}
	p := &Prediction{World: w, Start: s.Now, StatefulSet: m.StatefulSet, Fidelity: sim.Pods}
	var never []func(model.PodTemplate) bool
	if w.NeverReady {
		set := m.StatefulSet
		current := set.Spec.Template.Spec
		update := ""
		if set.Status.ObservedGeneration >= set.Generation {
			update = set.Status.UpdateRevision
		}
		never = append(never, func(t model.PodTemplate) bool {
			return t.Spec == current || (update != "" && t.Labels[model.StatefulSetRevisionLabel] == update)
		})
		p.neverReady = append(p.neverReady, "those of the current template")
	}
	if w.FromPods() {
		a := evidence.Assess(SetPods(m.StatefulSet.UID, m.Pods), s.Now, evidence.Options{})
		p.Evidence, cfg.World.ReadyAfter = &a, a.ReadyAfter
		// A stalled pod's revision never becomes ready: the pods the
		// simulation makes of it carry the same revision label.
		revisions := map[string]bool{}
		byName := podsByName(m.Pods)
		for _, st := range a.Stalled() {
			if pod := byName[st.Pod]; pod != nil && pod.Labels[model.StatefulSetRevisionLabel] != "" {
				revisions[pod.Labels[model.StatefulSetRevisionLabel]] = true
			}
		}
		for _, r := range sortedKeys(revisions) {
			p.neverReady = append(p.neverReady, fmt.Sprintf("those of revision %s", r))
		}
		if len(revisions) > 0 {
			never = append(never, func(t model.PodTemplate) bool { return revisions[t.Labels[model.StatefulSetRevisionLabel]] })
		}
	}
	cfg.World.NeverReady = anyOf(never)
	trace, err := sim.RunStatefulSet(cfg)
	if err != nil {
		return nil, workBound(err, w, setWorkAdvice)
	}
	p.SetTrace = trace
	return p, nil
}

// summary is the run's summary, whichever kind ran.
func (p *Prediction) summary() sim.Summary {
	if p.DaemonSetTrace != nil {
		return p.DaemonSetTrace.Summary
	}
	if p.SetTrace != nil {
		return p.SetTrace.Summary
	}
	return p.Trace.Summary
}

// WriteTimeline writes the run's timeline and summary.
func (p *Prediction) WriteTimeline(w io.Writer) error {
	if p.DaemonSetTrace != nil {
		return p.DaemonSetTrace.WriteTimeline(w)
	}
	if p.SetTrace != nil {
		return p.SetTrace.WriteTimeline(w)
	}
	return p.Trace.WriteTimeline(w)
}

// TraceValue is the run's trace, as -o json|yaml prints it.
func (p *Prediction) TraceValue() any {
	if p.DaemonSetTrace != nil {
		return p.DaemonSetTrace
	}
	if p.SetTrace != nil {
		return p.SetTrace
	}
	return p.Trace
}

// Run simulates the rest of the rollout of s from s.Now under w. A
// ReplicaSet's ready pods stay ready; the others become ready w.ReadyAfter
// after their creation, or never for the current template with
// w.NeverReady. Invariants are checked at every sync. New ReplicaSets are
// named as the cluster names them (appsv1.WithUpstreamHash: upstream's
// hash of the template as the API server stores it), as next names them.
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
		// Without it the simulation names them with rolloutplan's own
		// hash of the model's template: simulate and status --predict
		// gave another name than next and the cluster.
		PlanOptions: []plan.Option{appsv1.WithUpstreamHash()},
	}
	p := &Prediction{World: w, Start: s.Now, Deployment: m.Deployment}
	current := m.Deployment.Spec.Template
	var never []model.PodTemplate
	if w.NeverReady {
		never = append(never, current)
		p.neverReady = append(p.neverReady, "those of the current template")
	}
	if w.FromPods() {
		owned := DeploymentPods(m.Deployment, m.ReplicaSets, m.Pods)
		a := evidence.Assess(owned, s.Now, evidence.Options{})
		p.Evidence, cfg.World.ReadyAfter = &a, a.ReadyAfter
		if dl, ok := evidence.ProgressDeadline(m.Deployment); ok {
			p.Deadline = &dl
		}
		// A stalled pod's template never becomes ready: neither the pod
		// nor those its ReplicaSet makes.
		byName := podsByName(owned)
		seen := map[string]bool{}
		for _, st := range a.Stalled() {
			rs := owner(byName[st.Pod], m.ReplicaSets)
			if rs == nil || seen[rs.UID] {
				continue
			}
			seen[rs.UID] = true
			if slices.ContainsFunc(never, func(t model.PodTemplate) bool { return model.EqualIgnoreHash(t, rs.Spec.Template) }) {
				continue
			}
			never = append(never, rs.Spec.Template)
			if model.EqualIgnoreHash(rs.Spec.Template, current) {
				p.neverReady = append(p.neverReady, "those of the current template")
			} else {
				p.neverReady = append(p.neverReady, fmt.Sprintf("those of ReplicaSet %s", rs.Name))
			}
		}
	}
	if len(never) > 0 {
		cfg.World.NeverReady = func(t model.PodTemplate) bool {
			return slices.ContainsFunc(never, func(n model.PodTemplate) bool { return model.EqualIgnoreHash(t, n) })
		}
	}
	if w.Fidelity == "pods" {
		cfg.Fidelity = sim.Pods
	}
	trace, err := sim.Run(cfg)
	if err != nil {
		advice := "use --fidelity counts or raise --max-work"
		if cfg.Fidelity == sim.Counts {
			advice = "the rollout takes too many syncs: raise --max-work"
		}
		return nil, workBound(err, w, advice)
	}
	p.Fidelity, p.Trace = cfg.Fidelity, trace
	return p, nil
}

// WriteHeader writes the line that says what is simulated (the workload,
// the start, the strategy and the world model) and, when they were read
// from the pods, the line of the assumptions ([Prediction.Assumptions]).
func (p *Prediction) WriteHeader(w io.Writer) {
	if ds := p.DaemonSet; ds != nil {
		fmt.Fprintf(w, "DaemonSet %s/%s at %s: %d of %d nodes should run a daemon pod, %s; %s\n",
			ds.Namespace, ds.Name, p.Start.UTC().Format(time.RFC3339), p.desiredNodes, p.nodes, daemonSetStrategy(ds), p.readiness())
	} else if set := p.StatefulSet; set != nil {
		fmt.Fprintf(w, "StatefulSet %s/%s at %s: %d replicas, %s, %s; %s\n",
			set.Namespace, set.Name, p.Start.UTC().Format(time.RFC3339), replicas(set), policy(set), setStrategy(set), p.readiness())
	} else {
		d := p.Deployment
		fmt.Fprintf(w, "Deployment %s/%s at %s: %d replicas, %s; %s (%s fidelity)\n",
			d.Namespace, d.Name, p.Start.UTC().Format(time.RFC3339), d.DesiredReplicas(), strategy(d), p.readiness(), p.Fidelity)
	}
	if s := p.Assumptions(); s != "" {
		fmt.Fprintln(w, s)
	}
}

// Assumptions is what the prediction assumed of pods, read from them: the
// readiness delay ("assuming pods become ready 12s after creation, the
// median of 9 pods seen"), the first stalled pod ("the rollout is stalled:
// web-7d9f-abcde has not been ready for 20m0s, past the longest seen (31s)
// with a margin of 1m0s") and, then, the progress deadline ("the progress
// deadline (600s) fires at …"); when the rollout completes all the same (a
// stalled pod of an old ReplicaSet), the pod is "taken never to become
// ready, the rollout goes on without it". It is "" with --ready-after.
func (p *Prediction) Assumptions() string {
	a := p.Evidence
	if a == nil {
		return ""
	}
	parts := []string{a.Assumption()}
	stalled := a.Stalled()
	if len(stalled) > 0 {
		line := stalled[0].StallLine()
		if n := len(stalled) - 1; n == 1 {
			line += " (and 1 more pod)"
		} else if n > 1 {
			line += fmt.Sprintf(" (and %d more pods)", n)
		}
		switch {
		case p.Trace == nil && p.SetTrace == nil && p.DaemonSetTrace == nil:
			parts = append(parts, line)
		case p.Completed():
			// A stalled old pod: the rollout replaces it.
			parts = append(parts, line+": taken never to become ready, the rollout goes on without it")
		default:
			parts = append(parts, "the rollout is stalled: "+line)
			if p.Deadline != nil {
				parts = append(parts, p.Deadline.Line(p.Start))
			} else if p.StatefulSet != nil {
				parts = append(parts, "a StatefulSet has no progress deadline: it waits until the pod changes")
			} else if p.DaemonSet != nil {
				parts = append(parts, "a DaemonSet has no progress deadline: it waits until the pod changes")
			}
		}
	}
	return strings.Join(parts, "; ")
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
	if p.DaemonSetTrace != nil {
		werr = p.DaemonSetTrace.WriteSVG(f, title)
	} else if p.SetTrace != nil {
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
	if p.DaemonSet != nil {
		return p.DaemonSet.Namespace, p.DaemonSet.Name
	}
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
	readyAfter := p.World.ReadyAfter
	if p.Evidence != nil {
		readyAfter = p.Evidence.ReadyAfter
	}
	out := fmt.Sprintf("pods ready %s after creation", readyAfter)
	for _, n := range p.neverReady {
		out += ", " + n + " never"
	}
	return out
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
	// Evidence is what the assumptions were read from (absent with
	// --ready-after): the assumption line, and the pods' readiness
	// delays, waits and stalls.
	Evidence  *Evidence `json:"evidence,omitempty"`
	Fidelity  string    `json:"fidelity"`
	Completed bool      `json:"completed"`
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
	if a := p.Evidence; a != nil {
		e := &Evidence{Line: p.Assumptions(), Samples: len(a.Readiness.Samples), StallAfter: a.StallAfter.String(), ProgressDeadline: p.Deadline}
		if e.Samples > 0 {
			e.Median, e.Longest = a.Readiness.Median().String(), a.Readiness.Longest().String()
		}
		for _, w := range a.Stalled() {
			e.Stalled = append(e.Stalled, w.StallLine())
		}
		out.Evidence = e
	}
	if s.Completed {
		at := p.Start.Add(s.CompletedAfter).UTC()
		out.CompletesIn, out.CompletesAt, out.Syncs = s.CompletedAfter.String(), &at, s.CompletedSyncs
	} else {
		out.StallsAfter, out.StallReason = s.Elapsed.String(), s.StallReason
	}
	return out
}

// Evidence is what a prediction read from the pods, as -o json|yaml
// prints it.
type Evidence struct {
	// Line is the assumptions as text ([Prediction.Assumptions]).
	Line string `json:"line"`
	// Samples counts the pods seen becoming ready; Median and Longest are
	// their delays from creation to ready.
	Samples int    `json:"samples"`
	Median  string `json:"median,omitempty"`
	Longest string `json:"longest,omitempty"`
	// StallAfter is how long a pod may stay not ready before it is taken
	// as stalled; Stalled names the stalled pods and why.
	StallAfter       string             `json:"stallAfter"`
	Stalled          []string           `json:"stalled,omitempty"`
	ProgressDeadline *evidence.Deadline `json:"progressDeadline,omitempty"`
}

// DeploymentPods returns the pods of d's ReplicaSets: those whose
// controller is a ReplicaSet d controls.
func DeploymentPods(d *model.Deployment, replicaSets []*model.ReplicaSet, pods []*model.Pod) []*model.Pod {
	owned := map[string]bool{}
	for _, rs := range replicaSets {
		if rs != nil && rs.IsControlledBy(d.UID) {
			owned[rs.UID] = true
		}
	}
	var out []*model.Pod
	for _, p := range pods {
		if ref := p.ControllerRef(); ref != nil && owned[ref.UID] {
			out = append(out, p)
		}
	}
	return out
}

// SetPods returns the pods whose controller is the StatefulSet or
// DaemonSet of the UID.
func SetPods(uid string, pods []*model.Pod) []*model.Pod {
	var out []*model.Pod
	for _, p := range pods {
		if ref := p.ControllerRef(); ref != nil && ref.UID == uid {
			out = append(out, p)
		}
	}
	return out
}

// podsByName indexes pods by name.
func podsByName(pods []*model.Pod) map[string]*model.Pod {
	out := make(map[string]*model.Pod, len(pods))
	for _, p := range pods {
		out[p.Name] = p
	}
	return out
}

// owner returns the ReplicaSet that controls p, or nil.
func owner(p *model.Pod, replicaSets []*model.ReplicaSet) *model.ReplicaSet {
	if p == nil {
		return nil
	}
	ref := p.ControllerRef()
	if ref == nil {
		return nil
	}
	for _, rs := range replicaSets {
		if rs.UID == ref.UID {
			return rs
		}
	}
	return nil
}

// anyOf is the predicate true when one of fs is; nil without any.
func anyOf(fs []func(model.PodTemplate) bool) func(model.PodTemplate) bool {
	if len(fs) == 0 {
		return nil
	}
	return func(t model.PodTemplate) bool {
		return slices.ContainsFunc(fs, func(f func(model.PodTemplate) bool) bool { return f(t) })
	}
}

func sortedKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}
