package plan_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// TestRollbackAfterAWriteCopiesTheTemplate: a legacy rollback that first
// creates the new ReplicaSet sends the target ReplicaSet's template, its
// annotations included, without the hash label (upstream rollback: the
// template of the target, the pod-template-hash label removed), and a caller
// changing that template changes neither the target nor a replan
// (mustSync's alias check).
func TestRollbackAfterAWriteCopiesTheTemplate(t *testing.T) {
	d := newDeployment("web", 3, "v3", revisionAnn(2), depAnn(model.RollbackToAnnotation, "1"),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	target := newRS(d, "v1", 1, 0, at(-2*time.Hour))
	target.Spec.Template.Annotations = map[string]string{"team": "a"}
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{target, newRS(d, "v2", 2, 3, at(-time.Hour))}, Now: t0}
	p := mustSync(t, s, fixedHash("v3"))
	require.NotEmpty(t, p.Actions)
	require.Equal(t, plan.CreateReplicaSet, p.Actions[0].Kind, "want a create before the rollback: %v", p.Actions)
	var sent *model.PodTemplate
	for _, a := range p.Actions {
		if a.Kind == plan.UpdateDeployment {
			require.NotNil(t, a.Deployment, "%s", a)
			sent = a.Deployment.Template
		}
	}
	require.NotNil(t, sent, "no rollback template in %v", p.Actions)
	want := target.Spec.Template.DeepCopy()
	delete(want.Labels, model.PodTemplateHashLabel)
	if diff := cmp.Diff(&want, sent); diff != "" {
		t.Errorf("rolled-back template (-want +got); the target's without the hash label:\n%s", diff)
	}
}
