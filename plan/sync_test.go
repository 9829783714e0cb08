package plan_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

var (
	pausedCondAt = func(ts time.Time) model.DeploymentCondition {
		return progressingCond(model.ConditionUnknown, model.ReasonDeploymentPaused, "Deployment is paused", ts, ts)
	}
	completeCond = progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-v2" has successfully progressed.`, at(-time.Hour), at(-time.Hour))
)

// TestPausedSync: pausing records Progressing Unknown/DeploymentPaused (pause and resume),
// then the paused sync scales to replicas, cleans up, and writes status
// (upstream sync); it never creates a ReplicaSet for the changed template.
func TestPausedSync(t *testing.T) {
	// D 3→5 and template v3 while paused; revisionHistoryLimit 1.
	d := newDeployment("web", 5, "v3", paused(), generation(3), revisionAnn(3), historyLimit(1),
		withStatus(depStatus(2, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	v0 := newRS(d, "v0", 1, 0, at(-3*time.Hour))
	v1 := newRS(d, "v1", 2, 0, at(-2*time.Hour))
	v2 := replicasAnn(newRS(d, "v2", 3, 3, at(-time.Hour)), 3, 4)
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v0, v1, v2}, Now: t0}, fixedHash("v3"))
	checkPlan(t, p, []string{
		"UpdateDeploymentStatus web",
		"ScaleReplicaSet web-v2 replicas=5",
		"DeleteReplicaSet web-v0",
		"DeleteReplicaSet web-v1",
		"UpdateDeploymentStatus web conflict",
	}, []string{"Normal ScalingReplicaSet: Scaled up replica set web-v2 from 3 to 5"}, 4)
	if !hasNote(p, plan.NotePaused) {
		t.Errorf("no %s note: %v", plan.NotePaused, p.Notes)
	}
	pausedWrite := actionAt(t, p, 0, plan.UpdateDeploymentStatus).Deployment.Status
	want := []model.DeploymentCondition{availableCond(true, at(-time.Hour)), pausedCondAt(t0)}
	if diff := cmp.Diff(want, pausedWrite.Conditions); diff != "" {
		t.Errorf("pause write conditions (-want +got); Unknown ≠ True → new LTT (upstream SetDeploymentCondition):\n%s", diff)
	}
	scaled := actionAt(t, p, 1, plan.ScaleReplicaSet).Update
	assert.Equal(t, int32(3), scaled.FromReplicas, "scaled from")
	if a := scaled.Annotations; a[model.DesiredReplicasAnnotation] != "5" || a[model.MaxReplicasAnnotation] != "7" {
		t.Errorf("annotations desired/max = %s/%s, want 5/7 (25%% of 5 rounds up to 2)", a[model.DesiredReplicasAnnotation], a[model.MaxReplicasAnnotation])
	}
	assert.Equal(t, "uid-web-v0", p.Actions[2].Object.UID, "the UID of the ReplicaSet deleted")
	// Status from the ReplicaSets as cached: 3 pods, none updated (no new
	// RS); 3 < 5 − 1 → Available False, moved to the end; no Progressing
	// estimation while paused.
	wantSt := depStatus(3, 3, 0, 3, 3, 0, pausedCondAt(t0), availableCond(false, t0))
	if diff := cmp.Diff(&wantSt, lastStatus(t, p)); diff != "" {
		t.Errorf("final status (-want +got):\n%s", diff)
	}
}

// TestResumedSync: resuming replaces DeploymentPaused by DeploymentResumed
// (Unknown → Unknown keeps the transition time, pause and resume/upstream SetDeploymentCondition), then the rollout
// proceeds in the same sync.
func TestResumedSync(t *testing.T) {
	d := newDeployment("web", 3, "v3", generation(3), revisionAnn(2),
		withStatus(depStatus(3, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), pausedCondAt(at(-time.Hour)))))
	v2 := newRS(d, "v2", 2, 3, at(-time.Hour))
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v2}, Now: t0}, fixedHash("v3"))
	checkPlan(t, p, []string{
		"UpdateDeploymentStatus web",
		"CreateReplicaSet web-v3 replicas=1",
		"UpdateDeploymentStatus web conflict",
		"UpdateDeploymentStatus web conflict",
	}, []string{"Normal ScalingReplicaSet: Scaled up replica set web-v3 from 0 to 1"}, 2)
	resumed := actionAt(t, p, 0, plan.UpdateDeploymentStatus).Deployment.Status.Condition(model.DeploymentProgressing)
	want := progressingCond(model.ConditionUnknown, model.ReasonDeploymentResumed, "Deployment is resumed", t0, at(-time.Hour))
	if diff := cmp.Diff(&want, resumed); diff != "" {
		t.Errorf("resume condition (-want +got):\n%s", diff)
	}
}

func TestPausedKeepsTimeout(t *testing.T) {
	// pause and resume: checkPausedConditions never overwrites ProgressDeadlineExceeded.
	timedOut := progressingCond(model.ConditionFalse, model.ReasonProgressDeadlineExceeded, `ReplicaSet "web-v1" has timed out progressing.`, at(-time.Hour), at(-time.Hour))
	d := newDeployment("web", 3, "v1", paused(), generation(2), revisionAnn(1),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), timedOut)))
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 3, at(-time.Hour))}, Now: t0})
	checkPlan(t, p, []string{"UpdateDeploymentStatus web"}, nil, -1)
	if diff := cmp.Diff(&timedOut, lastStatus(t, p).Condition(model.DeploymentProgressing)); diff != "" {
		t.Errorf("Progressing (-want +got):\n%s", diff)
	}
}

func TestPausedWithPendingRollback(t *testing.T) {
	// upstream rollback (legacy rollback annotation)/upstream sync: a paused Deployment keeps the rollback request, and a
	// pending rollback suspends history cleanup.
	d := newDeployment("web", 3, "v2", paused(), revisionAnn(3), historyLimit(0), depAnn(model.RollbackToAnnotation, "1"),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), pausedCondAt(at(-time.Hour)))))
	rss := []*model.ReplicaSet{newRS(d, "v0", 1, 0, at(-3*time.Hour)), newRS(d, "v1", 2, 0, at(-2*time.Hour)), newRS(d, "v2", 3, 3, at(-time.Hour))}
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: rss, Now: t0})
	checkPlan(t, p, nil, nil, -1)
}

// TestRollback covers the legacy rollback annotation (upstream rollback (legacy rollback annotation)).
func TestRollback(t *testing.T) {
	const cause = "kubernetes.io/change-cause"
	type tc struct {
		why
		to          string
		onlyV1      bool   // no v2 ReplicaSet
		template    string // the Deployment's template version
		wantActions []string
		wantEvents  []string
		wantTmpl    string // template version of the UpdateDeployment, "" to skip
		wantAnn     map[string]string
		wantConflAt int
	}
	cases := []tc{
		{why: why{"to previous", "upstream rollback (legacy rollback annotation): revision 0 → LastRevision = 1 → v1's template and annotations, annotation cleared"},
			to: "0", template: "v2", wantActions: []string{"UpdateDeployment web"},
			wantEvents: []string{`Normal DeploymentRollback: Rolled back deployment "web" to revision 1`},
			wantTmpl:   "v1", wantAnn: map[string]string{model.RevisionAnnotation: "2", cause: "v1 cause"}, wantConflAt: -1},
		{why: why{"to explicit revision", "upstream rollback (legacy rollback annotation): revision 1 found → rolled back"},
			to: "1", template: "v2", wantActions: []string{"UpdateDeployment web"},
			wantEvents: []string{`Normal DeploymentRollback: Rolled back deployment "web" to revision 1`},
			wantTmpl:   "v1", wantAnn: map[string]string{model.RevisionAnnotation: "2", cause: "v1 cause"}, wantConflAt: -1},
		{why: why{"missing revision", "upstream rollback (legacy rollback annotation): no RS has revision 7 → warning, annotation cleared, template kept"},
			to: "7", template: "v2", wantActions: []string{"UpdateDeployment web"},
			wantEvents: []string{"Warning DeploymentRollbackRevisionNotFound: Unable to find the revision to rollback to."},
			wantTmpl:   "v2", wantAnn: map[string]string{model.RevisionAnnotation: "2", cause: "v2 cause"}, wantConflAt: -1},
		{why: why{"current template", "upstream rollback (legacy rollback annotation) rollbackToTemplate: revision 2 is the current template → warning, annotation cleared"},
			to: "2", template: "v2", wantActions: []string{"UpdateDeployment web"},
			wantEvents: []string{`Warning DeploymentRollbackTemplateUnchanged: The rollback revision contains the same template as current deployment "web"`},
			wantTmpl:   "v2", wantAnn: map[string]string{model.RevisionAnnotation: "2", cause: "v2 cause"}, wantConflAt: -1},
		{why: why{"no previous revision", "upstream rollback (legacy rollback annotation): revision 0 with a single RS → LastRevision 0 → \"Unable to find last revision.\""},
			to: "0", onlyV1: true, template: "v1", wantActions: []string{"UpdateDeployment web"},
			wantEvents: []string{"Warning DeploymentRollbackRevisionNotFound: Unable to find last revision."},
			wantTmpl:   "v1", wantAnn: map[string]string{model.RevisionAnnotation: "2", cause: "v2 cause"}, wantConflAt: -1},
		{why: why{"creates the abandoned template first", "upstream quirk (the legacy rollback creates a ReplicaSet for the abandoned template): no RS for v3 → created with min(4−3, 3) = 1, revision 3 recorded, then the rollback update conflicts"},
			to: "1", template: "v3",
			wantActions: []string{"CreateReplicaSet web-v3 replicas=1", "UpdateDeploymentStatus web", "UpdateDeployment web conflict"},
			wantEvents: []string{"Normal ScalingReplicaSet: Scaled up replica set web-v3 from 0 to 1",
				`Normal DeploymentRollback: Rolled back deployment "web" to revision 1`},
			wantTmpl: "v1", wantAnn: map[string]string{model.RevisionAnnotation: "3", cause: "v1 cause"}, wantConflAt: 2},
		{why: why{"invalid request ignored", "upstream rollback (legacy rollback annotation) getRollbackTo: an unparsable revision is ignored (and left in place); the rollout proceeds"},
			to: "abc", template: "v2", wantConflAt: -1},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 3, c.template, revisionAnn(2), depAnn(cause, "v2 cause"), depAnn(model.RollbackToAnnotation, c.to),
			withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
		v1 := rsAnn(newRS(d, "v1", 1, 0, at(-2*time.Hour)), cause, "v1 cause")
		rss := []*model.ReplicaSet{v1}
		if c.onlyV1 {
			rsAnn(v1, cause, "v2 cause")
			rsAnn(v1, model.RevisionAnnotation, "2")
			v1.Spec.Replicas = i32(3)
			rsStatus(v1, 3, 3, 3)
		} else {
			rss = append(rss, rsAnn(newRS(d, "v2", 2, 3, at(-time.Hour)), cause, "v2 cause"))
		}
		s := plan.State{Deployment: d, ReplicaSets: rss, Now: t0}
		p := mustSync(t, s, fixedHash("v3"))
		checkPlan(t, p, c.wantActions, c.wantEvents, c.wantConflAt)
		if c.wantTmpl == "" {
			for _, a := range p.Actions {
				if a.Kind == plan.UpdateDeployment {
					t.Errorf("unexpected %s", a)
				}
			}
			return
		}
		upd := p.Actions[len(p.Actions)-1]
		if upd.Kind != plan.UpdateDeployment {
			t.Fatalf("last action %s, want UpdateDeployment", upd)
		}
		// The action replaces the template only when it rolls back to
		// another one, and drops the rollback annotation.
		if c.wantTmpl == c.template {
			assert.Nil(t, upd.Deployment.Template, "template replaced")
		} else if diff := cmp.Diff(ptr(tmpl("web", c.wantTmpl)), upd.Deployment.Template); diff != "" {
			t.Errorf("template (-want +got); the pod-template-hash label is dropped:\n%s", diff)
		}
		assert.Equal(t, []string{model.RollbackToAnnotation}, upd.Deployment.RemovedAnnotations, "annotations removed")
		// The Deployment sent: its template and all its annotations.
		ws := rendered(t, s, p)
		sent := ws[len(ws)-1].Deployment
		if diff := cmp.Diff(tmpl("web", c.wantTmpl), sent.Spec.Template); diff != "" {
			t.Errorf("template sent (-want +got); the pod-template-hash label is dropped:\n%s", diff)
		}
		if diff := cmp.Diff(c.wantAnn, sent.Annotations); diff != "" {
			t.Errorf("annotations sent (-want +got):\n%s", diff)
		}
	})
}

// ex23RS is an old ReplicaSet of the cleanup table: (spec, status.replicas).
type ex23RS struct {
	spec, replicas int32
	deleting       bool
	unobserved     bool // generation > status.observedGeneration
}

func ex23ReplicaSets(d *model.Deployment, olds []ex23RS) []*model.ReplicaSet {
	var rss []*model.ReplicaSet
	for i, o := range olds {
		v := "f" + strconv.Itoa(i+1)
		rs := rsStatus(newRS(d, v, i+1, o.spec, at(time.Duration(i-10)*time.Hour)), o.replicas, o.replicas, o.replicas)
		if o.deleting {
			rs.DeletionTimestamp = model.TimePtr(at(-time.Minute))
		}
		if o.unobserved {
			rs.Generation = 2
		}
		rss = append(rss, rs)
	}
	return rss
}

// TestCleanupDeployment is upstream TestDeploymentController_cleanupDeployment through paused syncs (cleanup runs in
// every paused sync without a pending rollback, upstream sync). D=2 with surge 0; the
// new RS holds whatever the old ones do not, so scale() writes nothing.
func TestCleanupDeployment(t *testing.T) {
	type tc struct {
		why
		olds        []ex23RS
		limit       int32
		wantDeleted []string
	}
	idle := ex23RS{}
	cases := []tc{
		{why{"three idle, limit 1", "upstream TestDeploymentController_cleanupDeployment row 1: 3 − 1 = 2 deletions, lowest revisions first"},
			[]ex23RS{idle, idle, idle}, 1, []string{"web-f1", "web-f2"}},
		{why{"mixed, limit 0", "upstream TestDeploymentController_cleanupDeployment row 2: f2 (0,1), f3 (1,0), f4 (1,1) have pods → only f1"},
			[]ex23RS{idle, {replicas: 1}, {spec: 1}, {spec: 1, replicas: 1}}, 0, []string{"web-f1"}},
		{why{"two idle, limit 0", "upstream TestDeploymentController_cleanupDeployment row 3"}, []ex23RS{idle, idle}, 0, []string{"web-f1", "web-f2"}},
		{why{"two busy, limit 0", "upstream TestDeploymentController_cleanupDeployment row 4"}, []ex23RS{{spec: 1, replicas: 1}, {spec: 1, replicas: 1}}, 0, nil},
		{why{"deleting, limit 0", "upstream TestDeploymentController_cleanupDeployment row 5: an RS being deleted is not a candidate"}, []ex23RS{{deleting: true}}, 0, nil},
		{why{"unlimited", "upstream TestDeploymentController_cleanupDeployment row 6: MaxInt32 → no cleanup"}, []ex23RS{idle, idle, idle}, model.NoLimit, nil},
		{why{"unobserved skipped, not replaced", "upstream cleanupDeployment/quirk (cleanup lags and under-deletes): diff 1 examines only f1, whose spec change is unobserved; f2 is not looked at"},
			[]ex23RS{{unobserved: true}, idle}, 1, nil},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 2, "v9", rolling(intStr(0), intStr(1)), paused(), historyLimit(c.limit), revisionAnn(9),
			withStatus(depStatus(1, 2, 2, 2, 2, 0, availableCond(true, at(-time.Hour)), pausedCondAt(at(-time.Hour)))))
		rss := ex23ReplicaSets(d, c.olds)
		var oldActive int32
		for _, o := range c.olds {
			oldActive += o.spec
		}
		rss = append(rss, newRS(d, "v9", 9, 2-oldActive, at(-time.Minute)))
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: rss, Now: t0})
		var deleted []string
		for _, a := range p.Actions {
			switch a.Kind {
			case plan.DeleteReplicaSet:
				deleted = append(deleted, a.Object.Name)
			case plan.UpdateDeploymentStatus:
			default:
				t.Errorf("unexpected %s", a)
			}
		}
		if diff := cmp.Diff(c.wantDeleted, deleted); diff != "" {
			t.Errorf("deleted (-want +got):\n%s", diff)
		}
	})
}

// TestCleanupInRollingSync: a rolling sync that scales nothing cleans up only
// when the stored status already says complete (upstream rolloutRolling, upstream quirk (cleanup lags and under-deletes)).
func TestCleanupInRollingSync(t *testing.T) {
	type tc struct {
		why
		storedAvailable int32
		wantActions     []string
	}
	cases := []tc{
		{why{"complete", "upstream rolloutRolling: stored status complete → cleanup; 3 idle − limit 1 = 2 deletions; status current → no write"},
			3, []string{"DeleteReplicaSet web-f1", "DeleteReplicaSet web-f2"}},
		{why{"stored status lags", "upstream quirk (cleanup lags and under-deletes): stored available 2 ≠ 3 → no cleanup this sync, only the status write"},
			2, []string{"UpdateDeploymentStatus web"}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		prog := progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-v9" has successfully progressed.`, at(-time.Hour), at(-time.Hour))
		d := newDeployment("web", 3, "v9", historyLimit(1), revisionAnn(9),
			withStatus(depStatus(1, 3, 3, 3, c.storedAvailable, 3-c.storedAvailable, availableCond(true, at(-time.Hour)), prog)))
		rss := append(ex23ReplicaSets(d, []ex23RS{{}, {}, {}}), newRS(d, "v9", 9, 3, at(-time.Minute)))
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: rss, Now: t0})
		checkPlan(t, p, c.wantActions, nil, -1)
	})
}

func TestRollbackWithoutCreate(t *testing.T) {
	// RollbackWithoutCreate leaves upstream quirk (the legacy rollback creates a ReplicaSet for the abandoned template): no RS is created for the
	// abandoned template v3, so the rollback update is the sync's only
	// Deployment write and does not conflict.
	const cause = "kubernetes.io/change-cause"
	d := newDeployment("web", 3, "v3", revisionAnn(2), depAnn(cause, "v2 cause"), depAnn(model.RollbackToAnnotation, "1"),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	rss := []*model.ReplicaSet{
		rsAnn(newRS(d, "v1", 1, 0, at(-2*time.Hour)), cause, "v1 cause"),
		rsAnn(newRS(d, "v2", 2, 3, at(-time.Hour)), cause, "v2 cause"),
	}
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: rss, Now: t0}, plan.RollbackWithoutCreate(), fixedHash("v3"))
	checkPlan(t, p, []string{"UpdateDeployment web"}, []string{`Normal DeploymentRollback: Rolled back deployment "web" to revision 1`}, -1)
	upd := p.Actions[0].Deployment
	if diff := cmp.Diff(ptr(tmpl("web", "v1")), upd.Template); diff != "" {
		t.Errorf("template (-want +got):\n%s", diff)
	}
	// v1's change-cause replaces v2's; the rollback annotation goes.
	if diff := cmp.Diff(map[string]string{cause: "v1 cause"}, upd.Annotations); diff != "" {
		t.Errorf("annotations changed (-want +got):\n%s", diff)
	}
	assert.Equal(t, []string{model.RollbackToAnnotation}, upd.RemovedAnnotations, "annotations removed")
}
