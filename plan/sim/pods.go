package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

// podWorld is the Pods fidelity: every pod is an object in the cluster and
// the ReplicaSet planner decides which ones are created and deleted.
type podWorld struct {
	w       World
	rng     *rand.Rand
	readyAt map[string]time.Time // by pod UID; zero: never
	goneAt  map[string]time.Time // by pod UID, for terminating pods
	nodes   int
	placed  int
	opts    []replicaset.Option
	// index is the position of each pod in Cluster.Pods by name during
	// reconcile, built when a write first needs it (nil until then).
	index map[string]int
	// idle holds, by ReplicaSet name, the inputs of its last
	// replicaset.Sync when that sync planned no write; nil turns the
	// skipping off (tests compare both ways).
	idle map[string]*idleSync
	// owners is the scratch of tally: the index of each ReplicaSet by UID.
	owners map[string]int
}

// idleSync is the input of a replicaset.Sync that planned nothing. Sync is
// a pure function of its inputs, so a sync with the very same inputs (the
// same objects, the same clock) would plan nothing again and is skipped:
// reconcile runs twice per simulated sync at one clock, and a ReplicaSet
// nobody touched in between has nothing to do.
type idleSync struct {
	rs          *model.ReplicaSet
	now         time.Time
	pods        []*model.Pod
	replicaSets []*model.ReplicaSet
}

// same reports whether a sync of rs at now over c would have the inputs of
// the idle sync.
func (s *idleSync) same(c *inmemory.Cluster, rs *model.ReplicaSet, now time.Time) bool {
	return s.rs == rs && s.now == now && slices.Equal(s.pods, c.Pods) && slices.Equal(s.replicaSets, c.ReplicaSets)
}

func newPodWorld(w World, rng *rand.Rand, c *inmemory.Cluster, now time.Time) *podWorld {
	pw := &podWorld{w: w, rng: rng, readyAt: map[string]time.Time{}, goneAt: map[string]time.Time{}, nodes: max(w.Nodes, 1), idle: map[string]*idleSync{}}
	if w.Nodes == 0 {
		pw.nodes = 3
	}
	for _, p := range c.Pods {
		switch {
		case model.IsPodReady(p):
			pw.readyAt[p.UID] = p.ReadyCondition().LastTransitionTime
		default:
			// A starting pod becomes ready ReadyAfter after its creation
			// (not before the start), unless its template never does.
			at := pw.templateReadyAt(c, p, p.CreationTimestamp)
			if !at.IsZero() && at.Before(now) {
				at = now
			}
			pw.readyAt[p.UID] = at
		}
	}
	return pw
}

func (pw *podWorld) templateReadyAt(c *inmemory.Cluster, p *model.Pod, now time.Time) time.Time {
	if pw.w.NeverReady != nil {
		if ref := p.ControllerRef(); ref != nil {
			for _, rs := range c.ReplicaSets {
				if rs.UID == ref.UID && pw.w.NeverReady(rs.Spec.Template) {
					return time.Time{}
				}
			}
		}
	}
	return now.Add(pw.w.ReadyAfter)
}

// advance makes pods ready, fails some, and removes those done terminating.
func (pw *podWorld) advance(c *inmemory.Cluster, now time.Time) bool {
	changed := false
	// Filtered in place: the cluster's slice is its own (snapshots copy it)
	// and the write position never passes the read position.
	pods := c.Pods[:0]
	for _, p := range c.Pods {
		if p.DeletionTimestamp != nil {
			gone, ok := pw.goneAt[p.UID]
			if !ok {
				gone = p.DeletionTimestamp.Add(pw.w.TerminationGrace)
				pw.goneAt[p.UID] = gone
			}
			if !gone.After(now) {
				delete(pw.goneAt, p.UID)
				delete(pw.readyAt, p.UID)
				changed = true
				continue
			}
			pods = append(pods, p)
			continue
		}
		ready := model.IsPodReady(p)
		var at time.Time
		if !ready { // only a pod that is not ready reads its time
			at = pw.readyAt[p.UID]
		}
		switch {
		case ready && pw.w.FailureRate > 0 && pw.rng.Float64() < pw.w.FailureRate:
			p = p.DeepCopy()
			setReady(p, model.ConditionFalse, now)
			if len(p.Status.ContainerStatuses) > 0 {
				p.Status.ContainerStatuses[0].RestartCount++
			}
			pw.readyAt[p.UID] = now.Add(pw.w.ReadyAfter)
			changed = true
		case !ready && !at.IsZero() && !at.After(now):
			p = p.DeepCopy()
			p.Status.Phase = model.PodRunning
			setReady(p, model.ConditionTrue, at)
			changed = true
		}
		pods = append(pods, p)
	}
	clear(c.Pods[len(pods):])
	c.Pods = pods
	return changed
}

func setReady(p *model.Pod, status model.ConditionStatus, at time.Time) {
	p.Status.Conditions = slices.DeleteFunc(p.Status.Conditions, func(c model.PodCondition) bool { return c.Type == model.PodReady })
	p.Status.Conditions = append(p.Status.Conditions, model.PodCondition{Type: model.PodReady, Status: status, LastTransitionTime: at})
}

// reconcile runs the ReplicaSet planner for every ReplicaSet and applies its
// pod writes and status.
func (pw *podWorld) reconcile(c *inmemory.Cluster, now time.Time) (bool, error) {
	changed := false
	pw.index = nil
	for name, idle := range pw.idle {
		switch {
		case c.ReplicaSet(name) == nil:
			delete(pw.idle, name)
		case idle.now != now:
			// Only a sync at the same clock can match: let go of the
			// pods (older versions of them would stay reachable).
			clear(idle.pods)
			idle.rs, idle.pods = nil, idle.pods[:0]
		}
	}
	for _, name := range replicaSetNames(c) {
		rs := c.ReplicaSet(name)
		if rs == nil {
			continue
		}
		idle := pw.idle[name] // nil when pw.idle is nil
		if idle != nil && idle.same(c, rs, now) {
			continue
		}
		p, err := replicaset.Sync(rs, c.Pods, c.ReplicaSets, now, pw.opts...)
		// A *replicaset.SyncError (a failed create or delete) ends the
		// sync after the writes the plan holds; any other error is
		// invalid input.
		if err != nil && !errors.As(err, new(*replicaset.SyncError)) {
			return changed, fmt.Errorf("replica set %s: %w", rs.Name, err)
		}
		accepted := p.Accepted()
		if len(accepted) == 0 && pw.idle != nil {
			if idle == nil {
				idle = &idleSync{}
				pw.idle[name] = idle
			}
			idle.rs, idle.now = rs, now
			idle.pods = append(idle.pods[:0], c.Pods...)
			idle.replicaSets = append(idle.replicaSets[:0], c.ReplicaSets...)
		} else if idle != nil {
			idle.rs = nil // inputs change with the writes
		}
		for _, a := range accepted {
			changed = true
			pw.apply(c, a, now)
		}
	}
	return changed, nil
}

func replicaSetNames(c *inmemory.Cluster) []string {
	names := make([]string, len(c.ReplicaSets))
	for i, rs := range c.ReplicaSets {
		names[i] = rs.Name
	}
	return names
}

func (pw *podWorld) apply(c *inmemory.Cluster, a replicaset.Action, now time.Time) {
	switch a.Kind {
	case replicaset.CreatePod:
		p := a.Pod.DeepCopy()
		p.UID = c.NextUID("pod")
		p.CreationTimestamp = now
		p.ResourceVersion = c.NextResourceVersion()
		p.Status = model.PodStatus{Phase: model.PodPending, ContainerStatuses: []model.ContainerStatus{{Name: "main"}}}
		p.Spec.NodeName = fmt.Sprintf("node-%d", pw.placed%pw.nodes+1)
		pw.placed++
		pw.readyAt[p.UID] = pw.templateReadyAt(c, p, now)
		if pw.index != nil {
			pw.index[p.Name] = len(c.Pods)
		}
		c.Pods = append(c.Pods, p)
	case replicaset.DeletePod:
		pw.update(c, a.Name, func(p *model.Pod) {
			if p.DeletionTimestamp == nil {
				p.DeletionTimestamp = model.TimePtr(now)
				pw.goneAt[p.UID] = now.Add(pw.w.TerminationGrace)
			}
		})
	case replicaset.AdoptPod, replicaset.ReleasePod:
		pw.update(c, a.Name, func(p *model.Pod) {
			if ref := a.OwnerReference; ref != nil {
				uid := ref.UID
				p.OwnerReferences = slices.DeleteFunc(p.OwnerReferences, func(o model.OwnerReference) bool { return o.UID == uid })
				if a.Kind == replicaset.AdoptPod {
					p.OwnerReferences = append(p.OwnerReferences, *ref)
				}
			}
		})
	case replicaset.UpdateReplicaSetStatus:
		_ = c.SetReplicaSetStatus(a.Name, *a.Status)
	}
}

func (pw *podWorld) update(c *inmemory.Cluster, name string, f func(*model.Pod)) {
	if pw.index == nil {
		pw.index = make(map[string]int, len(c.Pods))
		for i, p := range c.Pods {
			pw.index[p.Name] = i
		}
	}
	i, ok := pw.index[name]
	if !ok || c.Pods[i].Name != name {
		return
	}
	p := c.Pods[i].DeepCopy()
	f(p)
	p.ResourceVersion = c.NextResourceVersion()
	c.Pods[i] = p
}

// next returns the earliest pending pod transition after now, or zero.
func (pw *podWorld) next(c *inmemory.Cluster, now time.Time) time.Time {
	var next time.Time
	consider := func(t time.Time) {
		if t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	minReady := map[string]int32{}
	for _, rs := range c.ReplicaSets {
		minReady[rs.UID] = rs.Spec.MinReadySeconds
	}
	for _, p := range c.Pods {
		if p.DeletionTimestamp != nil {
			consider(pw.goneAt[p.UID])
			continue
		}
		at := pw.readyAt[p.UID]
		if at.IsZero() {
			continue
		}
		consider(at)
		if ref := p.ControllerRef(); ref != nil {
			consider(availableAt(at, minReady[ref.UID]))
		}
	}
	return next
}

// tally counts every pod once, under the ReplicaSet that controls it: a
// pod being deleted as terminating, any other non-terminal pod as active,
// ready and available by its Ready condition and the ReplicaSet's
// minReadySeconds.
func (pw *podWorld) tally(c *inmemory.Cluster, now time.Time, out []podTally) (gone int32) {
	if pw.owners == nil {
		pw.owners = make(map[string]int, len(c.ReplicaSets))
	}
	owners := pw.owners // by UID, the index of the ReplicaSet
	clear(owners)
	for i, rs := range c.ReplicaSets {
		owners[rs.UID] = i
	}
	for _, p := range c.Pods {
		if p.IsTerminal() {
			continue
		}
		if p.DeletionTimestamp != nil {
			if gone, ok := pw.goneAt[p.UID]; ok && !gone.After(now) {
				continue // its grace period is over: it is gone, the next sync removes it
			}
		}
		i, ok := -1, false
		if ref := p.ControllerRef(); ref != nil {
			i, ok = owners[ref.UID]
		}
		if !ok {
			if p.DeletionTimestamp != nil {
				gone++
			}
			continue // an orphan: no ReplicaSet counts it
		}
		t := &out[i]
		switch {
		case p.DeletionTimestamp != nil:
			t.terminating++
		default:
			t.active++
			if model.IsPodReady(p) {
				t.ready++
			}
			if model.IsPodAvailable(p, c.ReplicaSets[i].Spec.MinReadySeconds, now) {
				t.available++
			}
		}
	}
	return gone
}
