package plan

import (
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// rsScratch is how many ReplicaSet pointers the working lists of one sync
// (claimed, old, all, active, sorted) take from the scratch of the sync's
// working area before they are allocated on their own. A sync over four
// ReplicaSets takes about 18; 32 fits the conformance syncs over up to
// seven, and keeps Sync's one allocation (syncMemory) within the same
// size class (a Planner's working areas are pooled: their size costs
// nothing per sync).
const rsScratch = 32

// rsSlice returns an empty list with room for n ReplicaSets, for a list the
// sync works through and the plan does not keep: in m's scratch while it
// has room (a nil m, or one without a scratch, has none). Lists taken from the scratch are capped at
// n, so appending past n moves a list out instead of overwriting the next
// one.
func (m *planMemory) rsSlice(n int) []*model.ReplicaSet {
	if m == nil || m.rs == nil || m.nRS+n > len(m.rs) {
		return make([]*model.ReplicaSet, 0, n)
	}
	out := m.rs[m.nRS : m.nRS : m.nRS+n]
	m.nRS += n
	return out
}

// appendRS returns a list holding rss and then rs (when non-nil), in the
// scratch.
func (m *planMemory) appendRS(rss []*model.ReplicaSet, rs *model.ReplicaSet) []*model.ReplicaSet {
	out := append(m.rsSlice(len(rss)+1), rss...)
	if rs != nil {
		out = append(out, rs)
	}
	return out
}

// sorted returns rss sorted by compare, as proportion.Sorted does, in the
// scratch.
func (m *planMemory) sorted(rss []*model.ReplicaSet, compare func(a, b *model.ReplicaSet) int) []*model.ReplicaSet {
	if rss == nil {
		return nil
	}
	out := append(m.rsSlice(len(rss)), rss...)
	slices.SortFunc(out, compare)
	return out
}

// sortedByCreation is the package's sortedByCreation, sorting a copy in the
// scratch when rss is out of order. The result must not be modified.
func (m *planMemory) sortedByCreation(rss []*model.ReplicaSet) []*model.ReplicaSet {
	if slices.IsSortedFunc(rss, proportion.ByCreationTimestamp) {
		return rss
	}
	return m.sorted(rss, proportion.ByCreationTimestamp)
}

// active is proportion.FilterActiveReplicaSets in the scratch (nil when no
// ReplicaSet is active). A list too long for the scratch is filtered into
// a list of its own, of the size it needs.
func (m *planMemory) active(rss []*model.ReplicaSet) []*model.ReplicaSet {
	if len(rss) > rsScratch {
		return proportion.FilterActiveReplicaSets(rss)
	}
	out := proportion.AppendActiveReplicaSets(m.rsSlice(len(rss)), rss)
	if len(out) == 0 {
		return nil
	}
	return out
}
