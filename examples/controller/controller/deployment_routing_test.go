package controller

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

// The ReplicaSet events are routed with a cache of the Deployments the
// controller references name (deploymentsFor) rather than every object of
// the namespace (cacheFor): the Deployments woken must be the same for
// owned ReplicaSets, orphans, references to other kinds, to missing
// Deployments and to a Deployment re-created under the same name, and for
// a change of owner.
func TestReplicaSetEventsRouteAsWithTheWholeNamespace(t *testing.T) {
	deployment := func(name, uid, app string) *apps.Deployment {
		return &apps.Deployment{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID(uid), ResourceVersion: "1"},
			Spec: apps.DeploymentSpec{
				Replicas: new(int32(1)),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
				Template: core.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
					Spec:       core.PodSpec{Containers: []core.Container{{Name: "c", Image: "i"}}},
				},
			},
		}
	}
	ds := []*apps.Deployment{deployment("web", "d-web", "web"), deployment("web-2", "d-web-2", "web"), deployment("db", "d-db", "db")}
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	c, err := NewDeploymentController(client, factory, nil, Options{})
	require.NoError(t, err)
	for _, d := range ds {
		require.NoError(t, factory.Apps().V1().Deployments().Informer().GetStore().Add(d))
	}
	rs := func(name, rv string, ref *metav1.OwnerReference, app string) *model.ReplicaSet {
		r := testReplicaSet(1)
		r.Name, r.UID, r.ResourceVersion = name, types.UID("rs-"+name), rv
		r.Labels = map[string]string{"app": app}
		if ref != nil {
			r.OwnerReferences = []metav1.OwnerReference{*ref}
		}
		m, err := appsv1.ReplicaSetToModel(r)
		require.NoError(t, err)
		return m
	}
	ref := func(kind, name, uid string) *metav1.OwnerReference {
		return &metav1.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, UID: types.UID(uid), Controller: new(true)}
	}
	cases := map[string]*model.ReplicaSet{
		"owned":              rs("a", "1", ref("Deployment", "web", "d-web"), "web"),
		"orphan":             rs("b", "1", nil, "web"),
		"orphan of nobody":   rs("c", "1", nil, "cache"),
		"other kind":         rs("d", "1", ref("StatefulSet", "web", "d-web"), "web"),
		"missing":            rs("e", "1", ref("Deployment", "gone", "d-gone"), "web"),
		"re-created":         rs("f", "1", ref("Deployment", "web", "d-old-web"), "web"),
		"owned by the other": rs("g", "1", ref("Deployment", "web-2", "d-web-2"), "web"),
	}
	whole := c.cacheFor("default", false)
	routes := 0
	for name, r := range cases {
		want := enqueue.AddReplicaSet(r, whole)
		require.Equal(t, want, enqueue.AddReplicaSet(r, c.deploymentsFor("default", r)), "add %s", name)
		wantDel, err := enqueue.DeleteReplicaSet(r, whole)
		require.NoError(t, err)
		gotDel, err := enqueue.DeleteReplicaSet(r, c.deploymentsFor("default", r))
		require.NoError(t, err)
		require.Equal(t, wantDel, gotDel, "delete %s", name)
		for other, o := range cases {
			cur := o.DeepCopy()
			cur.Name, cur.UID, cur.ResourceVersion = r.Name, r.UID, "2"
			want := enqueue.UpdateReplicaSet(r, cur, whole)
			got := enqueue.UpdateReplicaSet(r, cur, c.deploymentsFor("default", r, cur))
			require.Equal(t, want, got, "update %s to %s", name, other)
			routes += len(want)
		}
	}
	require.Positive(t, routes, fmt.Sprintf("no update woke a Deployment: the cases test nothing (%d)", routes))
}
