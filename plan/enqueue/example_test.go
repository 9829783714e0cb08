package enqueue_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
)

// An orphaned ReplicaSet wakes every Deployment that could adopt it; once
// adopted, its updates wake only its owner.
func ExampleUpdateReplicaSet() {
	web := &model.Deployment{ObjectMeta: model.ObjectMeta{Namespace: "default", Name: "web", UID: "u1"},
		Spec: model.DeploymentSpec{Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	canary := &model.Deployment{ObjectMeta: model.ObjectMeta{Namespace: "default", Name: "canary", UID: "u2"},
		Spec: model.DeploymentSpec{Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	cache := enqueue.Cache{Deployments: []*model.Deployment{web, canary}}

	orphan := &model.ReplicaSet{ObjectMeta: model.ObjectMeta{Namespace: "default", Name: "web-5d7",
		UID: "r1", ResourceVersion: "10", Labels: map[string]string{"app": "web"}}}
	fmt.Println(enqueue.AddReplicaSet(orphan, cache))

	adopted := orphan.DeepCopy()
	adopted.ResourceVersion = "11"
	adopted.OwnerReferences = []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "u1")}
	fmt.Println(enqueue.UpdateReplicaSet(orphan, adopted, cache))
	fmt.Println(enqueue.UpdateReplicaSet(adopted, adopted, cache)) // a resync
	// Output:
	// [default/canary default/web]
	// [default/web]
	// []
}

// A Recreate Deployment is woken when its last pod is deleted, not before.
func ExampleDeletePod() {
	d := &model.Deployment{ObjectMeta: model.ObjectMeta{Namespace: "default", Name: "web", UID: "d1"},
		Spec: model.DeploymentSpec{Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Strategy: model.Strategy{Type: model.RecreateStrategy}}}
	rs := &model.ReplicaSet{ObjectMeta: model.ObjectMeta{Namespace: "default", Name: "web-1", UID: "r1",
		Labels:          map[string]string{"app": "web"},
		OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "d1")}}}
	pod := func(name string) *model.Pod {
		return &model.Pod{ObjectMeta: model.ObjectMeta{Namespace: "default", Name: name, UID: name,
			Labels:          map[string]string{"app": "web"},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "ReplicaSet", "web-1", "r1")}}}
	}
	a, b := pod("a"), pod("b")
	c := enqueue.Cache{Deployments: []*model.Deployment{d}, ReplicaSets: []*model.ReplicaSet{rs}}

	c.Pods = []*model.Pod{b} // a is gone, b is left
	keys, _ := enqueue.DeletePod(a, c)
	fmt.Println(keys)
	c.Pods = nil // b is gone too
	keys, _ = enqueue.DeletePod(enqueue.Tombstone{Key: "default/b", Obj: b}, c)
	fmt.Println(keys)
	// Output:
	// []
	// [default/web]
}
