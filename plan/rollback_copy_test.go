package plan_test

import (
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// TestRollbackAfterAWriteCopiesTheTemplate: a legacy rollback that first
// creates the new ReplicaSet (so the working copy is already the sync's
// own when the target's template replaces its template) sends a template
// that shares nothing with the target ReplicaSet, its annotations
// included, and without the hash label (upstream rollback: the template
// of the target, the pod-template-hash label removed).
func TestRollbackAfterAWriteCopiesTheTemplate(t *testing.T) {
	d := newDeployment("web", 3, "v3", revisionAnn(2), depAnn(model.RollbackToAnnotation, "1"),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	target := newRS(d, "v1", 1, 0, at(-2*time.Hour))
	target.Spec.Template.Annotations = map[string]string{"team": "a"}
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{target, newRS(d, "v2", 2, 3, at(-time.Hour))}, Now: t0}
	p, err := plan.Sync(s, fixedHash("v3"))
	if err != nil {
		t.Fatal(err)
	}
	var sent *model.Deployment
	for i, a := range p.Actions {
		if a.Kind == plan.UpdateDeployment {
			if i == 0 || p.Actions[0].Kind != plan.CreateReplicaSet {
				t.Fatalf("actions %v: want a create before the rollback", p.Actions)
			}
			sent = a.Deployment
		}
	}
	if sent == nil {
		t.Fatalf("no rollback write: %v", p.Actions)
	}
	if got := sent.Spec.Template; got.Annotations["team"] != "a" || got.Labels["app"] != "web" || len(got.Labels) != 1 || got.Spec != target.Spec.Template.Spec {
		t.Errorf("rolled-back template %+v, want the target's without the hash label", got)
	}
	if shared := sharedMemory(s, p); shared != "" {
		t.Error(shared)
	}
}
