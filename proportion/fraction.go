package proportion

import (
	"math"

	"github.com/rolloutplan/rolloutplan/model"
)

// Options adjusts proportional scaling. The zero value reproduces upstream
// exactly and is what a planner that must match the real controller uses.
type Options struct {
	// ExactProduct computes spec(rs)·(D + maxSurge) in [ReplicaSetFraction]
	// without int32 wrap-around.
	//
	// Upstream multiplies the two in int32, so the product wraps once it
	// passes 2,147,483,647: a ReplicaSet of 50,000 replicas scaled towards
	// 50,000 sees a negative product and is shrunk during a scale-up
	// (upstream quirk: int32 overflow in proportional scaling). With ExactProduct the sum and the product are formed
	// in 64-bit and float64 arithmetic (exact below 2^53), and a fraction
	// that does not fit int32 saturates instead of wrapping. The results
	// differ from upstream's only where upstream overflows, so the option
	// suits simulations of very large Deployments; leave it off to predict
	// what a real controller will do.
	ExactProduct bool

	// Monotonic keeps every share of [Distribute] in the direction of the
	// change: a proportion against it counts as 0.
	//
	// Upstream computes each ReplicaSet's proportion from its own
	// max-replicas annotation; ReplicaSets sized at different times carry
	// different ones, and a proportion can then have the opposite sign of
	// the overall change (upstream quirk: proportional scaling anomalies): a ReplicaSet grows during a
	// scale-down, and the total can end above replicas + maxSurge. The
	// leftover still goes to the first ReplicaSet, so the total is reached
	// as upstream reaches it. Leave it off to predict a real controller.
	Monotonic bool
}

// ReplicaSetFraction is upstream's getReplicaSetFraction: how many replicas
// rs should gain (positive) or lose (negative) so that it keeps its share of
// the Deployment when the Deployment's maximum size moves from "before" (the
// max-replicas annotation rs was last sized under) to D + [MaxSurge](d):
//
//	RoundToInt32(spec(rs)·(D + maxSurge) / before) − spec(rs)
//
// For example, 50 replicas sized under max 110, now D 120 with surge 10:
// 50·130/110 = 59.09, rounded 59, fraction +9. And 6 replicas under max 12,
// now D 10 with no surge: 6·10/12 = 5, fraction −1.
//
// Special cases, as upstream: D = 0 gives −spec(rs) (everything goes). A
// missing, unparsable (see [NonNegativeInt32Annotation]) or zero max-replicas
// annotation falls back to d.Status.Replicas, and if that is 0 the fraction
// is 0. A nil rs or d gives 0. The product wraps in int32 unless
// opts.ExactProduct is set.
func ReplicaSetFraction(rs *model.ReplicaSet, d *model.Deployment, opts Options) int32 {
	if rs == nil || d == nil {
		return 0
	}
	return fraction(rs, d, MaxSurge(d), opts)
}

// fraction is ReplicaSetFraction with maxSurge already resolved, so that
// Distribute resolves the fenceposts once rather than once per ReplicaSet.
func fraction(rs *model.ReplicaSet, d *model.Deployment, surge int32, opts Options) int32 {
	spec := rs.SpecReplicas()
	desired := d.DesiredReplicas()
	if desired == 0 {
		return -spec
	}
	before, ok := NonNegativeInt32Annotation(rs.Annotations, model.MaxReplicasAnnotation)
	if !ok || before == 0 {
		before = d.Status.Replicas
		if before == 0 {
			return 0
		}
	}
	if opts.ExactProduct {
		x := float64(spec) * float64(int64(desired)+int64(surge)) / float64(before)
		r := math.Round(x) - float64(spec)
		return int32(max(math.MinInt32, min(math.MaxInt32, r)))
	}
	return RoundToInt32(float64(spec*(desired+surge))/float64(before)) - spec
}

// GetProportion is upstream's GetReplicaSetProportion: the change for rs
// while a scaling event has toAdd replicas to distribute in total and
// added of them already given to earlier ReplicaSets. It is rs's
// [ReplicaSetFraction], bounded by what is left (toAdd − added): at most that
// much when scaling up, at least that much (i.e. no more removed) when
// scaling down.
//
// For example, scaling a Deployment from 5 to 10 replicas with ReplicaSets of
// 3 and 2 (max-replicas 5): toAdd 5; the first gets min(round(3·10/5)−3, 5) =
// 3, the second min(2, 5−3) = 2.
//
// It returns 0 when rs is nil, has 0 replicas, toAdd is 0, or everything is
// already added (toAdd == added); also when d is nil. The bound limits the
// magnitude only: if annotations disagree, a fraction may have the opposite
// sign to toAdd and is returned as is (upstream quirk: proportional scaling anomalies).
func GetProportion(rs *model.ReplicaSet, d *model.Deployment, toAdd, added int32, opts Options) int32 {
	if rs == nil || d == nil {
		return 0
	}
	return proportion(rs, d, MaxSurge(d), toAdd, added, opts)
}

func proportion(rs *model.ReplicaSet, d *model.Deployment, surge, toAdd, added int32, opts Options) int32 {
	if rs.SpecReplicas() == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	f := fraction(rs, d, surge, opts)
	left := toAdd - added
	if toAdd > 0 {
		return min(f, left)
	}
	return max(f, left)
}
