package plan_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// Upstream sums spec.replicas in int32. An old ReplicaSet hand-sized to
// 2147483647 makes the sum wrap, and upstream then scales the new ReplicaSet
// to a negative size. The plan lists that write, marks it as one the API
// server rejects, accepts nothing from it on, and Sync returns the server's
// error as a *plan.SyncError, as upstream's sync ends with it.
func ExampleAction_Invalid() {
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "shop", UID: "d-1", Generation: 1,
			Annotations: map[string]string{model.RevisionAnnotation: "2"}},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(10),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "v2"},
			Strategy: model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{
				MaxSurge: model.IntOrStringPtr(model.FromInt(0)), MaxUnavailable: model.IntOrStringPtr(model.FromInt(1))}},
		},
	})
	d.Spec.ProgressDeadlineSeconds = nil
	rs := func(name, spec string, rev string, size int32, age time.Duration) *model.ReplicaSet {
		labels := map[string]string{"app": "web", model.PodTemplateHashLabel: name}
		return &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{Name: "web-" + name, Namespace: "shop", UID: "rs-" + name, CreationTimestamp: now.Add(-age),
				Labels: labels, Annotations: map[string]string{model.RevisionAnnotation: rev, model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "10"},
				OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "d-1")}},
			Spec: model.ReplicaSetSpec{Replicas: model.Int32Ptr(size), Selector: &model.LabelSelector{MatchLabels: labels},
				Template: model.PodTemplate{Labels: labels, Spec: spec}},
			Status: model.ReplicaSetStatus{Replicas: size, ReadyReplicas: size, AvailableReplicas: size},
		}
	}
	p, err := plan.Sync(plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{
		rs("old", "v1", "1", 2147483647, 2*time.Hour), rs("new", "v2", "2", 5, time.Hour)}, Now: now})
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		fmt.Println("invalid input:", err)
		return
	}
	first := p.Actions[0]
	fmt.Println(first.Kind, first.Object.Name, "from", first.Update.FromReplicas, "to", first.Update.Replicas)
	fmt.Println("rejected:", first.Rejected(), "accepted writes:", len(p.Accepted()))
	fmt.Println(syncErr.Kind, syncErr)
	// Output:
	// ScaleReplicaSet web-new from 5 to -2147483637
	// rejected: true accepted writes: 0
	// Invalid ReplicaSet.apps "web-new" is invalid: spec.replicas: Invalid value: -2147483637: must be greater than or equal to 0
}
