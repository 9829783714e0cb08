package plan_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// memoBase is the "proportional with ties" scenario of the corpus (five
// ReplicaSets of one Deployment, v4 the new one) with four pods, so that
// both lists are remembered.
func memoBase(t *testing.T) plan.State {
	t.Helper()
	s := corpus()[1].state
	if len(s.ReplicaSets) != 5 || s.ReplicaSets[3].Name != "web-v4" {
		t.Fatalf("fixture changed: %d ReplicaSets", len(s.ReplicaSets))
	}
	rss := s.ReplicaSets
	s.Pods = []*model.Pod{
		newPod("p1", rss[3], model.PodRunning, false), newPod("p2", rss[3], model.PodRunning, false),
		newPod("p3", rss[0], model.PodRunning, false), newPod("p4", rss[1], model.PodPending, false),
	}
	return s
}

// TestPlannerListsMemo: a Planner's sync of a State whose lists are part of
// the Deployment's remembered lists skips the namespace scan when every
// remembered object is in the Deployment's namespace, and takes the claim
// and the new ReplicaSet from its memo when the State lists every
// remembered ReplicaSet with the Deployment object the memo was worked out
// for, and only then: each step plans exactly as Sync, including those
// that a skip too many would get wrong (named "must not skip").
func TestPlannerListsMemo(t *testing.T) {
	base := memoBase(t)
	d := base.Deployment
	// A new Deployment object of the same UID whose selector (and
	// template) no longer match the ReplicaSets: Sync releases them all.
	reselected := d.DeepCopy()
	reselected.Spec.Selector = &model.LabelSelector{MatchLabels: map[string]string{"app": "moved"}}
	reselected.Spec.Template.Labels = map[string]string{"app": "moved"}
	// A new Deployment object of the same UID in another namespace: Sync
	// ignores every ReplicaSet and pod.
	moved := d.DeepCopy()
	moved.Namespace = "elsewhere"
	// A new Deployment object of the same UID scaled up: Sync scales, and
	// its availability budget (maxUnavailable 25%) grows.
	scaled := d.DeepCopy()
	scaled.Spec.Replicas = model.Int32Ptr(40)
	// A copy of a pod moved to another namespace.
	podMoved := base.Pods[2].DeepCopy()
	podMoved.Namespace = "elsewhere"
	withoutNew := with(base, func(s *plan.State) { s.ReplicaSets = slices.Delete(s.ReplicaSets, 3, 4) })
	// The new ReplicaSet replaced by one of another template: Sync
	// creates one of the Deployment's.
	other := newRS(d, "v5", 5, 2, t0)
	replaced := with(base, func(s *plan.State) { s.ReplicaSets[3] = other })
	// An old ReplicaSet replaced by an orphan copy: Sync adopts it.
	orphan := base.ReplicaSets[1].DeepCopy()
	orphan.OwnerReferences = nil
	adopting := with(base, func(s *plan.State) { s.ReplicaSets[1] = orphan })

	p := plan.NewPlanner()
	steps := []knownStep{
		{name: "first sync", state: base, how: "in full"},
		{name: "second sync: the lists and the memo are remembered", state: base, how: "in full"},
	}
	runKnownSteps(t, p, steps)
	if _, claimed, found, newRS := plan.PlannerListsMemo(p, d.UID, d); !claimed || !found || newRS != base.ReplicaSets[3] {
		t.Fatalf("memo after two syncs: claimed %v, found %v (%v), want the claim and web-v4", claimed, found, newRS)
	}
	steps = []knownStep{
		{name: "same lists: from the memo", state: base, how: "same lists"},
		{name: "reordered: from the memo", state: reversed(base), how: "known objects"},
		{name: "must not skip: the new ReplicaSet left out (Sync creates one)", state: withoutNew, how: "known objects"},
		{name: "must not skip: the new ReplicaSet left out, reordered", state: reversed(withoutNew), how: "known objects"},
		{name: "must not skip: a Deployment object whose selector the ReplicaSets no longer match", state: with(base, func(s *plan.State) { s.Deployment = reselected }), how: "same lists"},
		{name: "must not skip: again (the memo is the new object's now)", state: with(base, func(s *plan.State) { s.Deployment = reselected }), how: "same lists"},
		{name: "the first object again", state: base, how: "same lists"},
		{name: "must not skip: a Deployment object scaled up", state: with(base, func(s *plan.State) { s.Deployment = scaled }), how: "same lists"},
		{name: "must not skip: scaled up, again", state: with(base, func(s *plan.State) { s.Deployment = scaled }), how: "same lists"},
		{name: "the first object once more", state: base, how: "same lists"},
		{name: "must not skip: the Deployment object in another namespace", state: with(base, func(s *plan.State) { s.Deployment = moved }), how: "same lists"},
		{name: "must not skip: again", state: with(base, func(s *plan.State) { s.Deployment = moved }), how: "same lists"},
		{name: "must not skip: a pod moved to another namespace (new lists)", state: with(base, func(s *plan.State) { s.Pods[2] = podMoved }), how: "new objects"},
		{name: "must not skip: the lists with the moved pod", state: with(base, func(s *plan.State) { s.Pods[2] = podMoved }), how: "same lists"},
		{name: "must not skip: reordered", state: reversed(with(base, func(s *plan.State) { s.Pods[2] = podMoved })), how: "known objects"},
		{name: "must not skip: some of them", state: with(base, func(s *plan.State) { s.Pods = []*model.Pod{s.Pods[3], podMoved} }), how: "known objects"},
		{name: "the first lists back", state: base, how: "new objects"},
		{name: "and again", state: base, how: "same lists"},
		{name: "must not skip: an orphan to adopt (new lists)", state: adopting, how: "new objects"},
	}
	runKnownSteps(t, p, steps)
	// The memo went with the lists it was worked out from, and the claim
	// of these, which adopts, makes none.
	if held, _, _, _ := plan.PlannerListsMemo(p, d.UID, d); held {
		t.Fatal("a memo outlived the lists it was worked out from")
	}
	steps = []knownStep{
		{name: "must not skip: the orphan again (the memo was the first lists')", state: adopting, how: "same lists"},
		{name: "the first lists back again", state: base, how: "new objects"},
		{name: "a pod replaced by a copy (new lists, the same ReplicaSets)", state: with(base, func(s *plan.State) { s.Pods[0] = s.Pods[0].DeepCopy() }), how: "new objects"},
	}
	runKnownSteps(t, p, steps)
	// The memo is kept with lists of the same ReplicaSets.
	if _, claimed, found, newRS := plan.PlannerListsMemo(p, d.UID, d); !claimed || !found || newRS != base.ReplicaSets[3] {
		t.Fatalf("memo after a pod changed: claimed %v, found %v (%v), want the claim and web-v4", claimed, found, newRS)
	}
	steps = []knownStep{
		{name: "the first lists back once more", state: base, how: "new objects"},
		{name: "must not skip: the new ReplicaSet replaced (new lists)", state: replaced, how: "new objects"},
		{name: "must not skip: the new lists again (the memo was the first lists')", state: replaced, how: "same lists"},
		{name: "and reordered", state: reversed(replaced), how: "known objects"},
	}
	runKnownSteps(t, p, steps)
}

// TestPlannerListsMemoClaims: the memo holds only a claim that claimed
// every ReplicaSet as it was; a State with an orphan to adopt, or one
// another controller owns, is claimed in full at every sync, and its
// ReplicaSets owned again make a memo.
func TestPlannerListsMemoClaims(t *testing.T) {
	base := memoBase(t)
	d := base.Deployment
	orphan := base.ReplicaSets[1].DeepCopy()
	orphan.OwnerReferences = nil
	foreign := base.ReplicaSets[1].DeepCopy()
	foreign.OwnerReferences[0].UID = "uid-someone-else"
	unmatched := base.ReplicaSets[1].DeepCopy()
	unmatched.Labels = maps.Clone(unmatched.Labels)
	unmatched.Labels["app"] = "other"
	for _, tc := range []struct {
		name string
		rs   *model.ReplicaSet
	}{{"an orphan", orphan}, {"another controller's", foreign}, {"controlled, labels no longer matching", unmatched}} {
		s := with(base, func(s *plan.State) { s.ReplicaSets[1] = tc.rs })
		p := plan.NewPlanner()
		runKnownSteps(t, p, []knownStep{
			{name: tc.name + ": first sync", state: s, how: "in full"},
			{name: tc.name + ": second sync", state: s, how: "in full"},
			{name: tc.name + ": third sync", state: s, how: "same lists"},
		})
		if held, _, _, _ := plan.PlannerListsMemo(p, d.UID, d); held {
			t.Fatalf("%s: a memo of a claim that did not claim every ReplicaSet as it was", tc.name)
		}
		runKnownSteps(t, p, []knownStep{
			{name: tc.name + ": owned again", state: base, how: "new objects"},
			{name: tc.name + ": owned again, same lists", state: base, how: "same lists"},
		})
		if _, claimed, found, _ := plan.PlannerListsMemo(p, d.UID, d); !claimed || !found {
			t.Fatalf("%s: owned again: memo claimed %v, found %v", tc.name, claimed, found)
		}
	}
}

// TestPlannerListsMemoScenarios: every scenario of the corpus, planned
// four times by one Planner with its options (from the third sync on, from
// the memo, which every scenario with ReplicaSets all owned has by then),
// answers as Sync. (TestPlannerEqualsSync does the same for the recorded
// conformance states.)
func TestPlannerListsMemoScenarios(t *testing.T) {
	for _, sc := range corpus() {
		p := plan.NewPlanner(sc.opts...)
		want, wantErr := plan.Sync(sc.state, sc.opts...)
		for i := range 4 {
			got, err := p.Sync(sc.state)
			samePlan(t, sc.name, want, wantErr, got, err)
			if i == 3 && wantErr == nil && len(sc.state.ReplicaSets) > 0 && !sc.state.Deployment.Spec.Selector.IsEmpty() {
				if _, claimed, _, _ := plan.PlannerListsMemo(p, sc.state.Deployment.UID, sc.state.Deployment); !claimed && sc.name != "claims" {
					t.Errorf("%s: no memo after four syncs", sc.name)
				}
			}
		}
	}
}

// TestPlannerListsMemoVariants: one Planner plans every recorded
// conformance state and, after each, States a lister could hand it next —
// the lists reordered, a pod or a ReplicaSet left out or added, a pod or a
// ReplicaSet (a copy) moved to another namespace or none, the Deployment
// (a copy) moved to another namespace, a ReplicaSet listed twice — each
// twice and then the original again, and answers each time as Sync. The
// Planner's remembered lists and memos change at every step.
func TestPlannerListsMemoVariants(t *testing.T) {
	states := readConformanceStates(t)
	p := plan.NewPlanner()
	for i, s := range states {
		for j, v := range listerVariants(s) {
			want, wantErr := plan.Sync(v)
			got, err := p.Sync(v)
			// reflect.DeepEqual first (cmp.Diff on every plan would take
			// seconds); samePlan words a difference.
			if fmt.Sprint(wantErr) != fmt.Sprint(err) || !reflect.DeepEqual(want, got) {
				samePlan(t, fmt.Sprintf("state %d, variant %d", i, j), want, wantErr, got, err)
			}
		}
	}
}

// listerVariants returns s and variants of it, each followed by itself
// (the second planned from the Planner's memory) and by s.
func listerVariants(s plan.State) []plan.State {
	var variants []plan.State
	add := func(f func(*plan.State)) { variants = append(variants, with(s, f)) }
	add(func(*plan.State) {})
	add(func(v *plan.State) { slices.Reverse(v.ReplicaSets); slices.Reverse(v.Pods) })
	if len(s.Pods) > 0 {
		add(func(v *plan.State) { v.Pods = v.Pods[1:] })
		add(func(v *plan.State) {
			c := v.Pods[0].DeepCopy()
			c.Name, c.UID = c.Name+"-x", c.UID+"-x"
			v.Pods = append(v.Pods, c)
		})
		add(func(v *plan.State) { c := v.Pods[0].DeepCopy(); c.Namespace = "elsewhere"; v.Pods[0] = c })
		add(func(v *plan.State) {
			c := v.Pods[len(v.Pods)-1].DeepCopy()
			c.Namespace = ""
			v.Pods[len(v.Pods)-1] = c
		})
	}
	if len(s.ReplicaSets) > 0 {
		add(func(v *plan.State) { v.ReplicaSets = v.ReplicaSets[1:] })
		add(func(v *plan.State) {
			c := v.ReplicaSets[0].DeepCopy()
			c.Name, c.UID = c.Name+"-x", c.UID+"-x"
			v.ReplicaSets = append(v.ReplicaSets, c)
		})
		add(func(v *plan.State) { c := v.ReplicaSets[0].DeepCopy(); c.Namespace = "elsewhere"; v.ReplicaSets[0] = c })
		add(func(v *plan.State) { v.ReplicaSets = append(v.ReplicaSets, v.ReplicaSets[0]) })
	}
	add(func(v *plan.State) { d := v.Deployment.DeepCopy(); d.Namespace = "moved"; v.Deployment = d })
	var out []plan.State
	for _, v := range variants {
		out = append(out, v, v, s)
	}
	return out
}
