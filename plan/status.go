package plan

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// HasProgressDeadline reports whether progressDeadlineSeconds is set and not
// model.NoLimit.
func HasProgressDeadline(d *model.Deployment) bool {
	if d == nil {
		return false
	}
	p := d.Spec.ProgressDeadlineSeconds
	return p != nil && *p != model.NoLimit
}

// CalculateStatus computes the Deployment status from its ReplicaSets
// (upstream calculateStatus): counts summed from ReplicaSet status (unavailable from spec
// sums: replicas 8+5 with 10 available give 3), conditions copied, and the
// Available condition set at now. terminating enables
// status.terminatingReplicas (the DeploymentReplicaSetTerminatingReplicas
// gate).
func CalculateStatus(allRSs []*model.ReplicaSet, newRS *model.ReplicaSet, d *model.Deployment, now time.Time, terminating bool) model.DeploymentStatus {
	return calculateStatus(allRSs, newRS, d, now, terminating, proportion.MaxUnavailable(d))
}

// calculateStatus is CalculateStatus with d's proportion.MaxUnavailable
// given. The status shares nothing with d's.
func calculateStatus(allRSs []*model.ReplicaSet, newRS *model.ReplicaSet, d *model.Deployment, now time.Time, terminating bool,
	maxUnavailable int32) model.DeploymentStatus {
	var st model.DeploymentStatus
	if d == nil {
		return st
	}
	var totalSpec int32
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		st.Replicas += rs.Status.Replicas
		st.ReadyReplicas += rs.Status.ReadyReplicas
		st.AvailableReplicas += rs.Status.AvailableReplicas
		totalSpec += rs.SpecReplicas()
	}
	st.ObservedGeneration = d.Generation
	if newRS != nil {
		st.UpdatedReplicas = newRS.Status.Replicas
	}
	st.UnavailableReplicas = max(0, totalSpec-st.AvailableReplicas)
	var sum int32
	known := false
	if terminating {
		sum, known = terminatingReplicas(allRSs)
	}
	if c := d.Status.CollisionCount; c != nil {
		st.CollisionCount = model.Int32Ptr(*c)
	}
	if known {
		st.TerminatingReplicas = model.Int32Ptr(sum)
	}
	// The status's own conditions, with room for the two a sync may add
	// (Available here, Progressing in syncRolloutStatus), so that setting
	// them in place never reallocates.
	st.Conditions = append(make([]model.DeploymentCondition, 0, len(d.Status.Conditions)+2), d.Status.Conditions...)
	if st.AvailableReplicas >= d.DesiredReplicas()-maxUnavailable {
		setOwnCondition(&st, newCondition(model.DeploymentAvailable, model.ConditionTrue,
			model.ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		setOwnCondition(&st, newCondition(model.DeploymentAvailable, model.ConditionFalse,
			model.ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	return st
}

// TerminatingReplicas sums status.terminatingReplicas (upstream calculateStatus): a
// ReplicaSet never synced (observedGeneration 0, no count) is skipped; one
// synced but not reporting makes the total unknown (nil).
func TerminatingReplicas(rss []*model.ReplicaSet) *int32 {
	sum, known := terminatingReplicas(rss)
	if !known {
		return nil
	}
	return model.Int32Ptr(sum)
}

// terminatingReplicas is TerminatingReplicas as a value: the sum and whether
// it is known. The sum is int32 arithmetic, as upstream's.
func terminatingReplicas(rss []*model.ReplicaSet) (int32, bool) {
	var sum int32
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		t := rs.Status.TerminatingReplicas
		if rs.Status.ObservedGeneration == 0 && t == nil {
			continue
		}
		if t == nil {
			return 0, false
		}
		sum += *t
	}
	return sum, true
}

// DeploymentComplete reports whether st shows every replica updated and
// available and the current generation observed. With replicas 5: status
// (replicas 5, updated 5, available 5) is complete, (5, 5, 4) is not.
func DeploymentComplete(d *model.Deployment, st *model.DeploymentStatus) bool {
	if d == nil || st == nil {
		return false
	}
	want := d.DesiredReplicas()
	return st.UpdatedReplicas == want && st.Replicas == want && st.AvailableReplicas == want &&
		st.ObservedGeneration >= d.Generation
}

// DeploymentProgressing reports whether st shows progress over the stored
// status: more updated, ready or available replicas, or fewer old ones.
// (10 replicas, 4 updated) → (10, 6) is progress; (10, 7) → (10, 6) is not.
func DeploymentProgressing(d *model.Deployment, st *model.DeploymentStatus) bool {
	if d == nil || st == nil {
		return false
	}
	old := &d.Status
	return st.UpdatedReplicas > old.UpdatedReplicas ||
		st.Replicas-st.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		st.ReadyReplicas > old.ReadyReplicas ||
		st.AvailableReplicas > old.AvailableReplicas
}

// DeploymentTimedOut reports whether st's Progressing condition is older than
// the progress deadline at now (strictly: a 10 s deadline from 00:01:10 has
// not passed at 00:01:20 but has at 00:01:20.000000001), or already says so.
func DeploymentTimedOut(d *model.Deployment, st *model.DeploymentStatus, now time.Time) bool {
	if !HasProgressDeadline(d) || st == nil {
		return false
	}
	c := st.Condition(model.DeploymentProgressing)
	if c == nil || c.Reason == model.ReasonNewReplicaSetAvailable {
		return false
	}
	if c.Reason == model.ReasonProgressDeadlineExceeded {
		return true
	}
	return c.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Before(now)
}

// syncDeploymentStatus writes the plain status (no Progressing estimation)
// when it changed: the paused, scaling and deleting syncs.
func (s *syncer) syncDeploymentStatus(allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) {
	st := calculateStatus(allRSs, newRS, s.d, s.now, s.cfg.terminatingReplicas, proportion.MaxUnavailable(s.d))
	s.writeStatusIfChanged(st)
}

func (s *syncer) writeStatusIfChanged(st model.DeploymentStatus) bool {
	s.statusComputed = &st
	if statusEqual(&s.d.Status, &st) {
		s.note(reason(NoteStatusUnchanged, nil, "the stored status is current"))
		return false
	}
	s.setStatus(st)
	s.updateStatus(statusReason(&st))
	return true
}

// statusReason explains a status write, e.g. "status: 13 replicas, 8
// updated, 11 ready, 11 available, 2 unavailable". The sentence is built
// from the reason's values.
func statusReason(st *model.DeploymentStatus) Reason {
	values := vals(
		v("replicas", int64(st.Replicas)), v("updated", int64(st.UpdatedReplicas)), v("ready", int64(st.ReadyReplicas)),
		v("available", int64(st.AvailableReplicas)), v("unavailable", int64(st.UnavailableReplicas)),
	)
	msg := make([]byte, 0, 96)
	msg = append(msg, "status: "...)
	for i, x := range values {
		if i > 0 {
			msg = append(msg, ", "...)
		}
		msg = strconv.AppendInt(msg, x.Value, 10)
		msg = append(msg, ' ')
		msg = append(msg, x.Name...)
	}
	return Reason{Code: ReasonStatus, Message: string(msg), Values: values}
}

// syncRolloutStatus is the status update of a rollout sync (upstream syncRolloutStatus):
// Progressing estimation, ReplicaFailure promotion, and the requeue when
// nothing is written.
func (s *syncer) syncRolloutStatus(allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) {
	d := s.d
	st := calculateStatus(allRSs, newRS, d, s.now, s.cfg.terminatingReplicas, proportion.MaxUnavailable(s.d))
	if !HasProgressDeadline(d) {
		removeOwnCondition(&st, model.DeploymentProgressing)
	}
	if DeploymentComplete(d, &st) {
		s.note(reason(NoteComplete, vals(v("replicas", int64(st.Replicas))),
			"complete: %d replicas, all updated and available", st.Replicas))
	}
	cur := d.Status.Condition(model.DeploymentProgressing)
	isComplete := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == model.ReasonNewReplicaSetAvailable
	if HasProgressDeadline(d) && !isComplete {
		// The subject of the messages: `Deployment "web"` or `ReplicaSet "web-5d7"`.
		kind, name := "Deployment", d.Name
		if newRS != nil {
			kind, name = "ReplicaSet", newRS.Name
		}
		switch {
		case DeploymentComplete(d, &st):
			setOwnCondition(&st, newCondition(model.DeploymentProgressing, model.ConditionTrue,
				model.ReasonNewReplicaSetAvailable, fmt.Sprintf("%s %q has successfully progressed.", kind, name), s.now))
		case DeploymentProgressing(d, &st):
			c := newCondition(model.DeploymentProgressing, model.ConditionTrue, model.ReasonReplicaSetUpdated, fmt.Sprintf("%s %q is progressing.", kind, name), s.now)
			if cur != nil {
				if cur.Status == model.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				removeOwnCondition(&st, model.DeploymentProgressing)
			}
			setOwnCondition(&st, c)
		case DeploymentTimedOut(d, &st, s.now):
			setOwnCondition(&st, newCondition(model.DeploymentProgressing, model.ConditionFalse,
				model.ReasonProgressDeadlineExceeded, fmt.Sprintf("%s %q has timed out progressing.", kind, name), s.now))
			s.note(reason(NoteDeadlineExceeded, vals(v("progressDeadlineSeconds", int64(*d.Spec.ProgressDeadlineSeconds))),
				"no progress for more than %d seconds", *d.Spec.ProgressDeadlineSeconds))
		}
	}
	if failures := replicaFailures(allRSs, newRS); len(failures) > 0 {
		setOwnCondition(&st, failures[0])
	} else {
		removeOwnCondition(&st, model.DeploymentReplicaFailure)
	}
	if !s.writeStatusIfChanged(st) {
		s.requeueStuckDeployment(&st)
	}
}

// replicaFailures returns the ReplicaFailure conditions to promote: the new
// ReplicaSet's if it has any, else every ReplicaSet's in list order.
func replicaFailures(allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) []model.DeploymentCondition {
	var out []model.DeploymentCondition
	collect := func(rs *model.ReplicaSet) {
		for _, c := range rs.Status.Conditions {
			if c.Type == model.ReplicaSetReplicaFailure {
				out = append(out, model.DeploymentCondition{
					Type: model.DeploymentReplicaFailure, Status: c.Status, LastUpdateTime: c.LastTransitionTime,
					LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message,
				})
			}
		}
	}
	if newRS != nil {
		collect(newRS)
		if len(out) > 0 {
			return out
		}
	}
	for _, rs := range allRSs {
		if rs != nil {
			collect(rs)
		}
	}
	return out
}

// requeueStuckDeployment schedules the next sync at the progress deadline
// when a rollout sync wrote nothing (upstream requeueStuckDeployment): one second after it, or
// rate-limited at once when less than a second is left.
func (s *syncer) requeueStuckDeployment(st *model.DeploymentStatus) {
	d := s.d
	cur := d.Status.Condition(model.DeploymentProgressing)
	if !HasProgressDeadline(d) || cur == nil || DeploymentComplete(d, st) || cur.Reason == model.ReasonProgressDeadlineExceeded {
		return
	}
	after := cur.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Sub(s.now)
	if after < time.Second {
		s.plan.Requeue = Requeue{Kind: RequeueRateLimited}
		return
	}
	s.plan.Requeue = Requeue{Kind: RequeueAfter, After: after + time.Second}
}

// statusEqual is upstream's plain deep equality of statuses, with times
// compared as instants.
func statusEqual(a, b *model.DeploymentStatus) bool {
	if a.ObservedGeneration != b.ObservedGeneration || a.Replicas != b.Replicas || a.UpdatedReplicas != b.UpdatedReplicas ||
		a.ReadyReplicas != b.ReadyReplicas || a.AvailableReplicas != b.AvailableReplicas || a.UnavailableReplicas != b.UnavailableReplicas ||
		!int32PtrEqual(a.TerminatingReplicas, b.TerminatingReplicas) || !int32PtrEqual(a.CollisionCount, b.CollisionCount) ||
		len(a.Conditions) != len(b.Conditions) || (a.Conditions == nil) != (b.Conditions == nil) {
		return false
	}
	for i := range a.Conditions {
		x, y := a.Conditions[i], b.Conditions[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastUpdateTime.Equal(y.LastUpdateTime) || !x.LastTransitionTime.Equal(y.LastTransitionTime) {
			return false
		}
	}
	return true
}

func int32PtrEqual(a, b *int32) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
