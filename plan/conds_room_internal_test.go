package plan

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// TestComputedStatusConditionsInPlanMemory: on every conformance state
// whose stored conditions are at most Available and Progressing, the
// conditions of the first status the sync computes live in the plan's
// memory (calculateStatus makes room only for the conditions it adds),
// unless a ReplicaFailure was promoted; and the computed status is the
// plan's.
func TestComputedStatusConditionsInPlanMemory(t *testing.T) {
	checked := 0
	for i, c := range readConformanceStatesFile(t) {
		usual := true
		for _, cond := range c.Deployment.Status.Conditions {
			usual = usual && (cond.Type == model.DeploymentAvailable || cond.Type == model.DeploymentProgressing)
		}
		sy := newSyncer(c, newConfig(nil))
		sy.syncDeployment()
		m := sy.mem
		if !usual || sy.statusComputed != &m.status || m.status.Condition(model.DeploymentReplicaFailure) != nil {
			continue
		}
		checked++
		if conds := m.status.Conditions; len(conds) == 0 || &conds[0] != &m.conds[0] {
			t.Errorf("state %d: the computed conditions %v are not in the plan's memory", i, conds)
		}
	}
	if checked < 150 {
		t.Fatalf("only %d states checked", checked)
	}
}
