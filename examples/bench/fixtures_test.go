package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// realisticTemplate is the pod template of the first public case (s1-0000):
// 541 bytes of JSON, one container with a port, an env var and requests,
// as the API server defaults it.
func realisticTemplate(tb testing.TB) core.PodTemplateSpec {
	tb.Helper()
	t := loadCases(tb)[0].Case.Deployment.Spec.Template
	data, err := json.Marshal(t)
	if err != nil {
		tb.Fatal(err)
	}
	if len(data) != 541 {
		tb.Fatalf("realistic template is %d bytes of JSON, want 541", len(data))
	}
	return t
}

// largeTemplate is testdata/template-9k.json: 9 400 bytes of JSON, ten
// containers with probes, resources, env and volume mounts.
func largeTemplate(tb testing.TB) core.PodTemplateSpec {
	tb.Helper()
	raw, err := os.ReadFile("testdata/template-9k.json")
	if err != nil {
		tb.Fatal(err)
	}
	var t core.PodTemplateSpec
	if err := json.Unmarshal(raw, &t); err != nil {
		tb.Fatal(err)
	}
	data, err := json.Marshal(t)
	if err != nil {
		tb.Fatal(err)
	}
	if len(data) < 9000 || len(data) > 9800 {
		tb.Fatalf("large template is %d bytes of JSON, want about 9.4 KB", len(data))
	}
	return t
}

// manyReplicaSets is the Deployment of the first public case with n
// ReplicaSets of it, each with another image; the newest has the
// Deployment's template, so both FindNewReplicaSet scan all of them.
func manyReplicaSets(tb testing.TB, n int) (*apps.Deployment, []*apps.ReplicaSet) {
	tb.Helper()
	d := loadCases(tb)[0].Case.Deployment
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rss := make([]*apps.ReplicaSet, 0, n)
	for i := range n {
		tmpl := *d.Spec.Template.DeepCopy()
		if i < n-1 {
			tmpl.Spec.Containers[0].Image = fmt.Sprintf("registry.example.com/api:0.%d", i)
		}
		hash := appsv1.ComputeHash(&tmpl, nil)
		tmpl.Labels["pod-template-hash"] = hash
		rss = append(rss, &apps.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{
				Name: d.Name + "-" + hash, Namespace: d.Namespace, UID: types.UID("uid-" + hash),
				CreationTimestamp: metav1.NewTime(base.Add(time.Duration(i) * time.Minute)),
				Labels:            tmpl.Labels,
			},
			Spec: apps.ReplicaSetSpec{Replicas: new(int32(0)), Selector: d.Spec.Selector, Template: tmpl},
		})
	}
	return d, rss
}

// rollout100k is a 100 000-replica Deployment rolling from one image to
// another with maxSurge 1 and maxUnavailable 0, simulated at count
// fidelity: about 200 000 syncs.
func rollout100k() sim.Config {
	surge, unavailable := model.ParseIntOrString("1"), model.ParseIntOrString("0")
	return sim.Config{
		Deployment: &model.Deployment{
			ObjectMeta: model.ObjectMeta{Name: "nginx", Namespace: "default", UID: "nginx-uid"},
			Spec: model.DeploymentSpec{
				Replicas: model.Int32Ptr(100_000),
				Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
				Template: model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: `{"containers":[{"image":"nginx:1.14.2","name":"web"}]}`},
				Strategy: model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable}},
			},
		},
		Script: []sim.Event{{At: 2, Action: sim.Action{Kind: sim.SetTemplateSpec, Spec: `{"containers":[{"image":"nginx:1.16.1","name":"web"}]}`}}},
		Record: sim.RecordSummary,
	}
}
