package appsv1_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
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
		var syncErr *plan.SyncError
		if errors.As(err, &syncErr) {
			if syncErr.Kind == plan.ErrKindInvalid {
				t.Errorf("case %d ends with %v", i, syncErr)
			}
		} else if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for _, a := range p.Actions {
			if a.Invalid != "" {
				t.Errorf("case %d: %s marked invalid: %s", i, a, a.Invalid)
			}
		}
		in, err := c.State().Model()
		require.NoError(t, err, "case %d", i)
		ws, err := render.Writes(in, p)
		require.NoError(t, err, "case %d", i)
		for _, w := range render.Accepted(ws) {
			writes++
			switch {
			case w.ReplicaSet != nil:
				rs := w.ReplicaSet
				if w.Kind == render.CreateReplicaSet {
					rs.UID = "assigned-by-the-server"
				}
				if err := model.ValidateReplicaSet(rs); err != nil {
					t.Errorf("case %d: accepted %s %s: %v", i, w.Kind, w.Name, err)
				}
			case w.Deployment != nil:
				// With the two spec rules the controller does not depend on
				// (and the recorded states break) left out.
				if err := (plan.State{Deployment: w.Deployment, Now: time.Unix(0, 0)}).Validate(); err != nil {
					t.Errorf("case %d: accepted %s %s: %v", i, w.Kind, w.Name, err)
				}
			}
		}
	}
	if len(cases) != 260 {
		t.Errorf("%d recorded states, want 200 seeds + 60 scenario steps", len(cases))
	}
	t.Logf("%d recorded states, %d accepted writes, none invalid", len(cases), writes)
}
