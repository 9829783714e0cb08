package plan

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// rolloutRecreate is one Recreate sync (upstream rolloutRecreate): stop every old pod, wait
// until none runs, then create or size the new ReplicaSet.
func (s *syncer) rolloutRecreate(rsList []*model.ReplicaSet) {
	d := s.d
	newRS, oldRSs, ok := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if !ok {
		return
	}
	allRSs := s.mem.appendRS(oldRSs, newRS)

	scaledDown := false
	for _, rs := range s.mem.active(oldRSs) {
		from := rs.SpecReplicas()
		did, _ := s.scaleReplicaSetAndRecordEvent(rs, 0, reason(ReasonRecreateScaleDown,
			s.mem.vals(v("from", int64(from)), v("to", 0)), "Recreate stops every old pod first: old %s %d→0", rs.Name, from))
		scaledDown = scaledDown || did
	}
	if scaledDown {
		s.syncRolloutStatus(allRSs, newRS)
		return
	}
	if running, why := OldPodsRunning(newRS, oldRSs, s.podsByOwner(rsList)); running {
		s.note(why)
		s.syncRolloutStatus(allRSs, newRS)
		return
	}
	if newRS == nil {
		newRS, oldRSs, ok = s.getAllReplicaSetsAndSyncRevision(rsList, true)
		if !ok {
			return
		}
		allRSs = s.mem.appendRS(oldRSs, newRS)
	}
	from := newRS.SpecReplicas()
	s.scaleReplicaSetAndRecordEvent(newRS, s.replicas(), reason(ReasonRecreateScaleUp,
		s.mem.vals(v("from", int64(from)), v("to", int64(s.replicas()))),
		"no old pod runs: the new ReplicaSet %s goes %d→%d", newRS.Name, from, s.replicas()))
	if DeploymentComplete(d, &d.Status) {
		s.cleanupDeployment(oldRSs)
	}
	s.syncRolloutStatus(allRSs, newRS)
}

// podsByOwner groups the pods of the Deployment's namespace by the
// ReplicaSet in rsList that controls them (every ReplicaSet gets an entry,
// possibly empty), keyed by the ReplicaSet's UID, as upstream's
// getPodMapForDeployment: it looks pods up in an index keyed by the
// controller reference's kind, name and UID, so a pod counts for a
// ReplicaSet only when its controller reference names that ReplicaSet by all
// three, whatever its labels (a pod relabelled out of the selector still
// counts; one whose reference has the right UID but another name or kind
// does not).
func (s *syncer) podsByOwner(rsList []*model.ReplicaSet) map[string][]*model.Pod {
	type owner struct{ name, uid string }
	out := make(map[string][]*model.Pod, len(rsList))
	byRef := make(map[owner]string, len(rsList))
	for _, rs := range rsList {
		out[rs.UID] = nil
		byRef[owner{rs.Name, rs.UID}] = rs.UID
	}
	for _, p := range s.pods {
		if p == nil {
			continue
		}
		ref := p.ControllerRef()
		if ref == nil || ref.Kind != model.ReplicaSetKind {
			continue
		}
		if uid, ok := byRef[owner{ref.Name, ref.UID}]; ok {
			out[uid] = append(out[uid], p)
		}
	}
	return out
}

// OldPodsRunning reports whether Recreate must still wait (upstream oldPodsRunning): an old
// ReplicaSet reports replicas, or a pod of a ReplicaSet other than the new
// one is in a non-terminal phase (terminating pods included). podsByOwner
// maps ReplicaSet UIDs to their pods.
func OldPodsRunning(newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet, podsByOwner map[string][]*model.Pod) (bool, Reason) {
	var reported int32
	for _, rs := range oldRSs {
		if rs != nil {
			reported += rs.Status.Replicas
		}
	}
	if reported > 0 {
		return true, reason(NoteOldPodsRunning, []Value{v("oldReplicas", int64(reported))},
			"old ReplicaSets still report %d pods", reported)
	}
	var running int64
	for uid, pods := range podsByOwner {
		if newRS != nil && uid == newRS.UID {
			continue
		}
		for _, p := range pods {
			if p != nil && !p.IsTerminal() {
				running++
			}
		}
	}
	if running > 0 {
		return true, reason(NoteOldPodsRunning, []Value{v("oldPods", running)},
			"%d old pods have not finished (terminating pods count)", running)
	}
	return false, Reason{}
}
