package model_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Labels in messages are written as a selector would be, not as a Go map.
func ExampleFormatLabels() {
	fmt.Println(model.FormatLabels(map[string]string{"tier": "front", "app": "web"}))
	fmt.Println(model.FormatLabels(nil))
	// Output:
	// app=web,tier=front
	// <none>
}

// The String methods print one line per object, so test failures and
// property-test counterexamples read like a cluster listing.
func ExampleDeployment_String() {
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", Generation: 2,
			Annotations: map[string]string{model.RevisionAnnotation: "2"}},
		Spec: model.DeploymentSpec{Replicas: model.Int32Ptr(3)},
		Status: model.DeploymentStatus{ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 1,
			ReadyReplicas: 3, AvailableReplicas: 3},
	})
	fmt.Println(d)
	created := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	rs := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: "web-6d4", Namespace: "default", Generation: 1, CreationTimestamp: created},
		Spec:       model.ReplicaSetSpec{Replicas: model.Int32Ptr(3)},
		Status:     model.ReplicaSetStatus{Replicas: 3, ReadyReplicas: 3, AvailableReplicas: 2},
	}
	fmt.Println(rs)
	pod := &model.Pod{
		ObjectMeta: model.ObjectMeta{Name: "web-6d4-x2k", Namespace: "default",
			OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "ReplicaSet", "web-6d4", "u1")}},
		Status: model.PodStatus{Phase: model.PodRunning, Conditions: []model.PodCondition{
			{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: created.Add(5 * time.Second)}}},
	}
	fmt.Println(pod)
	var none *model.Deployment
	fmt.Println(none)
	// Output:
	// Deployment default/web gen 2: replicas 3, RollingUpdate (maxSurge 25%, maxUnavailable 25%), revision 2; status observed 2, replicas 4, updated 1, ready 3, available 3
	// ReplicaSet default/web-6d4 gen 1 created 2026-01-01T10:00:00Z: replicas 3; status replicas 3, ready 3, available 2
	// Pod default/web-6d4-x2k owner web-6d4: Running, ready since 2026-01-01T10:00:05Z
	// <nil>
}

// Forgetting model.Default, or switching a defaulted Deployment to Recreate
// by its type alone, gives an error that names the fix.
func ExampleDefault_strategySwitch() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "6f1c"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}},
		},
	}
	fmt.Println(model.ValidateDeployment(d))

	def := model.Default(d)
	def.Spec.Strategy.Type = model.RecreateStrategy // the rollingUpdate block Default filled stays
	fmt.Println(model.ValidateDeployment(def))

	def.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy}
	fmt.Println(model.ValidateDeployment(def))
	fmt.Println(model.Default(def).Spec.Strategy.RollingUpdate == nil)
	// Output:
	// spec.strategy.type: invalid value "": supported values: "Recreate", "RollingUpdate" (apply model.Default to undefaulted input)
	// spec.strategy.rollingUpdate: invalid value "": may not be specified when strategy `type` is 'Recreate' (set it to nil when switching to Recreate; the API server refuses the leftover block too)
	// <nil>
	// true
}

// A template whose labels the selector does not match is reported with the
// labels in selector syntax.
func ExampleValidateDeployment_selectorMismatch() {
	d := model.Default(&model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "6f1c"},
		Spec: model.DeploymentSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "api"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web", "tier": "front"}},
		},
	})
	fmt.Println(model.ValidateDeployment(d))
	// Output:
	// spec.template.metadata.labels: invalid value "app=web,tier=front": `selector` does not match template `labels`
}
