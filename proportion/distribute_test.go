package proportion

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rolloutplan/rolloutplan/model"
)

// shareRow is the part of a Share a table states by hand.
type shareRow struct {
	name                           string
	from, to, proportion, leftover int32
}

func shareRows(dist Distribution) []shareRow {
	out := make([]shareRow, len(dist.Shares))
	for i, s := range dist.Shares {
		out[i] = shareRow{s.ReplicaSet.Name, s.From, s.To, s.Proportion, s.Leftover}
	}
	return out
}

func TestTwoConsecutiveScaleEvents(t *testing.T) {
	// worked example of two consecutive proportional scale events (KEP-5882 design table): maxSurge 10, sizes 60/30/20 sized under D 100 (max 110).
	rss := []*model.ReplicaSet{
		annotate(replicaSet("rs1", 60, minute(1)), 100, 110),
		annotate(replicaSet("rs2", 30, minute(2)), 100, 110),
		annotate(replicaSet("rs3", 20, minute(3)), 100, 110),
	}
	type step struct {
		why
		D     int32
		want  []shareRow
		total int32
	}
	steps := []step{
		{why{"scale to 120", "worked example of two consecutive proportional scale events (KEP-5882 design table): allowed 130, toAdd 20; 60·130/110=70.9→71, 35.45→35, 23.6→24"}, 120,
			[]shareRow{{"rs1", 60, 71, 11, 0}, {"rs2", 30, 35, 5, 0}, {"rs3", 20, 24, 4, 0}}, 130},
		{why{"scale to 130", "worked example of two consecutive proportional scale events (KEP-5882 design table): allowed 140, toAdd 10; 71·140/130=76.46→76, 37.7→38, 25.8→26"}, 130,
			[]shareRow{{"rs1", 71, 76, 5, 0}, {"rs2", 35, 38, 3, 0}, {"rs3", 24, 26, 2, 0}}, 140},
	}
	// The steps build on each other, so they run in sequence, not as
	// independent subtests.
	if err := checkCases(steps); err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		d := rolling(s.D, intv(10), intv(0))
		dist := Distribute(d, rss, Options{})
		if diff := cmp.Diff(s.want, shareRows(dist), cmp.AllowUnexported(shareRow{})); diff != "" {
			t.Fatalf("%s (%s): shares (-want +got):\n%s", s.name, s.reason, diff)
		}
		if got := dist.Total(); got != s.total {
			t.Fatalf("%s: total %d, want %d", s.name, got, s.total)
		}
		var writes []write
		for _, sh := range dist.Shares {
			writes = append(writes, write{sh.ReplicaSet.Name, sh.To, s.D, s.D + 10})
		}
		rss = applyWrites(rss, writes)
	}
}

func TestDistribute(t *testing.T) {
	type tc struct {
		why
		d      *model.Deployment
		active []*model.ReplicaSet
		opts   Options
		want   Distribution // Shares compared as shareRows
		rows   []shareRow
	}
	tenOnes := make([]*model.ReplicaSet, 10)
	for i := range tenOnes {
		tenOnes[i] = annotate(replicaSet(string(rune('a'+i)), 1, minute(i)), 10, 10)
	}
	cases := []tc{
		{why: why{"conformance blocked rollout scaled to 15", "conformance scenario proportional-scaling-blocked-rollout: D 10→15, surge 3; old 8 → round(8·18/13=11.08)=11, new 5 → round(6.92)=7"},
			d: rolling(15, intv(3), intv(2)),
			active: []*model.ReplicaSet{
				annotate(replicaSet("nginx-old", 8, minute(0)), 10, 13),
				annotate(replicaSet("nginx-new", 5, minute(5)), 10, 13),
			},
			want: Distribution{Allowed: 18, Current: 13, ToAdd: 5, Direction: ScaleUp},
			rows: []shareRow{{"nginx-old", 8, 11, 3, 0}, {"nginx-new", 5, 7, 2, 0}}},
		{why: why{"leftover clamped at zero", "upstream quirk (proportional scaling anomalies): ten RSs of 1, D 10→5: round(0.5)=1 ⇒ every fraction 0; leftover −5 on the oldest clamps at 0, total 9 = 5 + 4"},
			d: rolling(5, intv(0), intv(0)), active: tenOnes,
			want: Distribution{Allowed: 5, Current: 10, ToAdd: -5, Direction: ScaleDown},
			rows: []shareRow{{"a", 1, 0, 0, -5}, {"b", 1, 1, 0, 0}, {"c", 1, 1, 0, 0}, {"d", 1, 1, 0, 0}, {"e", 1, 1, 0, 0},
				{"f", 1, 1, 0, 0}, {"g", 1, 1, 0, 0}, {"h", 1, 1, 0, 0}, {"i", 1, 1, 0, 0}, {"j", 1, 1, 0, 0}}},
		{why: why{"sign flip during scale-up", "upstream quirk (proportional scaling anomalies), derived: D 10→12; v2 (max 10) round(7.2)=7 → +1; v1 (max 40) round(4·12/40=1.2)=1 → −3; leftover 2−(−2)=4 to v2"},
			d: rolling(12, intv(0), intv(0)),
			active: []*model.ReplicaSet{
				annotate(replicaSet("v1", 4, minute(1)), 40, 40),
				annotate(replicaSet("v2", 6, minute(2)), 10, 10),
			},
			want: Distribution{Allowed: 12, Current: 10, ToAdd: 2, Direction: ScaleUp},
			rows: []shareRow{{"v2", 6, 11, 1, 4}, {"v1", 4, 1, -3, 0}}},
		{why: why{"nothing to add keeps input order", "upstream scale: toAdd 0 ⇒ no sort, sizes unchanged, every RS still listed for the annotation refresh"},
			d: rolling(5, intv(1), intv(0)),
			active: []*model.ReplicaSet{
				annotate(replicaSet("small", 2, minute(1)), 5, 6),
				annotate(replicaSet("big", 4, minute(0)), 5, 6),
			},
			want: Distribution{Allowed: 6, Current: 6, ToAdd: 0, Direction: ""},
			rows: []shareRow{{"small", 2, 2, 0, 0}, {"big", 4, 4, 0, 0}}},
		{why: why{"nil and empty entries skipped", "upstream FilterActiveReplicaSets: nil and spec 0 are not active; upstream TestScale (sync_test.go) c numbers"},
			d: rolling(10, intv(0), intv(0)),
			active: []*model.ReplicaSet{
				nil,
				annotate(replicaSet("v2", 2, minute(2)), 5, 5),
				annotate(replicaSet("v0", 0, minute(0)), 5, 5),
				annotate(replicaSet("v1", 3, minute(1)), 5, 5),
			},
			want: Distribution{Allowed: 10, Current: 5, ToAdd: 5, Direction: ScaleUp},
			rows: []shareRow{{"v1", 3, 6, 3, 0}, {"v2", 2, 4, 2, 0}}},
		{why: why{"missing annotations fall back to status", "upstream getProportion/getReplicaSetFraction: no max-replicas ⇒ before = status.replicas 5; same numbers as upstream TestScale (sync_test.go) c"},
			d: func() *model.Deployment { d := rolling(10, intv(0), intv(0)); d.Status.Replicas = 5; return d }(),
			active: []*model.ReplicaSet{
				replicaSet("v2", 2, minute(2)),
				replicaSet("v1", 3, minute(1)),
			},
			want: Distribution{Allowed: 10, Current: 5, ToAdd: 5, Direction: ScaleUp},
			rows: []shareRow{{"v1", 3, 6, 3, 0}, {"v2", 2, 4, 2, 0}}},
		{why: why{"no annotations and no status", "upstream getProportion/getReplicaSetFraction: before 0 ⇒ fraction 0; the whole toAdd 5 is leftover on the largest"},
			d: rolling(10, intv(0), intv(0)),
			active: []*model.ReplicaSet{
				replicaSet("v2", 2, minute(2)),
				replicaSet("v1", 3, minute(1)),
			},
			want: Distribution{Allowed: 10, Current: 5, ToAdd: 5, Direction: ScaleUp},
			rows: []shareRow{{"v1", 3, 8, 0, 5}, {"v2", 2, 2, 0, 0}}},
		{why: why{"int32 product wraps", "upstream quirk (int32 overflow in proportional scaling): 44000·60000 wraps to −1654967296, /80000 → −20687 ⇒ fraction −64687, bounded to −20000: A pays it all"},
			d: rolling(60000, intv(0), intv(0)),
			active: []*model.ReplicaSet{
				annotate(replicaSet("A", 44000, minute(1)), 80000, 80000),
				annotate(replicaSet("B", 36000, minute(2)), 80000, 80000),
			},
			want: Distribution{Allowed: 60000, Current: 80000, ToAdd: -20000, Direction: ScaleDown},
			rows: []shareRow{{"A", 44000, 24000, -20000, 0}, {"B", 36000, 36000, 0, 0}}},
		{why: why{"exact product keeps the proportions", "Options.ExactProduct: 44000·60000/80000 = 33000 ⇒ −11000, 36000·60000/80000 = 27000 ⇒ −9000"},
			d: rolling(60000, intv(0), intv(0)),
			active: []*model.ReplicaSet{
				annotate(replicaSet("A", 44000, minute(1)), 80000, 80000),
				annotate(replicaSet("B", 36000, minute(2)), 80000, 80000),
			},
			opts: Options{ExactProduct: true},
			want: Distribution{Allowed: 60000, Current: 80000, ToAdd: -20000, Direction: ScaleDown},
			rows: []shareRow{{"A", 44000, 33000, -11000, 0}, {"B", 36000, 27000, -9000, 0}}},
		{why: why{"recreate does nothing", "upstream scale/quirk (Recreate with several active ReplicaSets ignores a replica change): scale() has no branch for Recreate with several active RSs"},
			d:      recreate(10),
			active: []*model.ReplicaSet{replicaSet("v2", 2, minute(2)), replicaSet("v1", 3, minute(1))},
			want:   Distribution{}},
		{why: why{"nothing active", "upstream scale with an empty list: totals only, no shares"},
			d:      rolling(4, intv(1), intv(0)),
			active: []*model.ReplicaSet{nil, replicaSet("v0", 0, minute(0))},
			want:   Distribution{Allowed: 5, Current: 0, ToAdd: 5, Direction: ""}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		got := Distribute(c.d, c.active, c.opts)
		if diff := cmp.Diff(c.rows, shareRows(got), cmp.AllowUnexported(shareRow{}), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("shares (-want +got):\n%s", diff)
		}
		got.Shares = nil
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("totals (-want +got):\n%s", diff)
		}
	})
}
