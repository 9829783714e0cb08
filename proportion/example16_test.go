package proportion

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
)

type rsRow struct {
	name string
	spec int32
}

// ex16 is one row of upstream TestScale (deployment controller, sync_test.go).
// As in upstream's helper, every ReplicaSet is annotated as sized by the old
// Deployment (desired = old D, max = old D + old surge) unless desiredAnn
// overrides its desired size, and has all its replicas available unless
// listed in unavailable.
type ex16 struct {
	why
	oldD, newD         int32
	oldSurge, newSurge int32
	unav               int32
	newRS              string  // "" when there is no new ReplicaSet
	rss                []rsRow // newest first
	desiredAnn         map[string]int32
	unavailable        []string
	want               map[string]int32 // every ReplicaSet's size afterwards
	writes             []string         // ReplicaSets updated, in order
}

func (c ex16) build() (d *model.Deployment, newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet) {
	old := rolling(c.oldD, intv(c.oldSurge), intv(c.unav))
	d = rolling(c.newD, intv(c.newSurge), intv(c.unav))
	for i, r := range c.rss {
		rs := replicaSet(r.name, r.spec, minute(len(c.rss)-i))
		desired := c.oldD
		if v, ok := c.desiredAnn[r.name]; ok {
			desired = v
		}
		annotate(rs, desired, desired+MaxSurge(old))
		for _, u := range c.unavailable {
			if u == r.name {
				rs.Status.AvailableReplicas = 0
			}
		}
		if r.name == c.newRS {
			newRS = rs
		} else {
			oldRSs = append(oldRSs, rs)
		}
	}
	return d, newRS, oldRSs
}

func TestProportionalScaling(t *testing.T) {
	cases := []ex16{
		{why: why{"a normal scaling event up", "upstream TestScale (sync_test.go) a: one active RS is resized to D by FindActiveOrLatest"},
			oldD: 10, newD: 12, newRS: "v1", rss: []rsRow{{"v1", 10}},
			want: map[string]int32{"v1": 12}, writes: []string{"v1"}},
		{why: why{"b normal scaling event down", "upstream TestScale (sync_test.go) b: one active RS is resized to D"},
			oldD: 10, newD: 5, newRS: "v1", rss: []rsRow{{"v1", 10}},
			want: map[string]int32{"v1": 5}, writes: []string{"v1"}},
		{why: why{"c proportional up", "upstream TestScale (sync_test.go) c: toAdd 5, v1 round(3·10/5)−3=3, v2 round(2·10/5)−2=2"},
			oldD: 5, newD: 10, newRS: "v2", rss: []rsRow{{"v2", 2}, {"v1", 3}},
			want: map[string]int32{"v2": 4, "v1": 6}, writes: []string{"v1", "v2"}},
		{why: why{"d proportional down", "upstream TestScale (sync_test.go) d: toAdd −2, v1 round(1.8)=2 → −1, v2 round(1.2)=1 → −1"},
			oldD: 5, newD: 3, newRS: "v2", rss: []rsRow{{"v2", 2}, {"v1", 3}},
			want: map[string]int32{"v2": 1, "v1": 2}, writes: []string{"v1", "v2"}},
		{why: why{"e proportional down to zero for the small RS", "upstream TestScale (sync_test.go) e: toAdd −5, v2 round(8·4/9=3.56)=4 → −4, v1 round(0.44)=0 → −1"},
			oldD: 9, newD: 4, newRS: "v2", rss: []rsRow{{"v2", 8}, {"v1", 1}},
			want: map[string]int32{"v2": 4, "v1": 0}, writes: []string{"v2", "v1"}},
		{why: why{"f proportional up three RSs", "upstream TestScale (sync_test.go) f: toAdd 3, BySizeNewer v2, v3, v1; round(4.29)=4, round(2.86)=3 → +1 each"},
			oldD: 7, newD: 10, newRS: "v3", rss: []rsRow{{"v3", 2}, {"v2", 3}, {"v1", 2}},
			want: map[string]int32{"v3": 3, "v2": 4, "v1": 3}, writes: []string{"v2", "v3", "v1"}},
		{why: why{"g proportional down three RSs", "upstream TestScale (sync_test.go) g: toAdd −5, BySizeOlder v2, v1, v3; round(4.92)=5 → −3, round(1.85)=2 → −1, round(1.23)=1 → −1"},
			oldD: 13, newD: 8, newRS: "v3", rss: []rsRow{{"v3", 2}, {"v2", 8}, {"v1", 3}},
			want: map[string]int32{"v3": 1, "v2": 5, "v1": 2}, writes: []string{"v2", "v1", "v3"}},
		{why: why{"h leftover up goes to the newest", "upstream TestScale (sync_test.go) h: round(4/3)=1 → 0 each; leftover +1 to index 0 = newest v3"},
			oldD: 3, newD: 4, newRS: "v3", rss: []rsRow{{"v3", 1}, {"v2", 1}, {"v1", 1}},
			want: map[string]int32{"v3": 2, "v2": 1, "v1": 1}, writes: []string{"v3", "v2", "v1"}},
		{why: why{"i leftover down comes from the oldest", "upstream TestScale (sync_test.go) i: round(2/3)=1 → 0 each; leftover −1 to index 0 = oldest v1"},
			oldD: 3, newD: 2, newRS: "v3", rss: []rsRow{{"v3", 1}, {"v2", 1}, {"v1", 1}},
			want: map[string]int32{"v3": 1, "v2": 1, "v1": 0}, writes: []string{"v1", "v2", "v3"}},
		{why: why{"j no new RS and a half", "upstream TestScale (sync_test.go) j: round(2·5/4=2.5)=3 half away from zero → v2 +1, budget then spent"},
			oldD: 4, newD: 5, rss: []rsRow{{"v2", 2}, {"v1", 2}},
			want: map[string]int32{"v2": 3, "v1": 2}, writes: []string{"v2", "v1"}},
		{why: why{"k scale to zero", "upstream TestScale (sync_test.go) k: D 0 ⇒ allowed 0 and every fraction is −spec"},
			oldD: 6, newD: 0, newRS: "v3", rss: []rsRow{{"v3", 3}, {"v2", 2}, {"v1", 1}},
			want: map[string]int32{"v3": 0, "v2": 0, "v1": 0}, writes: []string{"v3", "v2", "v1"}},
		{why: why{"l scale up from zero", "upstream TestScale (sync_test.go) l: nothing active ⇒ FindActiveOrLatest picks the new RS, which alone gets D"},
			oldD: 6, newD: 6, newRS: "v3", rss: []rsRow{{"v3", 0}, {"v2", 0}, {"v1", 0}},
			want: map[string]int32{"v3": 6, "v2": 0, "v1": 0}, writes: []string{"v3"}},
		{why: why{"m failed rs update", "upstream TestScale (sync_test.go) m: v3 round(2·5/5)−2=0, v2 (max 3) round(1.67)=2 → +1, v1 budget spent; only v2 written"},
			oldD: 5, newD: 5, newRS: "v3", rss: []rsRow{{"v3", 2}, {"v2", 1}, {"v1", 1}},
			desiredAnn: map[string]int32{"v2": 3},
			want:       map[string]int32{"v3": 2, "v2": 2, "v1": 1}, writes: []string{"v2"}},
		{why: why{"n scale up with surge", "upstream TestScale (sync_test.go) n: allowed 22, toAdd 10, round(6·22/12)=11 → +5 each"},
			oldD: 10, newD: 20, oldSurge: 2, newSurge: 2, newRS: "v2", rss: []rsRow{{"v2", 6}, {"v1", 6}},
			want: map[string]int32{"v2": 11, "v1": 11}, writes: []string{"v2", "v1"}},
		{why: why{"o scale up with surge change", "upstream TestScale (sync_test.go) o: allowed 56, toAdd 43; v1 round(34.46)=34 → +26, v2 round(21.54)=22 → +17"},
			oldD: 10, newD: 50, oldSurge: 3, newSurge: 6, newRS: "v2", rss: []rsRow{{"v2", 5}, {"v1", 8}},
			want: map[string]int32{"v2": 22, "v1": 34}, writes: []string{"v1", "v2"}},
		{why: why{"p size and template change", "upstream TestScale (sync_test.go) p: no new RS yet; allowed 14, v2 round(9.8)=10 → +3, v1 round(4.2)=4 → +1"},
			oldD: 10, newD: 14, rss: []rsRow{{"v2", 7}, {"v1", 3}},
			want: map[string]int32{"v2": 10, "v1": 4}, writes: []string{"v2", "v1"}},
		{why: why{"q saturated but broken new RS", "upstream TestScale (sync_test.go) q: not saturated (0 available); allowed 3 = current ⇒ toAdd 0, annotations current ⇒ no writes"},
			oldD: 2, newD: 2, oldSurge: 1, newSurge: 1, unav: 1, newRS: "v2", rss: []rsRow{{"v2", 2}, {"v1", 1}},
			unavailable: []string{"v2"},
			want:        map[string]int32{"v2": 2, "v1": 1}, writes: nil},
	}
	runCases(t, cases, func(t *testing.T, c ex16) {
		d, newRS, oldRSs := c.build()
		writes := simulateScale(d, newRS, oldRSs, Options{})
		var gotWrites []string
		for _, w := range writes {
			gotWrites = append(gotWrites, w.name)
		}
		if diff := cmp.Diff(c.writes, gotWrites); diff != "" {
			t.Errorf("writes (-want +got):\n%s", diff)
		}
		got := map[string]int32{}
		for _, rs := range applyWrites(append(oldRSs, newRS), writes) {
			if rs != nil {
				got[rs.Name] = rs.SpecReplicas()
			}
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("sizes after scale() (-want +got):\n%s", diff)
		}
	})
}
