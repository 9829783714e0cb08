package proportion

import (
	"math"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestReplicaSetFraction(t *testing.T) {
	type tc struct {
		why
		D, surge, status, spec int32
		maxAnn                 string // "" = no annotation
		want                   int32
	}
	cases := []tc{
		{why{"scale to zero", "upstream TestGetReplicaSetFraction: D 0 ⇒ −spec"}, 0, 0, 0, 10, "", -10},
		{why{"missing annotation no status", "upstream TestGetReplicaSetFraction: fallback status 0 ⇒ 0"}, 10, 0, 0, 5, "", 0},
		{why{"zero annotation no status", "upstream TestGetReplicaSetFraction: \"0\" falls back to status 0 ⇒ 0"}, 10, 0, 0, 5, "0", 0},
		{why{"missing annotation uses status", "upstream TestGetReplicaSetFraction: 50·120/100 = 60 ⇒ +10"}, 120, 0, 100, 50, "", 10},
		{why{"zero annotation uses status", "upstream TestGetReplicaSetFraction: 50·120/100 = 60 ⇒ +10"}, 120, 0, 100, 50, "0", 10},
		{why{"annotation 100", "upstream TestGetReplicaSetFraction: 50·120/100 = 60 ⇒ +10"}, 120, 0, 0, 50, "100", 10},
		{why{"with surge", "upstream TestGetReplicaSetFraction: 50·130/110 = 59.09 → 59 ⇒ +9"}, 120, 10, 0, 50, "110", 9},
		{why{"scale down", "upstream TestGetReplicaSetFraction: 6·10/12 = 5 ⇒ −1"}, 10, 0, 0, 6, "12", -1},
		{why{"scale down with surge", "upstream TestGetReplicaSetFraction: 50·110/130 = 42.3 → 42 ⇒ −8"}, 100, 10, 0, 50, "130", -8},
		{why{"invalid annotation uses status", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): \"-1\" is rejected ⇒ status 100"}, 120, 0, 100, 50, "-1", 10},
		{why{"half rounds away from zero", "upstream RoundToInt32 rounds half away from zero: 2·5/4 = 2.5 → 3 ⇒ +1"}, 5, 0, 0, 2, "4", 1},
		{why{"half on a scale-down", "upstream RoundToInt32 rounds half away from zero: 5·3/6 = 2.5 → 3 ⇒ 3−5 = −2"}, 3, 0, 0, 5, "6", -2},
		{why{"int32 sum wraps", "upstream quirk (int32 overflow in proportional scaling): D+surge = 2147483647+10 wraps to −2147483639; 1·that/1 − 1 = −2147483640"}, math.MaxInt32, 10, 0, 1, "1", -2147483640},
		{why{"int32 product wraps", "upstream quirk (int32 overflow in proportional scaling): 50000·50000 wraps to −1794967296, /40000 = −44874.18 → −44874 ⇒ −94874"}, 50000, 0, 0, 50000, "40000", -94874},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := rolling(c.D, intv(c.surge), intv(1))
		d.Status.Replicas = c.status
		rs := replicaSet("rs", c.spec, minute(0))
		if c.maxAnn != "" {
			rs.Annotations = map[string]string{model.MaxReplicasAnnotation: c.maxAnn}
		}
		if got := ReplicaSetFraction(rs, d, Options{}); got != c.want {
			t.Fatalf("ReplicaSetFraction = %d, want %d", got, c.want)
		}
	})
}

func TestReplicaSetFractionExactProduct(t *testing.T) {
	type tc struct {
		why
		D, surge, spec int32
		maxAnn         string
		want           int32
	}
	cases := []tc{
		{why{"no wrap", "ExactProduct option against upstream quirk (int32 overflow in proportional scaling): 50000·50000/40000 = 62500 ⇒ +12500"}, 50000, 0, 50000, "40000", 12500},
		{why{"sum wraps too", "option: D+surge = 2147483647+10 computed in 64 bits; 1·2147483657/1 saturates to MaxInt32"}, math.MaxInt32, 10, 1, "1", math.MaxInt32},
		{why{"small numbers unchanged", "option changes nothing without overflow: 50·130/110 → 59 ⇒ +9"}, 120, 10, 50, "110", 9},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := rolling(c.D, intv(c.surge), intv(1))
		rs := replicaSet("rs", c.spec, minute(0))
		rs.Annotations = map[string]string{model.MaxReplicasAnnotation: c.maxAnn}
		if got := ReplicaSetFraction(rs, d, Options{ExactProduct: true}); got != c.want {
			t.Fatalf("ReplicaSetFraction(exact) = %d, want %d", got, c.want)
		}
	})
}

func TestGetProportion(t *testing.T) {
	type tc struct {
		why
		rs           *model.ReplicaSet
		d            *model.Deployment
		toAdd, added int32
		want         int32
	}
	// up: 3 replicas sized under max 5, D now 10 ⇒ fraction round(6)−3 = +3.
	up := annotate(replicaSet("up", 3, minute(0)), 5, 5)
	d10 := rolling(10, intv(0), intv(0))
	// down: 3 replicas under max 5, D now 3 ⇒ round(1.8)−3 = −1.
	d3 := rolling(3, intv(0), intv(0))
	// flip: 4 replicas under max 40, D now 12 ⇒ round(1.2)−4 = −3.
	flip := annotate(replicaSet("flip", 4, minute(0)), 40, 40)
	d12 := rolling(12, intv(0), intv(0))
	// grow: 50 replicas under max 110, D 120 + surge 10 ⇒ +9.
	grow := annotate(replicaSet("grow", 50, minute(0)), 100, 110)
	d120 := rolling(120, intv(10), intv(1))
	cases := []tc{
		{why{"fraction fits", "upstream getProportion/getReplicaSetFraction: min(+3, 5−0) = 3 (upstream TestScale (sync_test.go) c)"}, up, d10, 5, 0, 3},
		{why{"bounded by what is left", "upstream getProportion/getReplicaSetFraction: min(+3, 5−3) = 2"}, up, d10, 5, 3, 2},
		{why{"down fits", "upstream getProportion/getReplicaSetFraction: max(−1, −2) = −1 (upstream TestScale (sync_test.go) d)"}, up, d3, -2, 0, -1},
		{why{"down bounded", "upstream getProportion/getReplicaSetFraction: toAdd −5, added −4 ⇒ max(−1, −1) = −1"}, up, d3, -5, -4, -1},
		{why{"sign flip up", "upstream quirk (proportional scaling anomalies): fraction −3 during a scale-up is returned: min(−3, 2) = −3"}, flip, d12, 2, 0, -3},
		{why{"sign flip down", "upstream quirk (proportional scaling anomalies): fraction +9 during a scale-down: max(+9, −3) = +9"}, grow, d120, -3, 0, 9},
		{why{"nothing to add", "upstream getProportion/getReplicaSetFraction: toAdd 0 ⇒ 0"}, up, d10, 0, 0, 0},
		{why{"all added", "upstream getProportion/getReplicaSetFraction: toAdd == added ⇒ 0"}, up, d10, 5, 5, 0},
		{why{"empty RS", "upstream getProportion/getReplicaSetFraction: spec 0 ⇒ 0"}, replicaSet("zero", 0, minute(0)), d10, 5, 0, 0},
		{why{"nil RS", "upstream getProportion/getReplicaSetFraction: rs nil ⇒ 0"}, nil, d10, 5, 0, 0},
		{why{"nil deployment", "never panic ⇒ 0"}, up, nil, 5, 0, 0},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		if got := GetProportion(c.rs, c.d, c.toAdd, c.added, Options{}); got != c.want {
			t.Fatalf("GetProportion = %d, want %d", got, c.want)
		}
	})
}

func TestRoundToInt32(t *testing.T) {
	type tc struct {
		why
		x    float64
		want int32
	}
	cases := []tc{
		{why{"2.5", "upstream RoundToInt32: half away from zero"}, 2.5, 3},
		{why{"-2.5", "upstream RoundToInt32: half away from zero"}, -2.5, -3},
		{why{"0.5", "upstream RoundToInt32: round(0.5) = 1 (the clamp example of upstream quirk: proportional scaling anomalies)"}, 0.5, 1},
		{why{"-0.5", "upstream RoundToInt32: −1"}, -0.5, -1},
		{why{"1.49", "nearest"}, 1.49, 1},
		{why{"59.09", "upstream TestGetReplicaSetFraction"}, 59.09, 59},
		{why{"42.3", "upstream TestGetReplicaSetFraction"}, 42.3, 42},
		{why{"max", "fits int32"}, math.MaxInt32, math.MaxInt32},
		{why{"min", "fits int32"}, math.MinInt32, math.MinInt32},
		{why{"just above", "2147483647.5 rounds to 2^31: out of range ⇒ MinInt32 (amd64)"}, 2147483647.5, math.MinInt32},
		{why{"far below", "out of range ⇒ MinInt32 (amd64)"}, -1e12, math.MinInt32},
		{why{"NaN", "amd64 converts NaN to MinInt32"}, math.NaN(), math.MinInt32},
		{why{"+Inf", "out of range ⇒ MinInt32 (amd64)"}, math.Inf(1), math.MinInt32},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		if got := RoundToInt32(c.x); got != c.want {
			t.Fatalf("RoundToInt32(%v) = %d, want %d", c.x, got, c.want)
		}
	})
}
