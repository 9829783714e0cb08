package plan_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

func TestOldPodsRunning(t *testing.T) {
	d := newDeployment("web", 3, "v3", recreate())
	rsA := rsStatus(newRS(d, "v1", 1, 0, at(-2*time.Hour)), 0, 0, 0)
	rsB := rsStatus(newRS(d, "v2", 2, 0, at(-time.Hour)), 0, 0, 0)
	rsC := rsStatus(newRS(d, "v0", 0, 0, at(-3*time.Hour)), 0, 0, 0)
	newOne := rsStatus(newRS(d, "v3", 3, 3, t0), 3, 3, 3)
	pod := func(name string, owner *model.ReplicaSet, phase model.PodPhase) *model.Pod {
		return newPod(name, owner, phase, false)
	}
	type tc struct {
		why
		newRS *model.ReplicaSet
		old   []*model.ReplicaSet
		pods  map[string][]*model.Pod
		want  bool
	}
	cases := []tc{
		{why: why{"no old RSs", "upstream TestOldPodsRunning row 1: nothing → false"}},
		{why: why{"pods of two RSs", "upstream TestOldPodsRunning row 2: 2 pods each, phase \"\" counts as running"},
			old: []*model.ReplicaSet{rsA, rsB},
			pods: map[string][]*model.Pod{
				rsA.UID: {pod("a1", rsA, ""), pod("a2", rsA, "")},
				rsB.UID: {pod("b1", rsB, ""), pod("b2", rsB, "")},
			}, want: true},
		{why: why{"status reports a replica", "upstream TestOldPodsRunning row 3: status.replicas 1, no pods → true"},
			old: []*model.ReplicaSet{rsStatus(newRS(d, "v1", 1, 0, at(-time.Hour)), 1, 1, 1)}, want: true},
		{why: why{"status zero, no pods", "upstream TestOldPodsRunning row 4"}, old: []*model.ReplicaSet{rsA}, pods: map[string][]*model.Pod{rsA.UID: {}}},
		{why: why{"only terminal pods", "upstream TestOldPodsRunning row 5: Failed and Succeeded do not count"},
			old: []*model.ReplicaSet{rsA}, pods: map[string][]*model.Pod{rsA.UID: {pod("f", rsA, model.PodFailed), pod("s", rsA, model.PodSucceeded)}}},
		{why: why{"unknown phase", "upstream TestOldPodsRunning row 6"}, old: []*model.ReplicaSet{rsA},
			pods: map[string][]*model.Pod{rsA.UID: {pod("u", rsA, model.PodUnknown)}}, want: true},
		{why: why{"pending", "upstream TestOldPodsRunning row 7"}, old: []*model.ReplicaSet{rsA},
			pods: map[string][]*model.Pod{rsA.UID: {pod("p", rsA, model.PodPending)}}, want: true},
		{why: why{"running", "upstream TestOldPodsRunning row 8"}, old: []*model.ReplicaSet{rsA},
			pods: map[string][]*model.Pod{rsA.UID: {pod("r", rsA, model.PodRunning)}}, want: true},
		{why: why{"mixed RSs", "upstream TestOldPodsRunning row 9: Failed+Succeeded; an empty list; Pending → true"},
			old: []*model.ReplicaSet{rsA, rsB, rsC},
			pods: map[string][]*model.Pod{
				rsA.UID: {pod("f", rsA, model.PodFailed), pod("s", rsA, model.PodSucceeded)},
				rsB.UID: {},
				rsC.UID: {pod("p", rsC, model.PodPending)},
			}, want: true},
		{why: why{"terminating pod counts", "upstream oldPodsRunning: a Running pod with a deletion timestamp still blocks"},
			old: []*model.ReplicaSet{rsA}, pods: map[string][]*model.Pod{rsA.UID: {newPod("t", rsA, model.PodRunning, true)}}, want: true},
		{why: why{"new RS pods ignored", "upstream oldPodsRunning: the new RS's own pods are skipped"},
			newRS: newOne, old: []*model.ReplicaSet{rsA},
			pods: map[string][]*model.Pod{rsA.UID: {}, newOne.UID: {pod("n", newOne, model.PodRunning)}}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		got, why := plan.OldPodsRunning(c.newRS, c.old, c.pods)
		if got != c.want {
			t.Errorf("OldPodsRunning = %v, want %v", got, c.want)
		}
		if got && why.Code != plan.NoteOldPodsRunning {
			t.Errorf("reason code = %q, want %q", why.Code, plan.NoteOldPodsRunning)
		}
	})
}

// TestRecreateWalkthrough replays a worked Recreate rollout: D=3, old RS with 3 available
// pods, the template changes.
func TestRecreateWalkthrough(t *testing.T) {
	hashV2 := fixedHash("v2")
	complete := progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-v1" has successfully progressed.`, at(-time.Hour), at(-time.Hour))
	d := newDeployment("web", 3, "v2", recreate(), generation(2), revisionAnn(1),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), complete)))
	v1 := newRS(d, "v1", 1, 3, at(-2*time.Hour))
	pods := []*model.Pod{
		newPod("web-v1-a", v1, model.PodRunning, false),
		newPod("web-v1-b", v1, model.PodRunning, false),
		newPod("web-v1-c", v1, model.PodRunning, false),
	}

	// Sync 1: every old pod is stopped first.
	s1 := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1}, Pods: pods, Now: t0}
	p1 := mustSync(t, s1, hashV2)
	checkPlan(t, p1, []string{"ScaleReplicaSet web-v1 replicas=0", "UpdateDeploymentStatus web"},
		[]string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 3 to 0"}, -1)
	// The annotations already say 3/3, so the scale changes none; the
	// ReplicaSet sent carries them.
	assert.Empty(t, actionAt(t, p1, 0, plan.ScaleReplicaSet).Update.Annotations, "annotations changed by the scale")
	if got := rendered(t, s1, p1)[0].ReplicaSet.Annotations; got[model.DesiredReplicasAnnotation] != "3" || got[model.MaxReplicasAnnotation] != "3" {
		t.Errorf("Recreate annotations desired/max = %v, want 3/3 (upstream scaleDownOldReplicaSetsForRecreate/scaleUpNewReplicaSetForRecreate: surge 0)", got)
	}
	st1 := lastStatus(t, p1)
	if diff := cmp.Diff(depStatus(2, 3, 0, 3, 3, 0, availableCond(true, at(-time.Hour)), complete), *st1); diff != "" {
		t.Errorf("sync 1 status (-want +got); statuses from before the write, Progressing untouched:\n%s", diff)
	}

	// Sync 2: the old RS reports no pods, but they still run, terminating.
	d2 := lastStatusWrite(t, s1, p1)
	v1b := rsStatus(newRS(d, "v1", 1, 0, at(-2*time.Hour)), 0, 0, 0)
	terminating := []*model.Pod{
		newPod("web-v1-a", v1b, model.PodRunning, true),
		newPod("web-v1-b", v1b, model.PodRunning, true),
		newPod("web-v1-c", v1b, model.PodSucceeded, true),
	}
	now2 := at(10 * time.Second)
	s2 := plan.State{Deployment: d2, ReplicaSets: []*model.ReplicaSet{v1b}, Pods: terminating, Now: now2}
	p2 := mustSync(t, s2, hashV2)
	checkPlan(t, p2, []string{"UpdateDeploymentStatus web"}, nil, -1)
	if !hasNote(p2, plan.NoteOldPodsRunning) {
		t.Errorf("no %s note: %v", plan.NoteOldPodsRunning, p2.Notes)
	}
	st2 := *lastStatus(t, p2)
	// Recreate needs all 3 available (maxUnavailable 0); replicas = updated =
	// 0 with NewReplicaSetAvailable stored is "complete", so no estimation.
	if diff := cmp.Diff(depStatus(2, 0, 0, 0, 0, 0, complete, availableCond(false, now2)), st2); diff != "" {
		t.Errorf("sync 2 status (-want +got):\n%s", diff)
	}

	// Sync 3: the pods are gone: create the new RS with D at once, record
	// the revision, and the final status write conflicts.
	d3 := lastStatusWrite(t, s2, p2)
	now3 := at(20 * time.Second)
	p3 := mustSync(t, plan.State{Deployment: d3, ReplicaSets: []*model.ReplicaSet{v1b}, Now: now3}, hashV2)
	checkPlan(t, p3, []string{
		"CreateReplicaSet web-v2 replicas=3",
		"UpdateDeploymentStatus web",
		"UpdateDeploymentStatus web conflict",
	}, []string{"Normal ScalingReplicaSet: Scaled up replica set web-v2 from 0 to 3"}, 2)
	created := actionAt(t, p3, 0, plan.CreateReplicaSet).ReplicaSet
	if got := created.Annotations; got[model.RevisionAnnotation] != "2" || got[model.DesiredReplicasAnnotation] != "3" || got[model.MaxReplicasAnnotation] != "3" {
		t.Errorf("created annotations = %v, want revision 2, desired 3, max 3", got)
	}
	rev := actionAt(t, p3, 1, plan.UpdateDeploymentStatus).Deployment
	want := progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetCreated, `Created new replica set "web-v2"`, now3, at(-time.Hour))
	if diff := cmp.Diff(&want, rev.Status.Condition(model.DeploymentProgressing)); diff != "" {
		t.Errorf("Progressing after create (-want +got):\n%s", diff)
	}
	if rev.Annotations[model.RevisionAnnotation] != "2" {
		t.Errorf("revision annotation = %q, want 2", rev.Annotations[model.RevisionAnnotation])
	}
}

func TestRecreateScalesUpExistingNewReplicaSet(t *testing.T) {
	// upstream rolloutRecreate: once no old pod runs, an existing new RS is scaled to D
	// (scaleUpNewReplicaSetForRecreate), and the status follows.
	d := newDeployment("web", 3, "v2", recreate(), revisionAnn(2),
		withStatus(depStatus(1, 0, 0, 0, 0, 0, availableCond(false, at(-time.Hour)),
			progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetCreated, `Created new replica set "web-v2"`, at(-time.Hour), at(-time.Hour)))))
	v1 := rsStatus(newRS(d, "v1", 1, 0, at(-2*time.Hour)), 0, 0, 0)
	v2 := rsStatus(newRS(d, "v2", 2, 0, at(-time.Hour)), 0, 0, 0)
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1, v2},
		Pods: []*model.Pod{newPod("gone", v1, model.PodSucceeded, true)}, Now: t0})
	checkPlan(t, p, []string{"ScaleReplicaSet web-v2 replicas=3", "UpdateDeploymentStatus web"},
		[]string{"Normal ScalingReplicaSet: Scaled up replica set web-v2 from 0 to 3"}, -1)
}

func TestRecreateStopsAfterScaleDown(t *testing.T) {
	// upstream rolloutRecreate: a sync that scaled old RSs down ends with the status, even when
	// no old pod exists yet (status 0, no pods): the new RS waits for the
	// next sync.
	d := newDeployment("web", 3, "v2", recreate(), generation(2), revisionAnn(1),
		withStatus(depStatus(1, 0, 0, 0, 0, 2, availableCond(false, at(-time.Hour)), completeCond)))
	v1 := rsStatus(newRS(d, "v1", 1, 2, at(-time.Hour)), 0, 0, 0)
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1}, Now: t0}, fixedHash("v2"))
	checkPlan(t, p, []string{"ScaleReplicaSet web-v1 replicas=0", "UpdateDeploymentStatus web"},
		[]string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 2 to 0"}, -1)
}
