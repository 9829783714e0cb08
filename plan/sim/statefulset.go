package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// StatefulSetConfig describes one simulation of a StatefulSet.
type StatefulSetConfig struct {
	// StatefulSet is the starting set; it is defaulted with
	// model.DefaultStatefulSet. It needs a name, a UID, a selector and a
	// template; an empty namespace means "default" and generation 0 means 1.
	StatefulSet *model.StatefulSet
	// Pods, ControllerRevisions and Claims are the starting namespace
	// (optional), such as a live cluster's. Ready pods stay ready, the
	// others become ready World.ReadyAfter after their creation (at Start at
	// the earliest), deleted ones go World.TerminationGrace after their
	// deletion timestamp.
	Pods                []*model.Pod
	ControllerRevisions []*model.ControllerRevision
	Claims              []*model.PersistentVolumeClaim
	// Start is the clock at the first sync; the zero value means
	// 2026-01-01T00:00:00Z.
	Start time.Time
	// SyncInterval is the time between a sync that changed something and the
	// next one; zero means one second.
	SyncInterval time.Duration
	// Script holds the user's actions, each applied just before a sync. A
	// StatefulSet takes SetTemplateSpec, ScaleTo, SetPartition, SetStrategy
	// (with Action.UpdateStrategy), UndoRollout and DeletePod; PauseRollout
	// and ResumeRollout are refused, as kubectl refuses them.
	Script []Event
	// World models pods: ReadyAfter, NeverReady, FailureRate,
	// TerminationGrace and Seed (Nodes is not read).
	World World
	// EvictionRate is the probability, per sync, that a Ready pod ends in
	// phase Failed (evicted, its node lost): the controller deletes it and
	// creates it again.
	EvictionRate float64
	// MaxUnavailable turns the MaxUnavailableStatefulSet feature gate on
	// (off in v1.36): it is passed to the planner after PlanOptions and to
	// the invariant checker, so set it here rather than in PlanOptions.
	MaxUnavailable bool
	// PlanOptions are passed to every statefulset.Sync.
	PlanOptions []statefulset.Option
	// MaxSyncs bounds the simulation; zero means 100 000 + 8·replicas.
	MaxSyncs int
	// MaxWork bounds the work of the simulation, and with it its memory,
	// as Config.MaxWork does for a Deployment: the sum, over its syncs, of
	// the objects modelled at that sync (pods, ControllerRevisions, claims
	// and one for the set) and of the objects the trace keeps of it (with
	// RecordSteps: one for the step and one per user action, kubelet
	// event, write, event, note, revision and violation it records). The
	// objects a sync may create count as modelled at it, ten units each:
	// its template's ControllerRevision, a pod for every ordinal whose pod
	// the set does not keep (missing, failed, released) under the
	// Parallel policy (which creates every missing replica in one sync,
	// and may create again a pod it deleted or released in it), one under
	// OrderedReady, and the claims missing for the ordinals in range.
	// RunStatefulSet fails with an error wrapping [ErrWorkBound] past it.
	// Zero means no bound. Beyond the starting state, a run takes about
	// 400 bytes of memory per unit at most, as a Deployment's does (290
	// measured on a one-pod set evicted every sync, the worst case: a step
	// a sync over almost no objects).
	MaxWork int64
	// Record chooses how much the trace keeps.
	Record Record
	// Check runs plantest.CheckStatefulSet on every sync and records
	// violations.
	Check bool
}

// StatefulSetTrace is the record of a StatefulSet simulation.
type StatefulSetTrace struct {
	// Steps holds one entry per sync (unless Config.Record is
	// RecordSummary).
	Steps []StatefulSetStep `json:"steps,omitempty"`
	// Summary sums the run up as for a Deployment; Writes counts the
	// writes applied and Conflicts those the API server rejects (a create
	// whose name is taken, a status with a negative count).
	Summary Summary `json:"summary"`
}

// StatefulSetStep is one sync: the user actions before it, what the
// planner decided and why, and the namespace right after the writes.
type StatefulSetStep struct {
	Sync int       `json:"sync"`
	Time time.Time `json:"time"`
	// User lists the script actions applied before this sync.
	User []string `json:"user,omitempty"`
	// Kubelet lists what the stand-in kubelet and garbage collector did
	// since the previous sync: "web-2 Running and Ready", "web-1 gone".
	Kubelet []string `json:"kubelet,omitempty"`
	// Writes are the plan's writes with whether each was applied.
	Writes []StatefulSetWrite `json:"writes,omitempty"`
	Events []plan.Event       `json:"events,omitempty"`
	Notes  []plan.Reason      `json:"notes,omitempty"`
	Err    string             `json:"error,omitempty"`
	// Revisions are the set's ControllerRevisions with their pods, oldest
	// revision number first; a revision some pod names but that no longer
	// exists comes last, with number 0.
	Revisions []RevisionAt `json:"revisions"`
	// Replicas is the set's spec.replicas after the sync.
	Replicas int32     `json:"replicas"`
	Pods     PodCounts `json:"pods"`
	// Ordinals shows the pods by ordinal, from spec.ordinals.start to the
	// highest of the replicas and the pods: each pod's revision letter
	// (RevisionAt.Letter), upper case when Running and Ready, lower case
	// when not; "-" a pod being deleted, "!" a failed or succeeded one,
	// "." no pod. At most 64 ordinals are shown, then "…".
	Ordinals string `json:"ordinals"`
	// CurrentRevision and UpdateRevision are the set's stored status.
	CurrentRevision string               `json:"currentRevision,omitempty"`
	UpdateRevision  string               `json:"updateRevision,omitempty"`
	Violations      []plantest.Violation `json:"violations,omitempty"`
}

// RevisionAt is one ControllerRevision after a sync, with the set's pods
// at it (by their controller-revision-hash label), counted from the
// modelled pods.
type RevisionAt struct {
	Name string `json:"name"`
	// Letter names the revision in StatefulSetStep.Ordinals and the
	// timeline: A for the first revision the simulation saw, B for the
	// next, and so on.
	Letter   string `json:"letter"`
	Revision int64  `json:"revision"`
	Current  bool   `json:"current,omitempty"`
	Update   bool   `json:"update,omitempty"`
	// Active counts its pods that are not being deleted (failed ones
	// included); Ready and Available are among those; Terminating counts
	// its pods being deleted.
	Active      int32 `json:"active"`
	Ready       int32 `json:"ready"`
	Available   int32 `json:"available"`
	Terminating int32 `json:"terminating"`
}

// StatefulSetWrite is one write of a StatefulSet plan, as the trace keeps
// it.
type StatefulSetWrite struct {
	Kind statefulset.ActionKind `json:"kind"`
	Name string                 `json:"name"`
	// Applied reports that the namespace took the write; Conflict that the
	// API server rejects it (Action.Error or Action.Invalid).
	Applied  bool        `json:"applied"`
	Conflict bool        `json:"conflict,omitempty"`
	Reason   plan.Reason `json:"reason"`
}

// RunStatefulSet simulates cfg and returns its trace: the StatefulSet
// planner (package plan/statefulset) syncs the set again and again, its
// writes are applied to a modelled namespace, and a stand-in kubelet starts,
// fails and removes pods, until the rollout completes or stalls. It fails
// on an invalid configuration or when the planner rejects a state.
func RunStatefulSet(cfg StatefulSetConfig) (*StatefulSetTrace, error) {
	r, err := newStatefulSetRunner(cfg)
	if err != nil {
		return nil, err
	}
	return r.run()
}

type stsRunner struct {
	cfg StatefulSetConfig
	scheduler
	ns       stsNamespace
	kubelet  *kubelet
	rng      *rand.Rand
	interval time.Duration
	opts     []statefulset.Option
	trace    StatefulSetTrace
	letters  revisionLetters
	// lastKept is the work the trace's last step costs.
	lastKept int64
}

func newStatefulSetRunner(cfg StatefulSetConfig) (*stsRunner, error) {
	if cfg.StatefulSet == nil {
		return nil, errors.New("sim: StatefulSetConfig.StatefulSet is nil")
	}
	set := cfg.StatefulSet.DeepCopy()
	if set.Namespace == "" {
		set.Namespace = "default"
	}
	if set.Generation == 0 {
		set.Generation = 1
	}
	set = model.DefaultStatefulSet(set)
	if cfg.Start.IsZero() {
		cfg.Start = defaultStart
	}
	r := &stsRunner{cfg: cfg, interval: cfg.SyncInterval, letters: revisionLetters{}}
	if r.interval <= 0 {
		r.interval = time.Second
	}
	if r.cfg.MaxSyncs <= 0 {
		r.cfg.MaxSyncs = 100_000 + 8*int(set.SpecReplicas())
	}
	start := statefulset.State{StatefulSet: set, Pods: cfg.Pods, ControllerRevisions: cfg.ControllerRevisions, Claims: cfg.Claims, Now: cfg.Start}
	if err := start.Validate(); err != nil {
		return nil, fmt.Errorf("sim: starting state: %w", err)
	}
	r.ns.set = set
	for _, p := range cfg.Pods {
		r.ns.pods = put(r.ns.pods, p.DeepCopy())
	}
	for _, c := range cfg.ControllerRevisions {
		r.ns.revisions = put(r.ns.revisions, c.DeepCopy())
	}
	for _, c := range cfg.Claims {
		r.ns.claims = put(r.ns.claims, c.DeepCopy())
	}
	sched, err := newScheduler(cfg.Start, cfg.Script)
	if err != nil {
		return nil, err
	}
	r.scheduler = sched
	r.rng = newRNG(cfg.World.Seed)
	r.kubelet = newKubelet(cfg.World, cfg.EvictionRate, r.rng, &r.ns, cfg.Start)
	r.kubelet.log = cfg.Record != RecordSummary
	r.opts = append(slices.Clone(cfg.PlanOptions), statefulset.WithMaxUnavailable(cfg.MaxUnavailable))
	return r, nil
}

func (r *stsRunner) run() (*StatefulSetTrace, error) {
	if err := runSyncs(r, &r.scheduler, &r.trace.Summary, r.interval, r.cfg.MaxSyncs, r.cfg.MaxWork); err != nil {
		return nil, err
	}
	return &r.trace, nil
}

// createUnits is the work of a pod or claim a sync may create: its
// object, the create action and the write the trace keeps come to about
// 3.6 KB (measured on a Parallel set of 100 000 replicas), ten units at
// the 400 bytes a unit costs at most.
const createUnits = 10

// modelled counts the namespace's objects and an upper bound of the
// objects the sync may create (see setSyncer), at createUnits each: the
// ControllerRevision of the set's template; a pod for every ordinal of
// [start, start+replicas) but those whose pod the set keeps (keptPods)
// under the Parallel policy (the planner, as upstream's, creates every
// missing replica in one sync with no burst limit, and an ordinal whose
// pod the set does not keep may get a new one in the same sync: a pod
// released from the set has its name created again, recording
// sts-s1-0151, and upstream creates a failed pod again as soon as it
// deletes it), one under OrderedReady; and the claims of the claim
// templates missing for the ordinals in range, existing pods' included
// (upstream creates them for a Pending pod too). Counting only the
// missing pods and their claims undercharged those syncs.
func (r *stsRunner) modelled() (int64, int) {
	set := r.ns.set
	replicas := max(0, int64(set.SpecReplicas()))
	pods := replicas - r.keptPods(replicas)
	if set.Spec.PodManagementPolicy != model.ParallelPodManagement {
		pods = min(pods, 1)
	}
	claims := replicas * int64(len(set.Spec.VolumeClaimTemplates))
	claims -= r.claimsInRange(replicas)
	creates := (1 + pods + claims) * createUnits
	return int64(len(r.ns.pods)+len(r.ns.revisions)+len(r.ns.claims)) + 1 + creates, len(r.ns.pods)
}

// keptPods counts the pods no sync creates again while they exist: those
// of the set's namespace named for an ordinal in range, that the set
// controls and its selector matches, neither Failed nor Succeeded. Any
// other pod of an ordinal in range may be released or deleted and its
// name created again in one sync; a pod the set keeps is replaced (an
// update, a scale-down) only once it is gone, in a later sync, where its
// ordinal counts as missing. A Parallel set of n replicas is charged
// 10·n units a sync only when none of its pods is kept (its first sync):
// charged so at every sync, a rolling update of 1 000 replicas took 22
// million units, more than the commands' default bound (now less than 3
// million).
func (r *stsRunner) keptPods(replicas int64) int64 {
	set := r.ns.set
	start := int64(set.StartOrdinal())
	var n int64
	for _, p := range r.ns.pods {
		parent, ord := statefulset.ParseOrdinal(p.Name)
		if parent != set.Name || ord < 0 || int64(ord) < start || int64(ord)-start >= replicas || p.Namespace != set.Namespace {
			continue
		}
		if p.Status.Phase == model.PodFailed || p.Status.Phase == model.PodSucceeded {
			continue
		}
		if ref := p.ControllerRef(); ref == nil || ref.UID != set.UID {
			continue
		}
		if ok, err := set.Spec.Selector.Matches(p.Labels); err != nil || !ok {
			continue
		}
		n++
	}
	return n
}

// claimsInRange counts the claims that exist among those the set's claim
// templates name for its ordinals in range (TEMPLATE-SET-ORDINAL, as
// statefulset.ClaimName writes them): they are not created again.
func (r *stsRunner) claimsInRange(replicas int64) int64 {
	set := r.ns.set
	start := int64(set.StartOrdinal())
	var n int64
	for _, c := range r.ns.claims {
		for _, t := range set.Spec.VolumeClaimTemplates {
			rest, ok := strings.CutPrefix(c.Name, t.Name+"-"+set.Name+"-")
			if !ok {
				continue
			}
			if ord, err := strconv.ParseInt(rest, 10, 64); err == nil && strconv.FormatInt(ord, 10) == rest && ord >= start && ord-start < replicas {
				n++
				break
			}
		}
	}
	return n
}

// kept is the work of the trace's last step (see setSyncer).
func (r *stsRunner) kept() int64 { return r.lastKept }

// syncAt runs one sync (see setSyncer).
func (r *stsRunner) syncAt(sync int, now time.Time, charge func() error) (p statefulset.Plan, changed, complete bool, err error) {
	version := r.ns.version
	user, err := r.userActions(sync, now, &r.trace.Summary, func(a Action) error { return a.applyToStatefulSet(&r.ns, now) })
	if err != nil {
		return p, false, false, err
	}
	changed = r.kubelet.advance(&r.ns, now)
	if err := charge(); err != nil {
		return p, false, false, err
	}

	state := r.ns.state(now)
	p, err = statefulset.Sync(state, r.opts...)
	var failed *statefulset.SyncError
	if err != nil && !errors.As(err, &failed) {
		return p, false, false, fmt.Errorf("sim: sync %d: the planner rejected the state: %w", sync, err)
	}
	var violations []plantest.Violation
	if r.cfg.Check {
		violations = plantest.CheckStatefulSet(state, p, plantest.StatefulSetGates{MaxUnavailable: r.cfg.MaxUnavailable})
	}
	writes, rejected, err := r.applyPlan(p, now)
	if err != nil {
		return p, false, false, fmt.Errorf("sim: sync %d: %w", sync, err)
	}
	// A sync that ends with an error or had a write rejected is
	// retried by the controller's rate limiter.
	changed = changed || r.ns.version != version || len(user) > 0 || failed != nil || rejected
	return p, changed, r.record(sync, now, user, p, failed, writes, violations), nil
}

// applyPlan applies the plan's writes the API server accepts, in order, and
// reports whether it rejected one.
func (r *stsRunner) applyPlan(p statefulset.Plan, now time.Time) (writes []StatefulSetWrite, rejected bool, err error) {
	steps := r.cfg.Record != RecordSummary
	if steps {
		writes = make([]StatefulSetWrite, 0, len(p.Actions))
	}
	for _, a := range p.Actions {
		w := StatefulSetWrite{Kind: a.Kind, Name: a.Object.Name, Conflict: a.Rejected(), Reason: a.Reason}
		if !w.Conflict {
			err := r.ns.apply(a, now)
			var refused errNotApplied
			if err != nil && !errors.As(err, &refused) {
				return nil, false, err
			}
			w.Applied = err == nil
		}
		if w.Applied {
			r.trace.Summary.Writes++
		} else {
			rejected = true
		}
		if w.Conflict {
			r.trace.Summary.Conflicts++
		}
		if steps {
			writes = append(writes, w)
		}
	}
	return writes, rejected, nil
}

// nextEvent is when something happens by itself: a pod transition or the
// planner's requeue; zero when nothing will.
func (r *stsRunner) nextEvent(p statefulset.Plan, now time.Time) time.Time {
	return withRequeue(r.kubelet.next(&r.ns, now), p.Requeue, now, r.interval)
}

// setPods returns the pods the set controls.
func (r *stsRunner) setPods() []*model.Pod {
	var out []*model.Pod
	for _, p := range r.ns.pods {
		if p.IsControlledBy(r.ns.set.UID) {
			out = append(out, p)
		}
	}
	return out
}

// healthyPod is what OrderedReady waits for: Running and Ready, available
// at now, not being deleted.
func healthyPod(p *model.Pod, minReadySeconds int32, now time.Time) bool {
	return p.DeletionTimestamp == nil && runningAndReady(p) && model.IsPodAvailable(p, minReadySeconds, now)
}

// available is whether a Running and Ready pod of the set is available at
// now: ready for the set's minReadySeconds.
func (r *stsRunner) available(now time.Time) func(*model.Pod) bool {
	minReady := r.ns.set.Spec.MinReadySeconds
	return func(q *model.Pod) bool { return model.IsPodAvailable(q, minReady, now) }
}

// record keeps the sync in the trace and the summary and reports whether the
// rollout is complete after it.
func (r *stsRunner) record(sync int, now time.Time, user []string, p statefulset.Plan, failed *statefulset.SyncError, writes []StatefulSetWrite, violations []plantest.Violation) bool {
	sum := &r.trace.Summary
	sum.countSync(sync, now.Sub(r.cfg.Start), violations)
	set := r.ns.set
	pods := r.setPods()
	available := r.available(now)
	var t podTally
	for _, q := range pods {
		t.add(q, available)
	}
	c := t.counts()
	c.Unavailable = max(0, set.SpecReplicas()-c.Available)
	sum.notePods(c.Pods, c.Active, c.Available)
	complete := r.complete(pods, now)
	r.noteCompletion(sum, sync, now, complete)
	if r.cfg.Record == RecordSummary {
		return complete
	}
	step := StatefulSetStep{
		Sync: sync, Time: now, User: user, Kubelet: r.kubelet.events, Writes: writes, Events: p.Events, Notes: p.Notes, Violations: violations,
		Replicas: set.SpecReplicas(), Pods: c, CurrentRevision: set.Status.CurrentRevision, UpdateRevision: set.Status.UpdateRevision,
	}
	if failed != nil {
		step.Err = failed.Message
	}
	step.Revisions = r.revisionsAt(pods, now)
	step.Ordinals = r.ordinals(pods)
	r.trace.Steps = append(r.trace.Steps, step)
	r.lastKept = step.units()
	return complete
}

// units is the work a step costs: one for the step (its ordinals
// included: at most 64) and one per object it records.
func (s *StatefulSetStep) units() int64 {
	return 1 + int64(len(s.User)+len(s.Kubelet)+len(s.Writes)+len(s.Events)+len(s.Notes)+len(s.Revisions)+len(s.Violations))
}

// revisionsAt tallies the pods by revision.
func (r *stsRunner) revisionsAt(pods []*model.Pod, now time.Time) []RevisionAt {
	set := r.ns.set
	var revs []*model.ControllerRevision
	for _, rv := range r.ns.revisions {
		if rv.IsControlledBy(set.UID) {
			revs = append(revs, rv)
		}
	}
	slices.SortFunc(revs, model.CompareRevisions)
	out := make([]RevisionAt, 0, len(revs))
	index := map[string]int{}
	for _, rv := range revs {
		index[rv.Name] = len(out)
		out = append(out, RevisionAt{Name: rv.Name, Letter: r.letters.letter(rv.Name), Revision: rv.Revision,
			Current: rv.Name == set.Status.CurrentRevision, Update: rv.Name == set.Status.UpdateRevision})
	}
	tallies := make([]podTally, len(out))
	available := r.available(now)
	for _, q := range pods {
		name := q.Labels[model.StatefulSetRevisionLabel]
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, RevisionAt{Name: name, Letter: r.letters.letter(name),
				Current: name == set.Status.CurrentRevision, Update: name == set.Status.UpdateRevision})
			tallies = append(tallies, podTally{})
		}
		tallies[i].add(q, available)
	}
	for i, t := range tallies {
		t.into(&out[i])
	}
	return out
}

// maxOrdinals is the most ordinals StatefulSetStep.Ordinals shows.
const maxOrdinals = 64

// ordinals draws the pods by ordinal (see StatefulSetStep.Ordinals).
func (r *stsRunner) ordinals(pods []*model.Pod) string {
	set := r.ns.set
	start := int(set.StartOrdinal())
	end := start + int(set.SpecReplicas())
	byOrdinal := map[int]*model.Pod{}
	for _, q := range pods {
		if _, o := statefulset.ParseOrdinal(q.Name); o >= start {
			byOrdinal[o] = q
			end = max(end, o+1)
		}
	}
	var b strings.Builder
	for o := start; o < end; o++ {
		if o-start == maxOrdinals {
			b.WriteString("…")
			break
		}
		q := byOrdinal[o]
		switch {
		case q == nil:
			b.WriteByte('.')
		case q.DeletionTimestamp != nil:
			b.WriteByte('-')
		case q.IsTerminal():
			b.WriteByte('!')
		default:
			l := r.letters.letter(q.Labels[model.StatefulSetRevisionLabel])
			if !runningAndReady(q) {
				l = strings.ToLower(l)
			}
			b.WriteString(l)
		}
	}
	return b.String()
}

// partitionIndex is the lowest index the rolling update replaces: the
// partition of a RollingUpdate with a rollingUpdate block, else 0.
func partitionIndex(set *model.StatefulSet) int {
	if ru := set.Spec.UpdateStrategy.RollingUpdate; set.Spec.UpdateStrategy.Type == model.RollingUpdateStatefulSetStrategyType && ru != nil && ru.Partition != nil {
		return int(*ru.Partition)
	}
	return 0
}

// complete reports a finished rollout: the status has observed the spec
// and counts every replica ready; every replica exists, is Running, Ready
// and available, and from the partition up (every one, for OnDelete) is at
// the update revision; no pod is left outside the replicas; and a
// RollingUpdate whose replicas are all updated has made the update
// revision current.
func (r *stsRunner) complete(pods []*model.Pod, now time.Time) bool {
	set := r.ns.set
	st := set.Status
	n := int(set.SpecReplicas())
	if st.ObservedGeneration < set.Generation || st.UpdateRevision == "" || int(st.ReadyReplicas) != n || int(st.Replicas) != n {
		return false
	}
	start, partition := int(set.StartOrdinal()), partitionIndex(set)
	seen, updated := 0, 0
	for _, q := range pods {
		_, o := statefulset.ParseOrdinal(q.Name)
		if o < start || o >= start+n || !healthyPod(q, set.Spec.MinReadySeconds, now) {
			return false
		}
		seen++
		if q.Labels[model.StatefulSetRevisionLabel] == st.UpdateRevision {
			updated++
		} else if o-start >= partition {
			return false
		}
	}
	if seen != n {
		return false
	}
	if set.Spec.UpdateStrategy.Type == model.RollingUpdateStatefulSetStrategyType && updated == n && st.CurrentRevision != st.UpdateRevision {
		return false
	}
	return true
}

// stallNotes are the notes that do not explain a stall.
var stallNotes = []statefulset.ReasonCode{statefulset.NoteStatusUnchanged, statefulset.NoteUpdated, statefulset.NotePartition}

// finish records why the simulation stopped short of completion.
func (r *stsRunner) finish(last statefulset.Plan) {
	sum := &r.trace.Summary
	if sum.endRun(len(r.script)) {
		sum.StallReason = stallReason(telling(nil, last.Notes, stallNotes))
	}
}
