package appsv1_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestRequeueJSON(t *testing.T) {
	tests := []struct {
		name string
		p    plan.Requeue
		want string
	}{
		{"no requeue is omitted", plan.Requeue{}, `{"actions":[],"error":"","events":[]}`},
		{"whole seconds", plan.Requeue{Kind: plan.RequeueAfter, After: 594 * time.Second}, `{"actions":[],"error":"","events":[],"requeue":[{"kind":"after","seconds":594}]}`},
		{"a sub-second clock gives fractional seconds", plan.Requeue{Kind: plan.RequeueAfter, After: 12500 * time.Millisecond}, `{"actions":[],"error":"","events":[],"requeue":[{"kind":"after","seconds":12.5}]}`},
		{"rate limited has no seconds", plan.Requeue{Kind: plan.RequeueRateLimited}, `{"actions":[],"error":"","events":[],"requeue":[{"kind":"rateLimited"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := appsv1.ToOutput(appsv1.State{}, plan.Plan{Requeue: tt.p})
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
		})
	}
}

func TestToOutputRejectsUnknownObjects(t *testing.T) {
	d := &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}}
	s := appsv1.State{Deployment: d}
	ref := plan.ObjectRef{Namespace: "default", Name: "web-1"}
	tests := []struct {
		name string
		a    plan.Action
		want string
	}{
		{"scale of a ReplicaSet the state lacks", plan.Action{Kind: plan.ScaleReplicaSet, Object: ref, Update: &plan.ReplicaSetUpdate{Replicas: 2}}, "holds no ReplicaSet default/web-1"},
		{"update without its changes", plan.Action{Kind: plan.UpdateReplicaSet, Object: ref}, "no update in the action"},
		{"status update of another Deployment", plan.Action{Kind: plan.UpdateDeploymentStatus, Object: plan.ObjectRef{Namespace: "default", Name: "api"},
			Deployment: &plan.DeploymentUpdate{Status: &model.DeploymentStatus{}}}, "is not default/api"},
		{"status update without its changes", plan.Action{Kind: plan.UpdateDeploymentStatus, Object: plan.ObjectRef{Namespace: "default", Name: "web"}}, "no Deployment update"},
		{"create without an object", plan.Action{Kind: plan.CreateReplicaSet, Object: ref}, "no ReplicaSet in the action"},
		{"adopt without an owner reference", plan.Action{Kind: plan.AdoptReplicaSet, Object: ref}, "no owner reference"},
		{"an unknown kind", plan.Action{Kind: "Frobnicate", Object: ref}, `unknown action kind "Frobnicate"`},
		{"a template that is not a PodTemplateSpec", plan.Action{Kind: plan.CreateReplicaSet, Object: ref,
			ReplicaSet: &model.ReplicaSet{Spec: model.ReplicaSetSpec{Template: model.PodTemplate{Spec: "{"}}}}, "not a v1.PodTemplateSpec"},
		{"a rollback template that is not a PodTemplateSpec", plan.Action{Kind: plan.UpdateDeployment, Object: plan.ObjectRef{Namespace: "default", Name: "web"},
			Deployment: &plan.DeploymentUpdate{Template: &model.PodTemplate{Spec: "{"}}}, "not a v1.PodTemplateSpec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := appsv1.ToOutput(s, plan.Plan{Actions: []plan.Action{tt.a}})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestUpdatesKeepWhatThePlannerDoesNotManage: an update sends the object read,
// with only replicas, minReadySeconds and annotations changed.
func TestUpdatesKeepWhatThePlannerDoesNotManage(t *testing.T) {
	orig := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{
		Name: "web-1", Namespace: "default", ResourceVersion: "7",
		Finalizers:    []string{"example.com/keep"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl"}},
		Annotations:   map[string]string{"a": "1"},
	}}
	orig.Spec.Replicas = new(int32(3))
	u := &plan.ReplicaSetUpdate{FromReplicas: 3, Replicas: 2, MinReadySeconds: new(int32(5)), Annotations: map[string]string{"b": "2"}}
	out, err := appsv1.ToOutput(appsv1.State{ReplicaSets: []*apps.ReplicaSet{orig}},
		plan.Plan{Actions: []plan.Action{{Kind: plan.ScaleReplicaSet, Object: plan.ObjectRef{Namespace: "default", Name: "web-1"}, Update: u}}})
	require.NoError(t, err)
	got := out.Actions[0].Object.(*apps.ReplicaSet)
	assert.Equal(t, int32(2), *got.Spec.Replicas)
	assert.Equal(t, int32(5), got.Spec.MinReadySeconds)
	assert.Equal(t, map[string]string{"a": "1", "b": "2"}, got.Annotations)
	assert.Nil(t, got.Labels)
	assert.Equal(t, orig.Finalizers, got.Finalizers)
	assert.Equal(t, orig.ManagedFields, got.ManagedFields)
	assert.Equal(t, "7", got.ResourceVersion)
	assert.Equal(t, int32(3), *orig.Spec.Replicas, "ToOutput modified the input object")
	assert.Equal(t, map[string]string{"a": "1"}, orig.Annotations, "ToOutput modified the input object")
}

func TestStateFromList(t *testing.T) {
	item := func(kind, ns, name string) string {
		return `{"kind":"` + kind + `","apiVersion":"v1","metadata":{"namespace":"` + ns + `","name":"` + name + `"}}`
	}
	list := func(items ...string) []byte {
		return []byte(`{"kind":"List","apiVersion":"v1","items":[` + strings.Join(items, ",") + `]}`)
	}
	now := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	two := list(item("Deployment", "a", "web"), item("Deployment", "b", "web"), item("Deployment", "a", "api"),
		item("ReplicaSet", "a", "web-1"), item("ReplicaSet", "b", "web-2"), item("Pod", "a", "web-1-x"), item("Service", "a", "web"))

	s, err := appsv1.StateFromList(two, "a", "web", now)
	if err != nil {
		t.Fatal(err)
	}
	if s.Deployment.Namespace != "a" || len(s.ReplicaSets) != 1 || s.ReplicaSets[0].Name != "web-1" || len(s.Pods) != 1 || !s.Now.Equal(now) {
		t.Errorf("state of a/web: %+v", s)
	}
	one := list(item("Deployment", "a", "web"), item("ReplicaSet", "a", "web-1"))
	if s, err := appsv1.StateFromList(one, "", "", now); err != nil || s.Deployment.Name != "web" {
		t.Errorf("the only Deployment: %v, %v", s.Deployment, err)
	}

	errs := []struct {
		name, ns, dep string
		data          []byte
		want          string
	}{
		{"no such deployment", "", "nope", two, "no such deployment"},
		{"a name in two namespaces", "", "web", two, "several namespaces"},
		{"several deployments and no name", "", "", two, "name one"},
		{"an empty list", "", "", list(), "the list has no Deployment"},
		{"not JSON", "", "web", []byte(`{"items": [`), "list:"},
		{"not a list", "", "web", []byte(`{"kind":"Deployment"}`), "not a List"},
		{"an item without kind", "", "web", list(`{"metadata":{}}`), "item has no kind"},
		{"a malformed Deployment", "", "web", list(`{"kind":"Deployment","spec":{"replicas":"three"}}`), "items[0] (Deployment)"},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := appsv1.StateFromList(tt.data, tt.ns, tt.dep, now)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := appsv1.StateFromList(two, "", "nope", now); !errors.Is(err, appsv1.ErrNoDeployment) {
		t.Errorf("missing deployment: %v does not wrap ErrNoDeployment", err)
	}
}

// TestComparatorCatchesDifferences makes sure the conformance comparison can
// fail: a changed replica count, a reordered write list and a missing event
// are all reported.
func TestComparatorCatchesDifferences(t *testing.T) {
	l := readSeeds(t)[0] // s1-0000: create, status, status
	var want map[string]any
	if err := json.Unmarshal(l.Expect, &want); err != nil {
		t.Fatal(err)
	}
	mutate := map[string]func(map[string]any){
		"replicas": func(o map[string]any) {
			o["actions"].([]any)[0].(map[string]any)["object"].(map[string]any)["spec"].(map[string]any)["replicas"] = 13.0
		},
		"order": func(o map[string]any) {
			a := o["actions"].([]any)
			a[0], a[1] = a[1], a[0]
		},
		"event": func(o map[string]any) { o["events"] = []any{} },
		"error": func(o map[string]any) { o["error"] = "boom" },
	}
	for name, f := range mutate {
		b, _ := json.Marshal(want)
		var changed map[string]any
		if err := json.Unmarshal(b, &changed); err != nil {
			t.Fatal(err)
		}
		f(changed)
		b, _ = json.Marshal(changed)
		if d := conform(l.Case, b, false); len(d) == 0 {
			t.Errorf("a changed %s went unnoticed", name)
		}
	}
	if d := conform(l.Case, l.Expect, false); len(d) != 0 {
		t.Errorf("the unchanged expectation differs: %v", d)
	}
}
