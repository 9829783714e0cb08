package plan_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// A zero Now is rejected with a field error naming "now", before anything
// is planned.
func TestSyncRejectsZeroNow(t *testing.T) {
	d := newDeployment("web", 3, "v1")
	_, err := plan.Sync(plan.State{Deployment: d})
	var fe *model.FieldError
	if !errors.As(err, &fe) || fe.Field != "now" || !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("Sync with a zero Now: err = %v, want a model.FieldError for field now", err)
	}
	if !strings.Contains(err.Error(), "must be set") {
		t.Errorf("message %q does not say now must be set", err)
	}
	// Other field errors are still reported after it.
	bad := d.DeepCopy()
	bad.Spec.Replicas = model.Int32Ptr(-1)
	_, err = plan.Sync(plan.State{Deployment: bad})
	var verr *model.ValidationError
	if !errors.As(err, &verr) || len(verr.Errors) != 2 || verr.Errors[0].Field != "now" {
		t.Fatalf("err = %v, want now first and the replicas error after it", err)
	}
	if _, err := plan.Sync(plan.State{Deployment: d, Now: t0}); err != nil {
		t.Fatalf("Sync with Now set: %v", err)
	}
}

// State and Plan print on one line; %#v (what rapid uses for drawn values)
// prints the same instead of raw pointers.
func TestStateAndPlanString(t *testing.T) {
	d := newDeployment("web", 3, "v1")
	rs := newRS(d, "v1", 1, 3, t0)
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{rs, nil}, Now: t0}
	got := s.String()
	if strings.Contains(got, "0x") || strings.Contains(got, "\n") ||
		!strings.Contains(got, "Deployment default/web") || !strings.Contains(got, "ReplicaSets ["+rs.Name+"(3) <nil>]; 0 pods") {
		t.Errorf("State.String() = %q", got)
	}
	if g := fmt.Sprintf("%#v", s); g != got {
		t.Errorf("%%#v = %q, want String()'s %q", g, got)
	}
	if g := (plan.State{}).String(); g != "State at <zero now>: <nil>; ReplicaSets []; 0 pods" {
		t.Errorf("zero State = %q", g)
	}
	p := plan.Plan{Requeue: plan.Requeue{Kind: plan.RequeueAfter, After: 10 * time.Minute},
		Actions: []plan.Action{{Kind: plan.CreateReplicaSet, Object: plan.ObjectRef{Namespace: "default", Name: rs.Name}, ReplicaSet: rs},
			{Kind: plan.UpdateDeploymentStatus, Object: plan.ObjectRef{Namespace: "default", Name: "web"}, Conflict: true},
			{Kind: plan.ScaleReplicaSet, Object: plan.ObjectRef{Namespace: "default", Name: rs.Name}, Update: &plan.ReplicaSetUpdate{FromReplicas: 3, Replicas: 5}}},
		Events: []plan.Event{{}}}
	want := "Plan [CreateReplicaSet default/" + rs.Name + "(3) UpdateDeploymentStatus default/web ScaleReplicaSet default/" + rs.Name + "(5)]; rejected from action 1; 1 event; requeue after 10m0s"
	if g := p.String(); g != want {
		t.Errorf("Plan.String() = %q, want %q", g, want)
	}
	empty := plan.Plan{Notes: []plan.Reason{{Code: "DeploymentPaused"}}}
	if g := empty.String(); g != "Plan []; note DeploymentPaused" {
		t.Errorf("empty Plan.String() = %q", g)
	}
}
