package plan_test

import (
	"fmt"
	"maps"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// objectVariants returns s and States a controller could hand a Planner
// next, each with new objects where something changed (a changed object is
// a new object): the Deployment's template, collision count, deletion,
// rollback request or pause changed; an identical copy of the Deployment;
// the oldest ReplicaSet orphaned, taken by another controller, relabelled,
// or given the Deployment's template; a ReplicaSet left out. Objects that
// do not change are shared between the variants, so a Planner sees the
// same ReplicaSets with other Deployment objects and the reverse.
func objectVariants(s plan.State) []plan.State {
	out := []plan.State{s}
	dv := func(f func(d *model.Deployment)) {
		d := s.Deployment.DeepCopy()
		f(d)
		out = append(out, with(s, func(v *plan.State) { v.Deployment = d }))
	}
	dv(func(*model.Deployment) {})
	dv(func(d *model.Deployment) {
		d.Spec.Template.Annotations = maps.Clone(d.Spec.Template.Annotations)
		if d.Spec.Template.Annotations == nil {
			d.Spec.Template.Annotations = map[string]string{}
		}
		d.Spec.Template.Annotations["review/changed"] = "yes"
		d.Generation++
	})
	dv(func(d *model.Deployment) {
		n := int32(1)
		if d.Status.CollisionCount != nil {
			n += *d.Status.CollisionCount
		}
		d.Status.CollisionCount = &n
	})
	dv(func(d *model.Deployment) {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		d.DeletionTimestamp = &at
	})
	dv(func(d *model.Deployment) {
		d.Annotations = maps.Clone(d.Annotations)
		if d.Annotations == nil {
			d.Annotations = map[string]string{}
		}
		d.Annotations[model.RollbackToAnnotation] = "1"
	})
	dv(func(d *model.Deployment) { d.Spec.Paused = !d.Spec.Paused })
	if len(s.ReplicaSets) == 0 {
		return out
	}
	rv := func(f func(rs *model.ReplicaSet)) {
		rs := s.ReplicaSets[0].DeepCopy()
		f(rs)
		out = append(out, with(s, func(v *plan.State) { v.ReplicaSets[0] = rs }))
	}
	rv(func(rs *model.ReplicaSet) { rs.OwnerReferences = nil })
	rv(func(rs *model.ReplicaSet) {
		for i := range rs.OwnerReferences {
			rs.OwnerReferences[i].UID += "-other"
		}
	})
	rv(func(rs *model.ReplicaSet) { rs.Labels = map[string]string{"review": "relabelled"} })
	rv(func(rs *model.ReplicaSet) {
		rs.Spec.Template = s.Deployment.Spec.Template.DeepCopy()
	})
	out = append(out, with(s, func(v *plan.State) { v.ReplicaSets = v.ReplicaSets[1:] }))
	return out
}

// answer is Sync's plan of a State, and its error as text.
type answer struct {
	plan plan.Plan
	err  string
}

// syncAnswers returns Sync's answer to each of states.
func syncAnswers(states []plan.State) []answer {
	want := make([]answer, len(states))
	for i, s := range states {
		p, err := plan.Sync(s)
		want[i] = answer{p, fmt.Sprint(err)}
	}
	return want
}

// TestPlannerListsMemoConcurrent: one Planner plans the recorded
// conformance states and variants of them with new objects (see
// objectVariants) from several goroutines at once, each in another order
// and twice, so that its remembered lists and memos are learned, kept and
// dropped while other syncs use them, also by a Planner that forgets within
// a few syncs; every plan equals Sync's.
func TestPlannerListsMemoConcurrent(t *testing.T) {
	states := readConformanceStates(t)
	var all []plan.State
	for _, s := range states {
		all = append(all, objectVariants(s)...)
	}
	want := syncAnswers(all)
	// One Planner as configured, one that forgets its memories within a
	// few syncs (Deployment memories retired, lists remembered again).
	forgetful := plan.NewPlanner()
	plan.SetPlannerLimit(forgetful, 64)
	plan.SetPlannerEpoch(forgetful, 16)
	for _, p := range []*plan.Planner{plan.NewPlanner(), forgetful} {
		planConcurrently(t, p, all, want, 2)
	}
}

// planConcurrently plans every State of all through p from several
// goroutines, each in another order and rounds times, and checks each plan
// is want's.
func planConcurrently(t *testing.T, p *plan.Planner, all []plan.State, want []answer, rounds int) {
	const workers = 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures := 0
	for w := range workers {
		wg.Go(func() {
			for round := range rounds {
				for k := range all {
					// Each worker starts elsewhere; odd ones go backwards.
					i := (k + w*len(all)/workers + round) % len(all)
					if w%2 == 1 {
						i = len(all) - 1 - i
					}
					got, err := p.Sync(all[i])
					if fmt.Sprint(err) == want[i].err && reflect.DeepEqual(got, want[i].plan) {
						continue
					}
					mu.Lock()
					failures++
					if failures <= 5 {
						t.Errorf("worker %d round %d, state variant %d: the Planner's plan differs from Sync's (err %v, want %s)", w, round, i, err, want[i].err)
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if failures > 0 {
		t.Errorf("%d plans differ from Sync's", failures)
	}
}
