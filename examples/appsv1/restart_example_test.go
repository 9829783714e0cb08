package appsv1_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/restart"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A ConfigMap edit observed through the adapter becomes the merge patch the
// original controller would send.
func ExampleRestartPatchRequest() {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	cm := &core.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "app-config", Namespace: "prod", ResourceVersion: "10"},
		Data: map[string]string{"LOG_LEVEL": "info"}}
	d := &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "prod", ResourceVersion: "11",
			Annotations: map[string]string{restart.AnnotationEnabled: restart.EnabledValue}},
		Spec: apps.DeploymentSpec{Template: core.PodTemplateSpec{Spec: core.PodSpec{
			Containers: []core.Container{{Name: "main", Image: "app:1"}},
			Volumes: []core.Volume{{Name: "cfg", VolumeSource: core.VolumeSource{ConfigMap: &core.ConfigMapVolumeSource{
				LocalObjectReference: core.LocalObjectReference{Name: "app-config"}}}}},
		}}},
	}
	tr, _ := restart.NewTracker(restart.Options{GracePeriod: restart.DefaultGracePeriod})
	observe := func(at time.Duration) {
		c, _ := appsv1.RestartConfigMap(cm, false)
		w, _ := appsv1.RestartDeployment(d)
		_, _ = tr.ObserveConfig(c, now.Add(at))
		_, _ = tr.ObserveWorkload(w, now.Add(at))
	}
	send := func(at time.Duration) {
		res := tr.Plan(now.Add(at), false)
		for _, p := range res.Patches {
			req, _ := appsv1.RestartPatchRequest(p)
			fmt.Printf("PATCH %s %s/%s (%s)\n%s\n", req.Resource.Resource, req.Namespace, req.Name, req.PatchType, req.Data)
			d = appsv1.ApplyRestartPatch(d, p) // what the API server makes of it
			d.ResourceVersion += "+"
		}
		tr.Apply(res, nil)
	}
	observe(0)
	send(5 * time.Second) // records the checksum, no restart
	cm.Data["LOG_LEVEL"], cm.ResourceVersion = "debug", "12"
	observe(10 * time.Second)
	send(15 * time.Second) // rule 1: restart
	// Output:
	// PATCH deployments prod/web (application/merge-patch+json)
	// {"metadata":{"annotations":{"com.xing.deployment-restart.applied-config-checksums":"{\"configmap/prod/app-config\":\"ce705679c69d8e0e\"}"}}}
	// PATCH deployments prod/web (application/merge-patch+json)
	// {"metadata":{"annotations":{"com.xing.deployment-restart.applied-config-checksums":"{\"configmap/prod/app-config\":\"28289bc788a7f57f\"}"}},"spec":{"template":{"metadata":{"annotations":{"com.xing.deployment-restart.timestamp":"Mar  1 10:00:15"}}}}}
}
