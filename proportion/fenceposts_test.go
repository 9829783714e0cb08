package proportion

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestMaxUnavailable(t *testing.T) {
	type tc struct {
		why
		d    *model.Deployment
		want int32
	}
	cases := []tc{
		{why{"10 with 5", "upstream TestMaxUnavailable: absolute 5 of 10"}, rolling(10, intv(1), intv(5)), 5},
		{why{"10 with 10", "upstream TestMaxUnavailable: absolute 10 of 10"}, rolling(10, intv(1), intv(10)), 10},
		{why{"5 with 10 capped", "upstream TestMaxUnavailable: min(10, D=5)"}, rolling(5, intv(1), intv(10)), 5},
		{why{"0 replicas", "upstream TestMaxUnavailable: D = 0 ⇒ 0"}, rolling(0, intv(1), intv(10)), 0},
		{why{"recreate", "upstream TestMaxUnavailable: not a rolling update ⇒ 0"}, recreate(10), 0},
		{why{"10 with 50%", "upstream TestMaxUnavailable: floor(5) = 5"}, rolling(10, intv(1), strv("50%")), 5},
		{why{"10 with 100%", "upstream TestMaxUnavailable: floor(10) = 10"}, rolling(10, intv(1), strv("100%")), 10},
		{why{"5 with 100%", "upstream TestMaxUnavailable: floor(5) = 5"}, rolling(5, intv(1), strv("100%")), 5},
		{why{"25% of 10", "upstream ResolveFenceposts: floor(2.5) = 2"}, rolling(10, strv("25%"), strv("25%")), 2},
		{why{"both round to zero", "upstream ResolveFenceposts: 0 and floor(0.5) ⇒ unavailable 1"}, rolling(5, intv(0), strv("10%")), 1},
		{why{"invalid value", "upstream ResolveFenceposts: an error makes MaxUnavailable silently 0"}, rolling(10, strv("oops"), intv(3)), 0},
		{why{"nil deployment", "never panic: nil ⇒ 0"}, nil, 0},
		{why{"no rollingUpdate block", "fenceposts doc: a missing block reads as both unset ⇒ (0, 1)"}, func() *model.Deployment {
			d := rolling(10, nil, nil)
			d.Spec.Strategy.RollingUpdate = nil
			return d
		}(), 1},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		if got := MaxUnavailable(c.d); got != c.want {
			t.Fatalf("MaxUnavailable = %d, want %d", got, c.want)
		}
	})
}

func TestMinAvailable(t *testing.T) {
	type tc struct {
		why
		d    *model.Deployment
		want int32
	}
	cases := []tc{
		{why{"10 with 5", "upstream TestMinAvailable: 10 − 5"}, rolling(10, intv(1), intv(5)), 5},
		{why{"10 with 10", "upstream TestMinAvailable: 10 − 10"}, rolling(10, intv(1), intv(10)), 0},
		{why{"5 with 10", "upstream TestMinAvailable: 5 − min(10, 5)"}, rolling(5, intv(1), intv(10)), 0},
		{why{"0 replicas", "upstream TestMinAvailable: 0 − 0"}, rolling(0, intv(1), intv(10)), 0},
		{why{"recreate", "upstream TestMinAvailable: not a rolling update ⇒ 0"}, recreate(10), 0},
		{why{"10 with 60%", "upstream TestMinAvailable: 10 − floor(6)"}, rolling(10, intv(1), strv("60%")), 4},
		{why{"10 with 100%", "upstream TestMinAvailable: 10 − 10"}, rolling(10, intv(1), strv("100%")), 0},
		{why{"5 with 100%", "upstream TestMinAvailable: 5 − 5"}, rolling(5, intv(1), strv("100%")), 0},
		{why{"invalid value", "upstream ResolveFenceposts: MaxUnavailable falls back to 0, so all 10 must stay"}, rolling(10, intv(1), strv("x%")), 10},
		{why{"nil deployment", "never panic: nil ⇒ 0"}, nil, 0},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		if got := MinAvailable(c.d); got != c.want {
			t.Fatalf("MinAvailable = %d, want %d", got, c.want)
		}
	})
}

func TestMaxSurge(t *testing.T) {
	type tc struct {
		why
		d    *model.Deployment
		want int32
	}
	cases := []tc{
		{why{"25% of 10", "upstream ResolveFenceposts: ceil(2.5) = 3"}, rolling(10, strv("25%"), strv("25%")), 3},
		{why{"25% of 1", "upstream ResolveFenceposts: ceil(0.25) = 1"}, rolling(1, strv("25%"), strv("25%")), 1},
		{why{"not zeroed at D 0", "upstream ResolveFenceposts: an absolute surge of 3 stays 3 with D = 0"}, rolling(0, intv(3), intv(0)), 3},
		{why{"percent of D 0", "upstream ResolveFenceposts: 25% of 0 = 0"}, rolling(0, strv("25%"), intv(0)), 0},
		{why{"recreate", "upstream ResolveFenceposts: 0 for Recreate"}, recreate(10), 0},
		{why{"invalid surge", "upstream ResolveFenceposts: \"5\" without % ⇒ silently 0"}, rolling(10, strv("5"), intv(1)), 0},
		{why{"invalid unavailable", "upstream ResolveFenceposts: the pair is resolved together, so a bad maxUnavailable zeroes the surge too"}, rolling(10, intv(4), strv("oops")), 0},
		{why{"nil deployment", "never panic: nil ⇒ 0"}, nil, 0},
		{why{"unset replicas", "model: nil spec.replicas means 1; ceil(25% of 1) = 1"}, func() *model.Deployment {
			d := rolling(0, strv("25%"), intv(0))
			d.Spec.Replicas = nil
			return d
		}(), 1},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		if got := MaxSurge(c.d); got != c.want {
			t.Fatalf("MaxSurge = %d, want %d", got, c.want)
		}
	})
}
