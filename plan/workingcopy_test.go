package plan_test

import (
	"encoding/json"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

// TestPlannerPlansOutliveWorkingCopies: a Planner reuses the working
// copies of finished syncs; the plans it returns are Sync's, and still are
// after it has planned every conformance state twice more (no plan points
// to a working copy).
func TestPlannerPlansOutliveWorkingCopies(t *testing.T) {
	states := readConformanceStates(t)
	p := plan.NewPlanner()
	plans := make([]plan.Plan, len(states))
	want := make([]string, len(states))
	for i, s := range states {
		ref, err := plan.Sync(s)
		if err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
		b, _ := json.Marshal(ref)
		want[i] = string(b)
		if plans[i], err = p.Sync(s); err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
	}
	for range 2 {
		for _, s := range states {
			if _, err := p.Sync(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range plans {
		if b, _ := json.Marshal(plans[i]); string(b) != want[i] {
			t.Errorf("state %d: the Planner's plan, after later syncs, is not Sync's:\n%s\n%s", i, want[i], b)
		}
	}
}
