package plan_test

import (
	"errors"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// The exported building blocks never panic, whatever is nil: they answer
// false, zero or a *model.FieldError.
func TestBuildingBlocksTolerateNil(t *testing.T) {
	d := newDeployment("web", 3, "v1")
	rs := newRS(d, "v1", 1, 3, t0)
	nils := []*model.ReplicaSet{nil, rs, nil}
	if _, _, err := plan.NewRSNewReplicas(nil, nils, nil); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("NewRSNewReplicas(nil...) = %v, want an ErrInvalid error", err)
	}
	if _, _, err := plan.NewRSNewReplicas(d, nils, nil); err == nil {
		t.Error("NewRSNewReplicas with a nil newRS gave no error")
	}
	if _, _, _, err := plan.ReconcileNewReplicaSet(nils, nil, d); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("ReconcileNewReplicaSet(nil newRS) = %v", err)
	}
	if _, _, err := plan.ReconcileOldReplicaSets(nils, nils, nil, d); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("ReconcileOldReplicaSets(nil newRS) = %v", err)
	}
	if _, _, err := plan.ReconcileOldReplicaSets(nils, nils, rs, d); err != nil {
		t.Errorf("ReconcileOldReplicaSets with nil entries: %v", err)
	}
	plan.CleanupUnhealthyReplicas(nils, nil, 3)
	plan.ScaleDownOldReplicaSetsForRollingUpdate(nils, nils, nil)
	plan.ScaleDownOldReplicaSetsForRollingUpdate(nils, nils, d)
	if plan.FindNewReplicaSet(nil, nils) != nil {
		t.Error("FindNewReplicaSet(nil) found something")
	}
	plan.FindOldReplicaSets(nil, nils)
	proportion.FindActiveOrLatest(nil, nils)
	plan.OldPodsRunning(nil, nils, map[string][]*model.Pod{"x": {nil}})
	if plan.IsSaturated(nil, rs) || plan.IsSaturated(d, nil) {
		t.Error("IsSaturated with nil is true")
	}
	if plan.ReplicasAnnotationsNeedUpdate(nil, 1, 1) || plan.SetReplicasAnnotations(nil, 1, 1) {
		t.Error("replica annotations of a nil ReplicaSet changed")
	}
	plan.SetDeploymentCondition(nil, model.DeploymentCondition{})
	plan.RemoveDeploymentCondition(nil, model.DeploymentAvailable)
	plan.CalculateStatus(nils, nil, nil, t0, true)
	plan.CalculateStatus(nils, nil, d, t0, true)
	plan.TerminatingReplicas(nils)
	if plan.HasProgressDeadline(nil) || plan.DeploymentComplete(nil, nil) || plan.DeploymentComplete(d, nil) ||
		plan.DeploymentProgressing(nil, nil) || plan.DeploymentTimedOut(nil, nil, t0) || plan.DeploymentTimedOut(d, nil, t0) {
		t.Error("a predicate on nil is true")
	}
	if _, err := plan.Sync(plan.State{}); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("Sync(State{}) = %v, want a validation error", err)
	}
}
