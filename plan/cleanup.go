package plan

import (
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// cleanupDeployment deletes old ReplicaSets beyond revisionHistoryLimit
// (upstream cleanupDeployment), oldest revision first. oldRSs is in the order upstream holds
// them at this point, which decides ties among unparsable revisions.
func (s *syncer) cleanupDeployment(oldRSs []*model.ReplicaSet) {
	limit := s.d.Spec.RevisionHistoryLimit
	for _, rs := range revision.ToDeleteFrom(oldRSs, limit) {
		s.touchReplicaSet(DeleteReplicaSet, rs, nil,
			reason(ReasonHistoryLimit, vals(v("revisionHistoryLimit", int64(*limit))),
				"%s (revision %s) is beyond revisionHistoryLimit %d and has no pods",
				rs.Name, rs.Annotations[model.RevisionAnnotation], *limit))
	}
}
