package inmemory

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// epoch is the clock the tests start from.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func testDeployment() *model.Deployment {
	return model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 1},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(4),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:1"},
		},
	})
}

// withFirstReplicaSet returns a cluster of testDeployment after its first
// sync, which created one ReplicaSet, and that ReplicaSet's name.
func withFirstReplicaSet(t *testing.T) (Cluster, string) {
	t.Helper()
	c := Cluster{Deployment: testDeployment()}
	now := epoch
	p, err := plan.Sync(c.State(now))
	if err != nil {
		t.Fatal(err)
	}
	c.ApplyPlan(p, ApplyAccepted, now)
	return c, c.ReplicaSets[0].Name
}

// The stored status never shares the caller's slice or pointer: changing
// them after the call changes nothing stored. A status equal to the stored
// one keeps the stored conditions and terminating count.
func TestSetReplicaSetStatusCopies(t *testing.T) {
	c, name := withFirstReplicaSet(t)

	conds := []model.ReplicaSetCondition{{Type: "ReplicaFailure", Status: model.ConditionTrue, Reason: "FailedCreate"}}
	term := int32(2)
	if err := c.SetReplicaSetStatus(name, model.ReplicaSetStatus{Replicas: 3, Conditions: conds, TerminatingReplicas: &term}); err != nil {
		t.Fatal(err)
	}
	first := c.ReplicaSet(name)
	conds[0].Reason, term = "changed", 7
	if got := first.Status; got.Conditions[0].Reason != "FailedCreate" || *got.TerminatingReplicas != 2 {
		t.Fatalf("stored status follows the caller's: %+v %d", got.Conditions, *got.TerminatingReplicas)
	}

	// Equal values: the stored slice and pointer are kept.
	same := []model.ReplicaSetCondition{{Type: "ReplicaFailure", Status: model.ConditionTrue, Reason: "FailedCreate"}}
	two := int32(2)
	if err := c.SetReplicaSetStatus(name, model.ReplicaSetStatus{Replicas: 4, Conditions: same, TerminatingReplicas: &two}); err != nil {
		t.Fatal(err)
	}
	second := c.ReplicaSet(name)
	if second == first || second.Status.Replicas != 4 || first.Status.Replicas != 3 {
		t.Fatalf("the write did not replace the object: %p %p", first, second)
	}
	if &second.Status.Conditions[0] != &first.Status.Conditions[0] || second.Status.TerminatingReplicas != first.Status.TerminatingReplicas {
		t.Error("equal conditions and count were copied again")
	}
	if second.ResourceVersion == first.ResourceVersion {
		t.Errorf("resourceVersion %s not bumped", second.ResourceVersion)
	}

	// Different values, or nil against empty: stored fresh.
	if err := c.SetReplicaSetStatus(name, model.ReplicaSetStatus{Conditions: []model.ReplicaSetCondition{}}); err != nil {
		t.Fatal(err)
	}
	third := c.ReplicaSet(name).Status
	if third.Conditions == nil || len(third.Conditions) != 0 || third.TerminatingReplicas != nil {
		t.Errorf("got conditions %#v, terminating %v; want empty, nil", third.Conditions, third.TerminatingReplicas)
	}
}

// Every write replaces the object it writes with a new pointer and leaves
// the old object and every other object as they were: what a snapshot
// holds never changes, and an object unchanged keeps its pointer (what
// caches keyed by object identity rely on).
func TestApplyReplacesOnlyWrittenObjects(t *testing.T) {
	c := Cluster{Deployment: testDeployment()}
	now := epoch
	for step := range 12 {
		before := c.State(now)
		frozen := map[any]string{}
		frozen[before.Deployment] = mustJSON(t, before.Deployment)
		for _, rs := range before.ReplicaSets {
			frozen[rs] = mustJSON(t, rs)
		}
		p, err := plan.Sync(before)
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range c.ApplyPlan(p, ApplyAccepted, now) {
			t.Fatal(err)
		}
		// The ReplicaSet controller reports every pod available.
		for _, rs := range c.ReplicaSets {
			n := rs.SpecReplicas()
			if rs.Status.Replicas != n || rs.Status.AvailableReplicas != n || rs.Status.ObservedGeneration != rs.Generation {
				old := rs
				if err := c.SetReplicaSetStatus(rs.Name, model.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n, FullyLabeledReplicas: n, ObservedGeneration: rs.Generation}); err != nil {
					t.Fatal(err)
				}
				if c.ReplicaSet(rs.Name) == old {
					t.Fatalf("step %d: status write kept the pointer of %s", step, rs.Name)
				}
			}
		}
		for obj, js := range frozen {
			if got := mustJSON(t, obj); got != js {
				t.Fatalf("step %d: an object of the snapshot changed:\nbefore %s\nafter  %s", step, js, got)
			}
		}
		// Objects whose content is unchanged keep their pointers.
		for _, rs := range before.ReplicaSets {
			if cur := c.ReplicaSet(rs.Name); cur != nil && cur != rs && mustJSON(t, cur) == frozen[rs] {
				t.Errorf("step %d: %s was replaced by an equal object", step, rs.Name)
			}
		}
		if len(p.Accepted()) == 0 && c.Deployment != before.Deployment {
			t.Errorf("step %d: no write, yet the Deployment was replaced", step)
		}
		if step == 3 {
			spec := c.Deployment.Spec
			spec.Template.Spec = "image: web:2"
			c.UpdateDeploymentSpec(spec, nil)
		}
		now = now.Add(time.Second)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
