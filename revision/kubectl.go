package revision

import "github.com/rolloutplan/rolloutplan/model"

// KubectlReplicaSets returns the ReplicaSets kubectl rollout history and
// undo consider for d, in the order kubectl walks them: those d controls
// whose labels match its selector (a nil selector matches all), the old
// ones by creation time, then the new one (the oldest whose template equals
// d's, ignoring pod-template-hash). [History] and [RollbackTarget] walk the
// same list; it is exported for views that report on it, such as kubectl's
// warnings about unreadable revisions. The pointers are the caller's; the
// only error is an invalid selector.
func KubectlReplicaSets(d *model.Deployment, rss []*model.ReplicaSet) ([]*model.ReplicaSet, error) {
	if d == nil {
		return nil, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	return kubectlReplicaSets(d, rss)
}
