package sim

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

// cohort is a group of a ReplicaSet's pods created together that are not yet
// available; once available they join the ReplicaSet's settled count, which
// keeps the work per sync independent of the number of pods.
type cohort struct {
	n       int32
	created time.Time
	readyAt time.Time // zero: never
}

// ready reports whether the cohort's pods are ready at now.
func (co cohort) ready(now time.Time) bool { return !co.readyAt.IsZero() && !co.readyAt.After(now) }

type leaving struct {
	n  int32
	at time.Time
}

type rsPods struct {
	name        string   // the ReplicaSet's
	pass        uint64   // the last countWorld.pass that found the ReplicaSet in the cluster
	settled     int32    // available pods
	pending     []cohort // not yet available, oldest first
	terminating []leaving
}

func (p *rsPods) active() int32 {
	n := p.settled
	for _, c := range p.pending {
		n += c.n
	}
	return n
}

// countWorld is the Counts fidelity: pods as numbers per ReplicaSet.
type countWorld struct {
	w   World
	rng *rand.Rand
	// sets holds the pods of every ReplicaSet, and of deleted ones until
	// their last pod is gone, in the order they appeared: while nothing is
	// deleted, sets[i] belongs to the cluster's ReplicaSets[i]. byName
	// finds them by ReplicaSet name otherwise.
	sets   []*rsPods
	byName map[string]*rsPods
	pass   uint64   // counts the walks over the cluster that mark the live sets
	keep   []cohort // scratch of remove
	// terminating is the scratch of reconcile: the terminating count of the
	// status it writes.
	terminating int32
}

func newCountWorld(w World, rng *rand.Rand, rss []*model.ReplicaSet, start time.Time) *countWorld {
	cw := &countWorld{w: w, rng: rng, byName: map[string]*rsPods{}}
	for _, rs := range rss {
		// The available pods are settled; the others start now.
		p := cw.add(rs.Name)
		p.settled = min(rs.Status.AvailableReplicas, rs.Status.Replicas)
		if n := rs.Status.Replicas - p.settled; n > 0 {
			p.pending = []cohort{{n: n, created: start, readyAt: cw.readyAt(rs.Spec.Template, start)}}
		}
	}
	return cw
}

// add starts the pods of a ReplicaSet.
func (cw *countWorld) add(name string) *rsPods {
	p := &rsPods{name: name}
	cw.sets = append(cw.sets, p)
	cw.byName[name] = p
	return p
}

// lookup returns the pods of the cluster's i-th ReplicaSet, named name, or
// nil.
func (cw *countWorld) lookup(i int, name string) *rsPods {
	if i < len(cw.sets) && cw.sets[i].name == name {
		return cw.sets[i]
	}
	return cw.byName[name]
}

func (cw *countWorld) readyAt(t model.PodTemplate, now time.Time) time.Time {
	if cw.w.NeverReady != nil && cw.w.NeverReady(t) {
		return time.Time{}
	}
	return now.Add(cw.w.ReadyAfter)
}

// advance settles what became available, lets terminating pods go and draws
// failures; it reports whether anything changed.
func (cw *countWorld) advance(c *inmemory.Cluster, now time.Time) bool {
	changed := false
	for i, rs := range c.ReplicaSets {
		p := cw.lookup(i, rs.Name)
		if p == nil {
			continue
		}
		if cw.w.FailureRate > 0 && p.settled > 0 {
			k := int32(float64(p.settled)*cw.w.FailureRate + cw.rng.Float64())
			if k > 0 {
				k = min(k, p.settled)
				p.settled -= k
				p.pending = append(p.pending, cohort{n: k, created: now, readyAt: cw.readyAt(rs.Spec.Template, now)})
				changed = true
			}
		}
		kept := p.pending[:0]
		for _, co := range p.pending {
			if available(co.readyAt, rs.Spec.MinReadySeconds, now) {
				p.settled += co.n
				changed = true
				continue
			}
			kept = append(kept, co)
		}
		p.pending = kept
	}
	for _, p := range cw.sets {
		before := len(p.terminating)
		p.terminating = slices.DeleteFunc(p.terminating, func(l leaving) bool { return !l.at.After(now) })
		changed = changed || len(p.terminating) != before
	}
	return changed
}

func available(readyAt time.Time, minReadySeconds int32, now time.Time) bool {
	if readyAt.IsZero() || readyAt.After(now) {
		return false
	}
	return minReadySeconds == 0 || readyAt.Add(time.Duration(minReadySeconds)*time.Second).Before(now)
}

// reconcile plays the ReplicaSet controller for every ReplicaSet: create or
// delete pods towards spec.replicas (at most 500 a sync) and write status.
func (cw *countWorld) reconcile(c *inmemory.Cluster, now time.Time) bool {
	changed := false
	cw.pass++
	for i, rs := range c.ReplicaSets {
		p := cw.lookup(i, rs.Name)
		if p == nil {
			p = cw.add(rs.Name)
		}
		p.pass = cw.pass
		active, spec := p.active(), rs.SpecReplicas()
		switch {
		case active < spec:
			k := min(spec-active, replicaset.BurstReplicas)
			p.pending = append(p.pending, cohort{n: k, created: now, readyAt: cw.readyAt(rs.Spec.Template, now)})
			changed = true
		case active > spec:
			cw.remove(p, min(active-spec, replicaset.BurstReplicas), now)
			changed = true
		}
		if t := p.tally(now); !statusShows(&rs.Status, rs.Generation, t) {
			cw.terminating = t.terminating
			_ = c.SetReplicaSetStatus(rs.Name, model.ReplicaSetStatus{
				Replicas: t.active, FullyLabeledReplicas: t.active, ReadyReplicas: t.ready, AvailableReplicas: t.available,
				ObservedGeneration: rs.Generation, Conditions: rs.Status.Conditions,
				TerminatingReplicas: &cw.terminating, // SetReplicaSetStatus copies it
			})
			changed = true
		}
	}
	// The pods of deleted ReplicaSets are garbage collected: they terminate.
	kept := cw.sets[:0]
	for _, p := range cw.sets {
		if p.pass != cw.pass {
			if n := p.active(); n > 0 {
				cw.remove(p, n, now)
				changed = true
			}
			if len(p.terminating) == 0 {
				delete(cw.byName, p.name)
				continue
			}
		}
		kept = append(kept, p)
	}
	clear(cw.sets[len(kept):])
	cw.sets = kept
	return changed
}

// remove deletes k pods the way the deletion ranking would at this
// fidelity: pods that are not ready (newest first), then ready but not yet
// available ones (most recently ready first), then settled ones.
func (cw *countWorld) remove(p *rsPods, k int32, now time.Time) {
	gone := k
	order := append(cw.keep[:0], p.pending...)
	slices.SortStableFunc(order, func(a, b cohort) int {
		ra, rb := a.ready(now), b.ready(now)
		if ra != rb {
			if !ra {
				return -1
			}
			return 1
		}
		if ra {
			return b.readyAt.Compare(a.readyAt)
		}
		return b.created.Compare(a.created)
	})
	kept := p.pending[:0] // order holds the cohorts meanwhile
	for _, co := range order {
		take := min(k, co.n)
		co.n -= take
		k -= take
		if co.n > 0 {
			kept = append(kept, co)
		}
	}
	cw.keep = order[:0] // the scratch, grown, for the next remove
	slices.SortStableFunc(kept, func(a, b cohort) int { return a.created.Compare(b.created) })
	p.pending = kept
	take := min(k, p.settled)
	p.settled -= take
	if cw.w.TerminationGrace > 0 {
		p.terminating = append(p.terminating, leaving{n: gone, at: now.Add(cw.w.TerminationGrace)})
	}
}

// statusShows reports whether st is the status the ReplicaSet controller
// writes for a ReplicaSet of generation gen whose pods tally t: every pod
// counted is fully labeled, settled pods are available.
func statusShows(st *model.ReplicaSetStatus, gen int64, t podTally) bool {
	return st.Replicas == t.active && st.FullyLabeledReplicas == t.active && st.ReadyReplicas == t.ready &&
		st.AvailableReplicas == t.available && st.ObservedGeneration == gen &&
		st.TerminatingReplicas != nil && *st.TerminatingReplicas == t.terminating
}

// next returns the earliest pending pod transition after now, or zero.
func (cw *countWorld) next(c *inmemory.Cluster, now time.Time) time.Time {
	var next time.Time
	consider := func(t time.Time) {
		if t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for i, rs := range c.ReplicaSets {
		p := cw.lookup(i, rs.Name)
		if p == nil {
			continue
		}
		for _, co := range p.pending {
			if co.readyAt.IsZero() {
				continue
			}
			consider(co.readyAt)
			consider(availableAt(co.readyAt, rs.Spec.MinReadySeconds))
		}
	}
	for _, p := range cw.sets {
		for _, l := range p.terminating {
			consider(l.at)
		}
	}
	return next
}

// availableAt is the first whole second at which a pod ready since readyAt
// counts as available (strictly more than minReadySeconds later).
func availableAt(readyAt time.Time, minReadySeconds int32) time.Time {
	if minReadySeconds == 0 {
		return readyAt
	}
	return readyAt.Add(time.Duration(minReadySeconds)*time.Second + time.Second)
}

// tally counts each ReplicaSet's cohorts: settled pods are ready and
// available, pending ones ready once their time has come, leaving ones
// terminating until they are gone.
func (cw *countWorld) tally(c *inmemory.Cluster, now time.Time, out []podTally) (gone int32) {
	cw.pass++
	for i, rs := range c.ReplicaSets {
		if p := cw.lookup(i, rs.Name); p != nil {
			p.pass = cw.pass
			out[i] = p.tally(now)
		}
	}
	for _, p := range cw.sets {
		if p.pass != cw.pass {
			gone += p.tally(now).terminating
		}
	}
	return gone
}

func (p *rsPods) tally(now time.Time) podTally {
	t := podTally{active: p.active(), ready: p.settled, available: p.settled}
	for _, co := range p.pending {
		if co.ready(now) {
			t.ready += co.n
		}
	}
	for _, l := range p.terminating {
		if l.at.After(now) {
			t.terminating += l.n
		}
	}
	return t
}

func replicaSetStatusEqual(a, b *model.ReplicaSetStatus) bool {
	return a.Replicas == b.Replicas && a.FullyLabeledReplicas == b.FullyLabeledReplicas && a.ReadyReplicas == b.ReadyReplicas &&
		a.AvailableReplicas == b.AvailableReplicas && a.ObservedGeneration == b.ObservedGeneration &&
		(a.TerminatingReplicas == nil) == (b.TerminatingReplicas == nil) &&
		(a.TerminatingReplicas == nil || *a.TerminatingReplicas == *b.TerminatingReplicas) &&
		len(a.Conditions) == len(b.Conditions)
}

// stubs returns one stand-in pod per ReplicaSet that still has terminating
// pods: a Running pod with a deletion timestamp. Only Recreate reads pods
// (to wait until no old pod runs), and for that one per ReplicaSet says all
// it needs to know.
func (cw *countWorld) stubs(c *inmemory.Cluster, now time.Time) []*model.Pod {
	var out []*model.Pod
	for i, rs := range c.ReplicaSets {
		p := cw.lookup(i, rs.Name)
		if p == nil {
			continue
		}
		for _, l := range p.terminating {
			if !l.at.After(now) {
				continue
			}
			out = append(out, &model.Pod{
				ObjectMeta: model.ObjectMeta{
					Name: rs.Name + "-terminating", Namespace: rs.Namespace, UID: rs.UID + "-terminating",
					Labels: rs.Spec.Template.Labels, DeletionTimestamp: model.TimePtr(now),
					OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.ReplicaSetKind, rs.Name, rs.UID)},
				},
				Status: model.PodStatus{Phase: model.PodRunning},
			})
			break
		}
	}
	return out
}
