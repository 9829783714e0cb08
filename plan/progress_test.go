package plan_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// testTime is the clock of the upstream progress tests (progress_test.go).
var testTime = time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)

// TestRequeueStuckDeployment reproduces upstream TestRequeueStuckDeployment through whole syncs: a
// Deployment of 3 whose new ReplicaSet has 3 pods, 1 available, stored status
// already current, so syncRolloutStatus writes nothing and schedules the
// progress check (upstream requeueStuckDeployment).
func TestRequeueStuckDeployment(t *testing.T) {
	stuck := progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v1" is progressing.`, testTime, testTime)
	type tc struct {
		why
		deadline    *int32
		progressing *model.DeploymentCondition // stored Progressing, nil for none
		available   int32
		now         time.Time
		wantActions []string
		want        plan.Requeue
	}
	cases := []tc{
		{why: why{"nil deadline", "upstream TestRequeueStuckDeployment row 1: no deadline → −1 (nothing scheduled)"},
			deadline: nil, available: 1, now: testTime.Add(30 * time.Second)},
		{why: why{"deadline MaxInt32", "upstream TestRequeueStuckDeployment row 2: MaxInt32 means no deadline"},
			deadline: i32(model.NoLimit), available: 1, now: testTime.Add(30 * time.Second)},
		{why: why{"no Progressing condition", "upstream TestRequeueStuckDeployment row 3 via a sync: upstream getNewReplicaSet (existing new ReplicaSet) records FoundNewReplicaSet @now first, final status equal → requeue 60s + 1s"},
			deadline: i32(60), available: 1, now: testTime.Add(30 * time.Second),
			wantActions: []string{"UpdateDeploymentStatus web"}, want: plan.Requeue{Kind: plan.RequeueAfter, After: 61 * time.Second}},
		{why: why{"complete", "upstream TestRequeueStuckDeployment row 4: (3,3,3) complete → −1"},
			deadline: i32(60), available: 3, now: testTime.Add(30 * time.Second),
			progressing: ptrCond(progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-v1" has successfully progressed.`, testTime, testTime))},
		{why: why{"already timed out", "upstream TestRequeueStuckDeployment row 5: ProgressDeadlineExceeded → −1"},
			deadline: i32(60), available: 1, now: testTime.Add(5 * time.Minute),
			progressing: ptrCond(progressingCond(model.ConditionFalse, model.ReasonProgressDeadlineExceeded, `ReplicaSet "web-v1" has timed out progressing.`, testTime, testTime))},
		{why: why{"30s left", "upstream TestRequeueStuckDeployment: 18:49:00 + 60s − 18:49:30 = 30s → requeue after 31s"},
			deadline: i32(60), available: 1, progressing: &stuck, now: testTime.Add(30 * time.Second),
			want: plan.Requeue{Kind: plan.RequeueAfter, After: 31 * time.Second}},
		{why: why{"1s left", "upstream TestRequeueStuckDeployment: 1s is not < 1s → requeue after 2s"},
			deadline: i32(60), available: 1, progressing: &stuck, now: testTime.Add(59 * time.Second),
			want: plan.Requeue{Kind: plan.RequeueAfter, After: 2 * time.Second}},
		{why: why{"just under 1s left", "upstream TestRequeueStuckDeployment: 18:49:59.000000001 → < 1s → rate-limited now"},
			deadline: i32(60), available: 1, progressing: &stuck, now: testTime.Add(59*time.Second + time.Nanosecond),
			want: plan.Requeue{Kind: plan.RequeueRateLimited}},
		{why: why{"at the deadline", "upstream TestRequeueStuckDeployment: 18:50:00 → 0 left → rate-limited (not yet timed out: strictly before)"},
			deadline: i32(60), available: 1, progressing: &stuck, now: testTime.Add(60 * time.Second),
			want: plan.Requeue{Kind: plan.RequeueRateLimited}},
		{why: why{"past the deadline", "upstream TestRequeueStuckDeployment 18:50:01 via a sync: upstream syncRolloutStatus writes ProgressDeadlineExceeded first, and a written status schedules nothing"},
			deadline: i32(60), available: 1, progressing: &stuck, now: testTime.Add(61 * time.Second),
			wantActions: []string{"UpdateDeploymentStatus web"}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		conds := []model.DeploymentCondition{availableCond(c.available == 3, testTime)}
		if c.progressing != nil {
			conds = append(conds, *c.progressing)
		}
		// D=3, 25%/25% → surge 1, unavailable 0: minAvailable 3.
		d := newDeployment("web", 3, "v1", deadline(c.deadline), revisionAnn(1),
			withStatus(depStatus(1, 3, 3, c.available, c.available, 3-c.available, conds...)))
		rs := rsStatus(newRS(d, "v1", 1, 3, testTime.Add(-time.Hour)), 3, c.available, c.available)
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{rs}, Now: c.now})
		checkPlan(t, p, c.wantActions, nil, -1)
		if p.Requeue != c.want {
			t.Errorf("Requeue = %+v, want %+v", p.Requeue, c.want)
		}
	})
}

func ptrCond(c model.DeploymentCondition) *model.DeploymentCondition { return &c }

// rsTuple is (spec, status.replicas, status.availableReplicas), the notation
// of upstream TestSyncRolloutStatus.
type rsTuple struct{ spec, replicas, available int32 }

// statusCounts is a stored status as (replicas, updated, available).
type statusCounts struct{ replicas, updated, available int32 }

// TestSyncRolloutStatus reproduces upstream TestSyncRolloutStatus through whole syncs that reach
// syncRolloutStatus without scaling anything: with a new ReplicaSet a
// RollingUpdate whose new RS is already at D and whose old RS is at 0; without
// one a Recreate that waits for old pods.
func TestSyncRolloutStatus(t *testing.T) {
	now := testTime.Add(30 * time.Second)
	const rsName, dName = "progress-test-v2", "progress-test"
	updated := progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, "ReplicaSet \""+rsName+"\" is progressing.", testTime, testTime)
	timedOut := progressingCond(model.ConditionFalse, model.ReasonProgressDeadlineExceeded, "ReplicaSet \""+rsName+"\" has timed out progressing.", testTime, testTime)
	newAvailable := progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, "ReplicaSet \""+rsName+"\" has successfully progressed.", testTime, testTime)
	type tc struct {
		why
		d3           int32 // D
		noDeadline   bool
		recreate     bool // no new RS: a Recreate waiting for old pods
		stored       []model.DeploymentCondition
		storedCounts statusCounts
		old, new     *rsTuple
		now          time.Time
		want         *model.DeploymentCondition
		wantWrites   int // UpdateDeploymentStatus actions
	}
	cases := []tc{
		{why: why{"no deadline", "upstream TestSyncRolloutStatus row 1: no progressDeadlineSeconds → Progressing removed"},
			d3: 3, noDeadline: true, stored: []model.DeploymentCondition{updated}, storedCounts: statusCounts{2, 2, 2},
			old: &rsTuple{0, 1, 1}, new: &rsTuple{3, 2, 2}, want: nil, wantWrites: 1},
		{why: why{"one active RS previously complete", "upstream TestSyncRolloutStatus row 2: replicas 3 ≠ updated 0, nothing complete, progressing or late → unchanged, times kept"},
			d3: 3, recreate: true, stored: []model.DeploymentCondition{newAvailable}, storedCounts: statusCounts{3, 3, 3},
			old: &rsTuple{0, 3, 3}, want: &newAvailable, wantWrites: 1},
		{why: why{"progress, was True", "upstream TestSyncRolloutStatus row 3: available 3 > 2 → ReplicaSetUpdated, LTT kept = testTime, LUT = now"},
			d3: 3, stored: []model.DeploymentCondition{updated}, storedCounts: statusCounts{2, 2, 2},
			old: &rsTuple{0, 1, 1}, new: &rsTuple{3, 2, 2},
			want: ptrCond(progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, updated.Message, now, testTime)), wantWrites: 1},
		{why: why{"progress, was False", "upstream TestSyncRolloutStatus row 4: False → True, both times now"},
			d3: 3, stored: []model.DeploymentCondition{timedOut}, storedCounts: statusCounts{2, 2, 2},
			old: &rsTuple{0, 1, 1}, new: &rsTuple{3, 2, 2},
			want: ptrCond(progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, updated.Message, now, now)), wantWrites: 1},
		{why: why{"progress, none", "upstream TestSyncRolloutStatus row 5; through a sync upstream getNewReplicaSet (existing new ReplicaSet) first writes FoundNewReplicaSet @now (the final write then conflicts)"},
			d3: 3, storedCounts: statusCounts{2, 2, 2}, old: &rsTuple{0, 1, 1}, new: &rsTuple{3, 2, 2},
			want: ptrCond(progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, updated.Message, now, now)), wantWrites: 2},
		{why: why{"complete, was True", "upstream TestSyncRolloutStatus row 6: (3,3,3) complete → NewReplicaSetAvailable, LTT kept"},
			d3: 3, stored: []model.DeploymentCondition{updated}, storedCounts: statusCounts{2, 2, 2}, new: &rsTuple{3, 3, 3},
			want: ptrCond(progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, newAvailable.Message, now, testTime)), wantWrites: 1},
		{why: why{"complete, was False", "upstream TestSyncRolloutStatus row 7: False → True, times now"},
			d3: 3, stored: []model.DeploymentCondition{timedOut}, storedCounts: statusCounts{2, 2, 2}, new: &rsTuple{3, 3, 3},
			want: ptrCond(progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, newAvailable.Message, now, now)), wantWrites: 1},
		{why: why{"complete, none", "upstream TestSyncRolloutStatus row 8; FoundNewReplicaSet @now written first (upstream getNewReplicaSet (existing new ReplicaSet))"},
			d3: 3, storedCounts: statusCounts{2, 2, 2}, new: &rsTuple{3, 3, 3},
			want: ptrCond(progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, newAvailable.Message, now, now)), wantWrites: 2},
		{why: why{"D zero without new RS", "upstream TestSyncRolloutStatus row 9: all zero is complete → `Deployment \"progress-test\" has successfully progressed.`, LTT kept"},
			d3: 0, recreate: true, stored: []model.DeploymentCondition{updated}, storedCounts: statusCounts{0, 0, 0}, old: &rsTuple{0, 0, 0},
			want:       ptrCond(progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `Deployment "progress-test" has successfully progressed.`, now, testTime)),
			wantWrites: 1},
		{why: why{"deadline passed", "upstream TestSyncRolloutStatus row 10: no progress since testTime, 61s > 60s → False/ProgressDeadlineExceeded @now"},
			d3: 3, stored: []model.DeploymentCondition{updated}, storedCounts: statusCounts{2, 2, 2}, new: &rsTuple{3, 2, 2},
			now:        testTime.Add(61 * time.Second),
			want:       ptrCond(progressingCond(model.ConditionFalse, model.ReasonProgressDeadlineExceeded, timedOut.Message, testTime.Add(61*time.Second), testTime.Add(61*time.Second))),
			wantWrites: 1},
		{why: why{"previous rollout's NewReplicaSetAvailable", "upstream syncRolloutStatus/quirk (FoundNewReplicaSet only without a Progressing condition): isComplete needs replicas == updated; 4 ≠ 2, so estimation runs: updated 2 > 1 → ReplicaSetUpdated, LTT kept"},
			d3: 3, stored: []model.DeploymentCondition{newAvailable}, storedCounts: statusCounts{4, 1, 3},
			old: &rsTuple{0, 2, 2}, new: &rsTuple{3, 2, 2},
			want: ptrCond(progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, updated.Message, now, testTime)), wantWrites: 1},
		{why: why{"already timed out", "upstream TestSyncRolloutStatus row 11: stays ProgressDeadlineExceeded, times kept; status otherwise current → no write"},
			d3: 3, stored: []model.DeploymentCondition{availableCond(false, testTime), timedOut}, storedCounts: statusCounts{2, 2, 2}, new: &rsTuple{3, 2, 2},
			want: &timedOut, wantWrites: 0},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		opts := []depOpt{revisionAnn(2), deadline(i32(60))}
		if c.noDeadline {
			opts = append(opts, deadline(nil))
		}
		if c.recreate {
			opts = append(opts, recreate())
		}
		sc := c.storedCounts
		opts = append(opts, withStatus(depStatus(1, sc.replicas, sc.updated, sc.available, sc.available, max(0, c.d3-sc.available), c.stored...)))
		d := newDeployment(dName, c.d3, "v2", opts...)
		var rss []*model.ReplicaSet
		var pods []*model.Pod
		if o := c.old; o != nil {
			old := rsStatus(newRS(d, "v1", 1, o.spec, testTime.Add(-2*time.Hour)), o.replicas, o.available, o.available)
			rss = append(rss, old)
			if c.recreate {
				// A pod of the old RS still runs, so Recreate waits (upstream oldPodsRunning).
				pods = append(pods, newPod("old-pod", old, model.PodRunning, true))
			}
		}
		if n := c.new; n != nil {
			rss = append(rss, rsStatus(newRS(d, "v2", 2, n.spec, testTime.Add(-time.Hour)), n.replicas, n.available, n.available))
		}
		if c.now.IsZero() {
			c.now = now
		}
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: rss, Pods: pods, Now: c.now})
		for _, a := range p.Actions {
			if a.Kind != plan.UpdateDeploymentStatus {
				t.Errorf("unexpected write %s: the fixture must not scale", a)
			}
		}
		if got := len(p.Actions); got != c.wantWrites {
			t.Errorf("%d status writes %q, want %d", got, summary(p), c.wantWrites)
		}
		if diff := cmp.Diff(c.want, progressingOf(t, p.Status)); diff != "" {
			t.Errorf("Progressing (-want +got):\n%s", diff)
		}
		if c.wantWrites > 0 {
			if diff := cmp.Diff(c.want, lastStatus(t, p).Condition(model.DeploymentProgressing)); diff != "" {
				t.Errorf("written Progressing (-want +got):\n%s", diff)
			}
		}
	})
}

// TestReplicaFailurePromotion: syncRolloutStatus' ReplicaFailure promotion. A rollout sync promotes the first
// ReplicaFailure condition of the new ReplicaSet, else of the old ones in
// creation order, and removes it when no ReplicaSet reports one; sync()
// (paused or scaling) leaves it alone.
func TestReplicaFailurePromotion(t *testing.T) {
	rsFailure := func(msg string, ts time.Time) model.ReplicaSetCondition {
		return model.ReplicaSetCondition{Type: model.ReplicaSetReplicaFailure, Status: model.ConditionTrue,
			Reason: model.ReasonFailedCreate, Message: msg, LastTransitionTime: ts}
	}
	depFailure := func(msg string, ts time.Time) model.DeploymentCondition {
		return cond(model.DeploymentReplicaFailure, model.ConditionTrue, model.ReasonFailedCreate, msg, ts, ts)
	}
	avail := availableCond(true, at(-time.Hour))
	type tc struct {
		why
		paused           bool
		stored           []model.DeploymentCondition
		newFail, oldFail []model.ReplicaSetCondition
		v0Fail           []model.ReplicaSetCondition // an older old RS
		want             []model.DeploymentCondition
		wantWrites       int
	}
	cases := []tc{
		{why: why{"new RS failure promoted", "syncRolloutStatus' ReplicaFailure promotion: copied with lastUpdateTime = lastTransitionTime of the RS condition, appended"},
			stored: []model.DeploymentCondition{avail, completeCond}, newFail: []model.ReplicaSetCondition{rsFailure("quota", at(-10*time.Minute))},
			want: []model.DeploymentCondition{avail, completeCond, depFailure("quota", at(-10*time.Minute))}, wantWrites: 1},
		{why: why{"old RS failure when new has none", "syncRolloutStatus' ReplicaFailure promotion: falls back to the other ReplicaSets in list order"},
			stored: []model.DeploymentCondition{avail, completeCond}, oldFail: []model.ReplicaSetCondition{rsFailure("old quota", at(-20*time.Minute))},
			want: []model.DeploymentCondition{avail, completeCond, depFailure("old quota", at(-20*time.Minute))}, wantWrites: 1},
		{why: why{"first old RS in creation order", "syncRolloutStatus' ReplicaFailure promotion: allRSs lists old RSs oldest first; only failures[0] is used"},
			stored: []model.DeploymentCondition{avail, completeCond},
			v0Fail: []model.ReplicaSetCondition{rsFailure("oldest", at(-40*time.Minute))}, oldFail: []model.ReplicaSetCondition{rsFailure("older", at(-20*time.Minute))},
			want: []model.DeploymentCondition{avail, completeCond, depFailure("oldest", at(-40*time.Minute))}, wantWrites: 1},
		{why: why{"new RS wins", "syncRolloutStatus' ReplicaFailure promotion: the new RS's failures alone when it has any"},
			stored:  []model.DeploymentCondition{avail, completeCond},
			newFail: []model.ReplicaSetCondition{rsFailure("new quota", at(-10*time.Minute))}, oldFail: []model.ReplicaSetCondition{rsFailure("old quota", at(-20*time.Minute))},
			want: []model.DeploymentCondition{avail, completeCond, depFailure("new quota", at(-10*time.Minute))}, wantWrites: 1},
		{why: why{"message not refreshed", "upstream quirk (condition messages are not refreshed): same status and reason → the stored message stays; nothing else changed → no write"},
			stored:  []model.DeploymentCondition{avail, completeCond, depFailure("first", at(-30*time.Minute))},
			newFail: []model.ReplicaSetCondition{rsFailure("second", at(-time.Minute))},
			want:    []model.DeploymentCondition{avail, completeCond, depFailure("first", at(-30*time.Minute))}, wantWrites: 0},
		{why: why{"cleared", "syncRolloutStatus' ReplicaFailure promotion: no RS reports a failure → removed"},
			stored: []model.DeploymentCondition{avail, depFailure("first", at(-30*time.Minute)), completeCond},
			want:   []model.DeploymentCondition{avail, completeCond}, wantWrites: 1},
		{why: why{"paused sync leaves it", "syncRolloutStatus' ReplicaFailure promotion: only syncRolloutStatus promotes; sync() neither adds nor removes"},
			paused: true, stored: []model.DeploymentCondition{avail, pausedCondAt(at(-time.Hour))},
			newFail: []model.ReplicaSetCondition{rsFailure("quota", at(-10*time.Minute))},
			want:    []model.DeploymentCondition{avail, pausedCondAt(at(-time.Hour))}, wantWrites: 0},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		opts := []depOpt{revisionAnn(2), withStatus(depStatus(1, 3, 3, 3, 3, 0, c.stored...))}
		if c.paused {
			opts = append(opts, paused())
		}
		d := newDeployment("web", 3, "v2", opts...)
		v1 := rsStatus(newRS(d, "v1", 1, 0, at(-2*time.Hour)), 0, 0, 0)
		v1.Status.Conditions = c.oldFail
		v2 := newRS(d, "v2", 2, 3, at(-time.Hour))
		v2.Status.Conditions = c.newFail
		v0 := rsStatus(newRS(d, "v0", 1, 0, at(-3*time.Hour)), 0, 0, 0)
		v0.Status.Conditions = c.v0Fail
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v2, v1, v0}, Now: t0})
		if got := len(p.Actions); got != c.wantWrites {
			t.Errorf("actions %q, want %d status writes", summary(p), c.wantWrites)
		}
		if p.Status == nil {
			t.Fatal("no status computed")
		}
		if diff := cmp.Diff(c.want, p.Status.Conditions); diff != "" {
			t.Errorf("conditions (-want +got):\n%s", diff)
		}
	})
}

func TestTerminatingReplicasGate(t *testing.T) {
	// the feature gates/upstream calculateStatus: with DeploymentReplicaSetTerminatingReplicas off the
	// field is nil; on (the default) it sums the ReplicaSets' counts.
	d := newDeployment("web", 3, "v2", revisionAnn(2), generation(2),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
	v1 := rsStatus(newRS(d, "v1", 1, 0, at(-2*time.Hour)), 0, 0, 0)
	v1.Status.TerminatingReplicas = i32(2)
	s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1, newRS(d, "v2", 2, 3, at(-time.Hour))}, Now: t0}
	on := mustSync(t, s)
	if got := lastStatus(t, on).TerminatingReplicas; got == nil || *got != 2 {
		t.Errorf("gate on: terminatingReplicas = %v, want 2", got)
	}
	off := mustSync(t, s, plan.WithTerminatingReplicas(false))
	if got := lastStatus(t, off).TerminatingReplicas; got != nil {
		t.Errorf("gate off: terminatingReplicas = %d, want nil", *got)
	}
}
