package replicaset

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// statusCounts are the numbers calculateStatus derives from the pods.
type statusCounts struct {
	replicas, fullyLabeled, ready, available int32
	terminating                              *int32
}

// countStatus counts the active pods, which all match rs's selector. A pod
// is fully labeled when every template label is on it: the template-label
// selector upstream builds for fullyLabeledReplicas. When the selector's
// matchLabels already require every template label with its value, a pod
// that matches the selector has them all, and no label is looked up again.
func countStatus(rs *model.ReplicaSet, active []*model.Pod, terminating int, now time.Time, cfg *config) statusCounts {
	var c statusCounts
	c.replicas = int32(len(active))
	all := selectorRequires(rs.Spec.Selector, rs.Spec.Template.Labels)
	var template model.Matcher
	if !all {
		template = model.LabelsMatcher(rs.Spec.Template.Labels)
	}
	for _, p := range active {
		if all || template.Matches(p.Labels) {
			c.fullyLabeled++
		}
		if model.IsPodReady(p) {
			c.ready++
			if model.IsPodAvailable(p, rs.Spec.MinReadySeconds, now) {
				c.available++
			}
		}
	}
	if cfg.terminating {
		t := int32(terminating)
		c.terminating = &t
	}
	return c
}

// selectorRequires reports whether sel's matchLabels hold every one of
// labels with the same value.
func selectorRequires(sel *model.LabelSelector, labels map[string]string) bool {
	if sel == nil {
		return false
	}
	for k, v := range labels {
		if got, ok := sel.MatchLabels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// withoutFailure drops the ReplicaFailure condition; like upstream it returns
// nil when nothing is left.
func withoutFailure(conds []model.ReplicaSetCondition) []model.ReplicaSetCondition {
	var out []model.ReplicaSetCondition
	for _, c := range conds {
		if c.Type != model.ReplicaSetReplicaFailure {
			out = append(out, c)
		}
	}
	return out
}

// calculateStatus is the status upstream writes (the ReplicaSet controller's calculateStatus): the counts,
// the ReplicaFailure condition added when manageReplicas failed and none is
// present (removed when it succeeded), and observedGeneration. changed is
// upstream's test for sending the update at all.
func calculateStatus(rs *model.ReplicaSet, c statusCounts, manageErr *SyncError, activeCount int, now time.Time) (st model.ReplicaSetStatus, changed bool, condNote string) {
	st = rs.Status
	st.TerminatingReplicas = c.terminating
	st.Conditions = slices.Clone(rs.Status.Conditions)
	hasFailure := slices.ContainsFunc(st.Conditions, func(x model.ReplicaSetCondition) bool {
		return x.Type == model.ReplicaSetReplicaFailure
	})
	condChanged := false
	switch {
	case manageErr != nil && !hasFailure:
		reason := ""
		spec := rs.SpecReplicas()
		if activeCount < int(spec) {
			reason = model.ReasonFailedCreate
		} else if activeCount > int(spec) {
			reason = model.ReasonFailedDelete
		}
		st.Conditions = append(withoutFailure(st.Conditions), model.ReplicaSetCondition{
			Type:               model.ReplicaSetReplicaFailure,
			Status:             model.ConditionTrue,
			LastTransitionTime: now,
			Reason:             reason,
			Message:            manageErr.Message,
		})
		condChanged = true
		condNote = "ReplicaFailure condition added (" + reason + ")"
	case manageErr == nil && hasFailure:
		st.Conditions = withoutFailure(st.Conditions)
		condChanged = true
		condNote = "ReplicaFailure condition removed"
	}
	st.Replicas = c.replicas
	st.FullyLabeledReplicas = c.fullyLabeled
	st.ReadyReplicas = c.ready
	st.AvailableReplicas = c.available
	old := rs.Status
	changed = old.Replicas != st.Replicas ||
		old.FullyLabeledReplicas != st.FullyLabeledReplicas ||
		old.ReadyReplicas != st.ReadyReplicas ||
		old.AvailableReplicas != st.AvailableReplicas ||
		!equalInt32Ptr(old.TerminatingReplicas, st.TerminatingReplicas) ||
		rs.Generation != old.ObservedGeneration ||
		condChanged
	st.ObservedGeneration = rs.Generation
	return st, changed, condNote
}

func equalInt32Ptr(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func ptrString(p *int32) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

// statusReason describes the fields that change.
func statusReason(old, st model.ReplicaSetStatus, generation int64, condNote string) Reason {
	var parts []string
	var values []Value
	field := func(name string, before, after int64) {
		values = append(values, val(name, after))
		if before != after {
			parts = append(parts, fmt.Sprintf("%s %d→%d", name, before, after))
		}
	}
	field("replicas", int64(old.Replicas), int64(st.Replicas))
	field("fullyLabeledReplicas", int64(old.FullyLabeledReplicas), int64(st.FullyLabeledReplicas))
	field("readyReplicas", int64(old.ReadyReplicas), int64(st.ReadyReplicas))
	field("availableReplicas", int64(old.AvailableReplicas), int64(st.AvailableReplicas))
	if st.TerminatingReplicas != nil {
		values = append(values, val("terminatingReplicas", int64(*st.TerminatingReplicas)))
	}
	if !equalInt32Ptr(old.TerminatingReplicas, st.TerminatingReplicas) {
		parts = append(parts, fmt.Sprintf("terminatingReplicas %s→%s", ptrString(old.TerminatingReplicas), ptrString(st.TerminatingReplicas)))
	}
	field("observedGeneration", old.ObservedGeneration, generation)
	if condNote != "" {
		parts = append(parts, condNote)
	}
	return Reason{Code: ReasonStatusChanged, Message: "status changes: " + strings.Join(parts, ", "), Values: values}
}
