package plan

import (
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// isScalingEvent reports whether an active ReplicaSet's desired-replicas
// annotation disagrees with spec.replicas (upstream isScalingEvent). Like upstream it first
// syncs the new ReplicaSet's annotations and the revision, which may write.
func (s *syncer) isScalingEvent(rsList []*model.ReplicaSet) bool {
	newRS, oldRSs, ok := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if !ok {
		return false
	}
	desired := s.replicas()
	for _, rs := range activeOf(appendRS(oldRSs, newRS)) {
		annotated, ok := proportion.NonNegativeInt32Annotation(rs.Annotations, model.DesiredReplicasAnnotation)
		if ok && annotated != desired {
			s.note(reason(NoteScalingEvent, vals(v("annotated", int64(annotated)), v("replicas", int64(desired))),
				"%s was sized for %d replicas, the Deployment now wants %d: scale instead of rolling out", rs.Name, annotated, desired))
			return true
		}
	}
	return false
}

// sync is the scaling sync, used for scaling events and every sync of a
// paused Deployment (upstream sync). It never creates a ReplicaSet.
func (s *syncer) sync(rsList []*model.ReplicaSet) {
	newRS, oldRSs, ok := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if !ok {
		return
	}
	// Upstream's FindActiveOrLatest sorts the old ReplicaSets newest first in
	// place; the rest of the sync sees that order.
	oldRSs = sortedBy(oldRSs, proportion.NewestFirst)
	s.scale(newRS, oldRSs)
	if _, pendingRollback := rollbackTo(s.d); s.d.Spec.Paused && !pendingRollback {
		s.cleanupDeployment(oldRSs)
	}
	s.syncDeploymentStatus(appendRS(oldRSs, newRS), newRS)
}

// IsSaturated reports whether rs is a new ReplicaSet that has fully rolled
// out: spec.replicas, its desired-replicas annotation and its available
// pods all equal the Deployment's replicas. The annotation is read with a
// signed parser and truncated to int32, unlike elsewhere (upstream quirk: inconsistent annotation parsers).
func IsSaturated(d *model.Deployment, rs *model.ReplicaSet) bool {
	if d == nil || rs == nil {
		return false
	}
	desired, err := strconv.ParseInt(rs.Annotations[model.DesiredReplicasAnnotation], 10, 64)
	if err != nil {
		return false
	}
	want := d.DesiredReplicas()
	return rs.SpecReplicas() == want && int32(desired) == want && rs.Status.AvailableReplicas == want
}

// scale follows spec.replicas without rolling out (upstream scale). oldRSs is
// newest first.
func (s *syncer) scale(newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet) {
	d := s.d
	desired := s.replicas()
	if rs := proportion.FindActiveOrLatest(newRS, oldRSs); rs != nil {
		from := rs.SpecReplicas()
		if from == desired {
			if annotated, ok := proportion.NonNegativeInt32Annotation(rs.Annotations, model.DesiredReplicasAnnotation); ok && annotated != desired {
				s.note(reason(NoteStaleDesiredAnnotation, vals(v("annotated", int64(annotated)), v("replicas", int64(desired))),
					"the only active ReplicaSet %s already has %d replicas but is annotated for %d; upstream does not update the annotation here, so every sync is a scaling event and no rollout starts (upstream quirk)",
					rs.Name, desired, annotated))
				return
			}
			s.note(reason(NoteReplicasReached, vals(v("replicas", int64(desired))),
				"the only active ReplicaSet %s already has %d replicas", rs.Name, desired))
			return
		}
		s.scaleReplicaSetAndRecordEvent(rs, desired, reason(ReasonScaleActive,
			vals(v("from", int64(from)), v("to", int64(desired))),
			"%s is the only active ReplicaSet: %d→%d", rs.Name, from, desired))
		return
	}
	if IsSaturated(d, newRS) {
		for _, rs := range activeOf(oldRSs) {
			from := rs.SpecReplicas()
			s.scaleReplicaSetAndRecordEvent(rs, 0, reason(ReasonScaleSaturated,
				vals(v("from", int64(from)), v("to", 0)),
				"the new ReplicaSet %s is saturated: old %s %d→0", newRS.Name, rs.Name, from))
		}
		return
	}
	if d.Spec.Strategy.Type != model.RollingUpdateStrategy {
		s.note(reason(NoteRecreateMultipleActive, nil,
			"several ReplicaSets are active and Recreate has no proportional scaling: nothing changes (upstream quirk)"))
		return
	}
	dist := proportion.Distribute(d, activeOf(appendRS(oldRSs, newRS)), s.cfg.proportion)
	for _, sh := range dist.Shares {
		s.scaleReplicaSet(sh.ReplicaSet, sh.To, proportionalReason(dist, sh))
	}
}
