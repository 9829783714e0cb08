package plan_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

func TestDeploymentComplete(t *testing.T) {
	type tc struct {
		why
		desired, replicas, updated, available int32
		generation, observed                  int64
		want                                  bool
	}
	cases := []tc{
		{why{"one unavailable", "upstream TestDeploymentComplete row 1"}, 5, 5, 5, 4, 0, 0, false},
		{why{"two unavailable", "upstream TestDeploymentComplete row 2"}, 5, 5, 5, 3, 0, 0, false},
		{why{"complete", "upstream TestDeploymentComplete row 3"}, 5, 5, 5, 5, 0, 0, true},
		{why{"one not updated", "upstream TestDeploymentComplete row 4"}, 5, 5, 4, 5, 0, 0, false},
		{why{"old pod still counted", "upstream TestDeploymentComplete row 5: replicas 2 ≠ 1"}, 1, 2, 1, 1, 0, 0, false},
		{why{"nothing available", "upstream TestDeploymentComplete row 6"}, 1, 1, 1, 0, 0, 0, false},
		{why{"generation not observed", "upstream IsSaturated/DeploymentComplete: observedGeneration ≥ generation is required"}, 5, 5, 5, 5, 3, 2, false},
		{why{"generation observed ahead", "upstream IsSaturated/DeploymentComplete: ≥, not =="}, 5, 5, 5, 5, 2, 3, true},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", c.desired, "v1", generation(c.generation))
		st := &model.DeploymentStatus{ObservedGeneration: c.observed, Replicas: c.replicas, UpdatedReplicas: c.updated, AvailableReplicas: c.available}
		if got := plan.DeploymentComplete(d, st); got != c.want {
			t.Errorf("DeploymentComplete = %v, want %v", got, c.want)
		}
	})
}

func TestDeploymentProgressing(t *testing.T) {
	type counts struct{ replicas, updated, ready, available int32 }
	type tc struct {
		why
		old, new counts
		want     bool
	}
	cases := []tc{
		{why{"more updated", "upstream TestDeploymentProgressing row 1"}, counts{10, 4, 4, 4}, counts{10, 6, 4, 4}, true},
		{why{"nothing changed", "upstream TestDeploymentProgressing row 2"}, counts{10, 4, 4, 4}, counts{10, 4, 4, 4}, false},
		{why{"fewer old", "upstream TestDeploymentProgressing row 3: old replicas 6 → 4"}, counts{10, 4, 6, 6}, counts{8, 4, 6, 6}, true},
		{why{"fewer updated, more old", "upstream TestDeploymentProgressing row 4"}, counts{10, 7, 3, 3}, counts{10, 6, 3, 3}, false},
		{why{"more updated despite fewer ready", "upstream TestDeploymentProgressing row 5"}, counts{10, 4, 7, 7}, counts{8, 8, 5, 5}, true},
		{why{"more ready", "upstream TestDeploymentProgressing row 6"}, counts{10, 10, 9, 8}, counts{10, 10, 10, 8}, true},
		{why{"more available", "upstream TestDeploymentProgressing row 7"}, counts{10, 10, 10, 9}, counts{10, 10, 10, 10}, true},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 10, "v1")
		d.Status = model.DeploymentStatus{Replicas: c.old.replicas, UpdatedReplicas: c.old.updated, ReadyReplicas: c.old.ready, AvailableReplicas: c.old.available}
		st := &model.DeploymentStatus{Replicas: c.new.replicas, UpdatedReplicas: c.new.updated, ReadyReplicas: c.new.ready, AvailableReplicas: c.new.available}
		if got := plan.DeploymentProgressing(d, st); got != c.want {
			t.Errorf("DeploymentProgressing = %v, want %v", got, c.want)
		}
	})
}

func TestDeploymentTimedOut(t *testing.T) {
	base := time.Date(2017, 2, 15, 0, 1, 0, 0, time.UTC)
	sec := func(s int) time.Time { return base.Add(time.Duration(s) * time.Second) }
	type tc struct {
		why
		deadline   *int32
		reason     string
		lastUpdate time.Time
		now        time.Time
		want       bool
	}
	cases := []tc{
		{why{"no deadline", "upstream TestDeploymentTimedOut row 1: nil deadline → false"}, nil, "", sec(9), sec(20), false},
		{why{"deadline MaxInt32", "upstream TestDeploymentTimedOut row 2: MaxInt32 means no deadline"}, i32(model.NoLimit), "", sec(9), sec(20), false},
		{why{"11s late", "upstream TestDeploymentTimedOut row 3: 00:01:09 + 10s before 00:01:20"}, i32(10), "", sec(9), sec(20), true},
		{why{"9s in", "upstream TestDeploymentTimedOut row 4: 00:01:11 + 10s not before 00:01:20"}, i32(10), "", sec(11), sec(20), false},
		{why{"complete never times out", "upstream TestDeploymentTimedOut row 5: reason NewReplicaSetAvailable → false"}, i32(10), model.ReasonNewReplicaSetAvailable, time.Time{}, sec(20), false},
		{why{"boundary exact", "upstream TestDeploymentTimedOut boundary: 00:01:10 + 10s is not strictly before 00:01:20"}, i32(10), "", sec(10), sec(20), false},
		{why{"boundary plus 1ns", "upstream TestDeploymentTimedOut boundary: 00:01:20.000000001 is past the deadline"}, i32(10), "", sec(10), sec(20).Add(time.Nanosecond), true},
		{why{"already timed out", "upstream syncRolloutStatus: reason ProgressDeadlineExceeded → true without looking at the time"}, i32(600), model.ReasonProgressDeadlineExceeded, sec(19), sec(20), true},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 3, "v1", deadline(c.deadline))
		st := &model.DeploymentStatus{Conditions: []model.DeploymentCondition{
			progressingCond(model.ConditionTrue, c.reason, "", c.lastUpdate, c.lastUpdate)}}
		if got := plan.DeploymentTimedOut(d, st, c.now); got != c.want {
			t.Errorf("DeploymentTimedOut = %v, want %v", got, c.want)
		}
	})
	t.Run("no Progressing condition", func(t *testing.T) {
		// upstream syncRolloutStatus: c == nil → false.
		if plan.DeploymentTimedOut(newDeployment("web", 3, "v1", deadline(i32(10))), &model.DeploymentStatus{}, sec(1000)) {
			t.Error("timed out without a Progressing condition")
		}
	})
}

func TestHasProgressDeadline(t *testing.T) {
	for _, c := range []struct {
		p    *int32
		want bool
	}{{nil, false}, {i32(model.NoLimit), false}, {i32(600), true}, {i32(1), true}} {
		if got := plan.HasProgressDeadline(newDeployment("web", 1, "v1", deadline(c.p))); got != c.want {
			t.Errorf("HasProgressDeadline(%v) = %v, want %v (upstream syncRolloutStatus: nil or MaxInt32 means none)", c.p, got, c.want)
		}
	}
}

// ex13 returns the four ReplicaSets of upstream TestGetReplicaCountForReplicaSets.
func ex13() map[string]*model.ReplicaSet {
	rs := func(name string, spec, replicas int32, terminating *int32, observed int64) *model.ReplicaSet {
		r := bareRS(name, spec, 0, t0)
		r.Status = model.ReplicaSetStatus{Replicas: replicas, TerminatingReplicas: terminating, ObservedGeneration: observed}
		return r
	}
	return map[string]*model.ReplicaSet{
		"rs1": rs("rs1", 1, 2, i32(3), 1),
		"rs2": rs("rs2", 2, 3, i32(1), 0), // observedGeneration 0, but it reports a count
		"rs3": rs("rs3", 3, 0, nil, 0),    // never synced: skipped
		"rs4": rs("rs4", 1, 1, nil, 1),    // synced, not reporting: unknown
	}
}

func TestTerminatingAndReplicaSums(t *testing.T) {
	type tc struct {
		why
		set                  []string
		sumSpec, sumReplicas int32
		terminating          *int32
	}
	cases := []tc{
		{why{"rs1", "upstream TestGetReplicaCountForReplicaSets row 1"}, []string{"rs1"}, 1, 2, i32(3)},
		{why{"rs1 rs2", "upstream TestGetReplicaCountForReplicaSets row 2: rs2 reports a count despite observedGeneration 0"}, []string{"rs1", "rs2"}, 3, 5, i32(4)},
		{why{"rs3", "upstream TestGetReplicaCountForReplicaSets row 3: never synced → skipped → 0"}, []string{"rs3"}, 3, 0, i32(0)},
		{why{"rs1 rs2 rs3", "upstream TestGetReplicaCountForReplicaSets row 4"}, []string{"rs1", "rs2", "rs3"}, 6, 5, i32(4)},
		{why{"rs4", "upstream TestGetReplicaCountForReplicaSets row 5: synced but not reporting → unknown (nil)"}, []string{"rs4"}, 1, 1, nil},
		{why{"all", "upstream TestGetReplicaCountForReplicaSets row 6: one unknown makes the sum unknown"}, []string{"rs1", "rs2", "rs3", "rs4"}, 7, 6, nil},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		all := ex13()
		var rss []*model.ReplicaSet
		for _, n := range c.set {
			rss = append(rss, all[n])
		}
		if diff := cmp.Diff(c.terminating, plan.TerminatingReplicas(rss)); diff != "" {
			t.Errorf("TerminatingReplicas (-want +got):\n%s", diff)
		}
		d := newDeployment("web", 0, "v1")
		st := plan.CalculateStatus(rss, nil, d, t0, true)
		if st.Replicas != c.sumReplicas {
			t.Errorf("status.replicas = %d, want Σ status.replicas %d", st.Replicas, c.sumReplicas)
		}
		// No pod is available, so unavailableReplicas is the spec sum.
		if st.UnavailableReplicas != c.sumSpec {
			t.Errorf("status.unavailableReplicas = %d, want Σ spec %d", st.UnavailableReplicas, c.sumSpec)
		}
		if diff := cmp.Diff(c.terminating, st.TerminatingReplicas); diff != "" {
			t.Errorf("status.terminatingReplicas (-want +got):\n%s", diff)
		}
		if off := plan.CalculateStatus(rss, nil, d, t0, false); off.TerminatingReplicas != nil {
			t.Errorf("gate off: terminatingReplicas = %d, want nil (upstream calculateStatus)", *off.TerminatingReplicas)
		}
	})
}

func TestCalculateStatus(t *testing.T) {
	type tc struct {
		why
		oldAvail int32
		want     model.DeploymentStatus
	}
	stale := t0.Add(-time.Hour)
	progressing := progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v2" is progressing.`, stale, stale)
	cases := []tc{
		{why: why{"available true", "worked example of the Available condition and unavailableReplicas: available 8+2 = 10 ≥ 10 − 2; unavailable (8+5) − 10 = 3"}, oldAvail: 8,
			want: model.DeploymentStatus{ObservedGeneration: 4, Replicas: 13, UpdatedReplicas: 5, ReadyReplicas: 13, AvailableReplicas: 10,
				UnavailableReplicas: 3, TerminatingReplicas: i32(0), CollisionCount: i32(2),
				Conditions: []model.DeploymentCondition{progressing, availableCond(true, t0)}}},
		{why: why{"available false", "worked example of the Available condition and unavailableReplicas variant: old available 5 → 7 < 8; unavailable 13 − 7 = 6"}, oldAvail: 5,
			want: model.DeploymentStatus{ObservedGeneration: 4, Replicas: 13, UpdatedReplicas: 5, ReadyReplicas: 13, AvailableReplicas: 7,
				UnavailableReplicas: 6, TerminatingReplicas: i32(0), CollisionCount: i32(2),
				Conditions: []model.DeploymentCondition{progressing, availableCond(false, t0)}}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		// D=10, 25%/25% → surge 3, unavailable 2. Old 8 pods, new 5 pods of
		// which 2 are available. The stored status has Available=False at
		// the front, so setting it moves the new one to the end (upstream SetDeploymentCondition).
		d := newDeployment("web", 10, "v2", generation(4), withStatus(model.DeploymentStatus{
			CollisionCount: i32(2),
			Conditions:     []model.DeploymentCondition{cond(model.DeploymentAvailable, model.ConditionUnknown, "x", "y", stale, stale), progressing},
		}))
		before := d.DeepCopy()
		old := rsStatus(newRS(d, "v1", 1, 8, at(-2*time.Hour)), 8, 8, c.oldAvail)
		nw := rsStatus(newRS(d, "v2", 2, 5, at(-time.Hour)), 5, 5, 2)
		got := plan.CalculateStatus([]*model.ReplicaSet{old, nw}, nw, d, t0, true)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("CalculateStatus (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(before, d); diff != "" {
			t.Errorf("CalculateStatus modified the Deployment (-before +after):\n%s", diff)
		}
		*got.CollisionCount = 9
		if *d.Status.CollisionCount != 2 {
			t.Error("the computed collisionCount aliases the Deployment's")
		}
	})
	t.Run("D zero is always available", func(t *testing.T) {
		// upstream calculateStatus: Available for D = 0 is always True (available ≥ 0).
		d := newDeployment("web", 0, "v1")
		got := plan.CalculateStatus(nil, nil, d, t0, true)
		if c := got.Condition(model.DeploymentAvailable); c == nil || c.Status != model.ConditionTrue {
			t.Errorf("Available = %+v, want True", c)
		}
	})
}

func TestSetDeploymentCondition(t *testing.T) {
	old, now := t0.Add(-time.Hour), t0
	avail := availableCond(true, old)
	prog := progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, "old message", old, old)
	failure := cond(model.DeploymentReplicaFailure, model.ConditionTrue, model.ReasonFailedCreate, "quota", old, old)
	type tc struct {
		why
		start []model.DeploymentCondition
		set   model.DeploymentCondition
		want  []model.DeploymentCondition
	}
	cases := []tc{
		{why: why{"added to empty", "upstream SetDeploymentCondition: no condition of the type → appended"},
			set:  progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetCreated, "m", now, now),
			want: []model.DeploymentCondition{progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetCreated, "m", now, now)}},
		{why: why{"same status and reason is a no-op", "upstream SetDeploymentCondition/quirk (condition messages are not refreshed): message and times are not refreshed"},
			start: []model.DeploymentCondition{prog, avail},
			set:   progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, "new message", now, now),
			want:  []model.DeploymentCondition{prog, avail}},
		{why: why{"same status keeps transition time", "upstream SetDeploymentCondition: same status, new reason → LTT kept, moved to the end"},
			start: []model.DeploymentCondition{prog, avail, failure},
			set:   progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, "done", now, now),
			want:  []model.DeploymentCondition{avail, failure, progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, "done", now, old)}},
		{why: why{"status change moves transition time", "upstream SetDeploymentCondition: another status → new LTT, moved to the end"},
			start: []model.DeploymentCondition{prog, avail},
			set:   progressingCond(model.ConditionFalse, model.ReasonProgressDeadlineExceeded, "late", now, now),
			want:  []model.DeploymentCondition{avail, progressingCond(model.ConditionFalse, model.ReasonProgressDeadlineExceeded, "late", now, now)}},
		{why: why{"unknown to unknown keeps transition", "pause and resume: paused → resumed, both Unknown → LTT kept"},
			start: []model.DeploymentCondition{progressingCond(model.ConditionUnknown, model.ReasonDeploymentPaused, "Deployment is paused", old, old)},
			set:   progressingCond(model.ConditionUnknown, model.ReasonDeploymentResumed, "Deployment is resumed", now, now),
			want:  []model.DeploymentCondition{progressingCond(model.ConditionUnknown, model.ReasonDeploymentResumed, "Deployment is resumed", now, old)}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		start := append([]model.DeploymentCondition(nil), c.start...)
		st := &model.DeploymentStatus{Conditions: start}
		plan.SetDeploymentCondition(st, c.set)
		if diff := cmp.Diff(c.want, st.Conditions); diff != "" {
			t.Errorf("conditions (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(c.start, start, cmpEmptyConds); diff != "" {
			t.Errorf("the original backing array was written (-before +after):\n%s", diff)
		}
	})
}

var cmpEmptyConds = cmp.Comparer(func(a, b []model.DeploymentCondition) bool {
	return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b)
})

func TestRemoveDeploymentCondition(t *testing.T) {
	avail := availableCond(true, t0)
	prog := progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, "m", t0, t0)
	failure := cond(model.DeploymentReplicaFailure, model.ConditionTrue, model.ReasonFailedCreate, "quota", t0, t0)
	type tc struct {
		why
		start []model.DeploymentCondition
		typ   model.DeploymentConditionType
		want  []model.DeploymentCondition
	}
	cases := []tc{
		{why{"middle removed, order kept", "upstream SetDeploymentCondition RemoveDeploymentCondition: filter by type"},
			[]model.DeploymentCondition{avail, prog, failure}, model.DeploymentProgressing, []model.DeploymentCondition{avail, failure}},
		{why{"absent type", "upstream SetDeploymentCondition: nothing to filter"},
			[]model.DeploymentCondition{avail}, model.DeploymentReplicaFailure, []model.DeploymentCondition{avail}},
		{why{"last one removed", "upstream SetDeploymentCondition: an empty result"},
			[]model.DeploymentCondition{prog}, model.DeploymentProgressing, nil},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		st := &model.DeploymentStatus{Conditions: append([]model.DeploymentCondition(nil), c.start...)}
		plan.RemoveDeploymentCondition(st, c.typ)
		if diff := cmp.Diff(c.want, st.Conditions, cmpEmptyConds); diff != "" {
			t.Errorf("conditions (-want +got):\n%s", diff)
		}
	})
}
