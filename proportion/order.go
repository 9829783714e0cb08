package proportion

import (
	"cmp"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// The comparison functions below are upstream's ReplicaSet orders, written
// for slices.SortFunc and [Sorted]. Each is total for ReplicaSets with
// distinct names (names are unique within a namespace), so the sorted order
// never depends on the input order. Creation times compare as instants;
// nil entries sort after every ReplicaSet, instead of crashing as upstream
// would.

// ByCreationTimestamp orders oldest first, equal creation times by name
// ascending (upstream's ReplicaSetsByCreationTimestamp). For example
// a(10:00), c(10:01), b(10:01) sorts as a, b, c.
func ByCreationTimestamp(a, b *model.ReplicaSet) int {
	if c, done := nilsLast(a, b); done {
		return c
	}
	return model.CompareCreation(a, b)
}

// NewestFirst is the exact reverse of [ByCreationTimestamp]: newest first,
// equal creation times by name descending. It is the order upstream's
// FindActiveOrLatest leaves the old ReplicaSets in (see [ScaleCandidates]).
func NewestFirst(a, b *model.ReplicaSet) int {
	if c, done := nilsLast(a, b); done {
		return c
	}
	return ByCreationTimestamp(b, a)
}

// BySizeOlder is the scale-down order (upstream's ReplicaSetsBySizeOlder):
// larger spec.replicas first, equal sizes oldest first, then name ascending.
// The first ReplicaSet absorbs the rounding leftover, so ties take it from
// the oldest. For example v1(3, old), v2(2), v3(3, new) sorts as v1, v3, v2.
func BySizeOlder(a, b *model.ReplicaSet) int {
	if c, done := nilsLast(a, b); done {
		return c
	}
	if c := cmp.Compare(b.SpecReplicas(), a.SpecReplicas()); c != 0 {
		return c
	}
	return ByCreationTimestamp(a, b)
}

// BySizeNewer is the scale-up order (upstream's ReplicaSetsBySizeNewer):
// larger spec.replicas first, equal sizes newest first, then name
// descending, so ties give the leftover to the newest. For example v1(3,
// old), v2(2), v3(3, new) sorts as v3, v1, v2.
func BySizeNewer(a, b *model.ReplicaSet) int {
	if c, done := nilsLast(a, b); done {
		return c
	}
	if c := cmp.Compare(b.SpecReplicas(), a.SpecReplicas()); c != 0 {
		return c
	}
	return ByCreationTimestamp(b, a)
}

// nilsLast orders nil after non-nil; done is false when neither is nil.
func nilsLast(a, b *model.ReplicaSet) (c int, done bool) {
	switch {
	case a == nil && b == nil:
		return 0, true
	case a == nil:
		return 1, true
	case b == nil:
		return -1, true
	}
	return 0, false
}

// Sorted returns a copy of rss sorted by compare (one of the orders above,
// or any total order); rss itself is left as it was. For example
// Sorted(rss, BySizeNewer) is the order of a proportional scale-up.
func Sorted(rss []*model.ReplicaSet, compare func(a, b *model.ReplicaSet) int) []*model.ReplicaSet {
	out := slices.Clone(rss)
	slices.SortFunc(out, compare)
	return out
}

// isActive is upstream's notion of an active ReplicaSet: one that is meant to
// have pods.
func isActive(rs *model.ReplicaSet) bool { return rs != nil && rs.SpecReplicas() > 0 }

// FilterActiveReplicaSets returns, in their original order, the ReplicaSets
// of rss that are non-nil and have spec.replicas > 0. For example
// [a(2), nil, b(0), c(1)] gives [a, c]. The result is a new slice (nil when
// nothing is active); the ReplicaSets themselves are shared, not copied.
func FilterActiveReplicaSets(rss []*model.ReplicaSet) []*model.ReplicaSet {
	n := 0
	for _, rs := range rss {
		if isActive(rs) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return AppendActiveReplicaSets(make([]*model.ReplicaSet, 0, n), rss)
}

// AppendActiveReplicaSets appends to dst the ReplicaSets
// FilterActiveReplicaSets keeps, in their original order, and returns the
// extended slice: FilterActiveReplicaSets for a caller with a buffer.
func AppendActiveReplicaSets(dst, rss []*model.ReplicaSet) []*model.ReplicaSet {
	for _, rs := range rss {
		if isActive(rs) {
			dst = append(dst, rs)
		}
	}
	return dst
}

// FindActiveOrLatest decides how a scaling event is handled. If exactly one
// of newRS and oldRSs is active (spec.replicas > 0), that one is returned and
// it alone is resized to D. If none is, newRS is returned, or without a new
// ReplicaSet the newest old one (ties by name descending). If several are
// active it returns nil: proportional scaling ([Distribute]) is needed. nil
// entries in oldRSs are ignored; with neither newRS nor any old ReplicaSet
// the result is nil.
//
// For example: new N(0) with old A(5) gives A; new N(2) with old A(3) gives
// nil; no new and old A(0, older), B(0, newer) gives B.
//
// Upstream sorts oldRSs in place here, newest first, and its caller goes on
// using that order; this function leaves oldRSs alone. Use [ScaleCandidates]
// to get upstream's order.
func FindActiveOrLatest(newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet) *model.ReplicaSet {
	var only, newest *model.ReplicaSet
	active := 0
	for _, rs := range oldRSs {
		if rs == nil {
			continue
		}
		if newest == nil || NewestFirst(rs, newest) < 0 {
			newest = rs
		}
		if isActive(rs) {
			only = rs
			active++
		}
	}
	if isActive(newRS) {
		only = newRS
		active++
	}
	switch {
	case active == 1:
		return only
	case active > 1:
		return nil
	case newRS != nil:
		return newRS
	}
	return newest
}

// ScaleCandidates returns the active ReplicaSets in the order upstream's
// scale() holds them: the active old ones newest first (the order
// FindActiveOrLatest sorted them into), then newRS if it is active. This is
// the list to pass to [Distribute]; the order matters when nothing is to be
// added (ToAdd 0), because upstream then refreshes the annotations in this
// order. For example old [A(1, oldest), B(0), C(2, newest)] with new N(3)
// gives [C, A, N].
func ScaleCandidates(newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet) []*model.ReplicaSet {
	n := 0
	for _, rs := range oldRSs {
		if isActive(rs) {
			n++
		}
	}
	if isActive(newRS) {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]*model.ReplicaSet, 0, n)
	for _, rs := range oldRSs {
		if isActive(rs) {
			out = append(out, rs)
		}
	}
	slices.SortFunc(out, NewestFirst)
	if isActive(newRS) {
		out = append(out, newRS)
	}
	return out
}
