package plantest_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// A property test of a policy or adapter in a few lines: plan a state,
// check the plan against the rollout invariants, apply it the way the API
// server would, and plan again. In a real test the state comes from
// gen.State(...).Draw(t, "state") inside rapid.Check.
func ExampleCheck() {
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 1},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(4),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "v1"},
		},
	})
	cluster := inmemory.Cluster{Deployment: d}
	now := plantest.Epoch()
	for range 3 {
		s := cluster.State(now)
		p, err := plan.Sync(s)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d writes, %d violations\n", len(p.Accepted()), len(plantest.Check(s, p)))
		cluster.ApplyPlan(p, inmemory.ApplyAccepted, now)
		now = now.Add(time.Second)
	}
	fmt.Println("ReplicaSets:", len(cluster.ReplicaSets), "replicas:", cluster.ReplicaSets[0].SpecReplicas())
	// Output:
	// 2 writes, 0 violations
	// 1 writes, 0 violations
	// 0 writes, 0 violations
	// ReplicaSets: 1 replicas: 4
}

// Check names the upstream quirk behind a violation a faithful planner
// inherits, and the option that avoids it.
func ExampleViolation_quirk() {
	old := func(name, spec string, replicas int32, revision string) *model.ReplicaSet {
		labels := map[string]string{"app": "web", model.PodTemplateHashLabel: name}
		return &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", UID: name, Labels: labels,
				Annotations:     map[string]string{model.RevisionAnnotation: revision, model.DesiredReplicasAnnotation: "1", model.MaxReplicasAnnotation: "1"},
				OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "web-uid")}},
			Spec:   model.ReplicaSetSpec{Replicas: model.Int32Ptr(replicas), Selector: &model.LabelSelector{MatchLabels: labels}, Template: model.PodTemplate{Labels: labels, Spec: spec}},
			Status: model.ReplicaSetStatus{Replicas: replicas, AvailableReplicas: replicas},
		}
	}
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 2,
			Annotations: map[string]string{model.RollbackToAnnotation: "1"}},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(1),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "v2"},
			Strategy: model.Strategy{Type: model.RecreateStrategy},
		},
	})
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old("web-1", "v1", 1, "1")}, Now: plantest.Epoch()}
	p, _ := plan.Sync(s)
	for _, v := range plantest.Check(s, p) {
		fmt.Println(v.Invariant, v.Quirk != "")
	}
	fixed, _ := plan.Sync(s, plan.RollbackWithoutCreate())
	fmt.Println("with the fix:", len(plantest.Check(s, fixed)))
	// Output:
	// I1 true
	// I9 true
	// with the fix: 0
}
