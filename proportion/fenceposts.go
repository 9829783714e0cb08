package proportion

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// ResolveFenceposts resolves maxSurge (rounding up) and maxUnavailable
// (rounding down) against desired, the Deployment's spec.replicas. A nil
// value counts as 0. If both resolve to 0 the rollout could never move, so
// unavailable becomes 1.
//
// For example, with desired 10: "25%"/"25%" gives surge 3, unavailable 2;
// "39%"/"39%" gives 4 and 3; nil/nil gives 0 and 1. With desired 5,
// 0/"10%" gives 0 and 1 (10% of 5 rounds down to 0). Validation rejects
// fenceposts that are literally both zero, not ones that round to zero.
//
// A resolved value beyond int32 is narrowed the way upstream's int32(...)
// conversion does, keeping the low 32 bits: "2147483647%" of 65536 replicas
// is 1407374882735, narrowed to -1374324654. An error names the field (see
// [FieldMaxSurge], [FieldMaxUnavailable]) and wraps the reason from
// [ScaledValue] (an unparsable percentage, say); surge and unavailable are
// then 0.
func ResolveFenceposts(maxSurge, maxUnavailable *model.IntOrString, desired int32) (surge, unavailable int32, err error) {
	// An unset fencepost counts as the integer 0, as upstream's
	// ValueOrDefault(v, 0).
	zero := model.FromInt(0)
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	s, err := scaled(maxSurge, desired, true, FieldMaxSurge)
	if err != nil {
		return 0, 0, err
	}
	u, err := scaled(maxUnavailable, desired, false, FieldMaxUnavailable)
	if err != nil {
		return 0, 0, err
	}
	// The both-zero rule looks at the Go ints, before the narrowing.
	if s == 0 && u == 0 {
		u = 1
	}
	// Upstream narrows with int32(...): a value beyond int32 keeps its low
	// 32 bits (a maxSurge of "2147483647%" of 65536 replicas becomes
	// -1374324654).
	return int32(s), int32(u), nil
}

// fenceposts resolves d's fenceposts, or reports that d is not a rolling
// update. A RollingUpdate Deployment without a rollingUpdate block (which
// upstream would dereference and crash on, and validation rejects) is read
// as having both fenceposts unset.
func fenceposts(d *model.Deployment) (surge, unavailable int32, ok bool) {
	if d == nil || d.Spec.Strategy.Type != model.RollingUpdateStrategy {
		return 0, 0, false
	}
	var ms, mu *model.IntOrString
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		ms, mu = ru.MaxSurge, ru.MaxUnavailable
	}
	s, u, err := ResolveFenceposts(ms, mu, d.DesiredReplicas())
	if err != nil {
		// Upstream ignores the error here (validation is expected to have
		// caught it) and works with zeros.
		return 0, 0, true
	}
	return s, u, true
}

// MaxSurge returns how many pods above spec.replicas a rolling update may
// run: the resolved maxSurge, or 0 for a Recreate Deployment, a nil d, or an
// unresolvable value (validation normally rules those out; upstream silently
// uses 0 too).
//
// It is not zeroed when spec.replicas is 0: an absolute surge of 3 stays 3.
// For example, maxSurge "25%" with 10 replicas gives 3, with 1 replica 1.
func MaxSurge(d *model.Deployment) int32 {
	s, _, _ := fenceposts(d)
	return s
}

// MaxUnavailable returns how many of spec.replicas may be unavailable during
// a rolling update: the resolved maxUnavailable capped at spec.replicas. It
// is 0 for a Recreate Deployment, a nil d, spec.replicas 0, or an
// unresolvable value.
//
// For example, with 10 replicas "25%" gives 2 and 5 gives 5; with 5
// replicas an absolute 10 is capped to 5.
func MaxUnavailable(d *model.Deployment) int32 {
	_, u, ok := fenceposts(d)
	if !ok {
		return 0
	}
	desired := d.DesiredReplicas()
	if desired == 0 {
		return 0
	}
	return min(u, desired)
}

// MinAvailable returns how many pods must stay available during a rolling
// update: spec.replicas − [MaxUnavailable], or 0 for a Recreate Deployment
// or a nil d. For example, 10 replicas with maxUnavailable "60%" gives 4.
func MinAvailable(d *model.Deployment) int32 {
	if d == nil || d.Spec.Strategy.Type != model.RollingUpdateStrategy {
		return 0
	}
	return d.DesiredReplicas() - MaxUnavailable(d)
}
