package statefulset

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

func seconds(n int32) time.Duration { return time.Duration(n) * time.Second }

// updateStatefulSet is upstream's UpdateStatefulSet: revisions, pods, the
// status write (made even when the pod work failed) and the history
// cleanup. It returns the status, the failure the sync ends with, and
// invalid-input errors.
func (sy *syncer) updateStatefulSet(history []*model.ControllerRevision, pods []*model.Pod) (*model.StatefulSetStatus, *failure, error) {
	current, update, cc, err := sy.chooseRevisions(history)
	if err != nil {
		return nil, nil, err
	}
	status, f := sy.updatePods(current, update, cc, pods)
	sy.completeRollingUpdate(status)
	sy.writeStatus(status)
	sy.truncateHistory(history, pods, current, update)
	out := status.DeepCopy()
	sy.out.Status = &out
	if f != nil {
		return status, aggregate(f.members()...), nil
	}
	return status, nil, nil
}

// completeRollingUpdate is upstream's completeRollingUpdate: once every
// replica is updated, ready and counted, the update revision becomes the
// current one.
func (sy *syncer) completeRollingUpdate(st *model.StatefulSetStatus) {
	n := *sy.set.Spec.Replicas
	if sy.set.Spec.UpdateStrategy.Type == model.RollingUpdateStatefulSetStrategyType &&
		st.UpdatedReplicas == n && st.ReadyReplicas == n && st.Replicas == n {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
}

// writeStatus writes st when upstream's inconsistentStatus finds it differs
// from the stored status (collisionCount and conditions are not compared).
func (sy *syncer) writeStatus(st *model.StatefulSetStatus) {
	old := &sy.set.Status
	var changed []string
	if st.ObservedGeneration > old.ObservedGeneration {
		changed = append(changed, "observedGeneration")
	}
	for _, c := range []struct {
		name     string
		old, new int32
	}{
		{"replicas", old.Replicas, st.Replicas},
		{"currentReplicas", old.CurrentReplicas, st.CurrentReplicas},
		{"readyReplicas", old.ReadyReplicas, st.ReadyReplicas},
		{"updatedReplicas", old.UpdatedReplicas, st.UpdatedReplicas},
		{"availableReplicas", old.AvailableReplicas, st.AvailableReplicas},
	} {
		if c.old != c.new {
			changed = append(changed, c.name)
		}
	}
	if st.CurrentRevision != old.CurrentRevision {
		changed = append(changed, "currentRevision")
	}
	if st.UpdateRevision != old.UpdateRevision {
		changed = append(changed, "updateRevision")
	}
	if len(changed) == 0 {
		sy.note(reason(NoteStatusUnchanged, nil, "the computed status equals the stored one"))
		return
	}
	w := st.DeepCopy()
	sy.add(Action{Kind: UpdateStatefulSetStatus, Object: ref(&sy.set.ObjectMeta), Status: &w, Invalid: sy.invalidStatus(st),
		Reason: reason(ReasonStatus, []Value{val("replicas", int64(st.Replicas)), val("readyReplicas", int64(st.ReadyReplicas)), val("availableReplicas", int64(st.AvailableReplicas)), val("currentReplicas", int64(st.CurrentReplicas)), val("updatedReplicas", int64(st.UpdatedReplicas))},
			"the status changed (%s)", joinComma(changed))})
}

// invalidStatus is the message with which a real API server refuses a
// status with negative counts, "" when it accepts it.
func (sy *syncer) invalidStatus(st *model.StatefulSetStatus) string {
	var bad []string
	for _, c := range []struct {
		name string
		v    int32
	}{
		{"replicas", st.Replicas}, {"readyReplicas", st.ReadyReplicas}, {"currentReplicas", st.CurrentReplicas},
		{"updatedReplicas", st.UpdatedReplicas}, {"availableReplicas", st.AvailableReplicas},
	} {
		if c.v < 0 {
			bad = append(bad, fmt.Sprintf("status.%s: Invalid value: %d: must be greater than or equal to 0", c.name, c.v))
		}
	}
	switch len(bad) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("StatefulSet.apps %q is invalid: %s", sy.set.Name, bad[0])
	}
	return fmt.Sprintf("StatefulSet.apps %q is invalid: [%s]", sy.set.Name, joinComma(bad))
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// truncateHistory is upstream's truncateHistory: revisions that are neither
// current, update, nor the revision of a claimed pod are deleted, oldest
// first, until revisionHistoryLimit of them remain (a negative limit keeps
// all).
func (sy *syncer) truncateHistory(history []*model.ControllerRevision, pods []*model.Pod, current, update *model.ControllerRevision) {
	live := map[string]bool{current.Name: true, update.Name: true}
	for _, p := range pods {
		live[podRevision(p)] = true
	}
	var old []*model.ControllerRevision
	for _, r := range history {
		if !live[r.Name] {
			old = append(old, r)
		}
	}
	limit := int(*sy.set.Spec.RevisionHistoryLimit)
	if limit < 0 || len(old) <= limit {
		return
	}
	for _, r := range old[:len(old)-limit] {
		sy.add(Action{Kind: DeleteControllerRevision, Object: ref(&r.ObjectMeta),
			Reason: reason(ReasonHistoryLimit, []Value{val("revision", r.Revision), val("unused", int64(len(old))), val("revisionHistoryLimit", int64(limit))}, "revision %s (%d) is one of %d no pod uses, over revisionHistoryLimit %d", r.Name, r.Revision, len(old), limit)})
	}
}

// requeue is upstream's minReadySeconds requeue: when some ready pods are not
// available yet, sync again when the first becomes available (or after
// minReadySeconds).
func (sy *syncer) requeue(st *model.StatefulSetStatus, pods []*model.Pod) {
	m := sy.set.Spec.MinReadySeconds
	if m <= 0 || st == nil || st.ReadyReplicas == st.AvailableReplicas {
		return
	}
	after := seconds(m)
	var first time.Duration
	found := false
	for _, p := range pods {
		c := p.ReadyCondition()
		if c == nil || c.Status != model.ConditionTrue || c.LastTransitionTime.IsZero() {
			continue
		}
		d := c.LastTransitionTime.Add(seconds(m)).Sub(sy.now)
		if d > 0 && (!found || d < first) {
			first, found = d, true
		}
	}
	if found {
		after = first
	}
	sy.out.Requeue = plan.Requeue{Kind: plan.RequeueAfter, After: after}
	sy.note(reason(NoteRequeueMinReady, []Value{val("ready", int64(st.ReadyReplicas)), val("available", int64(st.AvailableReplicas))}, "%d pods are ready but %d available: sync again in %s", st.ReadyReplicas, st.AvailableReplicas, after))
}
