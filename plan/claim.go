package plan

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// claimReplicaSets returns the ReplicaSets this Deployment owns after
// adopting matching orphans and releasing owned ones whose labels no longer
// match (upstream ClaimReplicaSets), in creation order. Upstream walks its cache in an
// unspecified order; walking in creation order picks one of upstream's
// possible patch orders and keeps the plan independent of the input order.
func (s *syncer) claimReplicaSets() []*model.ReplicaSet {
	d := s.d
	// State.Validate has checked the selector (a sync runs only on a valid
	// State) and the working copy's selector is never changed: it is not
	// checked again.
	sel := model.NewPreValidatedMatcher(d.Spec.Selector)
	claimed := make([]*model.ReplicaSet, 0, len(s.all))
	for _, rs := range sortedByCreation(s.all) {
		if ref := rs.ControllerRef(); ref != nil {
			if ref.UID != d.UID {
				continue
			}
			if sel.Matches(rs.Labels) {
				claimed = append(claimed, rs)
				continue
			}
			if d.DeletionTimestamp != nil {
				continue
			}
			s.touchReplicaSet(ReleaseReplicaSet, rs,
				&model.OwnerReference{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name, UID: d.UID},
				reason(ReasonRelease, nil, "%s is controlled by this Deployment but its labels no longer match the selector", rs.Name))
			continue
		}
		if d.DeletionTimestamp != nil || !sel.Matches(rs.Labels) || rs.DeletionTimestamp != nil {
			continue
		}
		ref := model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID)
		s.touchReplicaSet(AdoptReplicaSet, rs, &ref,
			reason(ReasonAdopt, nil, "%s has no controller and its labels match the selector", rs.Name))
		claimed = append(claimed, rs)
	}
	return claimed
}
