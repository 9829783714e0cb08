package controller

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// Informer objects and client-go tombstones become what plan/enqueue
// takes; anything else becomes nil, which the handlers drop.
func TestTombstoneToModel(t *testing.T) {
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r", UID: "u"}}
	pod := &core.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "pu"}}
	d := &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d", UID: "du"}}

	if m, ns := tombstoneToModel(rs); ns != "ns" || m.(*model.ReplicaSet).UID != "u" {
		t.Errorf("ReplicaSet: %v %q", m, ns)
	}
	if m, ns := tombstoneToModel(d); ns != "ns" || m.(*model.Deployment).Name != "d" {
		t.Errorf("Deployment: %v %q", m, ns)
	}
	m, ns := tombstoneToModel(cache.DeletedFinalStateUnknown{Key: "ns/p", Obj: pod})
	ts, ok := m.(enqueue.Tombstone)
	if !ok || ns != "ns" || ts.Key != "ns/p" || ts.Obj.(*model.Pod).UID != "pu" {
		t.Errorf("tombstone: %#v %q", m, ns)
	}
	for _, bad := range []any{"x", cache.DeletedFinalStateUnknown{Key: "k", Obj: 3}, nil} {
		if m, _ := tombstoneToModel(bad); m != nil {
			t.Errorf("%#v: got %#v, want nil", bad, m)
		}
	}
}
