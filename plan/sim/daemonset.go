package sim

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

// DaemonSetConfig describes one simulation of a DaemonSet over a node
// pool.
type DaemonSetConfig struct {
	// DaemonSet is the starting DaemonSet; it is defaulted with
	// model.DefaultDaemonSet. It needs a name, a UID, a selector and a
	// template; an empty namespace means "default", generation 0 means 1,
	// and a missing template generation annotation is set to the
	// generation, as the API server sets it on create.
	DaemonSet *model.DaemonSet
	// Nodes is the starting node pool.
	Nodes []*model.Node
	// Pods and ControllerRevisions are the starting namespace (optional),
	// such as a live cluster's, and PodNodeAffinity the required node
	// affinities of those pods by name (daemonset.State.PodNodeAffinity).
	// Ready pods stay ready; bound pods that are not become ready
	// World.ReadyAfter after their creation (at Start at the earliest);
	// deleted ones go World.TerminationGrace after their deletion
	// timestamp.
	Pods                []*model.Pod
	ControllerRevisions []*model.ControllerRevision
	PodNodeAffinity     map[string]*model.NodeSelector
	// Start is the clock at the first sync; the zero value means
	// 2026-01-01T00:00:00Z.
	Start time.Time
	// SyncInterval is the time between a sync that changed something and the
	// next one; zero means one second.
	SyncInterval time.Duration
	// Script holds the user's actions, each applied just before a sync. A
	// DaemonSet takes SetTemplateSpec, SetStrategy (UpdateStrategy
	// RollingUpdate with MaxSurge and MaxUnavailable, or OnDelete),
	// UndoRollout, DeletePod and the node events AddNode, RemoveNode,
	// CordonNode, UncordonNode, TaintNode and UntaintNode; ScaleTo,
	// PauseRollout and ResumeRollout are refused (kubectl refuses to pause
	// a DaemonSet, which has no replicas).
	Script []Event
	// World models pods: ReadyAfter, NeverReady, FailureRate,
	// TerminationGrace and Seed (Nodes is not read: the pool is Nodes).
	World World
	// EvictionRate is the probability, per sync, that a Ready pod ends in
	// phase Failed: the controller deletes it and creates another.
	EvictionRate float64
	// PlanOptions are passed to every daemonset.Sync.
	PlanOptions []daemonset.Option
	// MaxSyncs bounds the simulation; zero means 100 000 + 8·nodes.
	MaxSyncs int
	// MaxWork bounds the work of the simulation, and with it its memory,
	// as Config.MaxWork does for a Deployment: the sum, over its syncs, of
	// the objects modelled at that sync (nodes, pods, ControllerRevisions
	// and one for the DaemonSet) and of the objects the trace keeps of it
	// (with RecordSteps: one for the step and one per user action, kubelet
	// event, write, event, note, revision and violation it records, and
	// one per ineligible node when that list changed). RunDaemonSet fails
	// with an error wrapping [ErrWorkBound] past it. Zero means no bound.
	// Beyond the starting state, a run takes about 400 bytes of memory
	// per unit at most, as a Deployment's does (280 measured on one node
	// whose pod is evicted every sync, the worst case: a step a sync over
	// almost no objects).
	MaxWork int64
	// Record chooses how much the trace keeps.
	Record Record
	// Check runs plantest.CheckDaemonSet on every sync and records
	// violations.
	Check bool
}

// DaemonSetTrace is the record of a DaemonSet simulation.
type DaemonSetTrace struct {
	// Steps holds one entry per sync (unless Config.Record is
	// RecordSummary).
	Steps []DaemonSetStep `json:"steps,omitempty"`
	// Summary sums the run up as for a Deployment, over the DaemonSet's
	// pods; MinAvailable counts the nodes that should run a daemon pod and
	// have an available one.
	Summary Summary `json:"summary"`
}

// DaemonSetStep is one sync: the user actions before it, what the planner
// decided and why, and the cluster right after the writes.
type DaemonSetStep struct {
	Sync int       `json:"sync"`
	Time time.Time `json:"time"`
	// User lists the script actions applied before this sync.
	User []string `json:"user,omitempty"`
	// Kubelet lists what the stand-in scheduler, kubelets, taint manager
	// and pod garbage collector did since the previous sync.
	Kubelet []string         `json:"kubelet,omitempty"`
	Writes  []DaemonSetWrite `json:"writes,omitempty"`
	Events  []plan.Event     `json:"events,omitempty"`
	Notes   []plan.Reason    `json:"notes,omitempty"`
	Err     string           `json:"error,omitempty"`
	// Revisions are the DaemonSet's ControllerRevisions with their pods,
	// lowest revision number first (a revision some pod names but that no
	// longer exists comes last, with number 0); Current marks the revision
	// of the DaemonSet's template (the plan's hash), Update is not used.
	Revisions []RevisionAt `json:"revisions"`
	// Desired counts the nodes that should run a daemon pod; Pods the
	// DaemonSet's pods, with Pods.Unavailable the desired nodes without an
	// available daemon pod (one Running, Ready for minReadySeconds and not
	// being deleted).
	Desired int32     `json:"desired"`
	Pods    PodCounts `json:"pods"`
	// Surging counts the nodes running two daemon pods (neither being
	// deleted).
	Surging int32 `json:"surging"`
	// Nodes shows the node pool in name order, one character per node
	// (at most 64, then "…"): the revision letter (RevisionAt.Letter) of
	// its newest pod that is not being deleted, upper case when Running and
	// Ready, lower case when not; "-" only terminating pods; "!" a failed
	// pod; "." no pod on a node that should run one; "_" no pod on a node
	// that should not.
	Nodes string `json:"nodes"`
	// Ineligible names the nodes that should not run a daemon pod, with
	// why (the planner's placement), e.g. "n-3: node n-3 has taint
	// dedicated=gpu:NoSchedule that the pod does not tolerate".
	Ineligible []string             `json:"ineligible,omitempty"`
	Violations []plantest.Violation `json:"violations,omitempty"`
}

// DaemonSetWrite is one write of a DaemonSet plan, as the trace keeps it.
type DaemonSetWrite struct {
	Kind daemonset.ActionKind `json:"kind"`
	Name string               `json:"name"`
	// Node is the node of a pod create or delete.
	Node    string      `json:"node,omitempty"`
	Applied bool        `json:"applied"`
	Reason  plan.Reason `json:"reason"`
}

// RunDaemonSet simulates cfg and returns its trace: the DaemonSet planner
// (package plan/daemonset) syncs the DaemonSet again and again over the
// node pool, its writes are applied to a modelled cluster, a stand-in
// scheduler binds the pods to their nodes and stand-in kubelets start,
// fail and remove them, and the script's events change the template and
// the node pool, until the rollout completes or stalls. It fails on an
// invalid configuration or when the planner rejects a state.
//
// The rollout is complete when the status has observed the generation and
// counts every node that should run a daemon pod as updated and
// available, every such node runs exactly one pod, of the current
// revision and available, no other pod is left (but pods of the current
// revision on nodes that may keep them, tainted NoSchedule after they
// started) and none is terminating.
//
// Liveness (invariant D6): after a template change to a complete
// RollingUpdate DaemonSet over a fixed pool of n nodes that should run a
// daemon pod, whose new pods become ready, the update completes within
// [DaemonSetLivenessBound] syncs.
func RunDaemonSet(cfg DaemonSetConfig) (*DaemonSetTrace, error) {
	r, err := newDaemonSetRunner(cfg)
	if err != nil {
		return nil, err
	}
	return r.run()
}

// DaemonSetLivenessBound is the number of syncs after a template change
// within which the rolling update of ds completes over a fixed pool of
// nodes nodes that should all run a daemon pod, when the new pods become
// ready (invariant D6): k·⌈nodes/b⌉, b the nodes replaced at a time
// (maxSurge with a surge, else maxUnavailable, both resolved against nodes
// and rounded up, at least 1) and k the syncs one wave of b nodes takes:
//
//   - 2 when pods start, stop and become available at once (instant:
//     World.ReadyAfter, World.TerminationGrace and minReadySeconds zero):
//     one sync deletes the old pods (with maxSurge: creates the new ones),
//     the next creates their replacements (deletes the old ones) and the
//     one after sees them ready and starts the next wave;
//   - 5 for any ReadyAfter, TerminationGrace and SyncInterval, 7 with
//     minReadySeconds: each wait (terminating, starting) costs at most one
//     sync that finds nothing new (the sync after a write records the
//     status it changed), and with minReadySeconds a new pod costs one sync
//     that sees it ready (not yet available; the planner requeues after
//     minReadySeconds), the one after it, and the one that sees it
//     available.
//
// The bound is exact without a surge: an exhaustive sweep (1–8 nodes,
// maxUnavailable 1, 2, 3, 50% and 100%, maxSurge 1, 2, 50% and 100%, five
// timings) reaches it for every number of waves. With a surge a wave overlaps the
// termination of the previous wave's old pods, so the bound has a sync or
// more to spare unless pods start and stop at once. A rapid property over
// random pools of up to 14 nodes (some outside the node selector or
// tainted, which do not count), budgets, timings and sync intervals never
// exceeds it. The burst limit (daemonset.BurstReplicas) is taken as never
// reached: b at most 250. The bound is 0 for OnDelete, which replaces
// nothing by itself.
func DaemonSetLivenessBound(ds *model.DaemonSet, nodes int, instant bool) int {
	if nodes <= 0 || ds.Spec.UpdateStrategy.Type == model.DaemonSetOnDelete {
		return 0
	}
	n := int32(nodes)
	b, _ := daemonset.UnavailableCount(ds, n)
	if daemonset.AllowsSurge(ds) {
		b, _ = daemonset.SurgeCount(ds, n)
	}
	b = max(b, 1)
	waves := (nodes + int(b) - 1) / int(b)
	switch {
	case instant:
		return 2 * waves
	case ds.Spec.MinReadySeconds > 0:
		return 7 * waves
	}
	return 5 * waves
}

type dsRunner struct {
	cfg DaemonSetConfig
	scheduler
	ns       dsNamespace
	kubelet  *dsKubelet
	rng      *rand.Rand
	interval time.Duration
	trace    DaemonSetTrace
	letters  revisionLetters
	opts     []daemonset.Option
	// created counts the pods created so far: the simulation's pod namer
	// starts after them, so that a name is never used twice.
	created int
	// planned, when set (by tests), sees every state planned and its plan.
	planned func(daemonset.State, daemonset.Plan)
	// lastKept is the work the trace's last step costs.
	lastKept int64
}

func newDaemonSetRunner(cfg DaemonSetConfig) (*dsRunner, error) {
	if cfg.DaemonSet == nil {
		return nil, errors.New("sim: DaemonSetConfig.DaemonSet is nil")
	}
	ds := cfg.DaemonSet.DeepCopy()
	if ds.Namespace == "" {
		ds.Namespace = "default"
	}
	if ds.Generation == 0 {
		ds.Generation = 1
	}
	if _, ok := ds.Annotations[model.DaemonSetTemplateGenerationAnnotation]; !ok {
		ds.Annotations = maps.Clone(ds.Annotations)
		if ds.Annotations == nil {
			ds.Annotations = map[string]string{}
		}
		ds.Annotations[model.DaemonSetTemplateGenerationAnnotation] = strconv.FormatInt(ds.Generation, 10)
	}
	ds = model.DefaultDaemonSet(ds)
	if cfg.Start.IsZero() {
		cfg.Start = defaultStart
	}
	r := &dsRunner{cfg: cfg, interval: cfg.SyncInterval, letters: revisionLetters{}}
	if r.interval <= 0 {
		r.interval = time.Second
	}
	if r.cfg.MaxSyncs <= 0 {
		r.cfg.MaxSyncs = 100_000 + 8*len(cfg.Nodes)
	}
	r.ns = dsNamespace{ds: ds, affinity: map[string]*model.NodeSelector{}, tolerations: map[string][]model.Toleration{}}
	for _, n := range cfg.Nodes {
		if n == nil {
			return nil, errors.New("sim: DaemonSetConfig.Nodes holds nil")
		}
		r.ns.nodes = put(r.ns.nodes, n.DeepCopy())
	}
	for _, p := range cfg.Pods {
		if p == nil {
			return nil, errors.New("sim: DaemonSetConfig.Pods holds nil")
		}
		r.ns.pods = put(r.ns.pods, p.DeepCopy())
	}
	for _, c := range cfg.ControllerRevisions {
		if c == nil {
			return nil, errors.New("sim: DaemonSetConfig.ControllerRevisions holds nil")
		}
		r.ns.revisions = put(r.ns.revisions, c.DeepCopy())
	}
	for name, a := range cfg.PodNodeAffinity {
		r.ns.affinity[name] = a.DeepCopy()
	}
	if err := model.ValidateDaemonSetSnapshot(ds, r.ns.nodes, r.ns.pods, r.ns.revisions); err != nil {
		return nil, fmt.Errorf("sim: starting state: %w", err)
	}
	sched, err := newScheduler(cfg.Start, cfg.Script)
	if err != nil {
		return nil, err
	}
	r.scheduler = sched
	r.rng = newRNG(cfg.World.Seed)
	r.kubelet = newDSKubelet(cfg.World, cfg.EvictionRate, r.rng, &r.ns, cfg.Start)
	r.kubelet.log = cfg.Record != RecordSummary
	// The planner names pods after the DaemonSet's UID and a counter from
	// 0, skipping the names in use, so a pod created after another is gone
	// would take its name; the API server's random suffixes almost never
	// repeat, and neither do the simulation's. PlanOptions may replace it.
	uid := ds.UID
	namer := func(prefix string, n int) string { return replicaset.DefaultPodName(prefix, uid, r.created+n) }
	r.opts = append([]daemonset.Option{daemonset.WithPodNamer(namer)}, cfg.PlanOptions...)
	return r, nil
}

func (r *dsRunner) run() (*DaemonSetTrace, error) {
	if err := runSyncs(r, &r.scheduler, &r.trace.Summary, r.interval, r.cfg.MaxSyncs, r.cfg.MaxWork); err != nil {
		return nil, err
	}
	return &r.trace, nil
}

// modelled counts the cluster's objects (see setSyncer): a sync creates at
// most a pod per node, which the nodes account for.
func (r *dsRunner) modelled() (int64, int) {
	return int64(len(r.ns.nodes)+len(r.ns.pods)+len(r.ns.revisions)) + 1, len(r.ns.pods)
}

// kept is the work of the trace's last step (see setSyncer).
func (r *dsRunner) kept() int64 { return r.lastKept }

// syncAt runs one sync (see setSyncer).
func (r *dsRunner) syncAt(sync int, now time.Time, charge func() error) (p daemonset.Plan, changed, complete bool, err error) {
	version := r.ns.version
	user, err := r.userActions(sync, now, &r.trace.Summary, func(a Action) error { return a.applyToDaemonSet(&r.ns, now) })
	if err != nil {
		return p, false, false, err
	}
	changed = r.kubelet.advance(&r.ns, now)
	if err := charge(); err != nil {
		return p, false, false, err
	}

	state := r.ns.state(now)
	p, err = daemonset.Sync(state, r.opts...)
	var failed *daemonset.SyncError
	if err != nil && !errors.As(err, &failed) {
		return p, false, false, fmt.Errorf("sim: sync %d: the planner rejected the state: %w", sync, err)
	}
	var violations []plantest.Violation
	if r.cfg.Check {
		violations = plantest.CheckDaemonSet(state, p)
	}
	if r.planned != nil {
		r.planned(state, p)
	}
	writes, err := r.applyPlan(p, now)
	if err != nil {
		return p, false, false, fmt.Errorf("sim: sync %d: %w", sync, err)
	}
	// A sync that ends with an error is retried by the controller's
	// rate limiter.
	changed = changed || r.ns.version != version || len(user) > 0 || failed != nil
	return p, changed, r.record(sync, now, user, p, failed, writes, violations), nil
}

// applyPlan applies the plan's writes in order.
func (r *dsRunner) applyPlan(p daemonset.Plan, now time.Time) ([]DaemonSetWrite, error) {
	steps := r.cfg.Record != RecordSummary
	var writes []DaemonSetWrite
	if steps {
		writes = make([]DaemonSetWrite, 0, len(p.Actions))
	}
	for _, a := range p.Actions {
		err := r.ns.apply(a, now)
		var refused errNotApplied
		if err != nil && !errors.As(err, &refused) {
			return nil, err
		}
		if err == nil {
			r.trace.Summary.Writes++
			if a.Kind == daemonset.CreatePod {
				r.created++
			}
		} else {
			r.trace.Summary.Conflicts++
		}
		if steps {
			writes = append(writes, DaemonSetWrite{Kind: a.Kind, Name: a.Object.Name, Node: a.Node, Applied: err == nil, Reason: a.Reason})
		}
	}
	return writes, nil
}

// nextEvent is when something happens by itself: a pod transition or the
// planner's requeue; zero when nothing will.
func (r *dsRunner) nextEvent(p daemonset.Plan, now time.Time) time.Time {
	return withRequeue(r.kubelet.next(&r.ns, now), p.Requeue, now, r.interval)
}

// dsPods are the DaemonSet's pods grouped by the node they are bound to
// (or meant for), and the placement of every node.
type dsPods struct {
	pods      []*model.Pod
	byNode    map[string][]*model.Pod
	placement map[string]daemonset.Placement
}

// group groups the pods; placements are the planner's of this sync
// (Plan.Nodes, one per node in name order), or nil to compute them.
func (r *dsRunner) group(placements []daemonset.Placement) dsPods {
	ds := r.ns.ds
	g := dsPods{byNode: map[string][]*model.Pod{}, placement: make(map[string]daemonset.Placement, len(r.ns.nodes))}
	if len(placements) != len(r.ns.nodes) {
		placements = placements[:0:0]
		for _, n := range r.ns.nodes {
			placements = append(placements, daemonset.NodeShouldRunDaemonPod(n, ds))
		}
	}
	for _, pl := range placements {
		g.placement[pl.Node] = pl
	}
	for _, p := range r.ns.pods {
		if !p.IsControlledBy(ds.UID) {
			continue
		}
		g.pods = append(g.pods, p)
		node := p.Spec.NodeName
		if node == "" {
			node, _ = model.TargetNodeName(p, r.ns.affinity[p.Name])
		}
		g.byNode[node] = append(g.byNode[node], p)
	}
	return g
}

func (r *dsRunner) availablePod(p *model.Pod, now time.Time) bool {
	return p.DeletionTimestamp == nil && !p.IsTerminal() && runningAndReady(p) &&
		model.IsPodAvailable(p, r.ns.ds.Spec.MinReadySeconds, now)
}

// record keeps the sync in the trace and the summary and reports whether
// the rollout is complete after it.
func (r *dsRunner) record(sync int, now time.Time, user []string, p daemonset.Plan, failed *daemonset.SyncError,
	writes []DaemonSetWrite, violations []plantest.Violation) bool {
	sum := &r.trace.Summary
	sum.countSync(sync, now.Sub(r.cfg.Start), violations)
	g := r.group(p.Nodes)
	available := func(q *model.Pod) bool { return r.availablePod(q, now) }
	var t podTally
	for _, q := range g.pods {
		t.add(q, available)
	}
	c := t.counts()
	var desired, availableNodes, surging int32
	for _, n := range r.ns.nodes {
		live := 0
		ok := false
		for _, q := range g.byNode[n.Name] {
			if q.DeletionTimestamp == nil && !q.IsTerminal() {
				live++
			}
			ok = ok || r.availablePod(q, now)
		}
		if live > 1 {
			surging++
		}
		if g.placement[n.Name].ShouldRun {
			desired++
			if ok {
				availableNodes++
			}
		}
	}
	c.Unavailable = desired - availableNodes
	// The minimum is of nodes with an available pod, not of pods: a
	// surging node's two pods keep one node available.
	sum.notePods(c.Pods, c.Active, availableNodes)
	complete := r.complete(g, p, now)
	r.noteCompletion(sum, sync, now, complete)
	if r.cfg.Record == RecordSummary {
		return complete
	}
	step := DaemonSetStep{
		Sync: sync, Time: now, User: user, Kubelet: r.kubelet.events, Writes: writes, Events: p.Events, Notes: p.Notes, Violations: violations,
		Desired: desired, Pods: c, Surging: surging,
	}
	if failed != nil {
		step.Err = failed.Message
	}
	for _, n := range r.ns.nodes {
		if pl := g.placement[n.Name]; !pl.ShouldRun {
			step.Ineligible = append(step.Ineligible, pl.Reason.Message)
		}
	}
	// Steps share an unchanged list: a long run over a large pool keeps
	// one copy per change, not one per sync.
	var prev *DaemonSetStep
	if k := len(r.trace.Steps); k > 0 {
		prev = &r.trace.Steps[k-1]
		if slices.Equal(prev.Ineligible, step.Ineligible) {
			step.Ineligible = prev.Ineligible
		}
	}
	step.Revisions = r.revisionsAt(g.pods, p.Hash, now)
	step.Nodes = r.nodeGlyphs(g)
	r.lastKept = step.units(prev)
	r.trace.Steps = append(r.trace.Steps, step)
	return complete
}

// units is the work a step after prev (nil: the first) costs: one for the
// step (its node glyphs included: at most 64) and one per object it
// records; its ineligible nodes only when they changed since prev, as the
// steps share an unchanged list.
func (s *DaemonSetStep) units(prev *DaemonSetStep) int64 {
	n := 1 + int64(len(s.User)+len(s.Kubelet)+len(s.Writes)+len(s.Events)+len(s.Notes)+len(s.Revisions)+len(s.Violations))
	if prev == nil || !slices.Equal(prev.Ineligible, s.Ineligible) {
		n += int64(len(s.Ineligible))
	}
	return n
}

// revisionsAt tallies the DaemonSet's pods by revision (by their
// controller-revision-hash label); hash is the current revision's.
func (r *dsRunner) revisionsAt(pods []*model.Pod, hash string, now time.Time) []RevisionAt {
	ds := r.ns.ds
	var revs []*model.ControllerRevision
	for _, rv := range r.ns.revisions {
		if rv.IsControlledBy(ds.UID) {
			revs = append(revs, rv)
		}
	}
	slices.SortFunc(revs, model.CompareRevisions)
	out := make([]RevisionAt, 0, len(revs))
	index := map[string]int{}
	for _, rv := range revs {
		h := rv.Labels[model.DaemonSetUniqueLabel]
		if h == "" {
			continue
		}
		index[h] = len(out)
		out = append(out, RevisionAt{Name: rv.Name, Letter: r.letters.letter(rv.Name), Revision: rv.Revision, Current: hash != "" && h == hash})
	}
	tallies := make([]podTally, len(out))
	available := func(q *model.Pod) bool { return r.availablePod(q, now) }
	for _, q := range pods {
		h := q.Labels[model.DaemonSetUniqueLabel]
		i, ok := index[h]
		if !ok {
			i = len(out)
			index[h] = i
			name := ds.Name + "-" + h
			if h == "" {
				name = ""
			}
			out = append(out, RevisionAt{Name: name, Letter: r.letters.letter(name), Current: hash != "" && h == hash})
			tallies = append(tallies, podTally{})
		}
		tallies[i].add(q, available)
	}
	for i, t := range tallies {
		t.into(&out[i])
	}
	return out
}

// maxNodes is the most nodes DaemonSetStep.Nodes shows.
const maxNodes = 64

// nodeGlyphs draws the node pool (see DaemonSetStep.Nodes).
func (r *dsRunner) nodeGlyphs(g dsPods) string {
	ds := r.ns.ds
	var b strings.Builder
	for i, n := range r.ns.nodes {
		if i == maxNodes {
			b.WriteString("…")
			break
		}
		var newest, failed *model.Pod
		terminating := false
		for _, q := range g.byNode[n.Name] {
			switch {
			case q.DeletionTimestamp != nil:
				terminating = true
			case q.IsTerminal():
				failed = q
			case newest == nil || q.CreationTimestamp.After(newest.CreationTimestamp) ||
				q.CreationTimestamp.Equal(newest.CreationTimestamp) && q.Name > newest.Name:
				newest = q
			}
		}
		switch {
		case newest != nil:
			h := newest.Labels[model.DaemonSetUniqueLabel]
			name := ds.Name + "-" + h
			for _, rv := range r.ns.revisions {
				if rv.IsControlledBy(ds.UID) && rv.Labels[model.DaemonSetUniqueLabel] == h {
					name = rv.Name
				}
			}
			if h == "" {
				name = ""
			}
			l := r.letters.letter(name)
			if !runningAndReady(newest) {
				l = strings.ToLower(l)
			}
			b.WriteString(l)
		case failed != nil:
			b.WriteByte('!')
		case terminating:
			b.WriteByte('-')
		case g.placement[n.Name].ShouldRun:
			b.WriteByte('.')
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// complete reports a finished rollout (see RunDaemonSet).
func (r *dsRunner) complete(g dsPods, p daemonset.Plan, now time.Time) bool {
	ds := r.ns.ds
	st := ds.Status
	if p.Hash == "" || st.ObservedGeneration < ds.Generation {
		return false
	}
	desired := int32(0)
	for _, n := range r.ns.nodes {
		pl := g.placement[n.Name]
		if pl.ShouldRun {
			desired++
		}
		pods := g.byNode[n.Name]
		for _, q := range pods {
			if q.DeletionTimestamp != nil || q.IsTerminal() || q.Labels[model.DaemonSetUniqueLabel] != p.Hash || !pl.ShouldContinueRunning {
				return false
			}
		}
		if pl.ShouldRun && (len(pods) != 1 || !r.availablePod(pods[0], now)) {
			return false
		}
	}
	for node, pods := range g.byNode {
		if r.ns.node(node) == nil && len(pods) > 0 {
			return false
		}
	}
	if ds.Spec.UpdateStrategy.Type == model.DaemonSetOnDelete && desired == 0 {
		return st.DesiredNumberScheduled == 0
	}
	return st.DesiredNumberScheduled == desired && st.UpdatedNumberScheduled == desired && st.NumberAvailable == desired && st.NumberUnavailable == 0
}

// dsStallNotes are the notes that do not explain a stall.
var dsStallNotes = []daemonset.ReasonCode{daemonset.NoteStatusUnchanged, daemonset.NoteUpdated, daemonset.NoteRollingUpdateDeferred}

// finish records why the simulation stopped short of completion.
func (r *dsRunner) finish(last daemonset.Plan) {
	sum := &r.trace.Summary
	if !sum.endRun(len(r.script)) {
		return
	}
	why := telling(nil, last.Notes, dsStallNotes)
	g := r.group(nil)
	var unbound, notReady []string
	for _, n := range r.ns.nodes {
		if !g.placement[n.Name].ShouldRun {
			continue
		}
		for _, q := range g.byNode[n.Name] {
			switch {
			case q.DeletionTimestamp != nil || q.IsTerminal():
			case q.Spec.NodeName == "":
				unbound = append(unbound, q.Name+" (node "+n.Name+")")
			case !model.IsPodReady(q):
				notReady = append(notReady, q.Name+" (node "+n.Name+")")
			}
		}
	}
	if len(unbound) > 0 {
		why = append(why, "pods the scheduler cannot bind to their node: "+podList(unbound))
	}
	if len(notReady) > 0 {
		why = append(why, "pods not Ready: "+podList(notReady))
	}
	sum.StallReason = stallReason(why)
}

// podList names pods for a stall reason: up to three, then how many more.
func podList(pods []string) string {
	const shown = 3
	if len(pods) <= shown {
		return strings.Join(pods, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(pods[:shown], ", "), len(pods)-shown)
}
