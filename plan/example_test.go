package plan_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// The first sync of a rolling update creates the new ReplicaSet with the
// surge, records the new revision, scales the old ReplicaSet down by what
// availability allows, and writes the status. Each action says what it
// changes: the ReplicaSet a create makes, the sizes of a scale, the status
// and annotations a Deployment write sets. The last write is the
// Deployment's second in the sync, written from the same cached version as
// the first, so a real API server rejects it with a conflict: Rejected
// points at it.
func ExampleSync() {
	// A Deployment of 10 replicas (maxSurge and maxUnavailable 25%, so 3
	// and 2) whose image just changed from nginx:1.26 to nginx:1.27, and the
	// ReplicaSet of the old image running 10 available pods.
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
	state := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old}, Now: now}

	p, err := plan.Sync(state)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, a := range p.Actions {
		switch a.Kind {
		case plan.CreateReplicaSet:
			fmt.Printf("%d: create %s with %d replicas", i, a.ReplicaSet.Name, *a.ReplicaSet.Spec.Replicas)
		case plan.ScaleReplicaSet:
			fmt.Printf("%d: scale %s from %d to %d", i, a.Object.Name, a.Update.FromReplicas, a.Update.Replicas)
		case plan.UpdateDeploymentStatus:
			st := a.Deployment.Status
			fmt.Printf("%d: status of %s: %d replicas, %d updated, %d unavailable", i, a.Object.Name, st.Replicas, st.UpdatedReplicas, st.UnavailableReplicas)
			if rev, ok := a.Deployment.Annotations[model.RevisionAnnotation]; ok {
				fmt.Printf(", revision %s", rev)
			}
		default:
			fmt.Printf("%d: %s", i, a)
		}
		if a.Conflict {
			fmt.Print(" (conflict)")
		}
		fmt.Printf("\n   %s\n", a.Reason)
	}
	for _, e := range p.Events {
		fmt.Println(e.Reason, e.Message)
	}
	if i, ok := p.Rejected(); ok {
		fmt.Println("a real API server rejects action", i)
	}
	// Output:
	// 0: create web-7ffd4c7dc5 with 3 replicas
	//    CreateNewReplicaSet: no ReplicaSet has the current template: create web-7ffd4c7dc5 (revision 2) with 3: up = min(replicas 10 + maxSurge 3 − total 10, replicas 10 − new 0) = 3
	// 1: status of web: 10 replicas, 10 updated, 0 unavailable, revision 2
	//    SyncRevision: the Deployment records revision 2 and its new ReplicaSet web-7ffd4c7dc5
	// 2: scale web-6b8c7d9f45 from 10 to 8
	//    ScaleDownOldReplicaSet: old web-6b8c7d9f45 10→8: available 10 > minAvailable 8 = replicas 10 − maxUnavailable 2
	// 3: status of web: 10 replicas, 0 updated, 3 unavailable, revision 2 (conflict)
	//    SyncStatus: status: 10 replicas, 0 updated, 10 ready, 10 available, 3 unavailable
	// ScalingReplicaSet Scaled up replica set web-7ffd4c7dc5 from 0 to 3
	// ScalingReplicaSet Scaled down replica set web-6b8c7d9f45 from 10 to 8
	// a real API server rejects action 3
}

// An adapter that wants upstream's exact write requests (whole objects)
// renders a plan against the State it was planned from; render.Coalesced
// merges them into one write per object, for an adapter that would rather
// apply each object's final state once.
func Example_render() {
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
	state := plan.State{Deployment: d, Now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	p, err := plan.Sync(state)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("planned:")
	for _, a := range p.Actions {
		fmt.Println(" ", a.Kind, a.Object.Name)
	}
	writes, err := render.Writes(state, p)
	if err != nil {
		fmt.Println(err)
		return
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
