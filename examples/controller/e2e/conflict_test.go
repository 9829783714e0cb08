package e2e_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	apps "k8s.io/api/apps/v1"
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
	t.Logf("writes checked against the server: %d (accepted %d, 409 %d, other errors %d); conflicts predicted %d, confirmed %d; predictions matched %d, missed %d",
		total.Sent, total.Accepted, total.Conflict, total.Failed, total.PredictedConflicts, total.ConfirmedConflicts, total.Matched, total.Mismatched)
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
		addTo(total, res.Result)
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

func addTo(s *controller.Stats, r appsv1.Result) {
	for _, w := range r.Writes {
		if w.Outcome == appsv1.NotSent {
			continue
		}
		s.Sent++
		switch w.Outcome {
		case appsv1.Accepted:
			s.Accepted++
		case appsv1.Conflicted:
			s.Conflict++
		default:
			s.Failed++
		}
		if w.Action.Conflict {
			s.PredictedConflicts++
			if w.Outcome == appsv1.Conflicted {
				s.ConfirmedConflicts++
			}
		}
		if w.Outcome == w.Predicted() {
			s.Matched++
		} else {
			s.Mismatched++
		}
	}
}
