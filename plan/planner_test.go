package plan_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// samePlan fails t unless the Planner's answer equals Sync's: the same plan
// and the same error, word for word.
func samePlan(t *testing.T, label string, want plan.Plan, wantErr error, got plan.Plan, gotErr error) {
	t.Helper()
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("%s: error %v, Sync's %v", label, gotErr, wantErr)
	}
	var wantV, gotV *model.ValidationError
	if errors.As(wantErr, &wantV) != errors.As(gotErr, &gotV) {
		t.Fatalf("%s: error %T, Sync's %T", label, gotErr, wantErr)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: Planner differs from Sync (-Sync +Planner):\n%s", label, diff)
	}
}

// TestPlannerEqualsSync: one Planner per option set plans every scenario of
// the branch corpus and every recorded conformance state three times, and
// answers each time exactly as Sync does; the recorded states also share
// one Planner, as a controller's worker would.
func TestPlannerEqualsSync(t *testing.T) {
	for _, sc := range corpus() {
		p := plan.NewPlanner(sc.opts...)
		want, wantErr := plan.Sync(sc.state, sc.opts...)
		for round := range 3 {
			got, err := p.Sync(sc.state)
			samePlan(t, fmt.Sprintf("%s, round %d", sc.name, round), want, wantErr, got, err)
		}
	}
	states := readConformanceStates(t)
	p := plan.NewPlanner()
	for round := range 3 {
		for i, s := range states {
			want, wantErr := plan.Sync(s)
			got, err := p.Sync(s)
			samePlan(t, fmt.Sprintf("conformance state %d, round %d", i, round), want, wantErr, got, err)
		}
	}
}

// TestPlannerLeavesInputUnchanged: a Planner's plans share the parts of
// the input they do not change, and planning changes none of the input:
// the corpus and the recorded states are as they were after each is
// planned, twice.
func TestPlannerLeavesInputUnchanged(t *testing.T) {
	check := func(label string, p *plan.Planner, s plan.State) {
		t.Helper()
		before := cloneState(s)
		for range 2 {
			if _, err := p.Sync(s); err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			if diff := cmp.Diff(before, s); diff != "" {
				t.Fatalf("%s: input modified (-before +after):\n%s", label, diff)
			}
		}
	}
	for _, sc := range corpus() {
		check(sc.name, plan.NewPlanner(sc.opts...), sc.state)
	}
	p := plan.NewPlanner()
	for i, s := range readConformanceStates(t) {
		check(fmt.Sprintf("conformance state %d", i), p, s)
	}
}

// TestPlannerInvalidInput: a Planner that has seen a valid snapshot's
// objects still rejects every invalid snapshot made of them, with Sync's
// exact error, and an object that failed is checked again each time
// (validation is remembered only for objects that passed).
func TestPlannerInvalidInput(t *testing.T) {
	base := corpus()[2].state // Recreate waiting: a Deployment, two ReplicaSets, four pods
	if len(base.ReplicaSets) != 2 || len(base.Pods) != 4 {
		t.Fatalf("fixture changed: %d ReplicaSets, %d pods", len(base.ReplicaSets), len(base.Pods))
	}
	rs0, rs1 := base.ReplicaSets[0], base.ReplicaSets[1]
	renamed := rs1.DeepCopy()
	renamed.Name = rs0.Name
	badPod := base.Pods[0].DeepCopy()
	badPod.Status.ContainerStatuses = []model.ContainerStatus{{RestartCount: -1}}
	negative := rs0.DeepCopy()
	negative.Spec.Replicas = model.Int32Ptr(-1)
	emptySelector := base.Deployment.DeepCopy()
	emptySelector.Spec.Selector = &model.LabelSelector{}
	earlyDeadline := base.Deployment.DeepCopy()
	earlyDeadline.Spec.MinReadySeconds = 600
	with := func(f func(*plan.State)) plan.State {
		s := base
		s.ReplicaSets = append([]*model.ReplicaSet(nil), base.ReplicaSets...)
		s.Pods = append([]*model.Pod(nil), base.Pods...)
		f(&s)
		return s
	}
	steps := []struct {
		name    string
		state   plan.State
		invalid bool
	}{
		{"valid", base, false},
		{"zero now", with(func(s *plan.State) { s.Now = time.Time{} }), true},
		{"no deployment", with(func(s *plan.State) { s.Deployment = nil }), true},
		{"nil ReplicaSet", with(func(s *plan.State) { s.ReplicaSets = append(s.ReplicaSets, nil) }), true},
		{"nil pod", with(func(s *plan.State) { s.Pods = append(s.Pods, nil) }), true},
		{"a known ReplicaSet twice", with(func(s *plan.State) { s.ReplicaSets = append(s.ReplicaSets, rs0) }), true},
		{"a known pod twice", with(func(s *plan.State) { s.Pods = append(s.Pods, s.Pods[1]) }), true},
		{"two names alike", with(func(s *plan.State) { s.ReplicaSets[1] = renamed }), true},
		{"negative restart count", with(func(s *plan.State) { s.Pods[0] = badPod }), true},
		{"negative restart count again", with(func(s *plan.State) { s.Pods[0] = badPod }), true},
		{"negative replicas", with(func(s *plan.State) { s.ReplicaSets[0] = negative }), true},
		{"empty selector", with(func(s *plan.State) { s.Deployment = emptySelector }), false},
		{"early deadline", with(func(s *plan.State) { s.Deployment = earlyDeadline }), false},
		{"early deadline again", with(func(s *plan.State) { s.Deployment = earlyDeadline }), false},
		{"valid again", base, false},
	}
	p := plan.NewPlanner()
	for _, st := range steps {
		want, wantErr := plan.Sync(st.state)
		if (wantErr != nil) != st.invalid {
			t.Fatalf("%s: fixture: Sync's error %v", st.name, wantErr)
		}
		got, err := p.Sync(st.state)
		samePlan(t, st.name, want, wantErr, got, err)
	}
}

// TestPlannerHashesOncePerDeployment: a Planner asks its Hasher once per
// Deployment object, however often it creates that Deployment's new
// ReplicaSet; a new object (even an equal copy) is hashed anew, and an
// unusable hash is never remembered.
func TestPlannerHashesOncePerDeployment(t *testing.T) {
	sc := corpus()[0] // the rolling create
	calls := 0
	hasher := func(_ model.PodTemplate, _ *int32) string { calls++; return "v2" }
	p := plan.NewPlanner(plan.WithHasher(hasher))
	want, wantErr := plan.Sync(sc.state, plan.WithHasher(hasher))
	calls = 0
	for range 5 {
		got, err := p.Sync(sc.state)
		samePlan(t, "rolling create", want, wantErr, got, err)
	}
	if calls != 1 {
		t.Fatalf("5 syncs of one Deployment called the hasher %d times, want 1", calls)
	}
	copied := sc.state
	copied.Deployment = sc.state.Deployment.DeepCopy()
	if _, err := p.Sync(copied); err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Fatalf("a copy of the Deployment: %d hasher calls in all, want 2", calls)
	}

	calls = 0
	bad := plan.NewPlanner(plan.WithHasher(func(_ model.PodTemplate, _ *int32) string { calls++; return "not a label!" }))
	for range 3 {
		if _, err := bad.Sync(sc.state); err == nil {
			t.Fatal("an unusable hash planned a create")
		}
	}
	if calls != 3 {
		t.Fatalf("an unusable hash was asked for %d times in 3 syncs, want 3 (never remembered)", calls)
	}
}

// TestPlannerMemoryIsBounded: a Planner fed ever new objects keeps at most
// two generations of them, each under its limit, and does retire them; the
// limit grows to four times the largest State.
func TestPlannerMemoryIsBounded(t *testing.T) {
	sc := corpus()[2]
	p := plan.NewPlanner()
	if _, _, limit := plan.PlannerMemory(p); limit != 1024 {
		t.Fatalf("a new Planner retires generations at %d entries, want 1 024", limit)
	}
	limit := 64
	plan.SetPlannerLimit(p, limit)
	retired := false
	for i := 0; !retired; i++ {
		s := sc.state
		s.ReplicaSets = []*model.ReplicaSet{sc.state.ReplicaSets[0].DeepCopy(), sc.state.ReplicaSets[1].DeepCopy()}
		before, _, _ := plan.PlannerMemory(p)
		if _, err := p.Sync(s); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
		valid, hashes, _ := plan.PlannerMemory(p)
		if valid > 2*limit+6 || hashes > 2*limit {
			t.Fatalf("sync %d: %d objects and %d hashes remembered, limit %d per generation", i, valid, hashes, limit)
		}
		retired = valid < before
		if i > 2*limit {
			t.Fatalf("%d syncs of new ReplicaSets and nothing retired (%d remembered)", i, valid)
		}
	}
	big := sc.state
	big.Pods = nil
	for i := range 3 * limit {
		pod := sc.state.Pods[0].DeepCopy()
		pod.Name, pod.UID = fmt.Sprintf("pod-%d", i), fmt.Sprintf("uid-%d", i)
		big.Pods = append(big.Pods, pod)
	}
	if _, err := p.Sync(big); err != nil {
		t.Fatal(err)
	}
	n := 1 + len(big.ReplicaSets) + len(big.Pods)
	if _, _, got := plan.PlannerMemory(p); got != 4*n {
		t.Fatalf("limit %d after a State of %d objects, want four times that", got, n)
	}
}

// TestPlannerMemoryFitsTheWorkingSet: a Planner serving many Deployments
// in turn, as a controller does, sizes its memory to all of them rather
// than forgetting each before its next sync: 60 Deployments planned five
// times each are hashed once each.
func TestPlannerMemoryFitsTheWorkingSet(t *testing.T) {
	sc := corpus()[0] // the rolling create: every sync hashes the template
	calls := 0
	p := plan.NewPlanner(plan.WithHasher(func(_ model.PodTemplate, _ *int32) string { calls++; return "v2" }))
	plan.SetPlannerLimit(p, 16) // a floor far below the 60 Deployments' objects
	var states []plan.State
	for i := range 60 {
		s := sc.state
		s.Deployment = sc.state.Deployment.DeepCopy()
		s.Deployment.Name, s.Deployment.UID = fmt.Sprintf("web-%d", i), fmt.Sprintf("uid-web-%d", i)
		states = append(states, s)
	}
	for range 5 {
		for _, s := range states {
			if _, err := p.Sync(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	if calls != len(states) {
		t.Fatalf("%d Deployments planned 5 times each were hashed %d times, want once each", len(states), calls)
	}
}

// TestPlannerConcurrent: workers sharing a Planner get Sync's answers (run
// with -race to check the locking).
func TestPlannerConcurrent(t *testing.T) {
	states := readConformanceStates(t)
	want := make([]plan.Plan, len(states))
	for i, s := range states {
		var err error
		if want[i], err = plan.Sync(s); err != nil {
			t.Fatal(err)
		}
	}
	p := plan.NewPlanner()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 4 {
		wg.Go(func() {
			for i := range states {
				j := (i + w*50) % len(states)
				got, err := p.Sync(states[j])
				if err != nil || !cmp.Equal(want[j], got) {
					errs <- fmt.Errorf("worker %d, state %d: differs from Sync (error %v)", w, j, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
