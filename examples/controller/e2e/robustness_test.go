package e2e_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// boundsCheck fails a state whose ReplicaSets ask for more than replicas +
// surge pods, or with fewer than replicas - unavailable ready pods (once
// the first rollout is complete).
func boundsCheck(replicas, surge, unavailable int32) func(appsv1.State) string {
	armed := false
	return func(s appsv1.State) string {
		var total int32
		for _, rs := range s.ReplicaSets {
			total += *rs.Spec.Replicas
		}
		ready := int32(0)
		for _, p := range s.Pods {
			for _, c := range p.Status.Conditions {
				if c.Type == core.PodReady && c.Status == core.ConditionTrue && p.DeletionTimestamp == nil {
					ready++
				}
			}
		}
		if ready >= replicas {
			armed = true
		}
		switch {
		case total > replicas+surge:
			return fmt.Sprintf("ReplicaSets ask for %d pods, more than %d+%d", total, replicas, surge)
		case armed && ready < replicas-unavailable:
			return fmt.Sprintf("%d ready pods, fewer than %d-%d", ready, replicas, unavailable)
		}
		return ""
	}
}

// A controller killed mid-rollout and started again finishes the rollout
// without a duplicate ReplicaSet or a lost revision.
func TestControllerRestart(t *testing.T) {
	ctx, ns := setup(t)
	_, stop := startManager(t, ns, controller.ManagerOptions{KubeletDelay: time.Second})
	o := observe(t, ns, "web", boundsCheck(10, 3, 2))
	create(ctx, t, rolling(deployment(ns, "web", 10, "nginx:1"), intstr.FromInt32(3), intstr.FromInt32(2)))
	waitComplete(ctx, t, ns, "web")
	update(ctx, t, ns, "web", setImage("nginx:2"))
	waitFor(ctx, t, "the rollout to start", 30*time.Second, func() (bool, error) {
		n, _ := newAndOld(ctx, t, ns, "nginx:2")
		return n >= 3, nil
	})
	stop()
	startManager(t, ns, controller.ManagerOptions{KubeletDelay: time.Second})
	d := waitComplete(ctx, t, ns, "web")
	rss := replicaSets(ctx, t, ns)
	if len(rss) != 2 {
		t.Errorf("%d ReplicaSets, want 2", len(rss))
	}
	revs := map[string]bool{}
	for _, rs := range rss {
		revs[rs.Annotations[revisionAnnotation]] = true
	}
	if !revs["1"] || !revs["2"] || d.Annotations[revisionAnnotation] != "2" {
		t.Errorf("revisions %v, Deployment at %s; want 1 and 2, Deployment at 2", revs, d.Annotations[revisionAnnotation])
	}
	o.verify(t)
}

// Two Deployment controllers racing on one Deployment: optimistic
// concurrency rejects the writes of the one working from a stale version,
// so the surge and availability bounds hold at every observed state.
func TestTwoControllersRacing(t *testing.T) {
	ctx, ns := setup(t)
	first, _ := startManager(t, ns, controller.ManagerOptions{KubeletDelay: 500 * time.Millisecond})
	second, _ := startManager(t, ns, controller.ManagerOptions{KubeletDelay: -1, NoReplicaSetController: true})
	o := observe(t, ns, "web", boundsCheck(10, 3, 2))
	create(ctx, t, rolling(deployment(ns, "web", 10, "nginx:1"), intstr.FromInt32(3), intstr.FromInt32(2)))
	waitComplete(ctx, t, ns, "web")
	for _, image := range []string{"nginx:2", "nginx:3"} {
		update(ctx, t, ns, "web", setImage(image))
		waitComplete(ctx, t, ns, "web")
	}
	if n := len(replicaSets(ctx, t, ns)); n != 3 {
		t.Errorf("%d ReplicaSets, want 3", n)
	}
	a, b := first.Stats(), second.Stats()
	t.Logf("controller 1: %d writes, %d conflicts; controller 2: %d writes, %d conflicts", a.Sent, a.Conflict, b.Sent, b.Conflict)
	o.verify(t)
}

// The API server restarts mid-rollout; the controllers' informers
// reconnect and the rollout completes.
func TestAPIServerRestart(t *testing.T) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{KubeletDelay: time.Second})
	create(ctx, t, rolling(deployment(ns, "web", 6, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(1)))
	waitComplete(ctx, t, ns, "web")
	update(ctx, t, ns, "web", setImage("nginx:2"))
	waitFor(ctx, t, "the rollout to start", 30*time.Second, func() (bool, error) {
		n, _ := newAndOld(ctx, t, ns, "nginx:2")
		return n >= 1, nil
	})
	env.StopAPIServer()
	time.Sleep(time.Second)
	if err := env.StartAPIServer(90 * time.Second); err != nil {
		t.Fatal(err)
	}
	d := waitComplete(ctx, t, ns, "web")
	if d.Annotations[revisionAnnotation] != "2" || len(replicaSets(ctx, t, ns)) != 2 {
		t.Errorf("after the restart: revision %s, %d ReplicaSets; want 2, 2", d.Annotations[revisionAnnotation], len(replicaSets(ctx, t, ns)))
	}
}
