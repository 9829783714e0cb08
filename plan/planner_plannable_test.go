package plan_test

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// TestPlannerRemembersPlannableDeployments: a Deployment that model's
// validation rejects only for a rule State.Validate lets through (an empty
// selector, a progress deadline not above minReadySeconds) is remembered as
// valid like any other, and the Planner's plans still equal Sync's.
func TestPlannerRemembersPlannableDeployments(t *testing.T) {
	base := corpus()[2].state // Recreate waiting: a Deployment, two ReplicaSets, four pods
	objects := 1 + len(base.ReplicaSets) + len(base.Pods)
	emptySelector := base.Deployment.DeepCopy()
	emptySelector.Spec.Selector = &model.LabelSelector{}
	earlyDeadline := base.Deployment.DeepCopy()
	earlyDeadline.Spec.MinReadySeconds = 600
	for _, tc := range []struct {
		name string
		d    *model.Deployment
	}{
		{"empty selector", emptySelector},
		{"early deadline", earlyDeadline},
	} {
		if model.ValidateDeployment(tc.d) == nil {
			t.Fatalf("%s: fixture: model.ValidateDeployment accepts it", tc.name)
		}
		s := base
		s.Deployment = tc.d
		p := plan.NewPlanner()
		for i := range 2 {
			want, wantErr := plan.Sync(s)
			if wantErr != nil {
				t.Fatalf("%s: fixture: Sync's error %v", tc.name, wantErr)
			}
			got, err := p.Sync(s)
			samePlan(t, tc.name, want, wantErr, got, err)
			if valid, _, _ := plan.PlannerMemory(p); valid != objects {
				t.Fatalf("%s, sync %d: %d objects remembered as valid, want all %d", tc.name, i, valid, objects)
			}
		}
	}
}
