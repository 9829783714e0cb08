package render_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// fixture is the State the hand-written plans below are rendered against:
// Deployment web (10 replicas, revision 2, a change-cause and a legacy
// rollback request), its old ReplicaSet web-v1 (10), its new one web-v2 (3),
// an orphan web-v0 and a bare ReplicaSet web-x without annotations.
func fixture() plan.State {
	d := newDeployment("web", 10, "v2", generation(3), revisionAnn(2),
		withStatus(depStatus(2, 13, 3, 13, 13, 0, availableCond(at(-time.Hour)))))
	d.ResourceVersion = "rv-web"
	d.Annotations[model.ChangeCauseAnnotation] = "image v2"
	d.Annotations[model.RollbackToAnnotation] = "1"
	orphan := newRS(d, "v0", 0, 0, at(-3*time.Hour))
	orphan.OwnerReferences = nil
	bare := bareRS("web-x", 1, 1, at(-4*time.Hour))
	return plan.State{
		Deployment: d,
		ReplicaSets: []*model.ReplicaSet{
			newRS(d, "v1", 1, 10, at(-2*time.Hour)),
			newRS(d, "v2", 2, 3, at(-time.Minute)),
			orphan,
			bare,
		},
		Now: t0,
	}
}

// because is a reason with one value, to see reasons carried over.
func because(code plan.ReasonCode) plan.Reason {
	return plan.Reason{Code: code, Message: string(code) + " for a test", Values: []plan.Value{{Name: "n", Value: 7}}}
}

func ref(name string) plan.ObjectRef {
	return plan.ObjectRef{Namespace: ns, Name: name, UID: "uid-" + name, ResourceVersion: "rv-" + name}
}

// TestWrites renders hand-written plans and compares each write with the
// object upstream sends, built here from the State's object by hand.
func TestWrites(t *testing.T) {
	s := fixture()
	d := s.Deployment
	v1, v2, x := s.ReplicaSets[0], s.ReplicaSets[1], s.ReplicaSets[3]
	controller := model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web", "uid-web")

	// A ReplicaSet as the planner creates it: no UID, no resourceVersion,
	// no status.
	created := newRS(d, "v3", 3, 0, time.Time{})
	created.UID, created.ResourceVersion, created.Status = "", "", model.ReplicaSetStatus{}

	// The expected objects: the State's object with exactly the changes
	// each action describes.
	v1ScaledTo8 := v1.DeepCopy()
	v1ScaledTo8.Spec.Replicas = i32(8)

	v2ScaledUp := v2.DeepCopy()
	v2ScaledUp.Spec.Replicas = i32(13)
	v2ScaledUp.Annotations[model.DesiredReplicasAnnotation] = "13"
	v2ScaledUp.Annotations[model.MaxReplicasAnnotation] = "17"

	v2Updated := v2.DeepCopy()
	v2Updated.Spec.MinReadySeconds = 30
	v2Updated.Annotations[model.RevisionAnnotation] = "4"
	v2Updated.Annotations[model.ChangeCauseAnnotation] = "image v2"

	xAnnotated := x.DeepCopy()
	xAnnotated.Annotations = map[string]string{model.RevisionAnnotation: "5"}

	v1FirstWrite := v1.DeepCopy()
	v1FirstWrite.Spec.Replicas = i32(8)
	v1FirstWrite.Annotations[model.DesiredReplicasAnnotation] = "12"
	v1SecondWrite := v1.DeepCopy() // built on the State's copy: desired stays 10
	v1SecondWrite.Spec.Replicas = i32(6)

	createdScaled := created.DeepCopy()
	createdScaled.Spec.Replicas = i32(3)
	createdScaled.Annotations[model.ChangeCauseAnnotation] = "image v2"

	newStatus := depStatus(3, 13, 3, 13, 13, 0, availableCond(at(-time.Hour)))
	dStatus := d.DeepCopy()
	dStatus.Annotations[model.RevisionAnnotation] = "3"
	dStatus.Status = newStatus.DeepCopy()

	dRolledBack := d.DeepCopy()
	delete(dRolledBack.Annotations, model.RollbackToAnnotation)
	dRolledBack.Spec.Template = tmpl("web", "v1")

	dStripped := d.DeepCopy()
	dStripped.Annotations = map[string]string{model.RevisionAnnotation: "4"}

	type tc struct {
		why
		actions []plan.Action
		want    []render.Write
	}
	cases := []tc{
		{why: why{"create", "CreateReplicaSet: upstream sends the new ReplicaSet as planned"},
			actions: []plan.Action{{Kind: plan.CreateReplicaSet, Object: plan.ObjectRef{Namespace: ns, Name: "web-v3"}, ReplicaSet: created, Reason: because(plan.ReasonCreateNewReplicaSet)}},
			want:    []render.Write{{Kind: render.CreateReplicaSet, Namespace: ns, Name: "web-v3", ReplicaSet: created, Reason: because(plan.ReasonCreateNewReplicaSet)}}},
		{why: why{"scale", "ScaleReplicaSet: upstream updates its cached ReplicaSet with spec.replicas changed, nothing else"},
			actions: []plan.Action{{Kind: plan.ScaleReplicaSet, Object: ref("web-v1"), Update: &plan.ReplicaSetUpdate{FromReplicas: 10, Replicas: 8}, Reason: because(plan.ReasonScaleDownOld)}},
			want:    []render.Write{{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-v1", ReplicaSet: v1ScaledTo8, Reason: because(plan.ReasonScaleDownOld)}}},
		{why: why{"scale with replica annotations", "upstream scaleReplicaSet sets desired-replicas and max-replicas with the size"},
			actions: []plan.Action{{Kind: plan.ScaleReplicaSet, Object: ref("web-v2"), Reason: because(plan.ReasonScaleUpNew),
				Update: &plan.ReplicaSetUpdate{FromReplicas: 3, Replicas: 13, Annotations: map[string]string{model.DesiredReplicasAnnotation: "13", model.MaxReplicasAnnotation: "17"}}}},
			want: []render.Write{{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-v2", ReplicaSet: v2ScaledUp, Reason: because(plan.ReasonScaleUpNew)}}},
		{why: why{"update of annotations and minReadySeconds", "upstream getNewReplicaSet: the new ReplicaSet catches up with the revision, the Deployment's annotations and minReadySeconds, its size unchanged"},
			actions: []plan.Action{{Kind: plan.UpdateReplicaSet, Object: ref("web-v2"), Reason: because(plan.ReasonSyncNewReplicaSet),
				Update: &plan.ReplicaSetUpdate{FromReplicas: 3, Replicas: 3, MinReadySeconds: i32(30),
					Annotations: map[string]string{model.RevisionAnnotation: "4", model.ChangeCauseAnnotation: "image v2"}}}},
			want: []render.Write{{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-v2", ReplicaSet: v2Updated, Reason: because(plan.ReasonSyncNewReplicaSet)}}},
		{why: why{"update of a ReplicaSet without annotations", "the annotations written land in a new map on an object that had none"},
			actions: []plan.Action{{Kind: plan.UpdateReplicaSet, Object: ref("web-x"), Update: &plan.ReplicaSetUpdate{FromReplicas: 1, Replicas: 1, Annotations: map[string]string{model.RevisionAnnotation: "5"}}}},
			want:    []render.Write{{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-x", ReplicaSet: xAnnotated}}},
		{why: why{"delete", "upstream cleanupDeployment deletes by name with the UID as precondition"},
			actions: []plan.Action{{Kind: plan.DeleteReplicaSet, Object: ref("web-v0"), Reason: because(plan.ReasonHistoryLimit)}},
			want:    []render.Write{{Kind: render.DeleteReplicaSet, Namespace: ns, Name: "web-v0", UID: "uid-web-v0", Reason: because(plan.ReasonHistoryLimit)}}},
		{why: why{"adopt", "upstream ClaimReplicaSets: a patch adding the controller reference, with the orphan's UID as precondition"},
			actions: []plan.Action{{Kind: plan.AdoptReplicaSet, Object: ref("web-v0"), OwnerReference: &controller, Reason: because(plan.ReasonAdopt)}},
			want:    []render.Write{{Kind: render.AdoptReplicaSet, Namespace: ns, Name: "web-v0", UID: "uid-web-v0", OwnerReference: &controller, Reason: because(plan.ReasonAdopt)}}},
		{why: why{"release", "upstream ClaimReplicaSets: a patch removing the reference of that UID, with the ReplicaSet's UID as precondition"},
			actions: []plan.Action{{Kind: plan.ReleaseReplicaSet, Object: ref("web-v1"), OwnerReference: &model.OwnerReference{UID: "uid-web"}, Reason: because(plan.ReasonRelease)}},
			want:    []render.Write{{Kind: render.ReleaseReplicaSet, Namespace: ns, Name: "web-v1", UID: "uid-web-v1", OwnerReference: &model.OwnerReference{UID: "uid-web"}, Reason: because(plan.ReasonRelease)}}},
		{why: why{"status", "UpdateDeploymentStatus: the State's Deployment with the annotations written and the whole status replaced"},
			actions: []plan.Action{{Kind: plan.UpdateDeploymentStatus, Object: ref("web"), Reason: because(plan.ReasonStatus),
				Deployment: &plan.DeploymentUpdate{Annotations: map[string]string{model.RevisionAnnotation: "3"}, Status: &newStatus}}},
			want: []render.Write{{Kind: render.UpdateDeploymentStatus, Namespace: ns, Name: "web", Deployment: dStatus, Reason: because(plan.ReasonStatus)}}},
		{why: why{"rollback", "upstream rollback: the template of the revision rolled back to, the rollback annotation removed, the rest of the Deployment as cached"},
			actions: []plan.Action{{Kind: plan.UpdateDeployment, Object: ref("web"), Reason: because(plan.ReasonRollback),
				Deployment: &plan.DeploymentUpdate{RemovedAnnotations: []string{model.RollbackToAnnotation}, Template: new(tmpl("web", "v1")), Status: new(d.Status)}}},
			want: []render.Write{{Kind: render.UpdateDeployment, Namespace: ns, Name: "web", Deployment: dRolledBack, Reason: because(plan.ReasonRollback)}}},
		{why: why{"annotations removed from the Deployment", "DeploymentUpdate: removed annotations go, then the written ones are set"},
			actions: []plan.Action{{Kind: plan.UpdateDeploymentStatus, Object: ref("web"),
				Deployment: &plan.DeploymentUpdate{Annotations: map[string]string{model.RevisionAnnotation: "4"},
					RemovedAnnotations: []string{model.ChangeCauseAnnotation, model.RollbackToAnnotation}, Status: new(d.Status)}}},
			want: []render.Write{{Kind: render.UpdateDeploymentStatus, Namespace: ns, Name: "web", Deployment: dStripped}}},
		{why: why{"a ReplicaSet written twice", "upstream writes from its cached copy: the second write of web-v1 is built on the State's object, not on the first write, and conflicts"},
			actions: []plan.Action{
				{Kind: plan.ScaleReplicaSet, Object: ref("web-v1"), Update: &plan.ReplicaSetUpdate{FromReplicas: 10, Replicas: 8, Annotations: map[string]string{model.DesiredReplicasAnnotation: "12"}}},
				{Kind: plan.ScaleReplicaSet, Object: ref("web-v1"), Update: &plan.ReplicaSetUpdate{FromReplicas: 10, Replicas: 6}, Conflict: true},
			},
			want: []render.Write{
				{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-v1", ReplicaSet: v1FirstWrite},
				{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-v1", ReplicaSet: v1SecondWrite, Conflict: true},
			}},
		{why: why{"an update of a ReplicaSet the plan creates", "Writes doc: an update of a ReplicaSet created earlier in the plan applies to the created object, which the create's write keeps as it was"},
			actions: []plan.Action{
				{Kind: plan.CreateReplicaSet, Object: plan.ObjectRef{Namespace: ns, Name: "web-v3"}, ReplicaSet: created},
				{Kind: plan.ScaleReplicaSet, Object: plan.ObjectRef{Namespace: ns, Name: "web-v3"},
					Update: &plan.ReplicaSetUpdate{FromReplicas: 0, Replicas: 3, Annotations: map[string]string{model.ChangeCauseAnnotation: "image v2"}}},
			},
			want: []render.Write{
				{Kind: render.CreateReplicaSet, Namespace: ns, Name: "web-v3", ReplicaSet: created},
				{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-v3", ReplicaSet: createdScaled},
			}},
		{why: why{"conflict and invalid carried", "Write doc: Conflict and Invalid are the action's, so render.Accepted ends where Plan.Accepted does"},
			actions: []plan.Action{{Kind: plan.ScaleReplicaSet, Object: ref("web-v1"), Update: &plan.ReplicaSetUpdate{FromReplicas: 10, Replicas: 8},
				Invalid: `ReplicaSet.apps "web-v1" is invalid`}},
			want: []render.Write{{Kind: render.UpdateReplicaSet, Namespace: ns, Name: "web-v1", ReplicaSet: v1ScaledTo8, Invalid: `ReplicaSet.apps "web-v1" is invalid`}}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		p := plan.Plan{Actions: c.actions}
		stateBefore, planBefore := mustJSON(t, s), mustJSON(t, p)
		got, err := render.Writes(s, p)
		require.NoError(t, err)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Writes (-want +got):\n%s", diff)
		}
		assert.Equal(t, stateBefore, mustJSON(t, s), "Writes modified the State")
		assert.Equal(t, planBefore, mustJSON(t, p), "Writes modified the Plan")
	})
}

// Writes fails, and renders nothing, when the plan was not made from the
// State or an action lacks the payload its kind names.
func TestWritesErrors(t *testing.T) {
	scale := func(name string) plan.Action {
		return plan.Action{Kind: plan.ScaleReplicaSet, Object: ref(name), Update: &plan.ReplicaSetUpdate{FromReplicas: 10, Replicas: 8}}
	}
	status := plan.Action{Kind: plan.UpdateDeploymentStatus, Object: ref("web"), Deployment: &plan.DeploymentUpdate{Status: &model.DeploymentStatus{}}}
	type tc struct {
		why
		state   func(*plan.State)
		actions []plan.Action
		want    string
	}
	cases := []tc{
		{why: why{"ReplicaSet not in the State", "Writes doc: an update names a ReplicaSet the State must hold"},
			actions: []plan.Action{scale("web-v1"), scale("web-z")},
			want:    "render: action 1 (ScaleReplicaSet default/web-z) names a ReplicaSet the State does not hold"},
		{why: why{"ReplicaSet of another namespace", "a ReplicaSet is found by namespace and name"},
			actions: []plan.Action{{Kind: plan.UpdateReplicaSet, Object: plan.ObjectRef{Namespace: "other", Name: "web-v1"}, Update: &plan.ReplicaSetUpdate{}}},
			want:    "render: action 0 (UpdateReplicaSet other/web-v1) names a ReplicaSet the State does not hold"},
		{why: why{"created under another name", "only a ReplicaSet the plan creates under that name is a base for an update"},
			actions: []plan.Action{{Kind: plan.CreateReplicaSet, Object: plan.ObjectRef{Namespace: ns, Name: "web-v3"}, ReplicaSet: newRS(fixture().Deployment, "v3", 3, 0, t0)}, scale("web-v4")},
			want:    "render: action 1 (ScaleReplicaSet default/web-v4) names a ReplicaSet the State does not hold"},
		{why: why{"another Deployment", "a Deployment write applies to the State's Deployment only"},
			actions: []plan.Action{{Kind: plan.UpdateDeploymentStatus, Object: plan.ObjectRef{Namespace: ns, Name: "api"}, Deployment: &plan.DeploymentUpdate{}}},
			want:    "render: action 0 (UpdateDeploymentStatus default/api) names a Deployment other than the State's"},
		{why: why{"Deployment of another namespace", "the Deployment is matched by namespace and name"},
			actions: []plan.Action{{Kind: plan.UpdateDeployment, Object: plan.ObjectRef{Namespace: "other", Name: "web"}, Deployment: &plan.DeploymentUpdate{}}},
			want:    "render: action 0 (UpdateDeployment other/web) names a Deployment other than the State's"},
		{why: why{"State without a Deployment", "a Deployment write needs the State's Deployment as its base"},
			state:   func(s *plan.State) { s.Deployment = nil },
			actions: []plan.Action{status},
			want:    "render: action 0 (UpdateDeploymentStatus default/web) names a Deployment other than the State's"},
		{why: why{"create without replicaSet", "Action doc: CreateReplicaSet carries the new ReplicaSet"},
			actions: []plan.Action{{Kind: plan.CreateReplicaSet, Object: plan.ObjectRef{Namespace: ns, Name: "web-v3"}}},
			want:    "render: action 0 (CreateReplicaSet default/web-v3) has no replicaSet"},
		{why: why{"scale without update", "Action doc: ScaleReplicaSet carries an Update"},
			actions: []plan.Action{{Kind: plan.ScaleReplicaSet, Object: ref("web-v1")}},
			want:    "render: action 0 (ScaleReplicaSet default/web-v1) has no update"},
		{why: why{"update without update", "Action doc: UpdateReplicaSet carries an Update"},
			actions: []plan.Action{{Kind: plan.UpdateReplicaSet, Object: ref("web-v2")}},
			want:    "render: action 0 (UpdateReplicaSet default/web-v2) has no update"},
		{why: why{"adopt without ownerReference", "Action doc: AdoptReplicaSet carries the reference added"},
			actions: []plan.Action{{Kind: plan.AdoptReplicaSet, Object: ref("web-v0")}},
			want:    "render: action 0 (AdoptReplicaSet default/web-v0) has no ownerReference"},
		{why: why{"release without ownerReference", "Action doc: ReleaseReplicaSet carries the reference removed"},
			actions: []plan.Action{{Kind: plan.ReleaseReplicaSet, Object: ref("web-v1")}},
			want:    "render: action 0 (ReleaseReplicaSet default/web-v1) has no ownerReference"},
		{why: why{"status without deployment", "Action doc: UpdateDeploymentStatus carries a DeploymentUpdate"},
			actions: []plan.Action{{Kind: plan.UpdateDeploymentStatus, Object: ref("web")}},
			want:    "render: action 0 (UpdateDeploymentStatus default/web) has no deployment"},
		{why: why{"rollback without deployment", "Action doc: UpdateDeployment carries a DeploymentUpdate"},
			actions: []plan.Action{status, {Kind: plan.UpdateDeployment, Object: ref("web")}},
			want:    "render: action 1 (UpdateDeployment default/web) has no deployment"},
		{why: why{"unknown kind", "only the kinds plan declares render"},
			actions: []plan.Action{{Kind: "PatchReplicaSet", Object: ref("web-v1")}},
			want:    "render: action 0 (PatchReplicaSet default/web-v1) has an unknown kind"},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		s := fixture()
		if c.state != nil {
			c.state(&s)
		}
		got, err := render.Writes(s, plan.Plan{Actions: c.actions})
		require.EqualError(t, err, c.want)
		assert.Nil(t, got)
	})
}

// The zero Plan renders to no writes.
func TestWritesOfNothing(t *testing.T) {
	got, err := render.Writes(fixture(), plan.Plan{})
	require.NoError(t, err)
	assert.Nil(t, got)
	got, err = render.Writes(plan.State{}, plan.Plan{Notes: []plan.Reason{because(plan.NoteComplete)}})
	require.NoError(t, err)
	assert.Nil(t, got)
}

// Writes share nothing with the State or the Plan: an adapter may change
// every map, slice and pointer of a write (the client-go habit of editing
// the object before sending it) without touching either.
func TestWritesShareNothing(t *testing.T) {
	d := newDeployment("web", 10, "v2", generation(2), revisionAnn(1),
		withStatus(depStatus(1, 10, 10, 10, 10, 0, availableCond(at(-time.Hour)), completeCond)))
	orphan := newRS(d, "v0", 0, 0, at(-3*time.Hour))
	orphan.OwnerReferences = nil
	delete(orphan.Annotations, model.RevisionAnnotation)
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 10, at(-2*time.Hour)), orphan}, Now: t0}
	p := mustSync(t, s, fixedHash("v2"))
	kinds := map[render.Kind]bool{}
	stateBefore, planBefore := mustJSON(t, s), mustJSON(t, p)
	for _, w := range mustRender(t, s, p) {
		kinds[w.Kind] = true
		scribble(w)
	}
	for _, k := range []render.Kind{render.CreateReplicaSet, render.UpdateReplicaSet, render.AdoptReplicaSet, render.UpdateDeploymentStatus} {
		require.True(t, kinds[k], "the plan has no %s write to change", k)
	}
	assert.Equal(t, stateBefore, mustJSON(t, s), "changing the writes changed the State")
	assert.Equal(t, planBefore, mustJSON(t, p), "changing the writes changed the Plan")
}

// scribble changes every map, slice and pointed-to value of w.
func scribble(w render.Write) {
	if len(w.Reason.Values) > 0 {
		w.Reason.Values[0].Value = -1
	}
	if ref := w.OwnerReference; ref != nil {
		ref.UID = "scribbled"
	}
	set := func(m map[string]string) {
		if m != nil {
			m["scribbled"] = "yes"
		}
	}
	meta := func(m *model.ObjectMeta) {
		set(m.Annotations)
		set(m.Labels)
		for i := range m.OwnerReferences {
			m.OwnerReferences[i].UID = "scribbled"
		}
	}
	if rs := w.ReplicaSet; rs != nil {
		meta(&rs.ObjectMeta)
		*rs.Spec.Replicas = -1
		set(rs.Spec.Selector.MatchLabels)
		set(rs.Spec.Template.Labels)
	}
	if d := w.Deployment; d != nil {
		meta(&d.ObjectMeta)
		*d.Spec.Replicas = -1
		set(d.Spec.Selector.MatchLabels)
		set(d.Spec.Template.Labels)
		for i := range d.Status.Conditions {
			d.Status.Conditions[i].Message = "scribbled"
		}
		if d.Status.CollisionCount != nil {
			*d.Status.CollisionCount = -1
		}
	}
}

func TestAccepted(t *testing.T) {
	ok := render.Write{Kind: render.UpdateReplicaSet, Name: "a"}
	conflict := render.Write{Kind: render.UpdateDeploymentStatus, Name: "web", Conflict: true}
	invalid := render.Write{Kind: render.UpdateReplicaSet, Name: "b", Invalid: "spec.replicas: Invalid value: -1"}
	assert.False(t, ok.Rejected())
	assert.True(t, conflict.Rejected())
	assert.True(t, invalid.Rejected())
	assert.Equal(t, []render.Write{ok, ok}, render.Accepted([]render.Write{ok, ok}), "no rejected write: all")
	assert.Equal(t, []render.Write{ok}, render.Accepted([]render.Write{ok, conflict, ok}), "up to the first conflict")
	assert.Equal(t, []render.Write{}, render.Accepted([]render.Write{invalid, ok}), "an invalid first write: none")
	assert.Nil(t, render.Accepted(nil))
}

// The accepted writes of a real plan are the rendering of its accepted
// actions, one for one.
func TestAcceptedFollowsPlan(t *testing.T) {
	d := newDeployment("web", 10, "v2", generation(2), revisionAnn(1),
		withStatus(depStatus(1, 10, 10, 10, 10, 0, availableCond(at(-time.Hour)), completeCond)))
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 10, at(-2*time.Hour))}, Now: t0}
	p := mustSync(t, s, fixedHash("v2"))
	i, rejected := p.Rejected()
	require.True(t, rejected, "the first sync of a rollout writes the Deployment twice")
	ws := mustRender(t, s, p)
	require.Len(t, ws, len(p.Actions))
	assert.Len(t, render.Accepted(ws), i)
	assert.Len(t, render.Accepted(ws), len(p.Accepted()))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
