package inmemory_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
)

// A Cluster stands in for the API server: it takes the planner's writes,
// assigns what the server assigns (UIDs, generations, resource versions)
// and hands out the next snapshot. Between syncs a test plays the other
// actors: here the ReplicaSet controller reporting ready pods and a user
// editing the template.
func ExampleCluster() {
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 1},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(2),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:1"},
		},
	})
	cluster := inmemory.Cluster{Deployment: d}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sync := func() {
		p, err := plan.Sync(cluster.State(now))
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, err := range cluster.ApplyPlan(p, inmemory.ApplyAccepted, now) {
			fmt.Println(err)
		}
		now = now.Add(time.Second)
	}

	sync() // creates the first ReplicaSet
	rs := cluster.ReplicaSets[0]
	fmt.Println(rs.Name, rs.SpecReplicas(), cluster.ReplicaSet(rs.Name) == rs)

	// The ReplicaSet controller reports its pods ready and available.
	if err := cluster.SetReplicaSetStatus(rs.Name, model.ReplicaSetStatus{
		Replicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, ObservedGeneration: rs.Generation}); err != nil {
		fmt.Println(err)
	}
	sync() // records the status

	// A user changes the image: the next sync starts a rollout.
	spec := cluster.Deployment.Spec
	spec.Template = model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:2"}
	cluster.UpdateDeploymentSpec(spec, nil)
	sync() // maxSurge 25% of 2 rounds up to 1; maxUnavailable rounds down to 0
	fmt.Println("generation", cluster.Deployment.Generation)
	for _, rs := range cluster.ReplicaSets {
		fmt.Println(rs.Spec.Template.Spec, rs.SpecReplicas())
	}
	// Output:
	// web-6df4c4b5cc 2 true
	// generation 2
	// image: web:1 2
	// image: web:2 1
}
