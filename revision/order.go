package revision

import (
	"cmp"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// byCreationTimestamp orders ReplicaSets oldest first, equal creation times
// by name ascending: upstream's ReplicaSetsByCreationTimestamp, as a cmp
// function for slices.SortFunc. Times compare at full precision (objects
// read from a cluster have whole seconds). A nil ReplicaSet sorts before any
// other, so that the function never panics.
func byCreationTimestamp(a, b *model.ReplicaSet) int {
	if a == nil || b == nil {
		return compareNil(a, b)
	}
	return model.CompareCreation(a, b)
}

// ByRevision orders ReplicaSets by revision, lowest first: upstream's
// ReplicaSetsByRevision, as a cmp function for slices.SortFunc. When the
// revisions are equal, or either one is unparsable, it falls back to
// byCreationTimestamp. A missing annotation is revision 0.
//
// Note that the fallback for unparsable revisions makes the order
// non-transitive when such ReplicaSets are mixed with numbered ones: with
// revision 3 created first, then an unparsable one, then revision 1, the
// unparsable one sorts after 3 and before 1 (by time), yet 1 sorts before 3
// (by number). Sorting such input gives an order that depends on the
// starting order; [ToDelete] therefore starts from creation order, as
// upstream does, and so reproduces upstream's choice exactly.
func ByRevision(a, b *model.ReplicaSet) int {
	if a == nil || b == nil {
		return compareNil(a, b)
	}
	ra, okA := revisionOf(a)
	rb, okB := revisionOf(b)
	return compareRevisions(a, b, ra, rb, okA && okB)
}

// compareRevisions is ByRevision on already-parsed revisions; both must be
// valid for the numbers to count.
func compareRevisions(a, b *model.ReplicaSet, ra, rb int64, valid bool) int {
	if !valid || ra == rb {
		return byCreationTimestamp(a, b)
	}
	return cmp.Compare(ra, rb)
}

func compareNil(a, b *model.ReplicaSet) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	default:
		return 1
	}
}

// byCreationThenUID is the order upstream's lists have when they reach the
// revision logic (sorted by creation time and name), with the UID as a last
// tie-break so that even two objects with equal names and times (impossible
// in one namespace) are ordered the same whatever the input order.
func byCreationThenUID(a, b *model.ReplicaSet) int {
	if c := byCreationTimestamp(a, b); c != 0 {
		return c
	}
	return strings.Compare(a.UID, b.UID)
}
