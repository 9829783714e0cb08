package plan

import (
	"maps"
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// ReplicasAnnotationsNeedUpdate reports whether rs's desired-replicas or
// max-replicas annotation differs from the decimal desired or maxReplicas.
func ReplicasAnnotationsNeedUpdate(rs *model.ReplicaSet, desired, maxReplicas int32) bool {
	if rs == nil {
		return false
	}
	return rs.Annotations == nil ||
		!annotationIs(rs.Annotations, model.DesiredReplicasAnnotation, desired) ||
		!annotationIs(rs.Annotations, model.MaxReplicasAnnotation, maxReplicas)
}

// annotationIs reports whether annotations[key] is the decimal n (compared
// without making the decimal string).
func annotationIs(annotations map[string]string, key string, n int32) bool {
	var buf [16]byte
	v, ok := annotations[key]
	return ok && v == string(strconv.AppendInt(buf[:0], int64(n), 10))
}

// SetReplicasAnnotations sets rs's desired-replicas and max-replicas
// annotations and reports whether either changed. It modifies rs in place:
// pass your own copy (the planners call it on their own copies). For
// replicas 10 and maxSurge 3 they become "10" and "13".
func SetReplicasAnnotations(rs *model.ReplicaSet, desired, maxReplicas int32) bool {
	if rs == nil {
		return false
	}
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	desiredChanged := setAnnotation(rs.Annotations, model.DesiredReplicasAnnotation, desired)
	maxChanged := setAnnotation(rs.Annotations, model.MaxReplicasAnnotation, maxReplicas)
	return desiredChanged || maxChanged
}

// setAnnotation sets annotations[key] to the decimal n and reports whether
// it changed; the string is made only when it does.
func setAnnotation(annotations map[string]string, key string, n int32) bool {
	if annotationIs(annotations, key, n) {
		return false
	}
	annotations[key] = strconv.Itoa(int(n))
	return true
}

// scaleReplicaSetAndRecordEvent resizes rs to newScale unless it already has
// that size (in which case its annotations are left alone, as upstream).
func (s *syncer) scaleReplicaSetAndRecordEvent(rs *model.ReplicaSet, newScale int32, why Reason) (bool, *model.ReplicaSet) {
	if rs.SpecReplicas() == newScale {
		return false, rs
	}
	return s.scaleReplicaSet(rs, newScale, why)
}

// scaleReplicaSet writes rs with newScale replicas and current replica
// annotations when either differs, and records the scaling event when the
// size changed.
func (s *syncer) scaleReplicaSet(rs *model.ReplicaSet, newScale int32, why Reason) (bool, *model.ReplicaSet) {
	desired := s.replicas()
	maxReplicas := desired + proportion.MaxSurge(s.d)
	sizeChange := rs.SpecReplicas() != newScale
	annotationsChange := ReplicasAnnotationsNeedUpdate(rs, desired, maxReplicas)
	if !sizeChange && !annotationsChange {
		return false, rs
	}
	// The sync goes on with the written copy; it shares what it does not
	// change with rs, which is only read.
	c := *rs
	c.Spec.Replicas = model.Int32Ptr(newScale)
	if annotationsChange {
		c.Annotations = maps.Clone(rs.Annotations)
		SetReplicasAnnotations(&c, desired, maxReplicas)
	}
	out := s.updateReplicaSet(&c, rs, why)
	if !sizeChange {
		return false, out
	}
	direction := "down"
	if rs.SpecReplicas() < newScale {
		direction = "up"
	}
	s.event(model.EventTypeNormal, model.EventScalingReplicaSet, "Scaled %s replica set %s from %d to %d", direction, rs.Name, rs.SpecReplicas(), newScale)
	return true, out
}
