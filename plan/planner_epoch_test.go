package plan_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// TestPlannerForgetsDeploymentsNoLongerPlanned: a Planner that sees ever
// new Deployments (a cluster where Deployments are created and deleted all
// day), each planned twice and then never again, keeps a bounded memory:
// the Deployments of at most two epochs, and a limit sized to them. The
// States share their ReplicaSets and pods, so the memory of objects never
// fills by itself; only forgetting the Deployments bounds the limit.
func TestPlannerForgetsDeploymentsNoLongerPlanned(t *testing.T) {
	sc := corpus()[2]
	p := plan.NewPlanner()
	const floor, epoch = 32, 16
	plan.SetPlannerLimit(p, floor)
	plan.SetPlannerEpoch(p, epoch)
	n := 1 + len(sc.state.ReplicaSets) + len(sc.state.Pods)
	// Each epoch takes over at most one Deployment of the last (the one
	// planned across its end), so epochs stay at the least length: at
	// most 2 × epoch + 2 Deployments are remembered, and the limit is at
	// most twice their objects; each memory holds two generations, the
	// older one filled under an earlier limit.
	maxDeployments := 2*epoch + 2
	maxLimit := max(floor, 4*n, 2*maxDeployments*n)
	for i := range 2000 {
		s := anotherDeployment(sc.state, fmt.Sprintf("web-%d", i), fmt.Sprintf("uid-%d", i))
		for range 2 {
			if _, err := p.Sync(s); err != nil {
				t.Fatalf("Deployment %d: %v", i, err)
			}
		}
		deployments, _ := plan.PlannerKnownLists(p)
		valid, hashes, limit := plan.PlannerMemory(p)
		if deployments > maxDeployments || limit > maxLimit || valid > 2*maxLimit+n || hashes > 2*maxLimit {
			t.Fatalf("after %d Deployments: %d remembered (at most %d), limit %d (at most %d), %d objects and %d hashes remembered",
				i+1, deployments, maxDeployments, limit, maxLimit, valid, hashes)
		}
	}
	if got := plan.PlannerEpoch(p); got != epoch {
		t.Fatalf("epoch %d syncs after a stream of new Deployments, want the least, %d", got, epoch)
	}
}

// anotherDeployment returns s with a copy of its Deployment named name, of
// UID uid, and s's own lists (the same slices).
func anotherDeployment(s plan.State, name, uid string) plan.State {
	s.Deployment = s.Deployment.DeepCopy()
	s.Deployment.Name, s.Deployment.UID = name, uid
	return s
}

// TestPlannerEpochFitsARound: a Planner serving more Deployments in turn
// than its least epoch holds (even each forgotten before its next turn)
// lengthens its epochs to a round of them, so that it stops forgetting
// them: once it has, every Deployment stays remembered and its template is
// hashed no more.
func TestPlannerEpochFitsARound(t *testing.T) {
	sc := corpus()[0] // the rolling create: every sync hashes the template
	calls := 0
	p := plan.NewPlanner(plan.WithHasher(func(_ model.PodTemplate, _ *int32) string { calls++; return "v2" }))
	// Two and a half times as many Deployments as an epoch: each is
	// forgotten before its next turn until the epoch has grown, which
	// it does only by counting those planned again after being
	// forgotten.
	const epoch, deployments = 16, 40
	plan.SetPlannerLimit(p, 16)
	plan.SetPlannerEpoch(p, epoch)
	var states []plan.State
	for i := range deployments {
		states = append(states, anotherDeployment(sc.state, fmt.Sprintf("web-%d", i), fmt.Sprintf("uid-web-%d", i)))
	}
	round := func() {
		t.Helper()
		for _, s := range states {
			if _, err := p.Sync(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	for range 10 {
		round()
	}
	if got := plan.PlannerEpoch(p); got < 2*deployments {
		t.Fatalf("epoch %d syncs after 10 rounds of %d Deployments, want at least %d", got, deployments, 2*deployments)
	}
	before := calls
	for range 5 {
		round()
	}
	if calls != before {
		t.Fatalf("5 more rounds hashed %d templates, want none (all remembered)", calls-before)
	}
	if got, _ := plan.PlannerKnownLists(p); got != deployments {
		t.Fatalf("%d Deployments remembered, want all %d", got, deployments)
	}
}

// TestPlannerLetsGoOfShrunkLists: when a Deployment's State lists fewer of
// its remembered objects (pods deleted, ReplicaSets cleaned up), the
// Planner remembers the shorter lists, so that the objects gone are not
// kept alive while the Deployment is planned; a State listing most of them
// keeps the remembered lists (no allocation per sync).
func TestPlannerLetsGoOfShrunkLists(t *testing.T) {
	full := plannerBenchState(t, 24)
	p := plan.NewPlanner()
	runKnownSteps(t, p, []knownStep{
		{name: "first sync", state: full, how: "in full"},
		{name: "second sync: the lists are remembered", state: full, how: "in full"},
	})
	listed := len(full.ReplicaSets) + len(full.Pods)
	if _, objects := plan.PlannerKnownLists(p); objects != listed {
		t.Fatalf("%d objects listed after two syncs, want %d", objects, listed)
	}
	most := full
	most.Pods = full.Pods[1:]
	runKnownSteps(t, p, []knownStep{{name: "a State without one pod", state: most, how: "known objects"}})
	if _, objects := plan.PlannerKnownLists(p); objects != listed {
		t.Fatalf("%d objects listed after a State without one pod, want the %d remembered", objects, listed)
	}
	few := full
	few.Pods = full.Pods[:3]
	// The first of these lists some of the remembered objects; its lists
	// are remembered in their place, so the syncs after it list exactly
	// the remembered ones.
	runKnownSteps(t, p, []knownStep{
		{name: "3 of the pods", state: few, how: "known objects"},
		{name: "3 of the pods, again", state: few, how: "same lists"},
		{name: "3 of the pods, a third time", state: few, how: "same lists"},
		{name: "3 of the pods, a fourth time", state: few, how: "same lists"},
		{name: "3 of the pods, a fifth time", state: few, how: "same lists"},
	})
	if _, objects := plan.PlannerKnownLists(p); objects != len(few.ReplicaSets)+3 {
		t.Fatalf("%d objects listed after States with 3 of the pods, want %d", objects, len(few.ReplicaSets)+3)
	}
}

// TestPlannerLargestStateCountsForTwoEpochs: one large State sizes the
// memory (four times its objects) only while it is recent: once two
// epochs of small States have passed, the limit falls back to what they
// need, and the memory of objects is retired at it.
func TestPlannerLargestStateCountsForTwoEpochs(t *testing.T) {
	big := plannerBenchState(t, 300)
	p := plan.NewPlanner()
	const floor, epoch = 32, 16
	plan.SetPlannerLimit(p, floor)
	plan.SetPlannerEpoch(p, epoch)
	if _, err := p.Sync(big); err != nil {
		t.Fatal(err)
	}
	nBig := 1 + len(big.ReplicaSets) + len(big.Pods)
	if _, _, limit := plan.PlannerMemory(p); limit != 4*nBig {
		t.Fatalf("limit %d after a State of %d objects, want %d", limit, nBig, 4*nBig)
	}
	small := corpus()[2].state
	for i := 0; ; i++ {
		s := small
		s.ReplicaSets = []*model.ReplicaSet{small.ReplicaSets[0].DeepCopy(), small.ReplicaSets[1].DeepCopy()}
		if _, err := p.Sync(s); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
		if _, _, limit := plan.PlannerMemory(p); limit < 4*nBig {
			break
		}
		if i > 20*nBig {
			t.Fatalf("%d syncs of small States and the limit still sized to the large one", i)
		}
	}
}
