package plan

import (
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

func newCondition(t model.DeploymentConditionType, status model.ConditionStatus, reason, message string, now time.Time) model.DeploymentCondition {
	return model.DeploymentCondition{Type: t, Status: status, LastUpdateTime: now, LastTransitionTime: now, Reason: reason, Message: message}
}

// SetDeploymentCondition sets c in st the way upstream does (upstream SetDeploymentCondition):
// nothing changes when a condition of that type already has the same status
// and reason (not even its message or times); otherwise the old condition is
// removed and c appended at the end, keeping the old lastTransitionTime when
// the status is unchanged.
//
// SetDeploymentCondition modifies st in place but never the backing array
// of its conditions, which it replaces.
func SetDeploymentCondition(st *model.DeploymentStatus, c model.DeploymentCondition) {
	if st == nil {
		return
	}
	cur := st.Condition(c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	st.Conditions = append(withoutCondition(st.Conditions, c.Type, 1), c)
}

// RemoveDeploymentCondition removes the condition of type t from st,
// replacing its conditions; none left is nil.
func RemoveDeploymentCondition(st *model.DeploymentStatus, t model.DeploymentConditionType) {
	if st == nil || len(st.Conditions) > 0 && st.Condition(t) == nil {
		return // nothing to remove (an empty list still becomes nil below)
	}
	st.Conditions = withoutCondition(st.Conditions, t, 0)
}

// setOwnCondition is SetDeploymentCondition for a status whose conditions
// are the caller's alone (a status calculateStatus made): it changes them in
// place, within their capacity.
func setOwnCondition(st *model.DeploymentStatus, c model.DeploymentCondition) {
	cur := st.Condition(c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	st.Conditions = append(slices.DeleteFunc(st.Conditions, func(x model.DeploymentCondition) bool { return x.Type == c.Type }), c)
}

// removeOwnCondition is RemoveDeploymentCondition for a status whose
// conditions are the caller's alone; none left is nil.
func removeOwnCondition(st *model.DeploymentStatus, t model.DeploymentConditionType) {
	if len(st.Conditions) > 0 && st.Condition(t) == nil {
		return
	}
	if st.Conditions = slices.DeleteFunc(st.Conditions, func(x model.DeploymentCondition) bool { return x.Type == t }); len(st.Conditions) == 0 {
		st.Conditions = nil
	}
}

// withoutCondition returns a new slice without conditions of type t, with
// room for spare more (nil when none remain and spare is 0), never sharing
// the backing array of conds.
func withoutCondition(conds []model.DeploymentCondition, t model.DeploymentConditionType, spare int) []model.DeploymentCondition {
	n := 0
	for _, c := range conds {
		if c.Type != t {
			n++
		}
	}
	if n+spare == 0 {
		return nil
	}
	out := make([]model.DeploymentCondition, 0, n+spare)
	for _, c := range conds {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// checkPausedConditions records a pause or a resume in the Progressing
// condition (pause and resume), unless the Deployment has no deadline or has
// already timed out.
func (s *syncer) checkPausedConditions() {
	d := s.d
	if !HasProgressDeadline(d) {
		return
	}
	cur := d.Status.Condition(model.DeploymentProgressing)
	if cur != nil && cur.Reason == model.ReasonProgressDeadlineExceeded {
		return
	}
	pausedCond := cur != nil && cur.Reason == model.ReasonDeploymentPaused
	switch {
	case d.Spec.Paused && !pausedCond:
		s.statusChanged = true
		SetDeploymentCondition(&d.Status, newCondition(model.DeploymentProgressing, model.ConditionUnknown,
			model.ReasonDeploymentPaused, "Deployment is paused", s.now))
		s.updateStatus(reason(ReasonPausedCondition, nil, "the Deployment was paused"))
	case !d.Spec.Paused && pausedCond:
		s.statusChanged = true
		SetDeploymentCondition(&d.Status, newCondition(model.DeploymentProgressing, model.ConditionUnknown,
			model.ReasonDeploymentResumed, "Deployment is resumed", s.now))
		s.updateStatus(reason(ReasonPausedCondition, nil, "the Deployment was resumed: the progress deadline restarts"))
	}
}
