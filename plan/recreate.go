package plan

import (
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// rolloutRecreate is one Recreate sync (spec §7): stop every old pod, wait
// until none runs, then create or size the new ReplicaSet.
func (s *syncer) rolloutRecreate(rsList []*model.ReplicaSet) {
	d := s.d
	newRS, oldRSs, ok := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if !ok {
		return
	}
	allRSs := appendRS(oldRSs, newRS)

	scaledDown := false
	for _, rs := range proportion.FilterActiveReplicaSets(oldRSs) {
		from := rs.SpecReplicas()
		did, _ := s.scaleReplicaSetAndRecordEvent(rs, 0, reason(ReasonRecreateScaleDown,
			[]Value{v("from", int64(from)), v("to", 0)}, "Recreate stops every old pod first: old %s %d→0", rs.Name, from))
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
		allRSs = appendRS(oldRSs, newRS)
	}
	from := newRS.SpecReplicas()
	s.scaleReplicaSetAndRecordEvent(newRS, s.replicas(), reason(ReasonRecreateScaleUp,
		[]Value{v("from", int64(from)), v("to", int64(s.replicas()))},
		"no old pod runs: the new ReplicaSet %s goes %d→%d", newRS.Name, from, s.replicas()))
	if DeploymentComplete(d, &d.Status) {
		s.cleanupDeployment(oldRSs)
	}
	s.syncRolloutStatus(allRSs, newRS)
}

// podsByOwner groups the pods selected by the Deployment by the UID of their
// controlling ReplicaSet, for the ReplicaSets in rsList (every one gets an
// entry, possibly empty), as upstream's getPodMapForDeployment.
func (s *syncer) podsByOwner(rsList []*model.ReplicaSet) map[string][]*model.Pod {
	sel := s.d.Spec.Selector
	out := make(map[string][]*model.Pod, len(rsList))
	for _, rs := range rsList {
		out[rs.UID] = nil
	}
	for _, p := range s.pods {
		if p == nil || (s.d.Namespace != "" && p.Namespace != "" && p.Namespace != s.d.Namespace) || !matches(sel, p.Labels) {
			continue
		}
		ref := p.ControllerRef()
		if ref == nil {
			continue
		}
		if pods, ok := out[ref.UID]; ok {
			out[ref.UID] = append(pods, p)
		}
	}
	return out
}

// OldPodsRunning reports whether Recreate must still wait (spec §7.2): an old
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
