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
	allRSs := appendRS(oldRSs, newRS)

	scaledDown := false
	for _, rs := range activeOf(oldRSs) {
		from := rs.SpecReplicas()
		did, _ := s.scaleReplicaSetAndRecordEvent(rs, 0, reason(ReasonRecreateScaleDown,
			vals(v("from", int64(from)), v("to", 0)), "Recreate stops every old pod first: old %s %d→0", rs.Name, from))
		scaledDown = scaledDown || did
	}
	if scaledDown {
		s.syncRolloutStatus(allRSs, newRS)
		return
	}
	if running, why := oldPodsRunning(newRS, oldRSs, &podOwners{rsList: rsList, pods: s.pods}); running {
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
		vals(v("from", int64(from)), v("to", int64(s.replicas()))),
		"no old pod runs: the new ReplicaSet %s goes %d→%d", newRS.Name, from, s.replicas()))
	if DeploymentComplete(d, &d.Status) {
		s.cleanupDeployment(oldRSs)
	}
	s.syncRolloutStatus(allRSs, newRS)
}

// podOwners lists pods with the UID of the ReplicaSet that controls them:
// either grouped by that UID already (byOwner, OldPodsRunning's argument),
// or a sync's pods and claimed ReplicaSets (rsList, pods), which each
// groups on the fly, without building the groups.
type podOwners struct {
	byOwner map[string][]*model.Pod
	rsList  []*model.ReplicaSet
	pods    []*model.Pod
}

// each calls fn with every pod that has an owner and the owner's UID.
//
// A sync's pods are grouped by the ReplicaSet of rsList that controls
// them, as upstream's getPodMapForDeployment groups them: it looks pods up
// in an index keyed by the controller reference's kind, name and UID, so a
// pod counts for a ReplicaSet only when its controller reference names that
// ReplicaSet by all three, whatever its labels (a pod relabelled out of the
// selector still counts; one whose reference has the right UID but another
// name or kind does not).
func (o *podOwners) each(fn func(uid string, p *model.Pod)) {
	if o.byOwner != nil {
		for uid, pods := range o.byOwner {
			for _, p := range pods {
				if p != nil {
					fn(uid, p)
				}
			}
		}
		return
	}
	type owner struct{ name, uid string }
	// A short list is scanned, a long one indexed.
	var byRef map[owner]string
	if len(o.rsList) > ownerScanLimit {
		byRef = make(map[owner]string, len(o.rsList))
		for _, rs := range o.rsList {
			byRef[owner{rs.Name, rs.UID}] = rs.UID
		}
	}
	for _, p := range o.pods {
		if p == nil {
			continue
		}
		ref := p.ControllerRef()
		if ref == nil || ref.Kind != model.ReplicaSetKind {
			continue
		}
		var uid string // UIDs are never empty (State.Validate)
		if byRef != nil {
			uid = byRef[owner{ref.Name, ref.UID}]
		} else {
			for _, rs := range o.rsList {
				if rs.Name == ref.Name && rs.UID == ref.UID {
					uid = rs.UID
					break
				}
			}
		}
		if uid != "" {
			fn(uid, p)
		}
	}
}

// OldPodsRunning reports whether Recreate must still wait (upstream oldPodsRunning): an old
// ReplicaSet reports replicas, or a pod of a ReplicaSet other than the new
// one is in a non-terminal phase (terminating pods included). podsByOwner
// maps ReplicaSet UIDs to their pods.
func OldPodsRunning(newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet, podsByOwner map[string][]*model.Pod) (bool, Reason) {
	return oldPodsRunning(newRS, oldRSs, &podOwners{byOwner: podsByOwner})
}

// oldPodsRunning is OldPodsRunning over pods listed by owner, with the
// reason in m (see planMemory.vals and planMemory.text).
func oldPodsRunning(newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet, owned *podOwners) (bool, Reason) {
	var reported int32
	for _, rs := range oldRSs {
		if rs != nil {
			reported += rs.Status.Replicas
		}
	}
	if reported > 0 {
		return true, reason(NoteOldPodsRunning, vals(v("oldReplicas", int64(reported))),
			"old ReplicaSets still report %d pods", reported)
	}
	var running int64
	owned.each(func(uid string, p *model.Pod) {
		if (newRS == nil || uid != newRS.UID) && !p.IsTerminal() {
			running++
		}
	})
	if running > 0 {
		return true, reason(NoteOldPodsRunning, vals(v("oldPods", running)),
			"%d old pods have not finished (terminating pods count)", running)
	}
	return false, Reason{}
}

// ownerScanLimit is the most ReplicaSets whose owners the Recreate pod
// grouping scans for every pod; past it, it indexes them in a map (one
// allocation), which costs less than scanning many for every pod.
const ownerScanLimit = 8
