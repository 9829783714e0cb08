package appsv1_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A Syncer plans like Sync; planning the same objects again reuses their
// conversions (keyed by UID and resourceVersion).
func ExampleSyncer() {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	d := &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx", Namespace: "default", UID: "d-1", ResourceVersion: "41", Generation: 1,
			CreationTimestamp: metav1.NewTime(now.Add(-time.Second))},
		Spec: apps.DeploymentSpec{
			Replicas: new(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
			Strategy: apps.DeploymentStrategy{Type: apps.RecreateDeploymentStrategyType},
		},
	}
	var syncer appsv1.Syncer
	for range 2 {
		out, _, err := syncer.Sync(appsv1.State{Now: now, Deployment: d})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(out.Actions[0].Verb, out.Actions[0].Name)
	}
	// Output:
	// create nginx-56fd7b57c8
	// create nginx-56fd7b57c8
}

// NewSyncer sets the planner options of every sync, as a controller's
// feature gates are set once: here the DeploymentReplicaSetTerminatingReplicas
// gate off, so the last status written leaves terminatingReplicas unset.
func ExampleNewSyncer() {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	d := &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx", Namespace: "default", UID: "d-1", ResourceVersion: "41", Generation: 1,
			CreationTimestamp: metav1.NewTime(now.Add(-time.Second))},
		Spec: apps.DeploymentSpec{
			Replicas: new(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
			Strategy: apps.DeploymentStrategy{Type: apps.RecreateDeploymentStrategyType},
		},
	}
	for _, syncer := range []*appsv1.Syncer{appsv1.NewSyncer(), appsv1.NewSyncer(plan.WithTerminatingReplicas(false))} {
		out, _, err := syncer.Sync(appsv1.State{Now: now, Deployment: d})
		if err != nil {
			fmt.Println(err)
			return
		}
		last := out.Actions[len(out.Actions)-1]
		w := last.Object.(*apps.Deployment)
		fmt.Printf("%s %s/%s, terminatingReplicas set: %v\n", last.Verb, last.Resource, last.Subresource, w.Status.TerminatingReplicas != nil)
	}
	// Output:
	// update deployments/status, terminatingReplicas set: true
	// update deployments/status, terminatingReplicas set: false
}
