package plan_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

type scenario struct {
	why
	state plan.State
	opts  []plan.Option
}

func (s scenario) caseInfo() why { return s.why }

// corpus is a set of syncs that together reach every branch of Sync: a
// create with a conflict, proportional scaling with creation-time ties,
// Recreate waiting for pods, claims, a collision, a rollback that creates,
// a paused cleanup, a requeue and the select-everything guard.
func corpus() []scenario {
	var out []scenario

	d := newDeployment("web", 10, "v2", generation(2), revisionAnn(1),
		withStatus(depStatus(1, 10, 10, 10, 10, 0, availableCond(true, at(-time.Hour)), completeCond)))
	out = append(out, scenario{why{"rolling create", "the worked rolling update (10 replicas, maxSurge 25% → 3, maxUnavailable 25% → 2, then a template change) sync 1"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 10, at(-2*time.Hour))}, Now: t0}, []plan.Option{fixedHash("v2")}})

	d = newDeployment("web", 20, "v4", revisionAnn(4), generation(2),
		withStatus(depStatus(1, 13, 2, 13, 13, 0, progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, "m", at(-time.Hour), at(-time.Hour)))))
	tie := at(-time.Hour)
	out = append(out, scenario{why{"proportional with ties", "upstream scale's sort orders: equal sizes and creation times break ties by name"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{
			replicasAnn(newRS(d, "v1", 1, 4, tie), 10, 13),
			replicasAnn(newRS(d, "v2", 2, 4, tie), 10, 13),
			replicasAnn(newRS(d, "v3", 3, 3, tie), 10, 13),
			replicasAnn(newRS(d, "v4", 4, 2, t0), 10, 13),
			newRS(d, "v0", 0, 0, tie),
		}, Now: t0}, nil})

	d = newDeployment("web", 3, "v2", recreate(), generation(2), revisionAnn(1),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	v1 := rsStatus(newRS(d, "v1", 1, 0, at(-2*time.Hour)), 0, 0, 0)
	v0 := rsStatus(newRS(d, "v0", 0, 0, at(-3*time.Hour)), 0, 0, 0)
	out = append(out, scenario{why{"recreate waiting", "upstream oldPodsRunning: terminating pods of two old RSs block"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1, v0}, Pods: []*model.Pod{
			newPod("a", v1, model.PodRunning, true), newPod("b", v0, model.PodSucceeded, true),
			newPod("c", v1, model.PodFailed, false), newPod("d", v0, model.PodPending, true),
		}, Now: t0}, nil})

	d = newDeployment("web", 3, "v2", revisionAnn(1),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	orphan := newRS(d, "v2", 1, 3, at(-2*time.Hour))
	orphan.OwnerReferences = nil
	orphan2 := newRS(d, "v1", 1, 0, at(-2*time.Hour))
	orphan2.OwnerReferences = nil
	mismatched := newRS(d, "x", 0, 0, at(-time.Hour))
	mismatched.Labels = map[string]string{"app": "other"}
	out = append(out, scenario{why{"claims", "upstream ClaimReplicaSets: two orphans adopted in creation order, one release"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{mismatched, orphan, orphan2}, Now: t0}, nil})

	d = newDeployment("web", 3, "v2", generation(2), revisionAnn(1),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	taken := newRS(d, "v1", 1, 3, at(-time.Hour))
	taken.Name, taken.UID = "web-new", "uid-web-new"
	out = append(out, scenario{why{"collision", "upstream getNewReplicaSet (creation)"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{taken}, Now: t0}, []plan.Option{fixedHash("new")}})

	d = newDeployment("web", 3, "v3", revisionAnn(2), depAnn(model.RollbackToAnnotation, "1"),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	out = append(out, scenario{why{"rollback creating", "upstream quirk (the legacy rollback creates a ReplicaSet for the abandoned template)"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{
			newRS(d, "v1", 1, 0, at(-2*time.Hour)), newRS(d, "v2", 2, 3, at(-time.Hour)),
		}, Now: t0}, []plan.Option{fixedHash("v3")}})

	d = newDeployment("web", 5, "v3", paused(), generation(3), revisionAnn(3), historyLimit(1),
		withStatus(depStatus(2, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	out = append(out, scenario{why{"paused cleanup", "upstream sync/cleanupDeployment"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{
			newRS(d, "v0", 1, 0, tie), newRS(d, "v1", 1, 0, tie), replicasAnn(newRS(d, "v2", 3, 3, at(-time.Hour)), 3, 4),
		}, Now: t0}, nil})

	d = newDeployment("web", 3, "v1", deadline(i32(60)), revisionAnn(1),
		withStatus(depStatus(1, 3, 3, 1, 1, 2, availableCond(false, testTime),
			progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, "m", testTime, testTime))))
	out = append(out, scenario{why{"requeue", "upstream TestRequeueStuckDeployment"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{rsStatus(newRS(d, "v1", 1, 3, testTime.Add(-time.Hour)), 3, 1, 1)},
			Now: testTime.Add(30 * time.Second)}, nil})

	d = newDeployment("web", 3, "v1", generation(2))
	d.Spec.Selector = &model.LabelSelector{}
	out = append(out, scenario{why{"selecting all", "upstream syncDeployment step 1"}, plan.State{Deployment: d, Now: t0}, nil})
	// Only minReadySeconds lags: the annotation map must still be copied
	// (a review found the plan sharing it with the input).
	d = newDeployment("web", 3, "v2", revisionAnn(2), generation(3),
		withStatus(depStatus(3, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	d.Spec.MinReadySeconds = 5
	current := newRS(d, "v2", 2, 3, at(-time.Hour))
	current.Spec.MinReadySeconds = 0
	out = append(out, scenario{why{"minReadySeconds sync only", "upstream getNewReplicaSet (existing new ReplicaSet): the new ReplicaSet is updated for minReadySeconds alone"},
		plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 0, at(-2*time.Hour)), current}, Now: t0}, nil})
	return out
}

// TestSyncIsPure: Sync never modifies its input, and a caller may change
// anything a plan holds without changing the input or a second plan of the
// same state (checkNoAlias), on every branch of the corpus.
func TestSyncIsPure(t *testing.T) {
	runCases(t, corpus(), func(t *testing.T, sc scenario) {
		checkNoAlias(t, sc.name, sc.state, sc.opts)
	})
}

// TestSyncIgnoresInputOrder: every order of State.ReplicaSets and State.Pods
// gives the same plan (the planner is deterministic, invariant I5).
func TestSyncIgnoresInputOrder(t *testing.T) {
	runCases(t, corpus(), func(t *testing.T, sc scenario) {
		want, wantErr := plan.Sync(sc.state, sc.opts...)
		require.NoError(t, syncFailure(wantErr))
		n := 0
		forEachPermutation(len(sc.state.ReplicaSets), func(rsOrder []int) {
			forEachPermutation(len(sc.state.Pods), func(podOrder []int) {
				if n++; n > 500 {
					return
				}
				s := cloneState(sc.state)
				for i, j := range rsOrder {
					s.ReplicaSets[i] = sc.state.ReplicaSets[j].DeepCopy()
				}
				for i, j := range podOrder {
					s.Pods[i] = sc.state.Pods[j].DeepCopy()
				}
				got, err := plan.Sync(s, sc.opts...)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("ReplicaSets %v, pods %v: plan differs (-given +permuted):\n%s", rsOrder, podOrder, diff)
				}
				if diff := cmp.Diff(wantErr, err); diff != "" {
					t.Fatalf("ReplicaSets %v, pods %v: error differs (-given +permuted):\n%s", rsOrder, podOrder, diff)
				}
			})
		})
	})
}

// forEachPermutation calls fn with every permutation of 0..n-1 (Heap's
// algorithm); fn must not keep the slice.
func forEachPermutation(n int, fn func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			fn(p)
			return
		}
		for i := 0; i < k-1; i++ {
			gen(k - 1)
			if k%2 == 0 {
				p[i], p[k-1] = p[k-1], p[i]
			} else {
				p[0], p[k-1] = p[k-1], p[0]
			}
		}
		gen(k - 1)
	}
	gen(n)
}

func TestForEachPermutation(t *testing.T) {
	seen := map[[4]int]bool{}
	forEachPermutation(4, func(p []int) { seen[[4]int(p)] = true })
	if len(seen) != 24 {
		t.Errorf("%d distinct permutations of 4, want 24", len(seen))
	}
}

// TestPlanJSONRoundTrip: a plan is data; it survives JSON unchanged.
func TestPlanJSONRoundTrip(t *testing.T) {
	runCases(t, corpus(), func(t *testing.T, sc scenario) {
		p, err := plan.Sync(sc.state, sc.opts...)
		require.NoError(t, syncFailure(err))
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back plan.Plan
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal: %v\n%s", err, b)
		}
		if !cmp.Equal(p, back) {
			t.Errorf("round trip differs (-before +after):\n%s", cmp.Diff(p, back))
		}
		b2, err := json.Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(b, b2) {
			t.Errorf("second encoding differs:\n%s\n%s", b, b2)
		}
	})
	t.Run("requeue duration as text", func(t *testing.T) {
		b, err := json.Marshal(plan.Requeue{Kind: plan.RequeueAfter, After: 31 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `{"kind":"after","after":"31s"}` {
			t.Errorf("Requeue JSON = %s", b)
		}
	})
}
