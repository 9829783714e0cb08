package plan_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// knownStep is one sync of a Planner test: the State, how the Planner is
// to validate it, and whether Sync rejects it.
type knownStep struct {
	name    string
	state   plan.State
	how     string
	invalid bool
}

// runKnownSteps plans every step with one Planner, checks that it answers
// as Sync does (the same error, word for word) and that it validated the
// State the way the step says.
func runKnownSteps(t *testing.T, p *plan.Planner, steps []knownStep) {
	t.Helper()
	var how []string
	plan.ObservePlannerValidation(p, func(h string) { how = append(how, h) })
	for _, st := range steps {
		how = how[:0]
		want, wantErr := plan.Sync(st.state)
		if (wantErr != nil) != st.invalid {
			t.Fatalf("%s: fixture: Sync's error %v", st.name, wantErr)
		}
		got, err := p.Sync(st.state)
		samePlan(t, st.name, want, wantErr, got, err)
		if !slices.Equal(how, []string{st.how}) {
			t.Fatalf("%s: validated %q, want %q", st.name, how, st.how)
		}
	}
}

// with returns a copy of s with its own lists, changed by f.
func with(s plan.State, f func(*plan.State)) plan.State {
	s.ReplicaSets = slices.Clone(s.ReplicaSets)
	s.Pods = slices.Clone(s.Pods)
	f(&s)
	return s
}

func reversed(s plan.State) plan.State {
	return with(s, func(s *plan.State) {
		slices.Reverse(s.ReplicaSets)
		slices.Reverse(s.Pods)
	})
}

// TestPlannerKnownLists: a Planner skips validating a State whose lists
// are its Deployment's last valid lists, the same objects in another order
// or some of them, and only then; a State with any other object (a copy,
// an invalid object, a twin sharing a name or a UID, an object listed
// twice, nil) is checked, and an invalid one gets Sync's error. The
// Deployment (by UID) is the key: a new Deployment object of the same UID
// is validated on its own, another Deployment never reuses the lists.
func TestPlannerKnownLists(t *testing.T) {
	base := corpus()[2].state // Recreate waiting: a Deployment, two ReplicaSets, four pods
	if len(base.ReplicaSets) != 2 || len(base.Pods) != 4 {
		t.Fatalf("fixture changed: %d ReplicaSets, %d pods", len(base.ReplicaSets), len(base.Pods))
	}
	copied := base.Pods[1].DeepCopy()
	badPod := base.Pods[1].DeepCopy()
	badPod.Status.ContainerStatuses = []model.ContainerStatus{{RestartCount: -1}}
	nameTwin := base.Pods[1].DeepCopy()
	nameTwin.UID = "uid-name-twin"
	nameTwin.Name = base.Pods[0].Name
	uidTwin := base.Pods[1].DeepCopy()
	uidTwin.UID = base.Pods[0].UID
	rsTwin := base.ReplicaSets[1].DeepCopy()
	rsTwin.Name = base.ReplicaSets[0].Name
	newD := base.Deployment.DeepCopy()
	badD := base.Deployment.DeepCopy()
	badD.Spec.Strategy.Type = "Canary"
	otherD := base.Deployment.DeepCopy()
	otherD.UID = "uid-other-deployment"

	steps := []knownStep{
		{name: "first sync", state: base, how: "in full"},
		{name: "second sync: the lists are remembered", state: base, how: "in full"},
		{name: "again", state: base, how: "same lists"},
		{name: "new lists, same objects", state: with(base, func(*plan.State) {}), how: "same lists"},
		{name: "reordered", state: reversed(base), how: "known objects"},
		{name: "two pods swapped", state: with(base, func(s *plan.State) { s.Pods[0], s.Pods[3] = s.Pods[3], s.Pods[0] }), how: "known objects"},
		{name: "a pod left out", state: with(base, func(s *plan.State) { s.Pods = s.Pods[1:] }), how: "known objects"},
		{name: "no pods (the lists shrank: the shorter ones are remembered)", state: with(base, func(s *plan.State) { s.Pods = nil }), how: "known objects"},
		{name: "the pods back", state: base, how: "new objects"},
		{name: "a pod listed twice", state: with(base, func(s *plan.State) { s.Pods = append(s.Pods, s.Pods[2]) }), how: "failed", invalid: true},
		{name: "a pod listed twice in place of another", state: with(base, func(s *plan.State) { s.Pods[3] = s.Pods[2] }), how: "failed", invalid: true},
		{name: "a pod listed twice, both out of place", state: with(base, func(s *plan.State) { s.Pods[0], s.Pods[1], s.Pods[2] = s.Pods[1], s.Pods[0], s.Pods[0] }), how: "failed", invalid: true},
		{name: "two pods swapped and a nil", state: with(base, func(s *plan.State) { s.Pods[0], s.Pods[1], s.Pods[2] = s.Pods[1], s.Pods[0], nil }), how: "failed", invalid: true},
		{name: "a ReplicaSet listed twice", state: with(base, func(s *plan.State) { s.ReplicaSets[1] = s.ReplicaSets[0] }), how: "failed", invalid: true},
		{name: "a nil pod in place of one", state: with(base, func(s *plan.State) { s.Pods[1] = nil }), how: "failed", invalid: true},
		{name: "a nil ReplicaSet added", state: with(base, func(s *plan.State) { s.ReplicaSets = append(s.ReplicaSets, nil) }), how: "failed", invalid: true},
		{name: "an invalid pod in place of one", state: with(base, func(s *plan.State) { s.Pods[1] = badPod }), how: "failed", invalid: true},
		{name: "an invalid pod again", state: with(base, func(s *plan.State) { s.Pods[1] = badPod }), how: "failed", invalid: true},
		{name: "a pod twin by name", state: with(base, func(s *plan.State) { s.Pods[1] = nameTwin }), how: "failed", invalid: true},
		{name: "a pod twin by UID", state: with(base, func(s *plan.State) { s.Pods[1] = uidTwin }), how: "failed", invalid: true},
		{name: "a ReplicaSet twin by name", state: with(base, func(s *plan.State) { s.ReplicaSets[1] = rsTwin }), how: "failed", invalid: true},
		{name: "still known", state: base, how: "same lists"},
		{name: "an equal copy of a pod", state: with(base, func(s *plan.State) { s.Pods[1] = copied }), how: "new objects"},
		{name: "the copy is known now", state: with(base, func(s *plan.State) { s.Pods[1] = copied }), how: "same lists"},
		{name: "the original back", state: base, how: "new objects"},
		{name: "a new Deployment object", state: with(base, func(s *plan.State) { s.Deployment = newD }), how: "same lists"},
		{name: "an invalid Deployment object", state: with(base, func(s *plan.State) { s.Deployment = badD }), how: "failed", invalid: true},
		{name: "another Deployment", state: with(base, func(s *plan.State) { s.Deployment = otherD }), how: "in full"},
		{name: "the other Deployment again", state: with(base, func(s *plan.State) { s.Deployment = otherD }), how: "in full"},
		{name: "the other Deployment a third time", state: with(base, func(s *plan.State) { s.Deployment = otherD }), how: "same lists"},
		{name: "the first again", state: base, how: "same lists"},
	}
	runKnownSteps(t, plan.NewPlanner(), steps)
}

// TestPlannerKnownListsByAddress: the same for lists long enough to be
// looked up by address (more entries out of place than are matched among
// themselves).
func TestPlannerKnownListsByAddress(t *testing.T) {
	base := plannerBenchState(t, 24)
	rev := reversed(base)
	// rev[4] is base.Pods[19]: each replacement stands in for it.
	uidTwin := base.Pods[19].DeepCopy()
	uidTwin.UID = base.Pods[7].UID
	badPod := base.Pods[19].DeepCopy()
	badPod.Status.ContainerStatuses = []model.ContainerStatus{{RestartCount: -1}}
	copied := base.Pods[19].DeepCopy()
	steps := []knownStep{
		{name: "first sync", state: base, how: "in full"},
		{name: "second sync: the lists are remembered", state: base, how: "in full"},
		{name: "reversed", state: rev, how: "known objects"},
		{name: "reversed, some left out", state: with(rev, func(s *plan.State) { s.Pods = s.Pods[3:20] }), how: "known objects"},
		{name: "rotated", state: with(base, func(s *plan.State) { s.Pods = append(s.Pods[12:], s.Pods[:12]...) }), how: "known objects"},
		{name: "reversed, a pod listed twice", state: with(rev, func(s *plan.State) { s.Pods[0] = s.Pods[9] }), how: "failed", invalid: true},
		{name: "reversed, a pod added twice", state: with(rev, func(s *plan.State) { s.Pods = append(s.Pods, s.Pods[9]) }), how: "failed", invalid: true},
		{name: "reversed, a nil pod", state: with(rev, func(s *plan.State) { s.Pods[4] = nil }), how: "failed", invalid: true},
		{name: "reversed, a pod twin by UID", state: with(rev, func(s *plan.State) { s.Pods[4] = uidTwin }), how: "failed", invalid: true},
		{name: "reversed, an invalid pod", state: with(rev, func(s *plan.State) { s.Pods[4] = badPod }), how: "failed", invalid: true},
		{name: "reversed, an equal copy of a pod", state: with(rev, func(s *plan.State) { s.Pods[4] = copied }), how: "new objects"},
		{name: "the copy reversed", state: reversed(with(rev, func(s *plan.State) { s.Pods[4] = copied })), how: "known objects"},
	}
	runKnownSteps(t, plan.NewPlanner(), steps)
}

// TestPlannerKnownListsAreRetired: the lists a Planner remembers per
// Deployment are retired with its other memories. Three Deployments
// planned in turn, each sync with new ReplicaSets (so that the memory of
// objects fills and is retired), are remembered with the lists of their
// latest State only (from their second sync on); once three others take their place, the first three
// are forgotten within two retirements.
func TestPlannerKnownListsAreRetired(t *testing.T) {
	sc := corpus()[2]
	p := plan.NewPlanner()
	plan.SetPlannerLimit(p, 32)
	listed := len(sc.state.ReplicaSets) + len(sc.state.Pods)
	sync := func(i int, uid string) {
		t.Helper()
		s := anotherDeployment(sc.state, sc.state.Deployment.Name, uid)
		s.ReplicaSets = []*model.ReplicaSet{sc.state.ReplicaSets[0].DeepCopy(), sc.state.ReplicaSets[1].DeepCopy()}
		if _, err := p.Sync(s); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	for i := range 300 {
		sync(i, fmt.Sprintf("a-%d", i%3))
		deployments, objects := plan.PlannerKnownLists(p)
		// Each is remembered from its first sync, its lists from its second.
		want, withLists := min(i+1, 3), min(max(i-2, 0), 3)
		if deployments != want || objects != withLists*listed {
			t.Fatalf("sync %d: %d Deployments remembered with %d objects listed, want %d with %d", i, deployments, objects, want, withLists*listed)
		}
	}
	_, _, limit := plan.PlannerMemory(p)
	for i := 0; ; i++ {
		sync(i, fmt.Sprintf("b-%d", i%3))
		deployments, objects := plan.PlannerKnownLists(p)
		if deployments > 6 || objects > deployments*listed || objects%listed != 0 {
			t.Fatalf("sync %d of the others: %d Deployments remembered with %d objects listed", i, deployments, objects)
		}
		if deployments == 3 {
			break // the first three forgotten
		}
		if i > 4*limit {
			t.Fatalf("%d syncs of three other Deployments and the first three still remembered", i)
		}
	}
}

// TestPlannerKnownListsConcurrent: workers sharing a Planner plan
// variants of two Deployments' lists (reordered, cut short, with copies,
// invalid objects and objects listed twice) in different orders, and get
// Sync's answer every time (run with -race to check the locking).
func TestPlannerKnownListsConcurrent(t *testing.T) {
	base := plannerBenchState(t, 24)
	other := with(base, func(s *plan.State) {
		s.Deployment = base.Deployment.DeepCopy()
		s.Deployment.UID = "uid-other"
	})
	badPod := base.Pods[3].DeepCopy()
	badPod.Status.ContainerStatuses = []model.ContainerStatus{{RestartCount: -1}}
	copied := base.Pods[3].DeepCopy()
	var states []plan.State
	for _, s := range []plan.State{base, other} {
		states = append(states, s, reversed(s),
			with(s, func(s *plan.State) { s.Pods = s.Pods[2:] }),
			with(s, func(s *plan.State) { s.Pods[3] = copied }),
			reversed(with(s, func(s *plan.State) { s.Pods[3] = copied })),
			with(s, func(s *plan.State) { s.Pods[3] = badPod }),
			with(s, func(s *plan.State) { s.Pods[3] = s.Pods[4] }),
			reversed(with(s, func(s *plan.State) { s.Pods = append(s.Pods, s.Pods[0]) })))
	}
	planConcurrently(t, plan.NewPlanner(), states, syncAnswers(states), 20)
}
