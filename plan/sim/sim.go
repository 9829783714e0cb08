package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// defaultStart is the clock of the first sync when Config.Start is zero.
var defaultStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// world is a pod model: Counts or Pods fidelity.
type world interface {
	advance(c *inmemory.Cluster, now time.Time) bool
	reconcile(c *inmemory.Cluster, now time.Time) (bool, error)
	next(c *inmemory.Cluster, now time.Time) time.Time
	// tally fills out[i] (zeroed first) with the pods of the cluster's
	// ReplicaSets[i] and returns the number of terminating pods whose
	// ReplicaSet is gone.
	tally(c *inmemory.Cluster, now time.Time, out []podTally) (gone int32)
}

// podTally counts one ReplicaSet's pods as they exist in the modelled
// cluster; each pod is counted once, as active or as terminating.
type podTally struct{ active, ready, available, terminating int32 }

type countAdapter struct{ *countWorld }

func (a countAdapter) reconcile(c *inmemory.Cluster, now time.Time) (bool, error) {
	return a.countWorld.reconcile(c, now), nil
}

// ErrWorkBound marks a simulation stopped by Config.MaxWork.
var ErrWorkBound = errors.New("sim: work bound exceeded")

// Run simulates cfg and returns its trace. It fails on an invalid
// configuration or when the planner rejects a state (a bug worth reporting:
// the simulator only produces valid states).
func Run(cfg Config) (*Trace, error) {
	r, err := newRunner(cfg)
	if err != nil {
		return nil, err
	}
	return r.run()
}

// newRNG returns the simulation's random source for a seed.
func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

type runner struct {
	cfg      Config
	cluster  inmemory.Cluster
	world    world
	rng      *rand.Rand
	interval time.Duration
	scheduler
	trace Trace
	prev  map[string]model.ReplicaSetStatus // statuses seen by the previous sync

	// Scratch reused by every sync, so that a long simulation allocates
	// per sync only what the planner and the trace keep.
	rsBuf  []*model.ReplicaSet // the planner's snapshot of the ReplicaSets
	podBuf []*model.Pod        // the planner's snapshot of the pods
	byRS   []podTally          // the world's tally, by the cluster's ReplicaSets

	// sync plans a sync: plan.Sync with Config.PlanOptions. Tests
	// measure the planner's share through it.
	sync func(plan.State) (plan.Plan, error)
}

func newRunner(cfg Config) (*runner, error) {
	if cfg.Deployment == nil {
		return nil, errors.New("sim: Config.Deployment is nil")
	}
	d := model.Default(cfg.Deployment)
	if d.Generation == 0 {
		d.Generation = 1
	}
	rss := make([]*model.ReplicaSet, len(cfg.ReplicaSets))
	for i, rs := range cfg.ReplicaSets {
		rss[i] = model.DefaultReplicaSet(rs)
	}
	if err := model.Validate(d, rss, cfg.Pods); err != nil {
		return nil, fmt.Errorf("sim: starting state: %w", err)
	}
	if cfg.Start.IsZero() {
		cfg.Start = defaultStart
	}
	r := &runner{cfg: cfg, interval: cfg.SyncInterval, prev: map[string]model.ReplicaSetStatus{}}
	r.sync = func(s plan.State) (plan.Plan, error) { return plan.Sync(s, cfg.PlanOptions...) }
	if r.interval <= 0 {
		r.interval = time.Second
	}
	if r.cfg.MaxSyncs <= 0 {
		r.cfg.MaxSyncs = 100_000 + 4*int(d.DesiredReplicas())
	}
	r.rng = newRNG(cfg.World.Seed)
	r.cluster = inmemory.Cluster{Deployment: d, ReplicaSets: rss, Pods: slices.Clone(cfg.Pods)}
	sched, err := newScheduler(cfg.Start, cfg.Script)
	if err != nil {
		return nil, err
	}
	r.scheduler = sched
	switch cfg.Fidelity {
	case Counts:
		r.world = countAdapter{newCountWorld(cfg.World, r.rng, rss, cfg.Start)}
	case Pods:
		pw := newPodWorld(cfg.World, r.rng, &r.cluster, cfg.Start)
		pw.opts = cfg.ReplicaSetOptions
		r.world = pw
	default:
		return nil, fmt.Errorf("sim: unknown fidelity %d", cfg.Fidelity)
	}
	return r, nil
}

func (r *runner) run() (*Trace, error) {
	now := r.cfg.Start
	sum := &r.trace.Summary
	sum.MinAvailable = -1
	var work int64
	for sync := 0; sync < r.cfg.MaxSyncs; sync++ {
		work += int64(len(r.cluster.Pods)) + int64(len(r.cluster.ReplicaSets)) + 1
		if err := r.checkWork(work, sync); err != nil {
			return nil, err
		}
		version := r.cluster.ResourceVersion()
		user, err := r.userActions(sync, now, &r.trace.Summary, func(a Action) error { return a.apply(&r.cluster) })
		if err != nil {
			return nil, err
		}
		changed := r.world.advance(&r.cluster, now)
		moved, err := r.world.reconcile(&r.cluster, now)
		if err != nil {
			return nil, err
		}
		changed = changed || moved

		state, lagging := r.observe(now)
		p, err := r.sync(state)
		// A *plan.SyncError ends the sync after the writes the plan
		// holds, as upstream's does; any other error is invalid input.
		var failed *plan.SyncError
		if err != nil {
			if failed = syncError(err); failed == nil {
				return nil, fmt.Errorf("sim: sync %d: the planner rejected the state: %w", sync, err)
			}
		}
		var violations []plantest.Violation
		if r.cfg.Check {
			violations = plantest.Check(state, p)
		}
		writes, lost, err := r.applyPlan(state, p, now)
		if err != nil {
			return nil, fmt.Errorf("sim: sync %d: %w", sync, err)
		}
		// Done with the snapshot: let go of its pods, or the versions
		// replaced from now on would stay reachable until the next sync.
		clear(r.podBuf)
		moved, err = r.world.reconcile(&r.cluster, now)
		if err != nil {
			return nil, err
		}
		changed = changed || moved || r.cluster.ResourceVersion() != version || len(user) > 0
		complete, kept := r.record(sync, now, user, p, failed, writes, violations)
		// What the trace keeps of the sync is work too, so that MaxWork
		// bounds memory however cheap the syncs are (a Counts run of
		// millions of one-pod steps).
		work += kept
		if err := r.checkWork(work, sync+1); err != nil {
			return nil, err
		}
		// A sync that ends with an error (a conflict, a lost write, a hash
		// collision) is retried by the controller's rate limiter.
		// So is one that saw lagging statuses: the informer catches up and
		// the status update triggers another sync.
		retry := failed != nil || lagging || lost
		changed = changed || retry

		next, ok := r.nextSync(now, r.interval, changed, complete, func() time.Time { return r.nextEvent(p, now) })
		if !ok {
			r.finish(p)
			return &r.trace, nil
		}
		now = next
	}
	r.finish(plan.Plan{})
	sum.noFixedPoint(r.cfg.MaxSyncs)
	return &r.trace, nil
}

// checkWork fails with ErrWorkBound when work, after syncs syncs, is past
// Config.MaxWork.
func (r *runner) checkWork(work int64, syncs int) error {
	return checkWork(work, r.cfg.MaxWork, syncs, len(r.cluster.Pods))
}

// checkWork fails with ErrWorkBound when work, after syncs syncs with pods
// pods modelled, is past maxWork (zero: no bound).
func checkWork(work, maxWork int64, syncs, pods int) error {
	if maxWork <= 0 || work <= maxWork {
		return nil
	}
	return fmt.Errorf("%w: %d units of work (objects modelled and kept in the trace) after %d syncs with %d pods modelled, bound %d",
		ErrWorkBound, work, syncs, pods, maxWork)
}

// stepUnits is the work a trace's Step costs: one for the Step and one per
// object it records.
func stepUnits(s *Step) int64 {
	return 1 + int64(len(s.User)+len(s.Writes)+len(s.Events)+len(s.Notes)+len(s.Sets)+len(s.Violations))
}

// syncError returns the *plan.SyncError err is or wraps, or nil.
func syncError(err error) *plan.SyncError {
	var se *plan.SyncError
	errors.As(err, &se)
	return se
}

// observe returns what the planner sees, with lagging statuses when the
// StaleStatus fault fires, and whether any status it shows is not the
// current one.
func (r *runner) observe(now time.Time) (plan.State, bool) {
	// The same snapshot as Cluster.State, in slices reused from sync to
	// sync: the planner reads them only during the sync, and the cluster
	// replaces objects rather than changing them.
	r.rsBuf = append(r.rsBuf[:0], r.cluster.ReplicaSets...)
	r.podBuf = append(r.podBuf[:0], r.cluster.Pods...)
	s := plan.State{Deployment: r.cluster.Deployment, ReplicaSets: r.rsBuf, Pods: r.podBuf, Now: now}
	if cw, ok := r.world.(countAdapter); ok && s.Deployment.Spec.Strategy.Type == model.RecreateStrategy {
		s.Pods = append(s.Pods, cw.stubs(&r.cluster, now)...)
	}
	if r.cfg.Faults.StaleStatusRate <= 0 {
		return s, false
	}
	stale := r.rng.Float64() < r.cfg.Faults.StaleStatusRate
	lagging := false
	for i, rs := range s.ReplicaSets {
		if old, ok := r.prev[rs.Name]; stale && ok && !replicaSetStatusEqual(&old, &rs.Status) {
			c := rs.DeepCopy()
			c.Status = old
			s.ReplicaSets[i] = c
			lagging = true
		}
	}
	clear(r.prev)
	for _, rs := range r.cluster.ReplicaSets {
		r.prev[rs.Name] = rs.Status
	}
	return s, lagging
}

// applyPlan applies the writes chosen by Config.Apply, minus injected
// faults, and reports whether a write was not applied. It returns the
// writes for the trace's step, or nil when the trace keeps no steps. s is
// the State p was planned from: the actions change its objects.
func (r *runner) applyPlan(s plan.State, p plan.Plan, now time.Time) (writes []Write, lost bool, err error) {
	// Coalescing merges whole objects: render them. The other modes apply
	// the typed actions one by one, as Cluster.ApplyPlan does, so that
	// faults can drop any of them.
	var coalesced []render.Write
	n, applicable := len(p.Actions), len(p.Actions)
	switch r.cfg.Apply {
	case inmemory.ApplyAccepted:
		applicable = len(p.Accepted())
	case inmemory.ApplyCoalesced:
		rendered, err := render.Writes(s, p)
		if err != nil {
			return nil, false, err
		}
		coalesced = render.Coalesced(rendered)
		n, applicable = len(coalesced), len(coalesced)
	}
	limit := applicable
	if f := r.cfg.Faults; f.PrefixRate > 0 && limit > 0 && r.rng.Float64() < f.PrefixRate {
		limit = r.rng.IntN(limit + 1)
	}
	steps := r.cfg.Record != RecordSummary
	if steps {
		writes = make([]Write, 0, n)
	}
	for i := range n {
		var tw Write
		if coalesced != nil {
			tw = renderedWrite(coalesced[i])
		} else {
			tw = actionWrite(p.Actions[i])
		}
		dropped := i >= limit || (r.cfg.Faults.DropRate > 0 && r.rng.Float64() < r.cfg.Faults.DropRate)
		if !dropped {
			if coalesced != nil {
				err = r.cluster.Apply(coalesced[i], now)
			} else {
				err = r.cluster.ApplyAction(s, p, i, now)
			}
			if errors.Is(err, inmemory.ErrInvalidPlan) {
				return nil, false, err
			}
			tw.Applied = err == nil
		}
		if tw.Applied {
			r.trace.Summary.Writes++
		} else {
			lost = true
		}
		if tw.Conflict {
			r.trace.Summary.Conflicts++
		}
		if steps {
			writes = append(writes, tw)
		}
	}
	return writes, lost, nil
}

// actionWrite is the trace's record of a typed action: the request
// upstream sends for it (a scale is an UpdateReplicaSet) and the
// spec.replicas a ReplicaSet create or update sends.
func actionWrite(a plan.Action) Write {
	w := Write{Name: a.Object.Name, Conflict: a.Conflict, Reason: a.Reason}
	switch a.Kind {
	case plan.CreateReplicaSet:
		w.Kind = render.CreateReplicaSet
		if a.ReplicaSet != nil {
			w.Replicas = model.Int32Ptr(a.ReplicaSet.SpecReplicas())
		}
	case plan.ScaleReplicaSet, plan.UpdateReplicaSet:
		w.Kind = render.UpdateReplicaSet
		if a.Update != nil {
			w.Replicas = model.Int32Ptr(a.Update.Replicas)
		}
	case plan.DeleteReplicaSet:
		w.Kind = render.DeleteReplicaSet
	case plan.AdoptReplicaSet:
		w.Kind = render.AdoptReplicaSet
	case plan.ReleaseReplicaSet:
		w.Kind = render.ReleaseReplicaSet
	case plan.UpdateDeploymentStatus:
		w.Kind = render.UpdateDeploymentStatus
	default:
		w.Kind = render.UpdateDeployment
	}
	return w
}

// renderedWrite is the trace's record of a rendered write.
func renderedWrite(rw render.Write) Write {
	w := Write{Kind: rw.Kind, Name: rw.Name, Conflict: rw.Conflict, Reason: rw.Reason}
	if rw.ReplicaSet != nil {
		w.Replicas = model.Int32Ptr(rw.ReplicaSet.SpecReplicas())
	}
	return w
}

// nextEvent is when something happens by itself: a pod transition or the
// planner's requeue; zero when nothing will.
func (r *runner) nextEvent(p plan.Plan, now time.Time) time.Time {
	return withRequeue(r.world.next(&r.cluster, now), p.Requeue, now, r.interval)
}

// tally counts the Deployment's pods from the modelled pods: those of the
// ReplicaSets it controls, and terminating pods whose ReplicaSet is gone.
// It also returns each ReplicaSet's tally, by the cluster's ReplicaSets, in
// a slice the next sync reuses.
func (r *runner) tally(now time.Time) (PodCounts, []podTally) {
	byRS := slices.Grow(r.byRS[:0], len(r.cluster.ReplicaSets))[:len(r.cluster.ReplicaSets)]
	clear(byRS)
	r.byRS = byRS
	var c PodCounts
	c.Terminating = r.world.tally(&r.cluster, now, byRS)
	for i, rs := range r.cluster.ReplicaSets {
		if !rs.IsControlledBy(r.cluster.Deployment.UID) {
			continue
		}
		t := byRS[i]
		c.Active += t.active
		c.Ready += t.ready
		c.Available += t.available
		c.Terminating += t.terminating
	}
	c.Pods = c.Active + c.Terminating
	c.Unavailable = max(0, r.cluster.Deployment.DesiredReplicas()-c.Available)
	return c, byRS
}

// record keeps the sync in the trace and the summary and reports whether the
// rollout is complete after it and the work of what the trace keeps of it
// (stepUnits; none with RecordSummary).
func (r *runner) record(sync int, now time.Time, user []string, p plan.Plan, failed *plan.SyncError, writes []Write, violations []plantest.Violation) (complete bool, kept int64) {
	sum := &r.trace.Summary
	sum.countSync(sync, now.Sub(r.cfg.Start), violations)
	c, byRS := r.tally(now)
	sum.notePods(c.Pods, c.Active, c.Available)
	complete = r.complete()
	r.noteCompletion(sum, sync, now, complete)
	if r.cfg.Record == RecordSummary {
		return complete, 0
	}
	d := r.cluster.Deployment
	step := Step{
		Sync: sync, Time: now, User: user, Writes: writes, Events: p.Events, Notes: p.Notes,
		Pods: c, Replicas: d.DesiredReplicas(), Progressing: conditionSummary(d, model.DeploymentProgressing),
		Available: conditionSummary(d, model.DeploymentAvailable), Violations: violations,
	}
	if failed != nil {
		step.Err = failed.Message
	}
	newRS := plan.FindNewReplicaSet(d, r.owned())
	for i, rs := range r.cluster.ReplicaSets {
		if !rs.IsControlledBy(d.UID) {
			continue
		}
		t := byRS[i]
		step.Sets = append(step.Sets, ReplicaSetAt{
			Name: rs.Name, Revision: rs.Annotations[model.RevisionAnnotation], New: rs == newRS, Spec: rs.SpecReplicas(),
			Active: t.active, Ready: t.ready, Available: t.available, Terminating: t.terminating,
		})
	}
	r.trace.Steps = append(r.trace.Steps, step)
	return complete, stepUnits(&step)
}

func (r *runner) owned() []*model.ReplicaSet {
	var out []*model.ReplicaSet
	for _, rs := range r.cluster.ReplicaSets {
		if rs.IsControlledBy(r.cluster.Deployment.UID) {
			out = append(out, rs)
		}
	}
	return out
}

// complete reports a finished rollout: the stored status is complete and
// every owned ReplicaSet without the current template is empty. It runs
// after every sync, so it allocates nothing.
func (r *runner) complete() bool {
	d := r.cluster.Deployment
	if !plan.DeploymentComplete(d, &d.Status) || d.Spec.Paused {
		return false
	}
	current := false
	for _, rs := range r.cluster.ReplicaSets {
		if !rs.IsControlledBy(d.UID) {
			continue
		}
		if model.EqualIgnoreHash(rs.Spec.Template, d.Spec.Template) {
			current = true
			continue
		}
		if rs.SpecReplicas() != 0 || rs.Status.Replicas != 0 {
			return false
		}
	}
	return current || d.DesiredReplicas() == 0
}

// finish records why the simulation stopped short of completion.
func (r *runner) finish(last plan.Plan) {
	sum := &r.trace.Summary
	if !sum.endRun(len(r.script)) {
		return
	}
	var why []string
	if c := r.cluster.Deployment.Status.Condition(model.DeploymentProgressing); c != nil {
		why = append(why, fmt.Sprintf("Progressing=%s/%s", c.Status, c.Reason))
	}
	sum.StallReason = stallReason(telling(why, last.Notes, []plan.ReasonCode{plan.NoteStatusUnchanged}))
}
