package daemonset

import (
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// CalculateStatus computes the status counts of ds over its claimed pods
// grouped by the node they are meant for (upstream
// updateDaemonSetStatus): for every node that should run a daemon pod
// (desired), whether it has one (current) and whether its oldest pod —
// scheduled pods first, then by creation time and name — is ready,
// available at now and of the current revision (hash, or the template
// generation); pods on nodes that should not run one are misscheduled;
// unavailable is desired minus available. ObservedGeneration and the
// fields the controller does not compute are copied from ds.
func CalculateStatus(ds *model.DaemonSet, placements []Placement, byNode map[string][]*model.Pod, hash string, now time.Time) model.DaemonSetStatus {
	generation, _ := ds.TemplateGeneration()
	st := ds.Status.DeepCopy()
	var desired, current, miss, ready, updated, available int32
	for _, pl := range placements {
		pods := byNode[pl.Node]
		if !pl.ShouldRun {
			if len(pods) > 0 {
				miss++
			}
			continue
		}
		desired++
		if len(pods) == 0 {
			continue
		}
		current++
		oldest := slices.MinFunc(pods, func(a, b *model.Pod) int {
			return podOrder(&podInfo{pod: a}, &podInfo{pod: b})
		})
		if model.IsPodReady(oldest) {
			ready++
			if model.IsPodAvailable(oldest, ds.Spec.MinReadySeconds, now) {
				available++
			}
		}
		if IsPodUpdated(oldest, hash, generation) {
			updated++
		}
	}
	st.DesiredNumberScheduled = desired
	st.CurrentNumberScheduled = current
	st.NumberMisscheduled = miss
	st.NumberReady = ready
	st.UpdatedNumberScheduled = updated
	st.NumberAvailable = available
	st.NumberUnavailable = desired - available
	return st
}

// updateStatus is the end of upstream syncDaemonSet: the status, written
// when a count differs or the generation is not observed yet, and the
// requeue after minReadySeconds while ready pods are not yet available.
func (s *syncer) updateStatus() {
	s.emitClaims()
	grouped := s.group(false)
	byNode := make(map[string][]*model.Pod, len(grouped))
	n := 0
	for _, pods := range grouped {
		n += len(pods)
	}
	buf := make([]*model.Pod, 0, n) // one array, each node's slice capped
	for name, pods := range grouped {
		i := len(buf)
		for _, pi := range pods {
			buf = append(buf, pi.pod)
		}
		byNode[name] = buf[i:len(buf):len(buf)]
	}
	st := CalculateStatus(s.ds, s.p.Nodes, byNode, s.hash, s.s.Now)
	old := s.ds.Status
	unchanged := old.DesiredNumberScheduled == st.DesiredNumberScheduled &&
		old.CurrentNumberScheduled == st.CurrentNumberScheduled &&
		old.NumberMisscheduled == st.NumberMisscheduled &&
		old.NumberReady == st.NumberReady &&
		old.UpdatedNumberScheduled == st.UpdatedNumberScheduled &&
		old.NumberAvailable == st.NumberAvailable &&
		old.NumberUnavailable == st.NumberUnavailable &&
		old.ObservedGeneration >= s.ds.Generation
	st.ObservedGeneration = s.ds.Generation
	if unchanged {
		st.ObservedGeneration = old.ObservedGeneration
		s.note(reason(NoteStatusUnchanged, nil, "the status is unchanged"))
	} else {
		written := st.DeepCopy()
		s.add(Action{Kind: UpdateDaemonSetStatus, Object: s.ref(&s.ds.ObjectMeta), Status: &written,
			Reason: reason(ReasonStatus,
				[]Value{val("desired", int64(st.DesiredNumberScheduled)), val("current", int64(st.CurrentNumberScheduled)),
					val("updated", int64(st.UpdatedNumberScheduled)), val("available", int64(st.NumberAvailable))},
				"%d nodes should run a daemon pod: %d do, %d updated, %d available", st.DesiredNumberScheduled,
				st.CurrentNumberScheduled, st.UpdatedNumberScheduled, st.NumberAvailable)})
	}
	s.p.Status = &st
	if mr := s.ds.Spec.MinReadySeconds; mr > 0 && st.NumberReady != st.NumberAvailable {
		d := time.Duration(mr) * time.Second
		s.delays = append(s.delays, d)
		s.note(reason(NoteRequeueMinReady, []Value{val("ready", int64(st.NumberReady)), val("available", int64(st.NumberAvailable))},
			"%d pods are ready but only %d available: sync again in %s", st.NumberReady, st.NumberAvailable, d))
	}
}
