package plantest

import (
	"errors"
	"math"
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// QuirkInt32Wrap names upstream's int32 arithmetic near 2147483647: the
// scaled maxSurge is narrowed with int32(...), and replicas + maxSurge, the
// sums of spec.replicas and of status counts, and proportional scaling's
// products wrap, so upstream's writes follow wrapped numbers. A write the
// API server then rejects is marked (plan.Action.Invalid); the others
// (negative max-replicas annotations, for example) a server accepts. No
// option avoids it but plan.ExactProportions, for the products.
const QuirkInt32Wrap = "int32 wrap: upstream computes maxSurge, replicas + maxSurge, sums of sizes and status counts, and proportional products in int32, which wrap near 2147483647"

// wraps reports whether upstream's int32 arithmetic leaves int32 anywhere in
// this sync: the numbers it reads or writes are then wrapped ones.
func (c *check) wraps() bool {
	d := c.d
	if d.Spec.Strategy.Type == model.RollingUpdateStrategy && d.Spec.Strategy.RollingUpdate != nil {
		ru := d.Spec.Strategy.RollingUpdate
		for _, v := range []*model.IntOrString{ru.MaxSurge, ru.MaxUnavailable} {
			if v == nil {
				continue
			}
			if _, err := proportion.ScaledValue(v, c.desired, true); errors.Is(err, proportion.ErrOutOfRange) {
				return true
			}
		}
	}
	limit := int64(c.desired) + int64(c.surge)
	if outside(limit) {
		return true
	}
	proportional := c.proportional()
	var spec, replicas, ready, available, after int64
	for _, name := range c.names {
		s := c.byName[name]
		after += int64(c.after[name])
		if s.reset {
			continue
		}
		spec += int64(s.spec)
		replicas += int64(s.rs.Status.Replicas)
		ready += int64(s.rs.Status.ReadyReplicas)
		available += int64(s.rs.Status.AvailableReplicas)
		if proportional && outside(int64(s.spec)*max(limit, maxReplicasOf(s.rs))) {
			return true
		}
	}
	for _, n := range []int64{spec, replicas, ready, available, after} {
		if outside(n) {
			return true
		}
	}
	for _, a := range c.p.Actions {
		if a.Invalid != "" || a.ReplicaSet != nil && negativeReplicaAnnotation(a.ReplicaSet.Annotations) ||
			a.Update != nil && negativeReplicaAnnotation(a.Update.Annotations) {
			return true
		}
	}
	return false
}

func (c *check) proportional() bool {
	for _, a := range c.p.Actions {
		if a.Reason.Code == plan.ReasonProportional {
			return true
		}
	}
	return false
}

func outside(n int64) bool { return n < math.MinInt32 || n > math.MaxInt32 }

func maxReplicasOf(rs *model.ReplicaSet) int64 {
	n, err := strconv.ParseInt(rs.Annotations[model.MaxReplicasAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// negativeReplicaAnnotation reports a desired-replicas or max-replicas
// annotation that holds a negative number: only wrapped arithmetic writes
// one.
func negativeReplicaAnnotation(annotations map[string]string) bool {
	for _, k := range []string{model.DesiredReplicasAnnotation, model.MaxReplicasAnnotation} {
		if n, err := strconv.ParseInt(annotations[k], 10, 64); err == nil && n < 0 {
			return true
		}
	}
	return false
}
