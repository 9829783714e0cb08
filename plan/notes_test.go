package plan_test

import (
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// The Complete note appears only when the Deployment is complete by
// DeploymentComplete's definition, in the status the sync computes. Before,
// the first sync of a new Deployment (a ReplicaSet created with 3 replicas
// and no pod yet) and the following one said "Complete: the new ReplicaSet
// … already has replicas 3".
func TestCompleteNoteOnlyWhenComplete(t *testing.T) {
	d := newDeployment("web", 3, "v1", generation(1))
	p := mustSync(t, plan.State{Deployment: d, Now: t0}, fixedHash("v1"))
	if hasNote(p, plan.NoteComplete) {
		t.Errorf("creating the first ReplicaSet: a Complete note: %v", p.Notes)
	}

	// The ReplicaSet exists with spec 3 and no pod: not complete.
	d = newDeployment("web", 3, "v1", revisionAnn(1), generation(1),
		withStatus(depStatus(1, 0, 0, 0, 0, 3)))
	rs := rsStatus(replicasAnn(newRS(d, "v1", 1, 3, at(-time.Second)), 3, 4), 0, 0, 0)
	p = mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{rs}, Now: t0}, fixedHash("v1"))
	if hasNote(p, plan.NoteComplete) || !hasNote(p, plan.NoteReplicasReached) {
		t.Errorf("a new ReplicaSet without pods: want ReplicasReached and no Complete, got %v", p.Notes)
	}

	// Its 3 pods available: complete.
	rs = rsStatus(rs, 3, 3, 3)
	p = mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{rs}, Now: t0}, fixedHash("v1"))
	if !hasNote(p, plan.NoteComplete) {
		t.Errorf("every replica updated and available: want a Complete note, got %v", p.Notes)
	}
}

// A template without a ReplicaSet and an old ReplicaSet annotated for
// another size: every sync is a scaling event that changes nothing
// (upstream's scale returns before refreshing the annotation). Before, the
// plan said ScalingEvent plus "Complete"; now it names the stale annotation.
func TestScalingEventWedgeNoteTellsWhy(t *testing.T) {
	d := newDeployment("web", 5, "v2", revisionAnn(1), generation(2),
		withStatus(depStatus(1, 5, 5, 5, 5, 0, availableCond(true, at(-time.Hour)))))
	old := rsStatus(replicasAnn(newRS(d, "v1", 1, 5, at(-time.Hour)), 3, 4), 5, 5, 5)
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old}, Now: t0}, fixedHash("v2"))
	if hasNote(p, plan.NoteComplete) {
		t.Errorf("a template without a ReplicaSet is not complete: %v", p.Notes)
	}
	if !hasNote(p, plan.NoteScalingEvent) || !hasNote(p, plan.NoteStaleDesiredAnnotation) {
		t.Errorf("want ScalingEvent and StaleDesiredAnnotation notes, got %v", p.Notes)
	}
}
