package appsv1

import (
	"time"

	"testing"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestSyncerKeepsWhatItUsed: after a sync, the Deployment, ReplicaSet and
// Pod with a UID and a resourceVersion are remembered (and the Deployment's
// hash state once hashed); an object without a resourceVersion is not; a
// sync that no longer sees an object forgets it after the next one.
func TestSyncerKeepsWhatItUsed(t *testing.T) {
	d := &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "d", ResourceVersion: "1"}}
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Replicas = new(int32(1))
	d.Spec.Strategy.Type = apps.RecreateDeploymentStrategyType
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: "ns", UID: "r", ResourceVersion: "2"}}
	rs.Spec.Replicas = new(int32(0))
	rs.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
	pod := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "p", ResourceVersion: "3"}}
	noRV := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns", UID: "q"}}
	var c Syncer
	if _, _, err := c.Sync(State{Deployment: d, ReplicaSets: []*apps.ReplicaSet{rs}, Pods: []*core.Pod{pod, noRV}, Now: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	if len(c.cur) != 3 {
		t.Fatalf("remembered %d objects, want 3 (deployment, replicaset, pod with a resourceVersion)", len(c.cur))
	}
	if e := c.cur[syncerKey{'d', "d", "1"}]; e == nil || !e.hashed || !e.hashable {
		t.Fatalf("deployment entry %+v: want its hash state kept", e)
	}
	if _, _, err := c.Sync(State{Deployment: d, Now: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	if len(c.cur) != 1 || len(c.prev) != 3 {
		t.Fatalf("after a sync without them: %d current, %d previous; want 1 and 3", len(c.cur), len(c.prev))
	}
	if _, _, err := c.Sync(State{Deployment: d, Now: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	if len(c.cur) != 1 || len(c.prev) != 1 {
		t.Fatalf("two syncs later: %d current, %d previous; want 1 and 1", len(c.cur), len(c.prev))
	}
}
