package e2e_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The plan's claim that Action.Conflict marks exactly the writes a real API
// server rejects with 409, checked write by write.
//
// The test is the Deployment controller here: it reads the state straight
// from the server, plans a sync and sends every write of the plan, also the
// ones after a rejected write (appsv1.ApplyOptions.SendAll), while holding
// the gate that keeps the ReplicaSet controller and the kubelet still, so
// nothing but the plan writes during the sync. Each answer (accepted or
// 409) must be the plan's prediction. The scenarios (a new Deployment, a
// template change, a scale, a rollback, a pause) produce plans with and
// without predicted conflicts.
func TestConflictPredictions(t *testing.T) {
	ctx, ns := setup(t)
	gate := &sync.RWMutex{}
	startManager(t, ns, controller.ManagerOptions{NoDeploymentController: true, Options: controller.Options{Gate: gate}})
	var total controller.Stats
	steps := []struct {
		name   string
		change func(*apps.Deployment)
	}{
		{"create", nil},
		{"new image", setImage("nginx:2")},
		{"scale up", func(d *apps.Deployment) { d.Spec.Replicas = new(int32(6)) }},
		{"new image and scale down", func(d *apps.Deployment) {
			d.Spec.Replicas = new(int32(4))
			d.Spec.Template.Spec.Containers[0].Image = "nginx:3"
		}},
		{"rollback to nginx:2", setImage("nginx:2")},
		{"pause", func(d *apps.Deployment) { d.Spec.Paused = true }},
		{"image while paused", setImage("nginx:4")},
		{"resume", func(d *apps.Deployment) { d.Spec.Paused = false }},
	}
	for _, step := range steps {
		if step.change == nil {
			create(ctx, t, rolling(deployment(ns, "web", 3, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(1)))
		} else {
			update(ctx, t, ns, "web", step.change)
		}
		n := driveUntilQuiet(ctx, t, ns, "web", gate, &total)
		t.Logf("%s: %d syncs", step.name, n)
	}
	report(t, total)
}

// The same check for a Recreate Deployment with a revision history limit of
// 1 (history cleanup deletes), a hash collision (the collisionCount status
// write and the next name) and the adoption of an orphaned ReplicaSet of an
// older template.
func TestConflictPredictionsRecreateCollisionAdoption(t *testing.T) {
	ctx, ns := setup(t)
	gate := &sync.RWMutex{}
	startManager(t, ns, controller.ManagerOptions{NoDeploymentController: true, Options: controller.Options{Gate: gate}})
	d := deployment(ns, "web", 3, "nginx:1")
	d.Spec.Strategy = apps.DeploymentStrategy{Type: apps.RecreateDeploymentStrategyType}
	d.Spec.RevisionHistoryLimit = new(int32(1))
	d = create(ctx, t, d)
	// The squatter takes the name of the first ReplicaSet; the orphan has the
	// Deployment's labels and an older template.
	hash := appsv1.ComputeHash(&d.Spec.Template, nil)
	squatter := &apps.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-" + hash, Labels: map[string]string{"squatter": "yes"}},
		Spec: apps.ReplicaSetSpec{Replicas: new(int32(0)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"squatter": "yes"}},
			Template: *d.Spec.Template.DeepCopy()},
	}
	squatter.Spec.Template.Labels = map[string]string{"squatter": "yes"}
	orphanTmpl := d.Spec.Template.DeepCopy()
	orphanTmpl.Spec.Containers[0].Image = "nginx:0"
	orphanTmpl.Labels = map[string]string{"app": "web", apps.DefaultDeploymentUniqueLabelKey: "orphan"}
	orphan := &apps.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-orphan", Labels: orphanTmpl.Labels},
		Spec: apps.ReplicaSetSpec{Replicas: new(int32(1)),
			Selector: &metav1.LabelSelector{MatchLabels: orphanTmpl.Labels}, Template: *orphanTmpl},
	}
	for _, rs := range []*apps.ReplicaSet{squatter, orphan} {
		if _, err := client.AppsV1().ReplicaSets(ns).Create(ctx, rs, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var total controller.Stats
	n := driveUntilQuiet(ctx, t, ns, "web", gate, &total)
	t.Logf("create with a collision and an orphan: %d syncs", n)
	got, err := client.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status.CollisionCount == nil || *got.Status.CollisionCount < 1 {
		t.Errorf("collisionCount %v, want at least 1", got.Status.CollisionCount)
	}
	for v := 2; v <= 4; v++ {
		update(ctx, t, ns, "web", setImage("nginx:"+strconv.Itoa(v)))
		n := driveUntilQuiet(ctx, t, ns, "web", gate, &total)
		t.Logf("image nginx:%d: %d syncs", v, n)
	}
	owned := 0
	for _, rs := range replicaSets(ctx, t, ns) {
		if ref := metav1.GetControllerOf(&rs); ref != nil && ref.UID == d.UID {
			owned++
		}
	}
	if owned != 2 {
		t.Errorf("%d ReplicaSets owned after the cleanup, want 2 (revisionHistoryLimit 1)", owned)
	}
	report(t, total)
}

func report(t *testing.T, total controller.Stats) {
	t.Helper()
	t.Logf("writes checked against the server: %d (accepted %d, 409 %d, other errors %d); conflicts predicted %d, confirmed %d; predictions matched %d, missed %d",
		total.Sent, total.Accepted, total.Conflict, total.Failed, total.PredictedConflicts, total.ConfirmedConflicts, total.Matched, total.Mismatched)
	t.Logf("predicted conflicts so far by kind: %v", conflictKinds)
	if total.Mismatched != 0 || total.Failed != 0 {
		t.Errorf("%d writes answered otherwise than predicted, %d failed", total.Mismatched, total.Failed)
	}
	if total.PredictedConflicts == 0 || total.ConfirmedConflicts != total.PredictedConflicts {
		t.Errorf("conflicts predicted %d, confirmed %d: want some, all confirmed", total.PredictedConflicts, total.ConfirmedConflicts)
	}
}

// driveUntilQuiet syncs the Deployment (under the gate) until a sync plans
// no write and the rollout is complete or paused, letting the other
// controllers work between syncs. It returns the number of syncs.
func driveUntilQuiet(ctx context.Context, t *testing.T, ns, name string, gate *sync.RWMutex, total *controller.Stats) int {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for i := 1; time.Now().Before(deadline); i++ {
		gate.Lock()
		s, err := controller.LiveState(ctx, client, ns, name, time.Now())
		if err != nil {
			gate.Unlock()
			t.Fatal(err)
		}
		res, err := controller.SyncDeployment(ctx, client, s, nil, controller.Options{SendAll: true})
		gate.Unlock()
		if !res.Planned {
			t.Fatalf("sync %d: %v", i, err)
		}
		total.AddWrites(res.Result)
		for _, w := range res.Result.Writes {
			if w.Action.Conflict {
				conflictKinds[string(w.Action.Kind)]++
			}
		}
		for j, w := range res.Result.Writes {
			if w.Outcome != w.Predicted() {
				t.Errorf("sync %d write %d (%s %s/%s %s): server answered %s (%v), plan predicted %s",
					i, j, w.Action.Verb, w.Action.Resource, w.Action.Subresource, w.Action.Name, w.Outcome, w.Err, w.Predicted())
			}
		}
		if len(res.Output.Actions) == 0 && (complete(s.Deployment) || s.Deployment.Spec.Paused) {
			return i
		}
		time.Sleep(150 * time.Millisecond)
	}
	t.Fatalf("%s/%s did not settle", ns, name)
	return 0
}

// conflictKinds counts the predicted conflicts by the planner's action
// kind, for the log.
var conflictKinds = map[string]int{}
