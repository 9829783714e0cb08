package proportion

import (
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// Scaling directions reported in [Distribution.Direction]; upstream puts
// them in its "Scaled up/down replica set" events.
const (
	ScaleUp   = "up"
	ScaleDown = "down"
)

// Share is one ReplicaSet's part in a proportional scaling step: it goes from
// From (its spec.replicas) to To. Proportion is what [GetProportion] gave it
// (0 when there was nothing to distribute). Leftover is non-zero only on the
// first share: the rounding remainder ToAdd − Σ Proportion, which upstream
// gives to that ReplicaSet. So To = From + Proportion + Leftover, except that
// To is never made negative: the first share is clamped at 0, and the
// clamped amount is lost (an upstream quirk of proportional scaling, see [Distribution.Clamped]).
type Share struct {
	ReplicaSet *model.ReplicaSet
	From, To   int32
	Proportion int32
	Leftover   int32
}

// Distribution is the outcome of [Distribute]. Allowed is the size the
// Deployment may have (D + maxSurge, or 0 when D is 0), Current the sum of
// the active ReplicaSets, ToAdd = Allowed − Current, Direction [ScaleUp],
// [ScaleDown] or "" when ToAdd is 0. Shares lists every active ReplicaSet
// once, in the order upstream writes them; upstream writes each of them,
// even one whose size does not change, to refresh its replica annotations.
// Share.ReplicaSet points at the caller's object, which is never modified.
type Distribution struct {
	Allowed, Current, ToAdd int32
	Direction               string
	Shares                  []Share
}

// Total returns Σ To over the shares (in int32, wrapping as upstream's sums
// do). When there is at least one share it equals Allowed +
// [Distribution.Clamped], exactly, even where the arithmetic wraps.
func (d Distribution) Total() int32 {
	var t int32
	for _, s := range d.Shares {
		t += s.To
	}
	return t
}

// Clamped returns how many replicas the clamp at 0 added back: when the
// leftover would take the first ReplicaSet below zero, upstream stops it at
// zero without taking the rest from anyone else, so the total ends above
// Allowed by this much. For input without int32 overflow it is 0 unless
// ToAdd < 0: when scaling up the leftover is never negative.
//
// For example, ten ReplicaSets of 1 replica scaled from 10 to 5: every
// fraction is round(0.5)−1 = 0, the leftover −5 would take the oldest to −4,
// it stops at 0, and 9 replicas remain: Clamped is 4.
func (d Distribution) Clamped() int32 {
	if len(d.Shares) == 0 {
		return 0
	}
	s := d.Shares[0]
	return s.To - (s.From + s.Proportion + s.Leftover)
}

// Distribute computes the rolling-update branch of upstream's scale(): how a
// change of the Deployment's allowed size (D + maxSurge) is spread across the
// active ReplicaSets when more than one has pods.
//
//  1. Allowed = D + [MaxSurge](d) (0 if D is 0), Current = Σ spec, ToAdd =
//     Allowed − Current.
//  2. ToAdd > 0: order [BySizeNewer]; ToAdd < 0: [BySizeOlder]; ToAdd 0:
//     keep the order of active.
//  3. Walk that order giving each ReplicaSet [GetProportion] of what is left.
//  4. Give the rounding leftover to the first ReplicaSet, not below 0.
//
// For example, D 5→10 (no surge, annotations max-replicas 5) with v2 at 2
// and v1 at 3: ToAdd 5, order v1, v2; v1 gets round(3·10/5)−3 = 3, v2 gets
// 2; no leftover, so v1 → 6 and v2 → 4. With three ReplicaSets of 1 going
// from 3 to 4 each fraction is round(4/3)−1 = 0 and the leftover 1 goes to
// the newest.
//
// active should be [ScaleCandidates](newRS, oldRSs), which gives upstream's
// order; nil entries and ReplicaSets with 0 replicas are skipped, as
// upstream's list never holds them. Names are assumed unique, as they are
// within a namespace (upstream keys its sizes by name, so duplicates would
// share one size there; here each keeps its own). Distribute is only meaningful for a
// RollingUpdate Deployment; for any other strategy, or a nil d, it returns
// the zero Distribution, as upstream's scale() does nothing then.
//
// The sum of the To values is Allowed, unless the clamp of step 4 fires
// (only when ToAdd < 0); see [Distribution.Clamped]. When every active
// ReplicaSet's max-replicas annotation equals Current, every share moves in
// the direction of ToAdd; when they disagree a share can move against it
// (upstream quirk: proportional scaling anomalies).
func Distribute(d *model.Deployment, active []*model.ReplicaSet, opts Options) Distribution {
	if d == nil || d.Spec.Strategy.Type != model.RollingUpdateStrategy {
		return Distribution{}
	}
	var out Distribution
	n := 0
	for _, rs := range active {
		if isActive(rs) {
			out.Current += rs.SpecReplicas()
			n++
		}
	}
	surge := MaxSurge(d)
	if desired := d.DesiredReplicas(); desired > 0 {
		out.Allowed = desired + surge
	}
	out.ToAdd = out.Allowed - out.Current
	if n == 0 {
		return out
	}

	// Sorting pointers is several times faster than sorting Shares, whose
	// swaps copy 24 bytes through write barriers, so the order is settled
	// on a pointer slice (on the stack for the usual handful) first.
	var buf [16]*model.ReplicaSet
	order := buf[:0]
	if n > len(buf) {
		order = make([]*model.ReplicaSet, 0, n)
	}
	for _, rs := range active {
		if isActive(rs) {
			order = append(order, rs)
		}
	}
	switch {
	case out.ToAdd > 0:
		out.Direction = ScaleUp
		slices.SortFunc(order, BySizeNewer)
	case out.ToAdd < 0:
		out.Direction = ScaleDown
		slices.SortFunc(order, BySizeOlder)
	}
	out.Shares = make([]Share, n)
	for i, rs := range order {
		out.Shares[i] = Share{ReplicaSet: rs, From: rs.SpecReplicas()}
	}

	var added int32
	for i := range out.Shares {
		s := &out.Shares[i]
		s.Proportion = proportion(s.ReplicaSet, d, surge, out.ToAdd, added, opts)
		if opts.Monotonic && (s.Proportion > 0) != (out.ToAdd > 0) {
			s.Proportion = 0
		}
		s.To = s.From + s.Proportion
		added += s.Proportion
	}
	if out.ToAdd != 0 {
		first := &out.Shares[0]
		first.Leftover = out.ToAdd - added
		first.To = max(0, first.To+first.Leftover)
	}
	return out
}
