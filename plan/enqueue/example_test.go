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
