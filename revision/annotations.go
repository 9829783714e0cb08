package revision

import (
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// SetNewReplicaSetAnnotations brings the annotations of the Deployment's new
// ReplicaSet up to date, as the controller does on every sync that finds or
// creates it, and reports whether anything the caller must write changed.
// It modifies rs in place: pass your own copy. d is only read.
//
// In order:
//
//  1. Every Deployment annotation outside the skip list
//     ([model.IsSkippedAnnotation]) is copied onto rs
//     ([CopyDeploymentAnnotationsToReplicaSet]).
//  2. If rs's current revision is non-numeric (and non-empty), stop and
//     report false, even if step 1 changed something: upstream's quirk
//     (upstream quirk: a non-numeric revision breaks annotation syncing), so the copies of step 1 are not written that sync.
//     A missing or empty revision counts as 0.
//  3. If newRevision is not a decimal int64, stop and report false.
//  4. If the current revision is lower than newRevision, set it to
//     newRevision (the string as given, so "+5" stays "+5").
//  5. If rs already had a revision annotation and it was raised in step 4,
//     rs is being reused (rollback, or a template flipping back), and its
//     former revision string is appended to the comma-separated
//     revision-history annotation. Oldest entries are dropped until the
//     history fits in historyLimitChars characters; if even the former
//     revision alone cannot fit, the history is left as it was. An empty
//     history (or one whose first entry is empty) is replaced by the former
//     revision without a length check, as upstream.
//
// Upstream's last step, writing the desired-replicas and max-replicas
// annotations on a ReplicaSet about to be created, needs maxSurge and lives
// in the planner. historyLimitChars is [model.MaxRevisionHistoryLength]
// (2000) in the controller.
//
// Example (upstream TestAnnotationUtils, limit 5): an RS without annotations synced with
// new revisions 11, 12, 13, 14 ends with revision "14" and history "12,13":
// after 12 the history is "11", after 13 "11,12" (exactly 5 characters), and
// 14 must drop "11" to append "13".
func SetNewReplicaSetAnnotations(d *model.Deployment, rs *model.ReplicaSet, newRevision string, historyLimitChars int) (changed bool) {
	if rs == nil {
		return false
	}
	_, changed = newReplicaSetAnnotations(d, rs, newRevision, historyLimitChars, true)
	return changed
}

// NewReplicaSetAnnotationsCurrent reports whether
// [SetNewReplicaSetAnnotations] with the same arguments would leave rs
// exactly as it is: no annotation map made, no entry written. It only reads
// rs, so a caller can skip copying rs when nothing would change.
func NewReplicaSetAnnotationsCurrent(d *model.Deployment, rs *model.ReplicaSet, newRevision string, historyLimitChars int) bool {
	if rs == nil {
		return true
	}
	writes, _ := newReplicaSetAnnotations(d, rs, newRevision, historyLimitChars, false)
	return !writes
}

// newReplicaSetAnnotations is SetNewReplicaSetAnnotations when apply is set.
// Otherwise it changes nothing and stops at the first write it would make.
// writes reports whether rs's annotations were (or would be) written to.
func newReplicaSetAnnotations(d *model.Deployment, rs *model.ReplicaSet, newRevision string, historyLimitChars int, apply bool) (writes, changed bool) {
	changed = copyDeploymentAnnotations(d, rs, apply)
	if !apply && (rs.Annotations == nil || changed) {
		return true, changed
	}
	// copyDeploymentAnnotations has made rs.Annotations non-nil.
	oldRevision, hadRevision := rs.Annotations[model.RevisionAnnotation]
	var oldRev int64 // none yet: 0 (not parsed, which would only make an error to drop)
	if oldRevision != "" {
		var err error
		if oldRev, err = strconv.ParseInt(oldRevision, 10, 64); err != nil {
			return changed, false // upstream quirk (a non-numeric revision breaks annotation syncing): the copies above are reported as unchanged
		}
	}
	newRev, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return changed, false
	}
	if oldRev >= newRev {
		return changed, changed
	}
	if !apply {
		return true, true
	}
	rs.Annotations[model.RevisionAnnotation] = newRevision
	if hadRevision {
		appendHistory(rs.Annotations, oldRevision, historyLimitChars)
	}
	return true, true
}

// appendHistory adds oldRevision to the revision-history annotation, dropping
// the oldest entries to stay within limit characters.
func appendHistory(ann map[string]string, oldRevision string, limit int) {
	history := ann[model.RevisionHistoryAnnotation]
	entries := strings.Split(history, ",")
	if entries[0] == "" {
		ann[model.RevisionHistoryAnnotation] = oldRevision
		return
	}
	// Length of "history,oldRevision"; each dropped entry also frees its comma.
	length := len(history) + 1 + len(oldRevision)
	first := 0
	for length > limit && first < len(entries) {
		length -= len(entries[first]) + 1
		first++
	}
	if length > limit {
		return // the former revision alone is too long: keep the history as is
	}
	ann[model.RevisionHistoryAnnotation] = strings.Join(append(entries[first:], oldRevision), ",")
}

// CopyDeploymentAnnotationsToReplicaSet copies every annotation of d that is
// not on the skip list ([model.IsSkippedAnnotation]: last-applied
// configuration, revision, revision-history, desired-replicas,
// max-replicas, rollback-to) onto rs, and reports whether any value on rs
// changed. Annotations present on rs but no longer on d are kept, as
// upstream never deletes them. An empty value missing on rs is copied.
//
// It modifies rs in place, and always leaves rs.Annotations non-nil (an
// empty map if there was nothing to copy), as upstream.
func CopyDeploymentAnnotationsToReplicaSet(d *model.Deployment, rs *model.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	return copyDeploymentAnnotations(d, rs, true)
}

// copyDeploymentAnnotations is CopyDeploymentAnnotationsToReplicaSet when
// apply is set; otherwise it only reports whether a value would change,
// stopping at the first.
func copyDeploymentAnnotations(d *model.Deployment, rs *model.ReplicaSet, apply bool) bool {
	if rs.Annotations == nil && apply {
		rs.Annotations = map[string]string{}
	}
	if d == nil {
		return false
	}
	changed := false
	for k, v := range d.Annotations {
		if model.IsSkippedAnnotation(k) {
			continue
		}
		if cur, ok := rs.Annotations[k]; ok && cur == v {
			continue
		}
		if !apply {
			return true
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// SetDeploymentRevision sets d's revision annotation to revision and reports
// whether that changed it. The controller calls it with the new
// ReplicaSet's revision string, whatever it is (so a non-numeric RS revision
// propagates, upstream quirk (a non-numeric revision breaks annotation syncing)). As upstream, a missing annotation and an empty
// revision count as equal: SetDeploymentRevision(d, "") on a Deployment
// without the annotation changes nothing. d.Annotations is made non-nil.
func SetDeploymentRevision(d *model.Deployment, revision string) bool {
	if d == nil {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	if d.Annotations[model.RevisionAnnotation] == revision {
		return false
	}
	d.Annotations[model.RevisionAnnotation] = revision
	return true
}

// SetDeploymentAnnotationsTo replaces d's annotations with those of the
// rollback target rs, the controller's legacy rollback path (upstream rollback, driven by the deprecated rollback annotation):
// d keeps only its own skip-list annotations (revision, last-applied
// configuration, ...), then receives every non-skip-list annotation of rs.
// Any other annotation of d is dropped. d.Annotations is always a new map;
// rs is only read.
//
// Example: d {revision: 5, team: a, change-cause: "v5"} rolled back to rs
// {revision: 2, change-cause: "v2"} gets {revision: 5, change-cause: "v2"}.
//
// SetDeploymentAnnotationsTo modifies d in place: pass your own copy (the
// planners call it on their own copies, never on their input).
func SetDeploymentAnnotationsTo(d *model.Deployment, rs *model.ReplicaSet) {
	if d == nil {
		return
	}
	var target map[string]string
	if rs != nil {
		target = rs.Annotations
	}
	d.Annotations = mergeForRollback(d.Annotations, target)
}

// mergeForRollback is the annotation map both rollback paths produce: the
// skip-list entries of current, then the other entries of target.
func mergeForRollback(current, target map[string]string) map[string]string {
	out := make(map[string]string, len(target)+2)
	for k, v := range current {
		if model.IsSkippedAnnotation(k) {
			out[k] = v
		}
	}
	for k, v := range target {
		if !model.IsSkippedAnnotation(k) {
			out[k] = v
		}
	}
	return out
}
