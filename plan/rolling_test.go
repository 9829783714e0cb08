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

// bareRS is a ReplicaSet of web with spec replicas and as many available
// pods, created at created; for the building blocks, which read only sizes,
// availability, names and creation times.
func bareRS(name string, spec, available int32, created time.Time) *model.ReplicaSet {
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: ns, UID: "uid-" + name, CreationTimestamp: created},
		Spec:       model.ReplicaSetSpec{Replicas: i32(spec)},
		Status:     model.ReplicaSetStatus{Replicas: spec, ReadyReplicas: available, AvailableReplicas: available},
	}
}

func TestNewRSNewReplicas(t *testing.T) {
	type tc struct {
		why
		d       *model.Deployment
		allRSs  []*model.ReplicaSet
		newRS   *model.ReplicaSet
		inAll   bool // add newRS to allRSs
		want    int32
		wantErr string // substring; "-" for any error
	}
	unrelated := bareRS("web-other", 5, 5, at(-time.Hour))
	cases := []tc{
		// upstream TestNewRSNewReplicas: the upstream test passes the new RS separately; allRSs
		// holds only an unrelated RS of 5.
		{why: why{"ex4 rolling, total already above max", "upstream TestNewRSNewReplicas row 1: D=1, surge 1 → max 2; total 5 ≥ 2 → new stays 5"},
			d: newDeployment("web", 1, "v2", rolling(intStr(1), intStr(0))), allRSs: []*model.ReplicaSet{unrelated},
			newRS: bareRS("web-v2", 5, 0, t0), want: 5},
		{why: why{"ex4 rolling, capped by D", "upstream TestNewRSNewReplicas row 2: D=6, surge 10 → max 16; total 5 → up = min(11, 6−2) = 4 → 2+4"},
			d: newDeployment("web", 6, "v2", rolling(intStr(10), intStr(0))), allRSs: []*model.ReplicaSet{unrelated},
			newRS: bareRS("web-v2", 2, 0, t0), want: 6},
		{why: why{"ex4 recreate returns D", "upstream TestNewRSNewReplicas row 3 / upstream NewRSNewReplicas: Recreate returns D=3 whatever the sizes"},
			d: newDeployment("web", 3, "v2", recreate()), allRSs: []*model.ReplicaSet{unrelated},
			newRS: bareRS("web-v2", 1, 0, t0), want: 3},
		// upstream TestDeploymentController_reconcileNewReplicaSet numbers, newRS inside allRSs as in rolloutRolling.
		{why: why{"ex19 no surge, old full", "upstream TestDeploymentController_reconcileNewReplicaSet row 1: D=10 surge 0, old 10 + new 0 = 10 ≥ 10 → 0"},
			d: newDeployment("web", 10, "v2", rolling(intStr(0), intStr(0))), allRSs: []*model.ReplicaSet{bareRS("web-v1", 10, 10, at(-time.Hour))},
			newRS: bareRS("web-v2", 0, 0, t0), inAll: true, want: 0},
		{why: why{"ex19 surge 2, old full", "upstream TestDeploymentController_reconcileNewReplicaSet row 2: max 12, total 10 → up = min(2, 10) = 2"},
			d: newDeployment("web", 10, "v2", rolling(intStr(2), intStr(0))), allRSs: []*model.ReplicaSet{bareRS("web-v1", 10, 10, at(-time.Hour))},
			newRS: bareRS("web-v2", 0, 0, t0), inAll: true, want: 2},
		{why: why{"ex19 surge 2, old half", "upstream TestDeploymentController_reconcileNewReplicaSet row 3: max 12, total 5 → up = min(7, 10) = 7"},
			d: newDeployment("web", 10, "v2", rolling(intStr(2), intStr(0))), allRSs: []*model.ReplicaSet{bareRS("web-v1", 5, 5, at(-time.Hour))},
			newRS: bareRS("web-v2", 0, 0, t0), inAll: true, want: 7},
		{why: why{"ex19 surge spent", "upstream TestDeploymentController_reconcileNewReplicaSet row 4: max 12, total 10 + 2 = 12 → new stays 2"},
			d: newDeployment("web", 10, "v2", rolling(intStr(2), intStr(0))), allRSs: []*model.ReplicaSet{bareRS("web-v1", 10, 10, at(-time.Hour))},
			newRS: bareRS("web-v2", 2, 0, t0), inAll: true, want: 2},
		{why: why{"walk-through sync 1 create", "the worked rolling update (10 replicas, maxSurge 25% → 3, maxUnavailable 25% → 2, then a template change): D=10, 25% → surge 3; old 10 + new 0 → min(13−10, 10−0) = 3"},
			d: newDeployment("web", 10, "v2"), allRSs: []*model.ReplicaSet{bareRS("web-v1", 10, 10, at(-time.Hour))},
			newRS: bareRS("web-v2", 0, 0, t0), inAll: true, want: 3},
		{why: why{"first rollout gets D", "upstream NewRSNewReplicas note / upstream TestSyncDeploymentCreatesReplicaSet: no old RSs → min(D + surge, D) = D"},
			d: newDeployment("web", 4, "v1"), newRS: bareRS("web-v1", 0, 0, t0), inAll: true, want: 4},
		{why: why{"surge resolved without fenceposts", "upstream ResolveFenceposts last rule: an unresolvable maxSurge makes NewRSNewReplicas fail"},
			d: newDeployment("web", 10, "v2", rolling(pct("oops"), intStr(1))), newRS: bareRS("web-v2", 0, 0, t0), inAll: true, wantErr: "-"},
		{why: why{"unknown strategy", "upstream NewRSNewReplicas: any other type → error \"deployment type <type> isn't supported\""},
			d:     newDeployment("web", 3, "v2", func(d *model.Deployment) { d.Spec.Strategy = model.Strategy{Type: "Canary"} }),
			newRS: bareRS("web-v2", 0, 0, t0), wantErr: "deployment type Canary isn't supported"},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		all := append([]*model.ReplicaSet(nil), c.allRSs...)
		if c.inAll {
			all = append(all, c.newRS)
		}
		got, _, err := plan.NewRSNewReplicas(c.d, all, c.newRS)
		if c.wantErr != "" {
			if err == nil || (c.wantErr != "-" && err.Error() != c.wantErr) {
				t.Fatalf("err = %v, want %q", err, c.wantErr)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("NewRSNewReplicas = %d, want %d", got, c.want)
		}
	})
}

func TestReconcileNewReplicaSet(t *testing.T) {
	type tc struct {
		why
		d        *model.Deployment
		old, new int32
		wantTo   int32
		wantOK   bool
	}
	d := func(surge int32) *model.Deployment {
		return newDeployment("web", 10, "v2", rolling(intStr(surge), intStr(0)))
	}
	cases := []tc{
		{why{"no surge", "upstream TestDeploymentController_reconcileNewReplicaSet row 1: total 10 ≥ 10 → not scaled"}, d(0), 10, 0, 0, false},
		{why{"surge 2 from full old", "upstream TestDeploymentController_reconcileNewReplicaSet row 2: scaled to 2"}, d(2), 10, 0, 2, true},
		{why{"surge 2 from half old", "upstream TestDeploymentController_reconcileNewReplicaSet row 3: scaled to min(12−5, 10−0) = 7"}, d(2), 5, 0, 7, true},
		{why{"surge spent", "upstream TestDeploymentController_reconcileNewReplicaSet row 4: total 12 ≥ 12 → not scaled"}, d(2), 10, 2, 2, false},
		{why{"new above D", "upstream TestDeploymentController_reconcileNewReplicaSet row 5 / upstream reconcileNewReplicaSet: new 11 > D 10 → scale down to D"}, d(2), 2, 11, 10, true},
		{why{"new at D", "upstream reconcileNewReplicaSet first line: new == D → not scaled"}, d(2), 0, 10, 10, false},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		oldRS, newRS := bareRS("web-v1", c.old, c.old, at(-time.Hour)), bareRS("web-v2", c.new, 0, t0)
		to, ok, _, err := plan.ReconcileNewReplicaSet([]*model.ReplicaSet{oldRS, newRS}, newRS, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if to != c.wantTo || ok != c.wantOK {
			t.Errorf("ReconcileNewReplicaSet = (%d, %v), want (%d, %v)", to, ok, c.wantTo, c.wantOK)
		}
	})
}

// scaled renders planned scales as "name→to".
func scaled(scales []plan.Scale) []string {
	var out []string
	for _, s := range scales {
		out = append(out, s.ReplicaSet.Name+"→"+itoa(s.To))
	}
	return out
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

func TestCleanupUnhealthyReplicas(t *testing.T) {
	type tc struct {
		why
		old        []*model.ReplicaSet
		maxCleanup int32
		want       []string
		wantTotal  int32
		wantErr    string
	}
	d := newDeployment("web", 10, "v2")
	cases := []tc{
		{why: why{"budget 1", "upstream TestDeploymentController_cleanupUnhealthyReplicas row 1: spec 10, 8 available, max 1 → cleaned 1"},
			old: []*model.ReplicaSet{bareRS("web-v1", 10, 8, t0)}, maxCleanup: 1, want: []string{"web-v1→9"}, wantTotal: 1},
		{why: why{"budget 3", "upstream TestDeploymentController_cleanupUnhealthyReplicas row 2: only 2 are unhealthy → cleaned 2"},
			old: []*model.ReplicaSet{bareRS("web-v1", 10, 8, t0)}, maxCleanup: 3, want: []string{"web-v1→8"}, wantTotal: 2},
		{why: why{"budget 0", "upstream TestDeploymentController_cleanupUnhealthyReplicas row 3: max 0 → nothing"},
			old: []*model.ReplicaSet{bareRS("web-v1", 10, 8, t0)}, maxCleanup: 0, wantTotal: 0},
		{why: why{"all healthy", "upstream TestDeploymentController_cleanupUnhealthyReplicas row 4: 10 available → nothing unhealthy"},
			old: []*model.ReplicaSet{bareRS("web-v1", 10, 10, t0)}, maxCleanup: 3, wantTotal: 0},
		{why: why{"oldest first across RSs", "upstream cleanupUnhealthyReplicas: sorted by creation; a (older) loses min(3, 5−3)=2, then b min(1, 5−4)=1"},
			old:        []*model.ReplicaSet{bareRS("web-b", 5, 4, at(-time.Hour)), bareRS("web-a", 5, 3, at(-2*time.Hour))},
			maxCleanup: 3, want: []string{"web-a→3", "web-b→4"}, wantTotal: 3},
		{why: why{"zero-sized RS skipped", "upstream cleanupUnhealthyReplicas: spec 0 → continue"},
			old:        []*model.ReplicaSet{bareRS("web-a", 0, 0, at(-2*time.Hour)), bareRS("web-b", 4, 2, at(-time.Hour))},
			maxCleanup: 5, want: []string{"web-b→2"}, wantTotal: 2},
		{why: why{"available above spec is an error", "upstream cleanupUnhealthyReplicas/quirk (reconcileOldReplicaSets swallows errors): spec 8, 10 available → n = −2 → 10 > 8 → invalid request; earlier scales kept"},
			old:        []*model.ReplicaSet{bareRS("web-a", 5, 4, at(-2*time.Hour)), bareRS("web-b", 8, 10, at(-time.Hour))},
			maxCleanup: 3, want: []string{"web-a→4"}, wantTotal: 1,
			wantErr: "when cleaning up unhealthy replicas, got invalid request to scale down default/web-b 8 -> 10"},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		scales, total, err := plan.CleanupUnhealthyReplicas(c.old, d, c.maxCleanup)
		if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || err.Error() != c.wantErr) {
			t.Errorf("err = %v, want %q", err, c.wantErr)
		}
		if diff := cmp.Diff(c.want, scaled(scales)); diff != "" {
			t.Errorf("scales (-want +got):\n%s", diff)
		}
		if total != c.wantTotal {
			t.Errorf("total = %d, want %d", total, c.wantTotal)
		}
	})
}

func TestScaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	type tc struct {
		why
		maxUnavailable *model.IntOrString
		old            []*model.ReplicaSet
		others         []*model.ReplicaSet // the rest of allRSs
		want           []string
		wantTotal      int32
		wantNote       plan.ReasonCode
	}
	cases := []tc{
		{why: why{"fencepost unavailable 1", "upstream TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate row 1: surge 0, unavailable 0 → 1; 10 available > 9 → old 10→9"},
			maxUnavailable: intStr(0), old: []*model.ReplicaSet{bareRS("web-v1", 10, 10, t0)}, want: []string{"web-v1→9"}, wantTotal: 1},
		{why: why{"unavailable 2", "upstream TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate row 2: 10 > 8 → old 10→8"},
			maxUnavailable: intStr(2), old: []*model.ReplicaSet{bareRS("web-v1", 10, 10, t0)}, want: []string{"web-v1→8"}, wantTotal: 2},
		{why: why{"at min availability", "upstream TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate row 3: 8 ≤ 8 → no change"},
			maxUnavailable: intStr(2), old: []*model.ReplicaSet{bareRS("web-v1", 10, 8, t0)}, wantNote: plan.NoteAvailabilityBudgetSpent},
		{why: why{"old already at 0", "upstream TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate row 4: budget 2 but the only old RS has spec 0 → no change"},
			maxUnavailable: intStr(2), old: []*model.ReplicaSet{bareRS("web-v1", 0, 10, t0)}},
		{why: why{"few available", "upstream TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate row 5: 1 ≤ 8 → no change"},
			maxUnavailable: intStr(2), old: []*model.ReplicaSet{bareRS("web-v1", 10, 1, t0)}, wantNote: plan.NoteAvailabilityBudgetSpent},
		{why: why{"oldest drained first", "upstream scaleDownOldReplicaSetsForRollingUpdate: available 3+4+5 = 12, target 12−8 = 4 → a 3→0, then b 4→3"},
			maxUnavailable: intStr(2),
			old:            []*model.ReplicaSet{bareRS("web-b", 4, 4, at(-time.Hour)), bareRS("web-a", 3, 3, at(-2*time.Hour))},
			others:         []*model.ReplicaSet{bareRS("web-v2", 5, 5, t0)},
			want:           []string{"web-a→0", "web-b→3"}, wantTotal: 4},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 10, "v2", rolling(intStr(0), c.maxUnavailable))
		all := append(append([]*model.ReplicaSet(nil), c.old...), c.others...)
		scales, total, note := plan.ScaleDownOldReplicaSetsForRollingUpdate(all, c.old, d)
		if diff := cmp.Diff(c.want, scaled(scales)); diff != "" {
			t.Errorf("scales (-want +got):\n%s", diff)
		}
		if total != c.wantTotal {
			t.Errorf("total = %d, want %d", total, c.wantTotal)
		}
		if note.Code != c.wantNote {
			t.Errorf("note = %q, want %q", note.Code, c.wantNote)
		}
	})
}

// rollingFixture is a steady RollingUpdate of web at version v2 (revision 2)
// whose old v1 (revision 1) and new v2 ReplicaSets have the given specs and
// available pods; replica annotations are current, the stored status says
// the rollout is progressing, so no scaling event or revision write happens.
func rollingFixture(d *model.Deployment, oldSpec, oldAvail, newSpec, newAvail int32) plan.State {
	v1 := rsStatus(newRS(d, "v1", 1, oldSpec, at(-2*time.Hour)), oldSpec, oldAvail, oldAvail)
	v2 := rsStatus(newRS(d, "v2", 2, newSpec, at(-time.Hour)), newSpec, newAvail, newAvail)
	return plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1, v2}, Now: t0}
}

func TestReconcileOldReplicaSetsThroughSync(t *testing.T) {
	type tc struct {
		why
		maxUnavailable                       *model.IntOrString
		oldSpec, oldAvail, newSpec, newAvail int32
		wantActions, wantEvents              []string
	}
	cases := []tc{
		{why: why{"fencepost unavailable", "upstream TestDeploymentController_reconcileOldReplicaSets row 1: surge 0, 5% of 10 → 0 → 1; budget 1, healthy scale-down 1 → old 9"},
			maxUnavailable: pct("5%"), oldSpec: 10, oldAvail: 10,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=9", "UpdateDeploymentStatus web"},
			wantEvents:  []string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 10 to 9"}},
		{why: why{"unavailable 2", "upstream TestDeploymentController_reconcileOldReplicaSets row 2: budget 2, available 10 > 8 → old 8"},
			maxUnavailable: intStr(2), oldSpec: 10, oldAvail: 10,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=8", "UpdateDeploymentStatus web"},
			wantEvents:  []string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 10 to 8"}},
		{why: why{"unhealthy cleaned", "upstream TestDeploymentController_reconcileOldReplicaSets row 3: cleanup removes the 2 unavailable; 8 ≤ 8 → no healthy scale-down"},
			maxUnavailable: intStr(2), oldSpec: 10, oldAvail: 8,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=8", "UpdateDeploymentStatus web"},
			wantEvents:  []string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 10 to 8"}},
		{why: why{"cleanup then healthy", "upstream TestDeploymentController_reconcileOldReplicaSets row 4: cleanup 1 (10→9) then healthy 9 > 8 → 9→8, the second write built on the first (no conflict)"},
			maxUnavailable: intStr(2), oldSpec: 10, oldAvail: 9,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=9", "ScaleReplicaSet web-v1 replicas=8", "UpdateDeploymentStatus web"},
			wantEvents: []string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 10 to 9",
				"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 9 to 8"}},
		{why: why{"new pods unavailable block", "upstream TestDeploymentController_reconcileOldReplicaSets row 5: budget 10 − 8 − (2−0) = 0 → no scaling"},
			maxUnavailable: intStr(2), oldSpec: 8, oldAvail: 8, newSpec: 2, newAvail: 0,
			wantActions: []string{"UpdateDeploymentStatus web"}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 10, "v2", rolling(intStr(0), c.maxUnavailable), revisionAnn(2),
			withStatus(depStatus(1, 10, 0, 10, 10, 0,
				progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v2" is progressing.`, at(-time.Minute), at(-time.Hour)))))
		p := mustSync(t, rollingFixture(d, c.oldSpec, c.oldAvail, c.newSpec, c.newAvail))
		checkPlan(t, p, c.wantActions, c.wantEvents, -1)
	})
}

// TestRollingWalkthrough replays the worked rolling update (10 replicas, maxSurge 25% → 3, maxUnavailable 25% → 2, then a template change): three syncs of a 10-replica
// Deployment (25%/25% → surge 3, unavailable 2) whose template changed,
// each fed with what the previous sync's accepted writes left behind.
func TestRollingWalkthrough(t *testing.T) {
	hashV2 := fixedHash("v2")
	d := newDeployment("web", 10, "v2", generation(2), revisionAnn(1),
		withStatus(depStatus(1, 10, 10, 10, 10, 0,
			availableCond(true, at(-time.Hour)),
			progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-v1" has successfully progressed.`, at(-time.Hour), at(-time.Hour)))))
	v1 := newRS(d, "v1", 1, 10, at(-2*time.Hour))

	// Sync 1: create v2 with 3, record revision 2, scale v1 10→8, and the
	// final status write conflicts.
	s1 := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1}, Now: t0}
	p1 := mustSync(t, s1, hashV2)
	checkPlan(t, p1, []string{
		"CreateReplicaSet web-v2 replicas=3",
		"UpdateDeploymentStatus web",
		"ScaleReplicaSet web-v1 replicas=8",
		"UpdateDeploymentStatus web conflict",
	}, []string{
		"Normal ScalingReplicaSet: Scaled up replica set web-v2 from 0 to 3",
		"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 10 to 8",
	}, 3)
	created := actionAt(t, p1, 0, plan.CreateReplicaSet).ReplicaSet
	wantCreated := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: "web-v2", Namespace: ns,
			Labels: map[string]string{"app": "web", model.PodTemplateHashLabel: "v2"},
			Annotations: map[string]string{
				model.RevisionAnnotation: "2", model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13",
			},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "uid-web")},
		},
		Spec: model.ReplicaSetSpec{
			Replicas: i32(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web", model.PodTemplateHashLabel: "v2"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web", model.PodTemplateHashLabel: "v2"}, Spec: tmpl("web", "v2").Spec},
		},
	}
	if diff := cmp.Diff(wantCreated, created); diff != "" {
		t.Errorf("created ReplicaSet (-want +got):\n%s", diff)
	}
	rev := actionAt(t, p1, 1, plan.UpdateDeploymentStatus).Deployment
	if got := rev.Annotations[model.RevisionAnnotation]; got != "2" {
		t.Errorf("revision annotation written = %q, want 2", got)
	}
	wantProg := progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetCreated, `Created new replica set "web-v2"`, t0, at(-time.Hour))
	if diff := cmp.Diff(&wantProg, rev.Status.Condition(model.DeploymentProgressing)); diff != "" {
		t.Errorf("Progressing after create (-want +got); LTT kept because True→True (upstream SetDeploymentCondition):\n%s", diff)
	}
	if rev.Status.ObservedGeneration != 1 || rev.Status.UpdatedReplicas != 10 {
		t.Errorf("the revision write carries the stored counts, got %+v", rev.Status)
	}
	// v1's replica annotations are current: the scale changes none, and the
	// ReplicaSet sent carries them.
	assert.Empty(t, actionAt(t, p1, 2, plan.ScaleReplicaSet).Update.Annotations, "annotations changed by the scale")
	writes1 := rendered(t, s1, p1)
	if got := writes1[2].ReplicaSet.Annotations; got[model.DesiredReplicasAnnotation] != "10" || got[model.MaxReplicasAnnotation] != "13" {
		t.Errorf("scaled v1 annotations = %v", got)
	}
	final := actionAt(t, p1, 3, plan.UpdateDeploymentStatus).Deployment.Status
	wantFinal := depStatus(2, 10, 0, 10, 10, 3, availableCond(true, at(-time.Hour)), wantProg)
	if diff := cmp.Diff(&wantFinal, final); diff != "" {
		t.Errorf("sync 1 final status (-want +got); unavailable = 13 − 10 from spec sums (upstream quirk: unavailableReplicas counts surge and lags):\n%s", diff)
	}

	// Sync 2: the server applied the create, the revision write and the
	// scale; the RS controllers created pods, none of v2's available yet.
	d2 := writes1[1].Deployment
	v1b := rsStatus(replicasAnn(newRS(d, "v1", 1, 8, at(-2*time.Hour)), 10, 13), 8, 8, 8)
	v2 := created.DeepCopy()
	v2.UID, v2.CreationTimestamp, v2.Generation = "uid-web-v2", t0, 1
	v2.Status = model.ReplicaSetStatus{Replicas: 3, FullyLabeledReplicas: 3, ObservedGeneration: 1, TerminatingReplicas: i32(0)}
	s2 := plan.State{Deployment: d2, ReplicaSets: []*model.ReplicaSet{v1b, v2}, Now: at(30 * time.Second)}
	p2 := mustSync(t, s2, hashV2)
	checkPlan(t, p2, []string{
		"ScaleReplicaSet web-v2 replicas=5",
		"UpdateDeploymentStatus web",
	}, []string{"Normal ScalingReplicaSet: Scaled up replica set web-v2 from 3 to 5"}, -1)
	st2 := *lastStatus(t, p2)
	wantSt2 := depStatus(2, 11, 3, 8, 8, 3, availableCond(true, at(-time.Hour)), wantProg)
	if diff := cmp.Diff(wantSt2, st2); diff != "" {
		t.Errorf("sync 2 status (-want +got); Progressing unchanged: nothing exceeds the stored pre-rollout counts:\n%s", diff)
	}

	// Sync 3: v2 has 5 pods, 3 available.
	d3 := lastStatusWrite(t, s2, p2)
	v2b := v2.DeepCopy()
	v2b.Spec.Replicas = i32(5)
	rsStatus(v2b, 5, 3, 3)
	now3 := at(60 * time.Second)
	p3 := mustSync(t, plan.State{Deployment: d3, ReplicaSets: []*model.ReplicaSet{v1b, v2b}, Now: now3}, hashV2)
	checkPlan(t, p3, []string{
		"ScaleReplicaSet web-v1 replicas=5",
		"UpdateDeploymentStatus web",
	}, []string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 8 to 5"}, -1)
	st3 := *lastStatus(t, p3)
	wantSt3 := depStatus(2, 13, 5, 11, 11, 2, availableCond(true, at(-time.Hour)),
		progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v2" is progressing.`, now3, at(-time.Hour)))
	if diff := cmp.Diff(wantSt3, st3); diff != "" {
		t.Errorf("sync 3 status (-want +got); updated 3→5 is progress, LTT kept (upstream syncRolloutStatus):\n%s", diff)
	}
	if !hasNote(p3, plan.NoteSurgeBudgetSpent) {
		t.Errorf("sync 3 should note that the new RS cannot grow (13 ≥ 13); notes %v", p3.Notes)
	}
}

// TestSurfaceOldReplicaSetErrors: an old ReplicaSet reporting more available
// pods than its spec makes cleanupUnhealthyReplicas fail. Released
// upstream swallows the error and still writes status (reconcileOldReplicaSets' version-dependent error handling, upstream quirk (reconcileOldReplicaSets swallows errors)); the
// option reports it.
func TestSurfaceOldReplicaSetErrors(t *testing.T) {
	const msg = "when cleaning up unhealthy replicas, got invalid request to scale down default/web-v1 10 -> 11"
	state := func() plan.State {
		// D=10, 25%/25%: surge 3, unavailable 2. Total 13 = max → the new RS
		// stays; budget 13 − 8 − 0 = 5; v1 spec 10 with 11 available.
		d := newDeployment("web", 10, "v2", revisionAnn(2),
			withStatus(depStatus(1, 13, 3, 13, 13, 0,
				progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v2" is progressing.`, at(-time.Minute), at(-time.Hour)))))
		s := rollingFixture(d, 10, 11, 3, 3)
		rsStatus(s.ReplicaSets[0], 11, 11, 11)
		return s
	}

	t.Run("released default swallows", func(t *testing.T) {
		// mustSync: the sync ends without an error (released behaviour
		// swallows it).
		p := mustSync(t, state())
		checkPlan(t, p, []string{"UpdateDeploymentStatus web"}, nil, -1)
		var swallowed *plan.Reason
		for i := range p.Notes {
			if p.Notes[i].Code == plan.NoteSwallowedError {
				swallowed = &p.Notes[i]
			}
		}
		if swallowed == nil {
			t.Fatalf("no %s note in %v", plan.NoteSwallowedError, p.Notes)
		}
		if want := "upstream ignores: " + msg; swallowed.Message != want {
			t.Errorf("note message = %q, want %q", swallowed.Message, want)
		}
	})
	t.Run("option surfaces", func(t *testing.T) {
		p, serr := syncChecked(t, state(), plan.SurfaceOldReplicaSetErrors())
		for _, a := range p.Actions {
			if a.Kind == plan.ScaleReplicaSet || a.Kind == plan.UpdateReplicaSet {
				t.Errorf("unexpected ReplicaSet write %s", a)
			}
		}
		want := &plan.SyncError{Kind: plan.ErrKindInvalidScale, Message: msg}
		if diff := cmp.Diff(want, serr); diff != "" {
			t.Errorf("the sync's error (-want +got):\n%s", diff)
		}
		assert.ErrorIs(t, serr, &plan.SyncError{Kind: plan.ErrKindInvalidScale})
	})
}

func TestRollingEdgeCases(t *testing.T) {
	prog := progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v2" is progressing.`, at(-time.Minute), at(-time.Hour))
	type tc struct {
		why
		d                       *model.Deployment
		rss                     func(d *model.Deployment) []*model.ReplicaSet
		wantActions, wantEvents []string
		wantConflict            int
		check                   func(t *testing.T, p plan.Plan)
	}
	cases := []tc{
		{why: why{"new RS above D", "upstream reconcileNewReplicaSet: new 12 > D 10 → scaled down to D (no desired annotation, so not a scaling event)"},
			d: newDeployment("web", 10, "v2", revisionAnn(2), withStatus(depStatus(1, 12, 12, 12, 12, 0, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{rsAnn(newRS(d, "v2", 2, 12, at(-time.Hour)), model.DesiredReplicasAnnotation, "")}
			},
			wantActions:  []string{"ScaleReplicaSet web-v2 replicas=10", "UpdateDeploymentStatus web"},
			wantEvents:   []string{"Normal ScalingReplicaSet: Scaled down replica set web-v2 from 12 to 10"},
			wantConflict: -1},
		{why: why{"created empty for D zero", "upstream getNewReplicaSet (creation)/upstream ResolveFenceposts: D=0, maxSurge 3 → created with min(3, 0) = 0 replicas, no scaling event; max-replicas 0+3 (surge not zeroed)"},
			d: newDeployment("web", 0, "v2", rolling(intStr(3), intStr(1)), revisionAnn(1), generation(2), withStatus(depStatus(1, 0, 0, 0, 0, 0, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{newRS(d, "v1", 1, 0, at(-time.Hour))}
			},
			wantActions:  []string{"CreateReplicaSet web-v2 replicas=0", "UpdateDeploymentStatus web", "UpdateDeploymentStatus web conflict"},
			wantConflict: 2,
			check: func(t *testing.T, p plan.Plan) {
				a := p.Actions[0].ReplicaSet.Annotations
				if a[model.DesiredReplicasAnnotation] != "0" || a[model.MaxReplicasAnnotation] != "3" {
					t.Errorf("annotations %v, want desired 0, max 3", a)
				}
			}},
		{why: why{"crash-looping new RS blocks old cleanup", "upstream reconcileOldReplicaSets/quirk (stuck rolling updates): D 10, surge 3, unavailable 2; new 5 with 0 available, old 8 with 7 available: budget 13 − 8 − 5 = 0 → the unhealthy old pod stays"},
			d: newDeployment("web", 10, "v2", rolling(intStr(3), intStr(2)), revisionAnn(2), withStatus(depStatus(1, 13, 5, 7, 7, 6, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{
					rsStatus(newRS(d, "v1", 1, 8, at(-2*time.Hour)), 8, 7, 7), rsStatus(newRS(d, "v2", 2, 5, at(-time.Hour)), 5, 0, 0),
				}
			},
			wantActions: []string{"UpdateDeploymentStatus web"}, wantConflict: -1},
		{why: why{"rolled back to a good RS", "upstream reconcileOldReplicaSets worked case 1 continued: newUnavailable 1 → budget 13 − 8 − 1 = 4; cleanup takes the 4 unavailable pods of the crash-looping old RS"},
			d: newDeployment("web", 10, "v2", rolling(intStr(3), intStr(2)), revisionAnn(3), withStatus(depStatus(1, 13, 8, 8, 8, 5, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{
					rsStatus(newRS(d, "v3", 2, 5, at(-2*time.Hour)), 5, 0, 0), rsStatus(newRS(d, "v2", 3, 8, at(-time.Hour)), 8, 7, 7),
				}
			},
			wantActions:  []string{"ScaleReplicaSet web-v3 replicas=1", "UpdateDeploymentStatus web"},
			wantEvents:   []string{"Normal ScalingReplicaSet: Scaled down replica set web-v3 from 5 to 1"},
			wantConflict: -1},
		{why: why{"two old RSs drained oldest first", "upstream scaleDownOldReplicaSetsForRollingUpdate via a sync: D 10, 25%/25%; total 3+4+6 = 13; budget 13−8−0 = 5; available 13 > 8 → target 5: a 3→0, b 4→2"},
			d: newDeployment("web", 10, "v2", revisionAnn(3), withStatus(depStatus(1, 13, 6, 13, 13, 0, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{
					newRS(d, "b", 2, 4, at(-2*time.Hour)), newRS(d, "a", 1, 3, at(-3*time.Hour)), newRS(d, "v2", 3, 6, at(-time.Hour)),
				}
			},
			wantActions: []string{"ScaleReplicaSet web-a replicas=0", "ScaleReplicaSet web-b replicas=2", "UpdateDeploymentStatus web"},
			wantEvents: []string{"Normal ScalingReplicaSet: Scaled down replica set web-a from 3 to 0",
				"Normal ScalingReplicaSet: Scaled down replica set web-b from 4 to 2"},
			wantConflict: -1},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		p := mustSync(t, plan.State{Deployment: c.d, ReplicaSets: c.rss(c.d), Now: t0}, fixedHash("v2"))
		checkPlan(t, p, c.wantActions, c.wantEvents, c.wantConflict)
		if c.check != nil {
			c.check(t, p)
		}
	})
}
