package proportion

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
)

// Sizes in these properties stay small enough (spec ≤ 200, D + surge ≤ 700)
// that no int32 product overflows; overflow is covered by the int32-overflow tables.

// genFencepost draws a value that passes apps/v1 validation: a non-negative
// integer or a percentage, at most 100% when capped.
func genFencepost(t *rapid.T, label string, capped bool) *model.IntOrString {
	if rapid.Bool().Draw(t, label+"IsPercent") {
		maxPct := 200
		if capped {
			maxPct = 100
		}
		v := model.FromString(strconv.Itoa(rapid.IntRange(0, maxPct).Draw(t, label+"Percent")) + "%")
		return &v
	}
	v := model.FromInt(rapid.Int32Range(0, 50).Draw(t, label+"Int"))
	return &v
}

func genDeployment(t *rapid.T) *model.Deployment {
	d := rolling(rapid.Int32Range(0, 300).Draw(t, "D"), genFencepost(t, "surge", false), genFencepost(t, "unavailable", true))
	d.Status.Replicas = rapid.Int32Range(0, 500).Draw(t, "statusReplicas")
	return d
}

// genAnnotation draws a max-replicas annotation from everything upstream may
// meet: absent, a plausible number, zero, or junk its parser rejects.
func genAnnotation(t *rapid.T, label string) (string, bool) {
	switch rapid.IntRange(0, 4).Draw(t, label+"Kind") {
	case 0:
		return "", false
	case 1:
		return strconv.Itoa(rapid.IntRange(0, 1000).Draw(t, label+"Num")), true
	case 2:
		return rapid.SampledFrom([]string{"0", "-5", "+5", " 7", "", "2147483648", "1e3"}).Draw(t, label+"Odd"), true
	default:
		return rapid.String().Draw(t, label+"Junk"), true
	}
}

// genReplicaSets draws up to 8 ReplicaSets with distinct names, creation
// times with many ties, some inactive (spec 0) and some nil entries.
// consistent gives every ReplicaSet a max-replicas annotation equal to the
// current total of the active ones, as after an undisturbed sizing.
func genReplicaSets(t *rapid.T, consistent bool) []*model.ReplicaSet {
	n := rapid.IntRange(0, 8).Draw(t, "n")
	out := make([]*model.ReplicaSet, 0, n)
	for i := range n {
		if rapid.IntRange(0, 9).Draw(t, fmt.Sprint("nil", i)) == 0 {
			out = append(out, nil)
			continue
		}
		spec := rapid.Int32Range(0, 200).Draw(t, fmt.Sprint("spec", i))
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprint("zero", i)) == 0 {
			spec = 0
		}
		rs := replicaSet(fmt.Sprintf("rs-%d", i), spec, minute(rapid.IntRange(0, 3).Draw(t, fmt.Sprint("created", i))))
		if !consistent {
			if v, ok := genAnnotation(t, fmt.Sprint("max", i)); ok {
				rs.Annotations = map[string]string{model.MaxReplicasAnnotation: v}
			}
		}
		out = append(out, rs)
	}
	if consistent {
		total := strconv.Itoa(int(ReplicaCount(FilterActiveReplicaSets(out))))
		for _, rs := range out {
			if rs != nil {
				rs.Annotations = map[string]string{model.MaxReplicasAnnotation: total}
			}
		}
	}
	return out
}

// checkDistribution checks what holds for every valid input, whatever the
// annotations say (design I6, minus the direction, which needs consistent
// annotations).
func checkDistribution(t *rapid.T, d *model.Deployment, in []*model.ReplicaSet, got Distribution) {
	active := FilterActiveReplicaSets(in)
	if len(got.Shares) != len(active) {
		t.Fatalf("%d shares for %d active ReplicaSets", len(got.Shares), len(active))
	}
	wantAllowed := int32(0)
	if d.DesiredReplicas() > 0 {
		wantAllowed = d.DesiredReplicas() + MaxSurge(d)
	}
	if got.Allowed != wantAllowed || got.Current != ReplicaCount(active) || got.ToAdd != got.Allowed-got.Current {
		t.Fatalf("totals %+v, want allowed %d current %d", got, wantAllowed, ReplicaCount(active))
	}
	if len(got.Shares) == 0 {
		return
	}
	wantDir := map[bool]string{true: ScaleUp}[got.ToAdd > 0] + map[bool]string{true: ScaleDown}[got.ToAdd < 0]
	if got.Direction != wantDir {
		t.Fatalf("direction %q for toAdd %d", got.Direction, got.ToAdd)
	}
	var order []*model.ReplicaSet
	for i, s := range got.Shares {
		order = append(order, s.ReplicaSet)
		if s.From != s.ReplicaSet.SpecReplicas() {
			t.Fatalf("share %d: From %d, spec %d", i, s.From, s.ReplicaSet.SpecReplicas())
		}
		if s.To < 0 {
			t.Fatalf("share %d (%s) goes to %d", i, s.ReplicaSet.Name, s.To)
		}
		raw := s.From + s.Proportion + s.Leftover
		if i > 0 && (s.Leftover != 0 || s.To != raw) || i == 0 && s.To != max(0, raw) {
			t.Fatalf("share %d: %+v is not From + Proportion + Leftover (clamped at 0 for the first)", i, s)
		}
	}
	switch {
	case got.ToAdd > 0:
		if !slices.IsSortedFunc(order, BySizeNewer) {
			t.Fatalf("scale-up order %v is not BySizeNewer", names(order))
		}
	case got.ToAdd < 0:
		if !slices.IsSortedFunc(order, BySizeOlder) {
			t.Fatalf("scale-down order %v is not BySizeOlder", names(order))
		}
	default:
		if !slices.Equal(order, active) {
			t.Fatalf("order %v, want the input order %v", names(order), names(active))
		}
	}
	// Conservation: the total lands on Allowed except for what the clamp
	// of the first share added back, and the clamp only acts on scale-downs.
	c := got.Clamped()
	if c < 0 || c > 0 && got.ToAdd >= 0 {
		t.Fatalf("clamped %d with toAdd %d", c, got.ToAdd)
	}
	if got.Total() != got.Allowed+c {
		t.Fatalf("total %d, want allowed %d + clamped %d", got.Total(), got.Allowed, c)
	}
}

func TestPropDistributeAnyAnnotations(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDeployment(t)
		rss := genReplicaSets(t, false)
		checkDistribution(t, d, rss, Distribute(d, rss, Options{}))
		checkDistribution(t, d, rss, Distribute(d, rss, Options{ExactProduct: true}))
	})
}

func TestPropDistributeConsistentAnnotationsMoveOneWay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDeployment(t)
		rss := genReplicaSets(t, true)
		got := Distribute(d, rss, Options{})
		checkDistribution(t, d, rss, got)
		for _, s := range got.Shares {
			if got.ToAdd > 0 && s.To < s.From || got.ToAdd < 0 && s.To > s.From || got.ToAdd == 0 && s.To != s.From {
				t.Fatalf("toAdd %d but %s moves %d → %d", got.ToAdd, s.ReplicaSet.Name, s.From, s.To)
			}
		}
	})
}

// The clamp is real, not a theoretical corner: it shows up with consistent
// annotations, so the property above must not assume Σ To == Allowed.
func TestPropClampHappensWithConsistentAnnotations(t *testing.T) {
	found := false
	for n := 2; n <= 20 && !found; n++ {
		rss := make([]*model.ReplicaSet, n)
		for i := range rss {
			rss[i] = annotate(replicaSet(fmt.Sprint("rs", i), 1, minute(i)), int32(n), int32(n))
		}
		for D := int32(1); D < int32(n); D++ {
			if dist := Distribute(rolling(D, intv(0), intv(0)), rss, Options{}); dist.Clamped() > 0 {
				found = true
				break
			}
		}
	}
	if !found {
		t.Fatal("no clamp among ReplicaSets of 1 replica; the clamp of upstream quirk (proportional scaling anomalies) is gone")
	}
}

func TestPropPermutationInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDeployment(t)
		rss := genReplicaSets(t, rapid.Bool().Draw(t, "consistent"))
		perm := rapid.Permutation(rss).Draw(t, "perm")
		a, b := Distribute(d, rss, Options{}), Distribute(d, perm, Options{})
		if a.ToAdd != 0 {
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("permuting the input changed the distribution (-orig +perm):\n%s", diff)
			}
		} else {
			// Nothing to add: upstream keeps (and writes in) the input
			// order, so only the sizes are order-free.
			key := func(s Share) string { return s.ReplicaSet.Name }
			as, bs := slices.Clone(a.Shares), slices.Clone(b.Shares)
			slices.SortFunc(as, func(x, y Share) int { return strings.Compare(key(x), key(y)) })
			slices.SortFunc(bs, func(x, y Share) int { return strings.Compare(key(x), key(y)) })
			if diff := cmp.Diff(as, bs); diff != "" {
				t.Fatalf("permuting the input changed the sizes (-orig +perm):\n%s", diff)
			}
		}
		if len(rss) > 0 {
			newRS, old := rss[0], rss[1:]
			permOld := rapid.Permutation(old).Draw(t, "permOld")
			if FindActiveOrLatest(newRS, old) != FindActiveOrLatest(newRS, permOld) {
				t.Fatalf("FindActiveOrLatest depends on the order of oldRSs")
			}
			if !slices.Equal(ScaleCandidates(newRS, old), ScaleCandidates(newRS, permOld)) {
				t.Fatalf("ScaleCandidates depends on the order of oldRSs")
			}
		}
	})
}

func TestPropInputsNotMutated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := genDeployment(t)
		rss := genReplicaSets(t, rapid.Bool().Draw(t, "consistent"))
		dBefore := d.DeepCopy()
		rssBefore := make([]*model.ReplicaSet, len(rss))
		for i, rs := range rss {
			rssBefore[i] = rs.DeepCopy()
		}
		ptrs := slices.Clone(rss)

		Distribute(d, rss, Options{})
		Distribute(d, rss, Options{ExactProduct: true})
		FilterActiveReplicaSets(rss)
		for _, order := range []func(a, b *model.ReplicaSet) int{ByCreationTimestamp, NewestFirst, BySizeOlder, BySizeNewer} {
			Sorted(rss, order)
		}
		MaxSurge(d)
		MaxUnavailable(d)
		MinAvailable(d)
		if len(rss) > 0 {
			FindActiveOrLatest(rss[0], rss[1:])
			ScaleCandidates(rss[0], rss[1:])
			_, _ = NewRSNewReplicas(d, rss, rss[0])
			for _, rs := range rss {
				ReplicaSetFraction(rs, d, Options{})
				GetProportion(rs, d, 3, 1, Options{})
			}
		}

		if !slices.Equal(ptrs, rss) {
			t.Fatalf("input slice reordered: %v, was %v", names(rss), names(ptrs))
		}
		if diff := cmp.Diff(dBefore, d); diff != "" {
			t.Fatalf("Deployment modified (-before +after):\n%s", diff)
		}
		if diff := cmp.Diff(rssBefore, rss); diff != "" {
			t.Fatalf("ReplicaSets modified (-before +after):\n%s", diff)
		}
	})
}

func TestPropResolveFenceposts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		surge, unav := genFencepost(t, "surge", false), genFencepost(t, "unavailable", true)
		d1 := rapid.Int32Range(0, 1_000_000).Draw(t, "d1")
		d2 := rapid.Int32Range(d1, 1_000_000).Draw(t, "d2")
		s1, u1, err1 := ResolveFenceposts(surge, unav, d1)
		s2, u2, err2 := ResolveFenceposts(surge, unav, d2)
		if err1 != nil || err2 != nil {
			t.Fatalf("valid fenceposts %v/%v failed: %v, %v", surge, unav, err1, err2)
		}
		for _, r := range []struct{ d, s, u int32 }{{d1, s1, u1}, {d2, s2, u2}} {
			if r.s < 0 || r.u < 0 || r.s == 0 && r.u == 0 {
				t.Fatalf("desired %d: (%d, %d) breaks surge ≥ 0, unavailable ≥ 0, not both 0", r.d, r.s, r.u)
			}
			// The pair is the two independent resolutions plus the both-zero rule.
			rs, _ := ScaledValue(surge, r.d, true)
			ru, _ := ScaledValue(unav, r.d, false)
			if rs != r.s || r.u != max(ru, map[bool]int32{true: 1}[rs == 0]) {
				t.Fatalf("desired %d: (%d, %d) vs ScaledValue (%d, %d)", r.d, r.s, r.u, rs, ru)
			}
			if unav.Type == model.String && ru > r.d {
				t.Fatalf("desired %d: percent unavailable %d exceeds it", r.d, ru)
			}
		}
		// Monotone in desired: surge and the raw unavailable; the pair's
		// sum too, although the both-zero rule can move 1 from unavailable
		// to surge (0%/10% → 1 unavailable at 5 replicas, 0 surge; 10%/10%
		// → at 0: (0,1), at 5: (1,0)).
		ru1, _ := ScaledValue(unav, d1, false)
		ru2, _ := ScaledValue(unav, d2, false)
		if s1 > s2 || ru1 > ru2 || s1+u1 > s2+u2 {
			t.Fatalf("not monotone: %d→%d gives surge %d→%d, unavailable %d→%d (raw %d→%d)", d1, d2, s1, s2, u1, u2, ru1, ru2)
		}
	})
}

func TestPropRoundingDirections(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.IntRange(0, 1000).Draw(t, "percent")
		total := rapid.Int32Range(0, 1_000_000).Draw(t, "total")
		v := model.FromString(strconv.Itoa(p) + "%")
		up, err1 := ScaledValue(&v, total, true)
		down, err2 := ScaledValue(&v, total, false)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		exact := int64(p)*int64(total)%100 == 0
		if up-down != map[bool]int32{false: 1}[exact] || int64(down) != int64(p)*int64(total)/100 {
			t.Fatalf("%d%% of %d: up %d, down %d", p, total, up, down)
		}
	})
}

// nativeScaled is upstream's formula run natively; on amd64 Go's own
// float-to-int conversion is the reference for the out-of-range cases.
func nativeScaled(n int64, total int32, roundUp bool) int64 {
	f := float64(n) * float64(total) / 100
	if roundUp {
		return int64(math.Ceil(f))
	}
	return int64(math.Floor(f))
}

func TestPropPercentMatchesUpstreamFloatFormula(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the reference for out-of-range conversions is amd64's")
	}
	rapid.Check(t, func(t *rapid.T) {
		total := rapid.Int32().Draw(t, "total")
		var n int64
		if rapid.Bool().Draw(t, "nearLimit") && total != 0 {
			// Straddle the 2^53 boundary between the integer and float paths.
			at := int64(absU64(int64(total)))
			n = exactFloatLimit/at + rapid.Int64Range(-3, 3).Draw(t, "delta")
			if rapid.Bool().Draw(t, "neg") {
				n = -n
			}
		} else {
			n = rapid.Int64().Draw(t, "n")
		}
		roundUp := rapid.Bool().Draw(t, "roundUp")
		if got, want := percentOf(n, total, roundUp), nativeScaled(n, total, roundUp); got != want {
			t.Fatalf("percentOf(%d, %d, %v) = %d, upstream's float formula gives %d", n, total, roundUp, got, want)
		}
	})
}

func TestPropRoundToInt32MatchesAMD64(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the reference is amd64's conversion")
	}
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Float64().Draw(t, "x")
		if got, want := RoundToInt32(x), int32(math.Round(x)); got != want {
			t.Fatalf("RoundToInt32(%v) = %d, amd64 int32(math.Round) = %d", x, got, want)
		}
	})
}
