package proportion

import (
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
)

// This file rebuilds upstream's scale() (deployment controller, sync.go) from the package's
// pieces, so that the examples of upstream TestScale (sync_test.go) can be checked end to end:
// FindActiveOrLatest, the saturation shortcut, then Distribute.

// write is one ReplicaSet update scale() issues: the new size and the replica
// annotations it stamps (desired = D, max = D + maxSurge).
type write struct {
	name             string
	to               int32
	desired, maxSize int32
}

// isSaturated is upstream IsSaturated (owned by the plan package; repeated here only to
// route upstream TestScale (sync_test.go) q): newRS at D, annotated with D (signed parser), all
// available.
func isSaturated(d *model.Deployment, rs *model.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Annotations[model.DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	D := d.DesiredReplicas()
	return rs.SpecReplicas() == D && int32(desired) == D && rs.Status.AvailableReplicas == D
}

// annotationsCurrent is upstream's !ReplicasAnnotationsNeedUpdate.
func annotationsCurrent(rs *model.ReplicaSet, desired, maxSize int32) bool {
	return rs.Annotations != nil &&
		rs.Annotations[model.DesiredReplicasAnnotation] == strconv.Itoa(int(desired)) &&
		rs.Annotations[model.MaxReplicasAnnotation] == strconv.Itoa(int(maxSize))
}

// simulateScale returns the writes of one scale() call, in order.
func simulateScale(d *model.Deployment, newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet, opts Options) []write {
	D := d.DesiredReplicas()
	maxSize := D + MaxSurge(d)
	var writes []write
	if x := FindActiveOrLatest(newRS, oldRSs); x != nil {
		if x.SpecReplicas() != D { // scaleReplicaSetAndRecordEvent: size changes only
			writes = append(writes, write{x.Name, D, D, maxSize})
		}
		return writes
	}
	if isSaturated(d, newRS) {
		for _, old := range Sorted(FilterActiveReplicaSets(oldRSs), NewestFirst) {
			writes = append(writes, write{old.Name, 0, D, maxSize})
		}
		return writes
	}
	dist := Distribute(d, ScaleCandidates(newRS, oldRSs), opts)
	for _, s := range dist.Shares {
		if s.To != s.From || !annotationsCurrent(s.ReplicaSet, D, maxSize) {
			writes = append(writes, write{s.ReplicaSet.Name, s.To, D, maxSize})
		}
	}
	return writes
}

// applyWrites returns copies of rss with the writes applied, as the API
// server would store them.
func applyWrites(rss []*model.ReplicaSet, writes []write) []*model.ReplicaSet {
	out := make([]*model.ReplicaSet, len(rss))
	for i, rs := range rss {
		out[i] = rs.DeepCopy()
		for _, w := range writes {
			if out[i] != nil && out[i].Name == w.name {
				out[i].Spec.Replicas = model.Int32Ptr(w.to)
				annotate(out[i], w.desired, w.maxSize)
			}
		}
	}
	return out
}
