package plan_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
)

func TestIsSaturated(t *testing.T) {
	type tc struct {
		why
		nilRS       bool
		spec, avail int32
		desired     string // desired-replicas annotation; "-" for absent
		want        bool
	}
	cases := []tc{
		{why: why{"nil", "upstream IsSaturated: rs == nil → false"}, nilRS: true},
		{why: why{"saturated", "upstream IsSaturated: spec, annotation and available all equal D=5"}, spec: 5, avail: 5, desired: "5", want: true},
		{why: why{"signed plus", "upstream IsSaturated/quirk (inconsistent annotation parsers): IsSaturated parses with a signed parser, \"+5\" is 5"}, spec: 5, avail: 5, desired: "+5", want: true},
		{why: why{"negative", "upstream quirk (inconsistent annotation parsers): \"-5\" parses but is not D"}, spec: 5, avail: 5, desired: "-5"},
		{why: why{"truncated to int32", "upstream IsSaturated: int32(desired) == D; 4294967301 = 2^32 + 5 truncates to 5"}, spec: 5, avail: 5, desired: "4294967301", want: true},
		{why: why{"absent annotation", "upstream IsSaturated: \"\" fails to parse → false"}, spec: 5, avail: 5, desired: "-"},
		{why: why{"garbage annotation", "upstream IsSaturated: parse error → false"}, spec: 5, avail: 5, desired: "five"},
		{why: why{"spaces rejected", "upstream IsSaturated: Atoi rejects \" 5\""}, spec: 5, avail: 5, desired: " 5"},
		{why: why{"annotation stale", "upstream IsSaturated: desired 4 ≠ 5"}, spec: 5, avail: 5, desired: "4"},
		{why: why{"spec short", "upstream IsSaturated: spec 4 ≠ 5"}, spec: 4, avail: 5, desired: "5"},
		{why: why{"not all available", "upstream IsSaturated / upstream TestScale (sync_test.go) q: available 4 ≠ 5"}, spec: 5, avail: 4, desired: "5"},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 5, "v2")
		var rs *model.ReplicaSet
		if !c.nilRS {
			rs = rsStatus(newRS(d, "v2", 1, c.spec, t0), c.spec, c.avail, c.avail)
			if c.desired == "-" {
				rsAnn(rs, model.DesiredReplicasAnnotation, "")
			} else {
				rsAnn(rs, model.DesiredReplicasAnnotation, c.desired)
			}
		}
		if got := plan.IsSaturated(d, rs); got != c.want {
			t.Errorf("IsSaturated = %v, want %v", got, c.want)
		}
	})
}

func TestFindActiveOrLatest(t *testing.T) {
	rs := func(name string, spec int32, created time.Time) *model.ReplicaSet {
		return bareRS(name, spec, spec, created)
	}
	type tc struct {
		why
		newRS *model.ReplicaSet
		old   []*model.ReplicaSet
		want  string // name, "" for nil
	}
	cases := []tc{
		{why: why{"nothing", "worked example of FindActiveOrLatest row 1: no new, no old → nil"}},
		{why: why{"only new active", "worked example of FindActiveOrLatest row 2"}, newRS: rs("n", 3, t0),
			old: []*model.ReplicaSet{rs("a", 0, at(-2*time.Hour)), rs("b", 0, at(-time.Hour))}, want: "n"},
		{why: why{"none active, new exists", "worked example of FindActiveOrLatest row 3: no active → the new RS"}, newRS: rs("n", 0, t0),
			old: []*model.ReplicaSet{rs("a", 0, at(-2*time.Hour)), rs("b", 0, at(-time.Hour))}, want: "n"},
		{why: why{"none active, no new", "worked example of FindActiveOrLatest row 4: the newest old RS"},
			old: []*model.ReplicaSet{rs("a", 0, at(-2*time.Hour)), rs("b", 0, at(-time.Hour))}, want: "b"},
		{why: why{"none active, tie", "worked example of FindActiveOrLatest row 5: same creation → name descending, b before a"},
			old: []*model.ReplicaSet{rs("b", 0, t0), rs("a", 0, t0)}, want: "b"},
		{why: why{"only old active", "worked example of FindActiveOrLatest row 6"}, newRS: rs("n", 0, t0), old: []*model.ReplicaSet{rs("a", 5, at(-time.Hour))}, want: "a"},
		{why: why{"two active", "worked example of FindActiveOrLatest row 7: ≥ 2 active → nil (proportional scaling)"}, newRS: rs("n", 2, t0),
			old: []*model.ReplicaSet{rs("a", 3, at(-time.Hour))}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		before := append([]*model.ReplicaSet(nil), c.old...)
		got := proportion.FindActiveOrLatest(c.newRS, c.old)
		name := ""
		if got != nil {
			name = got.Name
		}
		if name != c.want {
			t.Errorf("FindActiveOrLatest = %q, want %q", name, c.want)
		}
		if !cmp.Equal(before, c.old) {
			t.Error("FindActiveOrLatest reordered its input")
		}
	})
}

func TestReplicasAnnotations(t *testing.T) {
	type tc struct {
		why
		ann        map[string]string
		wantNeed   bool
		wantResult map[string]string
	}
	cases := []tc{
		{why: why{"nil map", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): annotations nil → needs update; the map is created"}, ann: nil, wantNeed: true,
			wantResult: map[string]string{model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13"}},
		{why: why{"current", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): both equal the decimals → nothing to do"},
			ann:      map[string]string{model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13", "x": "y"},
			wantNeed: false, wantResult: map[string]string{model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13", "x": "y"}},
		{why: why{"desired stale", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): desired differs"},
			ann:      map[string]string{model.DesiredReplicasAnnotation: "5", model.MaxReplicasAnnotation: "13"},
			wantNeed: true, wantResult: map[string]string{model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13"}},
		{why: why{"max missing", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): a missing key reads as \"\""},
			ann: map[string]string{model.DesiredReplicasAnnotation: "10"}, wantNeed: true,
			wantResult: map[string]string{model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13"}},
		{why: why{"string comparison", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): compared as strings, \"010\" ≠ \"10\""},
			ann:      map[string]string{model.DesiredReplicasAnnotation: "010", model.MaxReplicasAnnotation: "13"},
			wantNeed: true, wantResult: map[string]string{model.DesiredReplicasAnnotation: "10", model.MaxReplicasAnnotation: "13"}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		rs := bareRS("web-v1", 10, 10, t0)
		rs.Annotations = c.ann
		if got := plan.ReplicasAnnotationsNeedUpdate(rs, 10, 13); got != c.wantNeed {
			t.Errorf("ReplicasAnnotationsNeedUpdate = %v, want %v", got, c.wantNeed)
		}
		if got := plan.SetReplicasAnnotations(rs, 10, 13); got != c.wantNeed {
			t.Errorf("SetReplicasAnnotations changed = %v, want %v", got, c.wantNeed)
		}
		if diff := cmp.Diff(c.wantResult, rs.Annotations); diff != "" {
			t.Errorf("annotations (-want +got):\n%s", diff)
		}
		if plan.ReplicasAnnotationsNeedUpdate(rs, 10, 13) {
			t.Error("still needs an update after SetReplicasAnnotations")
		}
	})
}

// proportionalState is a scaling event of web (template v2, revision 2) with
// an old v1 and a new v2 ReplicaSet, both annotated for the old size.
func proportionalState(d *model.Deployment, v1Spec, v2Spec int32, v1Max, v2Max, oldD int32) plan.State {
	// A stored Progressing condition, so upstream getNewReplicaSet (existing new ReplicaSet) records no FoundNewReplicaSet.
	d.Status = depStatus(1, v1Spec+v2Spec, v2Spec, v1Spec+v2Spec, v1Spec+v2Spec, 0,
		progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v2" is progressing.`, at(-time.Hour), at(-time.Hour)))
	v1 := replicasAnn(newRS(d, "v1", 1, v1Spec, at(-2*time.Hour)), oldD, v1Max)
	v2 := replicasAnn(newRS(d, "v2", 2, v2Spec, at(-time.Hour)), oldD, v2Max)
	return plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1, v2}, Now: t0}
}

func TestProportionalScalingThroughSync(t *testing.T) {
	type tc struct {
		why
		d                         *model.Deployment
		v1, v2, v1Max, v2Max, old int32
		wantActions, wantEvents   []string
		wantDesired, wantMax      string
	}
	cases := []tc{
		{why: why{"ex16 c", "upstream TestScale (sync_test.go) c: D 5→10, surge 0; BySizeNewer v1(3), v2(2); v1 round(3·10/5)−3 = +3, v2 +2"},
			d:  newDeployment("web", 10, "v2", rolling(intStr(0), intStr(1)), revisionAnn(2), generation(2)),
			v1: 3, v2: 2, v1Max: 5, v2Max: 5, old: 5,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=6", "ScaleReplicaSet web-v2 replicas=4", "UpdateDeploymentStatus web"},
			wantEvents: []string{"Normal ScalingReplicaSet: Scaled up replica set web-v1 from 3 to 6",
				"Normal ScalingReplicaSet: Scaled up replica set web-v2 from 2 to 4"},
			wantDesired: "10", wantMax: "10"},
		{why: why{"ex16 d", "upstream TestScale (sync_test.go) d: D 5→3; BySizeOlder v1(3), v2(2); round(1.8)=2 → −1, round(1.2)=1 → −1"},
			d:  newDeployment("web", 3, "v2", rolling(intStr(0), intStr(1)), revisionAnn(2), generation(2)),
			v1: 3, v2: 2, v1Max: 5, v2Max: 5, old: 5,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=2", "ScaleReplicaSet web-v2 replicas=1", "UpdateDeploymentStatus web"},
			wantEvents: []string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 3 to 2",
				"Normal ScalingReplicaSet: Scaled down replica set web-v2 from 2 to 1"},
			wantDesired: "3", wantMax: "3"},
		{why: why{"ex16 o", "upstream TestScale (sync_test.go) o: D 10→50, surge 3→6: allowed 56, toAdd 43; v1 round(34.46)=34 (+26), v2 round(21.54)=22 (+17)"},
			d:  newDeployment("web", 50, "v2", rolling(intStr(6), intStr(1)), revisionAnn(2), generation(2)),
			v1: 8, v2: 5, v1Max: 13, v2Max: 13, old: 10,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=34", "ScaleReplicaSet web-v2 replicas=22", "UpdateDeploymentStatus web"},
			wantEvents: []string{"Normal ScalingReplicaSet: Scaled up replica set web-v1 from 8 to 34",
				"Normal ScalingReplicaSet: Scaled up replica set web-v2 from 5 to 22"},
			wantDesired: "50", wantMax: "56"},
		{why: why{"sign flip: each event names its own direction", "upstream scale/quirk (proportional scaling anomalies): toAdd 5 (D 10→15); v1 6·15/10 → +3, leftover +4 → 13; v2 (max 40) round(1.5)=2 → −2; v1.36's scaleReplicaSet derives up/down from each ReplicaSet's old and new size (the \"from A to B\" event of the conformance data), so v2's event reads \"Scaled down … from 4 to 2\""},
			d:  newDeployment("web", 15, "v2", rolling(intStr(0), intStr(1)), revisionAnn(2), generation(2)),
			v1: 6, v2: 4, v1Max: 10, v2Max: 40, old: 10,
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=13", "ScaleReplicaSet web-v2 replicas=2", "UpdateDeploymentStatus web"},
			wantEvents: []string{"Normal ScalingReplicaSet: Scaled up replica set web-v1 from 6 to 13",
				"Normal ScalingReplicaSet: Scaled down replica set web-v2 from 4 to 2"},
			wantDesired: "15", wantMax: "15"},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		p := mustSync(t, proportionalState(c.d, c.v1, c.v2, c.v1Max, c.v2Max, c.old))
		checkPlan(t, p, c.wantActions, c.wantEvents, -1)
		if !hasNote(p, plan.NoteScalingEvent) {
			t.Errorf("no %s note: %v", plan.NoteScalingEvent, p.Notes)
		}
		for _, a := range p.Actions {
			if a.Kind != plan.ScaleReplicaSet && a.Kind != plan.UpdateReplicaSet {
				continue
			}
			if got := a.Update.Annotations; got[model.DesiredReplicasAnnotation] != c.wantDesired || got[model.MaxReplicasAnnotation] != c.wantMax {
				t.Errorf("%s annotations desired/max = %s/%s, want %s/%s", a.Object.Name,
					got[model.DesiredReplicasAnnotation], got[model.MaxReplicasAnnotation], c.wantDesired, c.wantMax)
			}
		}
	})
}

// TestScalingEventWedge: upstream quirk (a stale desired-replicas annotation wedges scaling). The only active ReplicaSet already has D
// pods but a stale desired-replicas annotation, so every sync is a scaling
// event, scale() returns early without refreshing the annotation, and the
// template change never rolls out.
func TestScalingEventWedge(t *testing.T) {
	d := newDeployment("web", 5, "v2", revisionAnn(1), generation(2),
		withStatus(depStatus(1, 5, 5, 5, 5, 0, availableCond(true, at(-time.Hour)))))
	old := replicasAnn(newRS(d, "v1", 1, 5, at(-time.Hour)), 3, 4)
	state := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old}, Now: t0}
	for sync := 1; sync <= 2; sync++ {
		p := mustSync(t, state, fixedHash("v2"))
		if !hasNote(p, plan.NoteScalingEvent) {
			t.Fatalf("sync %d: not a scaling event; notes %v", sync, p.Notes)
		}
		for _, a := range p.Actions {
			if a.Kind != plan.UpdateDeploymentStatus {
				t.Errorf("sync %d: unexpected %s (the wedge writes no ReplicaSet and creates nothing)", sync, a)
			}
		}
		if len(p.Actions) > 0 {
			state.Deployment = lastStatusWrite(t, state, p)
		}
		state.Now = state.Now.Add(time.Minute)
	}
}

// TestRecreateSeveralActiveReplicaSets: upstream quirk (Recreate with several active ReplicaSets ignores a replica change). A Recreate Deployment with
// two active ReplicaSets and a new replica count is a scaling event, and
// scale() has no Recreate branch: no ReplicaSet is written, every sync.
func TestRecreateSeveralActiveReplicaSets(t *testing.T) {
	d := newDeployment("web", 6, "v2", recreate(), revisionAnn(2), generation(3),
		withStatus(depStatus(2, 4, 2, 4, 4, 0, availableCond(true, at(-time.Hour)))))
	state := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{
		replicasAnn(newRS(d, "v1", 1, 2, at(-2*time.Hour)), 4, 4),
		replicasAnn(newRS(d, "v2", 2, 2, at(-time.Hour)), 4, 4),
	}, Now: t0}
	for sync := 1; sync <= 2; sync++ {
		p := mustSync(t, state)
		if !hasNote(p, plan.NoteRecreateMultipleActive) {
			t.Errorf("sync %d: no %s note: %v", sync, plan.NoteRecreateMultipleActive, p.Notes)
		}
		for _, a := range p.Actions {
			if a.Kind != plan.UpdateDeploymentStatus {
				t.Errorf("sync %d: unexpected %s", sync, a)
			}
		}
		if len(p.Events) != 0 {
			t.Errorf("sync %d: events %q", sync, events(p))
		}
		if len(p.Actions) > 0 {
			state.Deployment = lastStatusWrite(t, state, p)
		}
		state.Now = state.Now.Add(time.Minute)
	}
}

func TestScalingEventSpecialCases(t *testing.T) {
	type tc struct {
		why
		d                       *model.Deployment
		rss                     func(d *model.Deployment) []*model.ReplicaSet
		wantActions, wantEvents []string
		check                   func(t *testing.T, p plan.Plan)
	}
	prog := progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v2" is progressing.`, at(-time.Hour), at(-time.Hour))
	cases := []tc{
		{why: why{"saturated new RS drains old", "upstream scale: new RS 5/5 available with desired 5 is saturated → active old RSs to 0"},
			d: newDeployment("web", 5, "v2", revisionAnn(2), withStatus(depStatus(1, 7, 5, 7, 7, 0, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{
					replicasAnn(newRS(d, "v1", 1, 2, at(-2*time.Hour)), 4, 5),
					newRS(d, "v2", 2, 5, at(-time.Hour)),
				}
			},
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=0", "UpdateDeploymentStatus web"},
			wantEvents:  []string{"Normal ScalingReplicaSet: Scaled down replica set web-v1 from 2 to 0"}},
		{why: why{"nothing to add refreshes annotations", "upstream TestScale (sync_test.go) q via a sync: D 3→2 (surge 1): allowed 3 = current 3, v2 not saturated (0 available) → sizes kept, annotations rewritten old-first, no events"},
			d: newDeployment("web", 2, "v2", rolling(intStr(1), intStr(1)), revisionAnn(2), withStatus(depStatus(1, 3, 2, 1, 1, 1, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{
					replicasAnn(newRS(d, "v1", 1, 1, at(-2*time.Hour)), 3, 4),
					rsStatus(replicasAnn(newRS(d, "v2", 2, 2, at(-time.Hour)), 3, 4), 2, 0, 0),
				}
			},
			wantActions: []string{"UpdateReplicaSet web-v1 replicas=1", "UpdateReplicaSet web-v2 replicas=2", "UpdateDeploymentStatus web"},
			check: func(t *testing.T, p plan.Plan) {
				for _, a := range p.Actions[:2] {
					if got := a.Update.Annotations; got[model.DesiredReplicasAnnotation] != "2" || got[model.MaxReplicasAnnotation] != "3" {
						t.Errorf("%s annotations = %v, want desired 2, max 3", a.Object.Name, got)
					}
				}
			}},
		{why: why{"annotation refresh order", "upstream FindActiveOrLatest/scale: FindActiveOrLatest leaves old RSs newest first and toAdd 0 sorts nothing → b (newer), a, then the new RS"},
			d: newDeployment("web", 3, "v2", revisionAnn(3), withStatus(depStatus(1, 4, 2, 4, 4, 0, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{
					replicasAnn(newRS(d, "a", 1, 1, at(-3*time.Hour)), 4, 5),
					replicasAnn(newRS(d, "b", 2, 1, at(-2*time.Hour)), 4, 5),
					replicasAnn(newRS(d, "v2", 3, 2, at(-time.Hour)), 4, 5),
				}
			},
			wantActions: []string{"UpdateReplicaSet web-b replicas=1", "UpdateReplicaSet web-a replicas=1", "UpdateReplicaSet web-v2 replicas=2", "UpdateDeploymentStatus web"}},
		{why: why{"single active follows replicas", "upstream TestScale (sync_test.go) a: the only active RS goes 10→12"},
			d: newDeployment("web", 12, "v1", revisionAnn(1), withStatus(depStatus(1, 10, 10, 10, 10, 0, prog))),
			rss: func(d *model.Deployment) []*model.ReplicaSet {
				return []*model.ReplicaSet{replicasAnn(newRS(d, "v1", 1, 10, at(-time.Hour)), 10, 13)}
			},
			wantActions: []string{"ScaleReplicaSet web-v1 replicas=12", "UpdateDeploymentStatus web"},
			wantEvents:  []string{"Normal ScalingReplicaSet: Scaled up replica set web-v1 from 10 to 12"}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		p := mustSync(t, plan.State{Deployment: c.d, ReplicaSets: c.rss(c.d), Now: t0})
		checkPlan(t, p, c.wantActions, c.wantEvents, -1)
		if c.check != nil {
			c.check(t, p)
		}
	})
}

// TestProportionOptions: the two options that leave upstream's proportional
// arithmetic (defaults reproduce it).
func TestProportionOptions(t *testing.T) {
	sizes := func(p plan.Plan) map[string]int32 {
		out := map[string]int32{}
		for _, a := range p.Actions {
			if a.Kind == plan.ScaleReplicaSet || a.Kind == plan.UpdateReplicaSet {
				out[a.Object.Name] = a.Update.Replicas
			}
		}
		return out
	}
	type tc struct {
		why
		d                         *model.Deployment
		v1, v2, v1Max, v2Max, old int32
		opts                      []plan.Option
		want                      map[string]int32
		wantErr                   plan.ErrorKind // the kind of error the sync ends with, "" for none
	}
	overflowD := func() *model.Deployment {
		return newDeployment("web", 100000, "v2", rolling(intStr(0), intStr(1)), revisionAnn(2), generation(2))
	}
	flipD := func() *model.Deployment {
		return newDeployment("web", 15, "v2", rolling(intStr(0), intStr(1)), revisionAnn(2), generation(2))
	}
	cases := []tc{
		{why: why{"sign flip, default", "upstream quirk (proportional scaling anomalies) (derived): v1 +3 and leftover +4 → 13, v2 (max 40) −2 → 2 during a scale-up"},
			d: flipD(), v1: 6, v2: 4, v1Max: 10, v2Max: 40, old: 10, want: map[string]int32{"web-v1": 13, "web-v2": 2}},
		{why: why{"sign flip, monotonic", "MonotonicProportions: v2's −2 counts as 0 → v2 stays 4 (annotations refreshed), v1 +3 + leftover 2 → 11"},
			d: flipD(), v1: 6, v2: 4, v1Max: 10, v2Max: 40, old: 10, opts: []plan.Option{plan.MonotonicProportions()},
			want: map[string]int32{"web-v1": 11, "web-v2": 4}},
		{why: why{"int32 overflow, default", "upstream quirk (int32 overflow in proportional scaling): 40000·100000 wraps to −294967296; /80000 → −3687 → fraction −43687 for both; leftover 107374 to v2 (newer) → 103687, v1 → −3687"},
			d: overflowD(), v1: 40000, v2: 40000, v1Max: 80000, v2Max: 80000, old: 80000,
			want: map[string]int32{"web-v1": -3687, "web-v2": 103687}, wantErr: plan.ErrKindInvalid},
		{why: why{"int32 overflow, exact", "ExactProportions: 40000·100000/80000 = 50000 each"},
			d: overflowD(), v1: 40000, v2: 40000, v1Max: 80000, v2Max: 80000, old: 80000, opts: []plan.Option{plan.ExactProportions()},
			want: map[string]int32{"web-v1": 50000, "web-v2": 50000}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		s := proportionalState(c.d, c.v1, c.v2, c.v1Max, c.v2Max, c.old)
		p, serr := syncChecked(t, s, c.opts...)
		if diff := cmp.Diff(c.want, sizes(p)); diff != "" {
			t.Errorf("sizes (-want +got):\n%s", diff)
		}
		var gotErr plan.ErrorKind
		if serr != nil {
			gotErr = serr.Kind
		}
		assert.Equal(t, c.wantErr, gotErr, "the kind of error the sync ends with")
	})
}
