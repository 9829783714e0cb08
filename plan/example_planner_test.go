package plan_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// A Planner plans like Sync and remembers what depends on one object
// alone. Here a new Deployment with no ReplicaSet yet is planned on two
// clock ticks; its template is hashed once, on the first.
func ExamplePlanner() {
	hashes := 0
	countingHash := func(t model.PodTemplate, collisionCount *int32) string {
		hashes++
		return hash.ComputeHash(t, collisionCount)
	}
	planner := plan.NewPlanner(plan.WithHasher(countingHash))

	labels := map[string]string{"app": "web"}
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "shop", UID: "d-1", Generation: 1},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: labels},
			Template: model.PodTemplate{Labels: labels, Spec: `{"containers":[{"image":"nginx:1.27","name":"web"}]}`},
		},
	})
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for tick := range 2 {
		// The objects are the same pointers each time, unchanged, as in an
		// informer's cache: the Planner validates and hashes them once.
		p, err := planner.Sync(plan.State{Deployment: d, Now: start.Add(time.Duration(tick) * time.Second)})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(p.Actions[0])
	}
	fmt.Println("hashed", hashes, "time")
	// Output:
	// CreateReplicaSet shop/web-7ffd4c7dc5: CreateNewReplicaSet: no ReplicaSet has the current template: create web-7ffd4c7dc5 (revision 1) with 3: up = min(replicas 3 + maxSurge 1 − total 0, replicas 3 − new 0) = 3
	// CreateReplicaSet shop/web-7ffd4c7dc5: CreateNewReplicaSet: no ReplicaSet has the current template: create web-7ffd4c7dc5 (revision 1) with 3: up = min(replicas 3 + maxSurge 1 − total 0, replicas 3 − new 0) = 3
	// hashed 1 time
}
