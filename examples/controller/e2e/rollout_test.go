package e2e_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

const revisionAnnotation = "deployment.kubernetes.io/revision"

// Seed 004's nginx rollout: 3 replicas with the default 25%/25% (maxSurge
// 1, maxUnavailable 0). Changing the image scales the new ReplicaSet to 1,
// the old one to 2, the new one to 2, the old one to 1, the new one to 3 and
// the old one to 0, as the seed's `kubectl describe` events show.
func TestNginxRollout(t *testing.T) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{})
	o := observe(t, ns, "nginx-deployment", nil)
	create(ctx, t, rolling(deployment(ns, "nginx-deployment", 3, "nginx:1.7.9"), intstr.FromString("25%"), intstr.FromString("25%")))
	waitComplete(ctx, t, ns, "nginx-deployment")
	oldRS := replicaSets(ctx, t, ns)[0].Name
	update(ctx, t, ns, "nginx-deployment", setImage("nginx:1.9.1"))
	waitComplete(ctx, t, ns, "nginx-deployment")
	var newRS string
	for _, rs := range replicaSets(ctx, t, ns) {
		if rs.Name != oldRS {
			newRS = rs.Name
		}
	}
	want := []string{oldRS + " 3", newRS + " 1", oldRS + " 2", newRS + " 2", oldRS + " 1", newRS + " 3", oldRS + " 0"}
	var got []string
	waitFor(ctx, t, "the ScalingReplicaSet events", 10*time.Second, func() (bool, error) {
		got = scalingEvents(ctx, t, ns, "nginx-deployment")
		return len(got) >= len(want), nil
	})
	if !slices.Equal(got, want) {
		t.Errorf("ScalingReplicaSet events (ReplicaSet, new size):\n got %v\nwant %v", got, want)
	}
	o.verify(t)
}

// Seed 004's stuck rollout: 10 replicas, maxSurge 3, maxUnavailable 2, a new
// image whose pods never become ready. The rollout stops at 5 new and 8 old
// replicas; scaling to 15 then spreads the 5 extra replicas proportionally:
// 7 new and 11 old.
func TestStuckRolloutAndProportionalScaling(t *testing.T) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{})
	o := observe(t, ns, "web", nil)
	create(ctx, t, rolling(deployment(ns, "web", 10, "nginx:1.7.9"), intstr.FromInt32(3), intstr.FromInt32(2)))
	waitComplete(ctx, t, ns, "web")
	update(ctx, t, ns, "web", setImage("nginx:never-ready"))
	stable(ctx, t, ns, "nginx:never-ready", 5, 8)
	update(ctx, t, ns, "web", func(d *apps.Deployment) { d.Spec.Replicas = new(int32(15)) })
	stable(ctx, t, ns, "nginx:never-ready", 7, 11)
	o.verify(t)
}

// stable waits until the new and old ReplicaSets have the given sizes and
// keep them for a second.
func stable(ctx context.Context, t *testing.T, ns, image string, wantNew, wantOld int32) {
	t.Helper()
	since := time.Time{}
	waitFor(ctx, t, fmt.Sprintf("%d new and %d old replicas", wantNew, wantOld), 60*time.Second, func() (bool, error) {
		n, o := newAndOld(ctx, t, ns, image)
		if n != wantNew || o != wantOld {
			since = time.Time{}
			return false, nil
		}
		if since.IsZero() {
			since = time.Now()
		}
		return time.Since(since) > time.Second, nil
	})
}

// A rollback as `kubectl rollout undo` does it: the template of the previous
// revision is written back into the Deployment; the controller scales that
// ReplicaSet up again (no third ReplicaSet) and gives it the next revision.
func TestRollbackUndo(t *testing.T) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{})
	o := observe(t, ns, "web", nil)
	create(ctx, t, rolling(deployment(ns, "web", 4, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(1)))
	waitComplete(ctx, t, ns, "web")
	update(ctx, t, ns, "web", setImage("nginx:2"))
	waitComplete(ctx, t, ns, "web")
	var rev1 *apps.ReplicaSet
	for _, rs := range replicaSets(ctx, t, ns) {
		if rs.Annotations[revisionAnnotation] == "1" {
			rev1 = rs.DeepCopy()
		}
	}
	if rev1 == nil {
		t.Fatal("no ReplicaSet of revision 1")
	}
	update(ctx, t, ns, "web", func(d *apps.Deployment) {
		tmpl := rev1.Spec.Template.DeepCopy()
		delete(tmpl.Labels, apps.DefaultDeploymentUniqueLabelKey)
		d.Spec.Template = *tmpl
	})
	d := waitComplete(ctx, t, ns, "web")
	rss := replicaSets(ctx, t, ns)
	if len(rss) != 2 {
		t.Fatalf("%d ReplicaSets after the rollback, want 2", len(rss))
	}
	for _, rs := range rss {
		if rs.Name == rev1.Name && (rs.Annotations[revisionAnnotation] != "3" || *rs.Spec.Replicas != 4) {
			t.Errorf("rolled back ReplicaSet: revision %s, %d replicas; want revision 3, 4 replicas", rs.Annotations[revisionAnnotation], *rs.Spec.Replicas)
		}
	}
	if d.Annotations[revisionAnnotation] != "3" {
		t.Errorf("Deployment revision %s, want 3", d.Annotations[revisionAnnotation])
	}
	o.verify(t)
}

// A paused Deployment does not roll out a template change; resumed, it does.
func TestPauseResume(t *testing.T) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{})
	o := observe(t, ns, "web", nil)
	create(ctx, t, rolling(deployment(ns, "web", 3, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(0)))
	waitComplete(ctx, t, ns, "web")
	update(ctx, t, ns, "web", func(d *apps.Deployment) { d.Spec.Paused = true })
	update(ctx, t, ns, "web", setImage("nginx:2"))
	time.Sleep(2 * time.Second)
	if n := len(replicaSets(ctx, t, ns)); n != 1 {
		t.Fatalf("%d ReplicaSets while paused, want 1", n)
	}
	update(ctx, t, ns, "web", func(d *apps.Deployment) { d.Spec.Paused = false })
	waitComplete(ctx, t, ns, "web")
	if n, old := newAndOld(ctx, t, ns, "nginx:2"); n != 3 || old != 0 {
		t.Errorf("after resume: %d new, %d old; want 3, 0", n, old)
	}
	o.verify(t)
}

// Recreate: the old pods are all gone before any new pod exists.
func TestRecreate(t *testing.T) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{})
	d := deployment(ns, "web", 3, "nginx:1")
	d.Spec.Strategy = apps.DeploymentStrategy{Type: apps.RecreateDeploymentStrategyType}
	create(ctx, t, d)
	waitComplete(ctx, t, ns, "web")
	o := observe(t, ns, "web", func(s appsv1.State) string {
		images := map[string]int{}
		for _, p := range s.Pods {
			images[p.Spec.Containers[0].Image]++
		}
		if len(images) > 1 {
			return fmt.Sprintf("old and new pods together: %v", images)
		}
		return ""
	})
	update(ctx, t, ns, "web", setImage("nginx:2"))
	waitComplete(ctx, t, ns, "web")
	o.verify(t)
}

// History cleanup keeps revisionHistoryLimit old ReplicaSets.
func TestHistoryCleanup(t *testing.T) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{})
	o := observe(t, ns, "web", nil)
	d := rolling(deployment(ns, "web", 2, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(0))
	d.Spec.RevisionHistoryLimit = new(int32(2))
	create(ctx, t, d)
	waitComplete(ctx, t, ns, "web")
	for v := 2; v <= 5; v++ {
		update(ctx, t, ns, "web", setImage("nginx:"+strconv.Itoa(v)))
		waitComplete(ctx, t, ns, "web")
	}
	var revs []string
	waitFor(ctx, t, "the cleanup to 2 old ReplicaSets", 20*time.Second, func() (bool, error) {
		revs = nil
		for _, rs := range replicaSets(ctx, t, ns) {
			revs = append(revs, rs.Annotations[revisionAnnotation])
		}
		slices.Sort(revs)
		return len(revs) == 3, nil
	})
	if want := []string{"3", "4", "5"}; !slices.Equal(revs, want) {
		t.Errorf("revisions kept %v, want %v", revs, want)
	}
	o.verify(t)
}

// A ReplicaSet squatting the new ReplicaSet's name with another template is
// a hash collision: the controller bumps status.collisionCount and creates
// the ReplicaSet under the next name. The Deployment is created before the
// controllers start, so the squatter can take the name computed from the
// template as the server defaulted it.
func TestHashCollision(t *testing.T) {
	ctx, ns := setup(t)
	d := create(ctx, t, rolling(deployment(ns, "web", 2, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(0)))
	hash := appsv1.ComputeHash(&d.Spec.Template, nil)
	squatter := &apps.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-" + hash, Labels: map[string]string{"squatter": "yes"}},
		Spec: apps.ReplicaSetSpec{Replicas: new(int32(0)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"squatter": "yes"}},
			Template: *d.Spec.Template.DeepCopy()},
	}
	squatter.Spec.Template.Labels = map[string]string{"squatter": "yes"}
	squatter.Spec.Template.Spec.Containers[0].Image = "busybox"
	if _, err := client.AppsV1().ReplicaSets(ns).Create(ctx, squatter, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	o := observe(t, ns, "web", nil)
	startManager(t, ns, controller.ManagerOptions{})
	got := waitComplete(ctx, t, ns, "web")
	if got.Status.CollisionCount == nil || *got.Status.CollisionCount < 1 {
		t.Errorf("collisionCount %v, want at least 1", got.Status.CollisionCount)
	}
	if n := len(replicaSets(ctx, t, ns)); n != 2 {
		t.Errorf("%d ReplicaSets, want the squatter and the Deployment's", n)
	}
	o.verify(t)
}

// An orphaned ReplicaSet of the Deployment's template is adopted (it gets
// the controller reference) instead of a new one being created.
func TestAdoptOrphan(t *testing.T) {
	ctx, ns := setup(t)
	d := create(ctx, t, rolling(deployment(ns, "web", 2, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(0)))
	hash := appsv1.ComputeHash(&d.Spec.Template, nil)
	tmpl := d.Spec.Template.DeepCopy()
	tmpl.Labels = map[string]string{"app": "web", apps.DefaultDeploymentUniqueLabelKey: hash}
	orphan := &apps.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-" + hash, Labels: tmpl.Labels},
		Spec: apps.ReplicaSetSpec{Replicas: new(int32(2)),
			Selector: &metav1.LabelSelector{MatchLabels: tmpl.Labels}, Template: *tmpl},
	}
	if _, err := client.AppsV1().ReplicaSets(ns).Create(ctx, orphan, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	o := observe(t, ns, "web", nil)
	startManager(t, ns, controller.ManagerOptions{})
	waitComplete(ctx, t, ns, "web")
	rss := replicaSets(ctx, t, ns)
	if len(rss) != 1 {
		t.Fatalf("%d ReplicaSets, want the adopted one only", len(rss))
	}
	if ref := metav1.GetControllerOf(&rss[0]); ref == nil || ref.UID != d.UID {
		t.Errorf("controller of the orphan: %v, want the Deployment", ref)
	}
	o.verify(t)
}
