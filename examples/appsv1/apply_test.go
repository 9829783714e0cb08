package appsv1_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// optimistic makes the fake clientset behave like an API server on
// resourceVersions, which its tracker ignores: a create or update gets a
// fresh resourceVersion, and an update carrying another resourceVersion than
// the stored one is rejected with 409 Conflict.
func optimistic(c *fake.Clientset) {
	var mu sync.Mutex
	next := 100
	c.PrependReactor("*", "*", func(action k8stesting.Action) (bool, runtime.Object, error) {
		mu.Lock()
		defer mu.Unlock()
		var obj runtime.Object
		switch action.GetVerb() {
		case "create":
			obj = action.(k8stesting.CreateAction).GetObject()
		case "update":
			a := action.(k8stesting.UpdateAction)
			obj = a.GetObject()
			m, _ := meta.Accessor(obj)
			stored, err := c.Tracker().Get(a.GetResource(), a.GetNamespace(), m.GetName())
			if err == nil && m.GetResourceVersion() != "" {
				sm, _ := meta.Accessor(stored)
				if sm.GetResourceVersion() != m.GetResourceVersion() {
					return true, nil, apierrors.NewConflict(a.GetResource().GroupResource(), m.GetName(), errors.New("the object has been modified"))
				}
			}
		default:
			return false, nil, nil
		}
		next++
		m, _ := meta.Accessor(obj)
		m.SetResourceVersion(strconv.Itoa(next))
		return false, nil, nil
	})
}

func nginx(now time.Time) *apps.Deployment {
	return &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx", Namespace: "default", UID: "d-1", Generation: 1, ResourceVersion: "7",
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
}

func outcomes(r appsv1.Result) []appsv1.Outcome {
	var out []appsv1.Outcome
	for _, w := range r.Writes {
		out = append(out, w.Outcome)
	}
	return out
}

// The first sync of a new Deployment creates the ReplicaSet and writes the
// Deployment status twice from the same cached version; the plan flags the
// second write, and the server rejects it, which ends upstream's sync.
func TestApplyFirstSyncConflict(t *testing.T) {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	d := nginx(now)
	out, p, err := appsv1.Sync(appsv1.State{Now: now, Deployment: d})
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := p.Rejected(); !ok || i != 2 {
		t.Fatalf("plan.Rejected() = %d, %v, want 2, true (the second status write)", i, ok)
	}
	for _, sendAll := range []bool{false, true} {
		c := fake.NewClientset(d.DeepCopy())
		optimistic(c)
		res, err := appsv1.Apply(context.Background(), c, out, appsv1.ApplyOptions{SendAll: sendAll})
		if sendAll {
			if err != nil {
				t.Fatalf("SendAll: err = %v", err)
			}
		} else if !apierrors.IsConflict(err) {
			t.Fatalf("err = %v, want the conflict that ends the sync", err)
		}
		want := []appsv1.Outcome{appsv1.Accepted, appsv1.Accepted, appsv1.Conflicted}
		if got := outcomes(res); !slices.Equal(got, want) {
			t.Fatalf("outcomes = %v, want %v", got, want)
		}
		for i, w := range res.Writes {
			if w.Predicted() != w.Outcome {
				t.Errorf("write %d: predicted %s, got %s", i, w.Predicted(), w.Outcome)
			}
		}
		if res.AcceptedPrefix() != 2 || res.Accepted() != 2 {
			t.Errorf("accepted prefix %d, accepted %d; want 2, 2", res.AcceptedPrefix(), res.Accepted())
		}
		rss, _ := c.AppsV1().ReplicaSets("default").List(context.Background(), metav1.ListOptions{})
		if len(rss.Items) != 1 || *rss.Items[0].Spec.Replicas != 3 {
			t.Fatalf("ReplicaSets after apply: %+v", rss.Items)
		}
		got, _ := c.AppsV1().Deployments("default").Get(context.Background(), "nginx", metav1.GetOptions{})
		if got.Annotations["deployment.kubernetes.io/revision"] != "1" {
			t.Errorf("revision annotation = %q, want 1", got.Annotations["deployment.kubernetes.io/revision"])
		}
	}
}

// An error that is not ignorable ends the sync: the writes after it are not
// sent.
func TestApplyStopsAtFirstError(t *testing.T) {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	d := nginx(now)
	out, _, err := appsv1.Sync(appsv1.State{Now: now, Deployment: d})
	if err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientset(d.DeepCopy())
	c.PrependReactor("create", "replicasets", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(apps.Resource("replicasets"), "x", errors.New("quota"))
	})
	res, err := appsv1.Apply(context.Background(), c, out, appsv1.ApplyOptions{})
	if !apierrors.IsForbidden(err) || res.StoppedAt != 0 {
		t.Fatalf("err = %v, StoppedAt = %d", err, res.StoppedAt)
	}
	want := []appsv1.Outcome{appsv1.Failed, appsv1.NotSent, appsv1.NotSent}
	if got := outcomes(res); !slices.Equal(got, want) {
		t.Fatalf("outcomes = %v, want %v", got, want)
	}
}

// Adoptions and releases are all attempted before their errors end the
// sync (upstream's ClaimReplicaSets aggregates them); a missing ReplicaSet
// is ignored for a release and a delete.
func TestApplyClaimPhase(t *testing.T) {
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default", UID: "ua"}}
	adopt := appsv1.Action{Verb: appsv1.VerbPatch, Resource: appsv1.ResourceReplicaSets, Namespace: "default", Name: "a",
		PatchType: appsv1.StrategicMergePatch, Kind: plan.AdoptReplicaSet,
		Object: json.RawMessage(`{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"nginx","uid":"d-1","controller":true,"blockOwnerDeletion":true}],"uid":"ua"}}`)}
	releaseGone := appsv1.Action{Verb: appsv1.VerbPatch, Resource: appsv1.ResourceReplicaSets, Namespace: "default", Name: "gone",
		PatchType: appsv1.StrategicMergePatch, Kind: plan.ReleaseReplicaSet,
		Object: json.RawMessage(`{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"d-1"}],"uid":"ug"}}`)}
	deleteGone := appsv1.Action{Verb: appsv1.VerbDelete, Resource: appsv1.ResourceReplicaSets, Namespace: "default", Name: "gone2", Kind: plan.DeleteReplicaSet}
	failing := adopt
	failing.Name = "b"
	out := appsv1.Output{Actions: []appsv1.Action{failing, releaseGone, adopt, deleteGone}}
	c := fake.NewClientset(rs)
	c.PrependReactor("patch", "replicasets", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.(k8stesting.PatchAction).GetName() == "b" {
			return true, nil, apierrors.NewInternalError(errors.New("boom"))
		}
		return false, nil, nil
	})
	res, err := appsv1.Apply(context.Background(), c, out, appsv1.ApplyOptions{})
	if err == nil || res.StoppedAt != 2 {
		t.Fatalf("err = %v, StoppedAt = %d; want the claim error at the end of the claim phase", err, res.StoppedAt)
	}
	want := []appsv1.Outcome{appsv1.Failed, appsv1.Accepted, appsv1.Accepted, appsv1.NotSent}
	if got := outcomes(res); !slices.Equal(got, want) {
		t.Fatalf("outcomes = %v, want %v", got, want)
	}
	got, _ := c.AppsV1().ReplicaSets("default").Get(context.Background(), "a", metav1.GetOptions{})
	if ref := metav1.GetControllerOf(got); ref == nil || ref.UID != "d-1" {
		t.Fatalf("adopted ReplicaSet has controller %v", ref)
	}
	// Without the failing adoption the delete of a missing object is sent and ignored.
	res, err = appsv1.Apply(context.Background(), c, appsv1.Output{Actions: []appsv1.Action{deleteGone}}, appsv1.ApplyOptions{})
	if err != nil || res.Writes[0].Outcome != appsv1.Accepted || !apierrors.IsNotFound(res.Writes[0].Err) {
		t.Fatalf("delete of a missing ReplicaSet: %v, %+v", err, res.Writes[0])
	}
}

func TestApplyBadAction(t *testing.T) {
	c := fake.NewClientset()
	for _, a := range []appsv1.Action{
		{Verb: appsv1.VerbCreate, Resource: appsv1.ResourceReplicaSets, Object: "x"},
		{Verb: appsv1.VerbUpdate, Resource: appsv1.ResourceDeployments, Object: &apps.ReplicaSet{}},
		{Verb: appsv1.VerbPatch, Resource: appsv1.ResourceReplicaSets, Object: []byte("{}")},
		{Verb: appsv1.VerbUpdate, Resource: appsv1.ResourceDeployments, Subresource: "scale", Object: &apps.Deployment{}},
		{Verb: "get", Resource: appsv1.ResourceReplicaSets},
	} {
		_, err := appsv1.Apply(context.Background(), c, appsv1.Output{Actions: []appsv1.Action{a}}, appsv1.ApplyOptions{})
		if !errors.Is(err, appsv1.ErrBadAction) {
			t.Errorf("%s %s %T: err = %v, want ErrBadAction", a.Verb, a.Resource, a.Object, err)
		}
	}
}
