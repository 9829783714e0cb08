package render_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// The first sync of a rolling update of 10 replicas (maxSurge and
// maxUnavailable 25%, so 3 and 2) plans typed actions; Writes renders them
// as the requests upstream sends: the new ReplicaSet whole, the Deployment
// with its revision annotation and status, the old ReplicaSet as cached
// with spec.replicas changed. The second status write is built from the
// same cached Deployment as the first, so a real API server rejects it and
// Accepted stops before it.
func ExampleWrites() {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	labels := map[string]string{"app": "web"}
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{
			Name: "web", Namespace: "shop", UID: "d-1", Generation: 2,
			Annotations: map[string]string{model.RevisionAnnotation: "1"},
		},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(10),
			Selector: &model.LabelSelector{MatchLabels: labels},
			Template: model.PodTemplate{Labels: labels, Spec: `{"containers":[{"image":"nginx:1.27","name":"web"}]}`},
		},
	})
	d.Status = model.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, ReadyReplicas: 10, AvailableReplicas: 10}
	oldLabels := map[string]string{"app": "web", model.PodTemplateHashLabel: "6b8c7d9f45"}
	old := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: "web-6b8c7d9f45", Namespace: "shop", UID: "rs-1", CreationTimestamp: now.Add(-24 * time.Hour),
			Labels: oldLabels,
			Annotations: map[string]string{
				model.RevisionAnnotation: "1", model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13",
			},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "d-1")},
		},
		Spec: model.ReplicaSetSpec{
			Replicas: model.Int32Ptr(10),
			Selector: &model.LabelSelector{MatchLabels: oldLabels},
			Template: model.PodTemplate{Labels: oldLabels, Spec: `{"containers":[{"image":"nginx:1.26","name":"web"}]}`},
		},
		Status: model.ReplicaSetStatus{Replicas: 10, ReadyReplicas: 10, AvailableReplicas: 10, ObservedGeneration: 1},
	}
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old}, Now: now}

	p, err := plan.Sync(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("actions:")
	for _, a := range p.Actions {
		fmt.Println(" ", a.Kind, a.Object.Name)
	}
	writes, err := render.Writes(s, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("writes:")
	for _, w := range writes {
		switch {
		case w.ReplicaSet != nil:
			rs := w.ReplicaSet
			fmt.Printf("  %s %s: replicas %d, revision %s, desired %s, max %s, template %s\n", w.Kind, w.Name, rs.SpecReplicas(),
				rs.Annotations[model.RevisionAnnotation], rs.Annotations[model.DesiredReplicasAnnotation],
				rs.Annotations[model.MaxReplicasAnnotation], rs.Spec.Template.Spec)
		case w.Deployment != nil:
			fmt.Printf("  %s %s: revision %s, observedGeneration %d, conflict %v\n", w.Kind, w.Name,
				w.Deployment.Annotations[model.RevisionAnnotation], w.Deployment.Status.ObservedGeneration, w.Conflict)
		}
	}
	fmt.Println("accepted:", len(render.Accepted(writes)), "of", len(writes))
	// Output:
	// actions:
	//   CreateReplicaSet web-7ffd4c7dc5
	//   UpdateDeploymentStatus web
	//   ScaleReplicaSet web-6b8c7d9f45
	//   UpdateDeploymentStatus web
	// writes:
	//   CreateReplicaSet web-7ffd4c7dc5: replicas 3, revision 2, desired 10, max 13, template {"containers":[{"image":"nginx:1.27","name":"web"}]}
	//   UpdateDeploymentStatus web: revision 2, observedGeneration 1, conflict false
	//   UpdateReplicaSet web-6b8c7d9f45: replicas 8, revision 1, desired 10, max 13, template {"containers":[{"image":"nginx:1.26","name":"web"}]}
	//   UpdateDeploymentStatus web: revision 2, observedGeneration 2, conflict true
	// accepted: 3 of 4
}

// Coalesced merges the writes of a plan into one per object, for an adapter
// that would rather apply each object's final state once.
func ExampleCoalesced() {
	// A new Deployment of 3 replicas: its first sync creates the ReplicaSet,
	// records revision 1 on the Deployment and then writes its status, two
	// writes of the Deployment that Coalesced merges into one.
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "shop", UID: "d-1", Generation: 1},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:1"},
		},
	})
	s := plan.State{Deployment: d, Now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	p, err := plan.Sync(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	writes, err := render.Writes(s, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("planned:")
	for _, w := range writes {
		fmt.Println(" ", w.Kind, w.Name)
	}
	fmt.Println("coalesced:")
	for _, w := range render.Coalesced(writes) {
		switch {
		case w.ReplicaSet != nil:
			fmt.Println(" ", w.Kind, w.Name, "replicas", *w.ReplicaSet.Spec.Replicas)
		case w.Deployment != nil:
			fmt.Println(" ", w.Kind, w.Name, "revision", w.Deployment.Annotations[model.RevisionAnnotation],
				"observedGeneration", w.Deployment.Status.ObservedGeneration)
		}
	}
	// Output:
	// planned:
	//   CreateReplicaSet web-6df4c4b5cc
	//   UpdateDeploymentStatus web
	//   UpdateDeploymentStatus web
	// coalesced:
	//   CreateReplicaSet web-6df4c4b5cc replicas 3
	//   UpdateDeploymentStatus web revision 1 observedGeneration 1
}
