package appsv1_test

import (
	"time"

	"encoding/json"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// No recorded upstream sync wrote anything a real API server rejects as
// invalid (the recorded controller ran against one), so no planned write of
// those states is marked invalid, no plan ends with an Invalid error, and
// every write of the accepted view passes model validation.
func TestConformanceNoInvalidWrites(t *testing.T) {
	var cases []json.RawMessage
	for _, l := range readSeeds(t) {
		cases = append(cases, l.Case)
	}
	for _, sc := range readScenarios(t) {
		for _, st := range sc.Steps {
			cases = append(cases, st.Case)
		}
	}
	writes := 0
	for i, raw := range cases {
		var c appsv1.Case
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		_, p, err := appsv1.Sync(c.State())
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if p.Err != nil && p.Err.Kind == plan.ErrKindInvalid {
			t.Errorf("case %d ends with %v", i, p.Err)
		}
		for _, a := range p.Actions {
			if a.Invalid != "" {
				t.Errorf("case %d: %s marked invalid: %s", i, a, a.Invalid)
			}
		}
		for _, a := range p.Accepted() {
			writes++
			switch {
			case a.ReplicaSet != nil:
				rs := a.ReplicaSet
				if a.Kind == plan.CreateReplicaSet {
					c := *rs
					c.UID = "assigned-by-the-server"
					rs = &c
				}
				if err := model.ValidateReplicaSet(rs); err != nil {
					t.Errorf("case %d: accepted %s: %v", i, a, err)
				}
			case a.Deployment != nil:
				// With the two spec rules the controller does not depend on
				// (and the recorded states break) left out.
				if err := (plan.State{Deployment: a.Deployment, Now: time.Unix(0, 0)}).Validate(); err != nil {
					t.Errorf("case %d: accepted %s: %v", i, a, err)
				}
			}
		}
	}
	if len(cases) != 260 {
		t.Errorf("%d recorded states, want 200 seeds + 60 scenario steps", len(cases))
	}
	t.Logf("%d recorded states, %d accepted writes, none invalid", len(cases), writes)
}
