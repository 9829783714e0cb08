package revision

import (
	"cmp"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// Entry is one line of kubectl rollout history.
type Entry struct {
	Revision int64
	// ChangeCause is the kubernetes.io/change-cause annotation; kubectl
	// prints "<none>" when it is empty.
	ChangeCause string
	// ReplicaSet is the ReplicaSet that holds this revision, one of the
	// caller's pointers. kubectl rollout history --revision=N prints its
	// Spec.Template, with ChangeCause (when non-empty) set as the template's
	// kubernetes.io/change-cause annotation.
	ReplicaSet *model.ReplicaSet
}

// History returns what kubectl rollout history lists for d:
// one entry per revision, ascending. The ReplicaSets considered are chosen
// and ordered as for [RollbackTarget] (controlled by d, matching its
// selector; the new ReplicaSet last). A missing revision annotation is
// revision 0; ReplicaSets with an unparsable one are left out (kubectl
// prints a warning). When two ReplicaSets share a revision, the later one in
// that order wins.
//
// The change cause is the ReplicaSet's kubernetes.io/change-cause
// annotation, or, when that is empty, the same annotation on its pod
// template, a fallback kubectl has because it records the cause on the
// template it prints.
//
// No ReplicaSets give an empty result; kubectl then prints "No rollout
// history found.". A nil d gives nil. The only error is an invalid
// selector.
//
// Example: RSs with revisions 1 (no cause) and 2 (cause "kubectl set image
// deployment/web web=web:2") give
//
//	REVISION  CHANGE-CAUSE
//	1         <none>
//	2         kubectl set image deployment/web web=web:2
func History(d *model.Deployment, rss []*model.ReplicaSet) ([]Entry, error) {
	if d == nil {
		return nil, nil
	}
	all, err := kubectlReplicaSets(d, rss)
	if err != nil {
		return nil, err
	}
	byRev := make(map[int64]Entry, len(all))
	for _, rs := range all {
		v, ok := revisionOf(rs)
		if !ok {
			continue
		}
		cause := rs.Annotations[model.ChangeCauseAnnotation]
		if cause == "" {
			cause = rs.Spec.Template.Annotations[model.ChangeCauseAnnotation]
		}
		byRev[v] = Entry{Revision: v, ChangeCause: cause, ReplicaSet: rs}
	}
	out := make([]Entry, 0, len(byRev))
	for _, e := range byRev {
		out = append(out, e)
	}
	// Revisions are unique keys, so this order is total.
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.Revision, b.Revision) })
	return out, nil
}
