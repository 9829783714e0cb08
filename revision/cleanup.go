package revision

import (
	"cmp"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// ToDelete returns the old ReplicaSets the controller deletes to enforce
// spec.revisionHistoryLimit (upstream cleanupDeployment), in the
// order it deletes them.
//
//   - A nil limit or [model.NoLimit] means no cleanup: nil.
//   - Candidates are the non-nil entries without a deletion timestamp. If
//     there are no more than limit of them, nil.
//   - Otherwise the first diff = candidates − limit by [ByRevision] (lowest
//     revision first) are examined, and each is deleted only if it is idle:
//     status.replicas == 0, spec.replicas == 0, and generation ≤
//     status.observedGeneration. One that is not idle is skipped and NOT
//     replaced by a later candidate, so fewer than diff may be returned; a
//     later sync catches up once it has drained.
//
// oldRSs are the Deployment's old ReplicaSets (never the new one). Neither
// the slice nor the ReplicaSets are modified; the result holds the caller's
// own pointers. The result does not depend on the order of oldRSs: the
// candidates are put in upstream's starting order (creation time, then name)
// before sorting by revision, which also reproduces upstream's choice when
// unparsable revisions make [ByRevision] non-transitive.
//
// Where upstream would panic, ToDelete does not: a nil spec.replicas counts as
// 1 (the apps/v1 default), so such a ReplicaSet is never idle, and a
// negative limit (rejected by validation) acts like 0.
//
// Example (upstream TestDeploymentController_cleanupDeployment): revisions 1–4 with (spec, status) replicas
// (0,0), (0,1), (1,0), (1,1) and limit 0 examine all four and delete only
// revision 1; with limit 1 and three idle ReplicaSets, revisions 1 and 2 go.
func ToDelete(oldRSs []*model.ReplicaSet, revisionHistoryLimit *int32) []*model.ReplicaSet {
	return toDelete(oldRSs, revisionHistoryLimit, false)
}

// ToDeleteFrom is [ToDelete] for a caller that holds oldRSs in the order
// upstream holds them when it cleans up: creation order after a rollout
// sync, newest first in a paused sync (where upstream's FindActiveOrLatest
// has just re-sorted them). The two give the same result unless an
// unparsable revision makes the comparison non-transitive; then upstream's
// choice depends on that starting order, and ToDeleteFrom sorts from the
// order given.
func ToDeleteFrom(oldRSs []*model.ReplicaSet, revisionHistoryLimit *int32) []*model.ReplicaSet {
	return toDelete(oldRSs, revisionHistoryLimit, true)
}

func toDelete(oldRSs []*model.ReplicaSet, revisionHistoryLimit *int32, keepOrder bool) []*model.ReplicaSet {
	if revisionHistoryLimit == nil || *revisionHistoryLimit == model.NoLimit {
		return nil
	}
	limit := max(int(*revisionHistoryLimit), 0)
	n := 0
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			n++
		}
	}
	diff := n - limit
	if diff <= 0 {
		return nil
	}

	type candidate struct {
		rs    *model.ReplicaSet
		rev   int64
		valid bool
	}
	cands := make([]candidate, 0, n)
	allValid := true
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			rev, ok := revisionOf(rs)
			cands = append(cands, candidate{rs, rev, ok})
			allValid = allValid && ok
		}
	}
	if allValid {
		// Revision, creation time, name is then a total order (names are
		// unique), so one sort gives upstream's result from any start.
		slices.SortFunc(cands, func(a, b candidate) int {
			if a.rev != b.rev {
				return cmp.Compare(a.rev, b.rev)
			}
			return byCreationThenUID(a.rs, b.rs)
		})
	} else {
		// An unparsable revision makes the comparison non-transitive, and
		// the result depends on where the sort starts. Start where upstream
		// does (creation order, unless the caller holds upstream's order);
		// slices.SortFunc runs the same pattern-defeating quicksort as
		// upstream's sort.Sort, so it makes the same moves.
		if !keepOrder {
			slices.SortFunc(cands, func(a, b candidate) int { return byCreationThenUID(a.rs, b.rs) })
		}
		slices.SortFunc(cands, func(a, b candidate) int {
			return compareRevisions(a.rs, b.rs, a.rev, b.rev, a.valid && b.valid)
		})
	}

	var out []*model.ReplicaSet
	for _, c := range cands[:diff] {
		if isIdle(c.rs) {
			if out == nil {
				out = make([]*model.ReplicaSet, 0, diff)
			}
			out = append(out, c.rs)
		}
	}
	return out
}

// isIdle reports whether a ReplicaSet may be deleted by cleanup: no pods
// wanted, none counted, and the ReplicaSet controller has seen its latest
// spec (so the counts are not stale).
func isIdle(rs *model.ReplicaSet) bool {
	return rs.Status.Replicas == 0 &&
		rs.SpecReplicas() == 0 &&
		rs.Generation <= rs.Status.ObservedGeneration &&
		rs.DeletionTimestamp == nil
}
