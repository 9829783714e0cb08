package appsv1_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A template converts to labels and annotations plus a canonical JSON
// document; the upstream hash of the converted template is the one of the
// original.
func ExampleTemplateToModel() {
	tmpl := &core.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
		Spec:       core.PodSpec{Containers: []core.Container{{Name: "nginx", Image: "nginx:1.27"}}},
	}
	m, err := appsv1.TemplateToModel(tmpl)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Labels)
	fmt.Println(m.Spec)
	fmt.Println(appsv1.ComputeHash(tmpl, nil), appsv1.PodTemplateHash(m, nil))
	// Output:
	// map[app:nginx]
	// {"metadata":{},"spec":{"containers":[{"image":"nginx:1.27","name":"nginx","resources":{}}]}}
	// 56fd7b57c8 56fd7b57c8
}

// The first sync of a new Deployment creates its ReplicaSet, named as a
// v1.36 cluster names it, and records the revision and the status.
func ExampleSync() {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	d := &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx", Namespace: "default", UID: "d-1", Generation: 1,
			CreationTimestamp: metav1.NewTime(now.Add(-time.Second))},
		Spec: apps.DeploymentSpec{
			Replicas: new(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
			Strategy: apps.DeploymentStrategy{Type: apps.RollingUpdateDeploymentStrategyType, RollingUpdate: &apps.RollingUpdateDeployment{
				MaxSurge: new(intstr.FromString("25%")), MaxUnavailable: new(intstr.FromString("25%"))}},
			RevisionHistoryLimit:    new(int32(10)),
			ProgressDeadlineSeconds: new(int32(600)),
		},
	}
	out, _, err := appsv1.Sync(appsv1.State{Now: now, Deployment: d})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range out.Actions {
		fmt.Println(a.Verb, a.Resource, a.Subresource, a.Name)
	}
	for _, e := range out.Events {
		fmt.Println(e.Reason, e.Message)
	}
	// Output:
	// create replicasets  nginx-56fd7b57c8
	// update deployments status nginx
	// update deployments status nginx
	// ScalingReplicaSet Scaled up replica set nginx-56fd7b57c8 from 0 to 3
}
