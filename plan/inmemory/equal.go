package inmemory

import (
	"maps"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

func int32PtrEqual(a, b *int32) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func selectorEqual(a, b *model.LabelSelector) bool {
	if a == nil || b == nil {
		return a == b
	}
	return maps.Equal(a.MatchLabels, b.MatchLabels) &&
		slices.EqualFunc(a.MatchExpressions, b.MatchExpressions, func(x, y model.LabelSelectorRequirement) bool {
			return x.Key == y.Key && x.Operator == y.Operator && slices.Equal(x.Values, y.Values)
		})
}

func templateEqual(a, b model.PodTemplate) bool {
	return a.Spec == b.Spec && maps.Equal(a.Labels, b.Labels) && maps.Equal(a.Annotations, b.Annotations)
}

func replicaSetSpecEqual(a, b *model.ReplicaSetSpec) bool {
	return int32PtrEqual(a.Replicas, b.Replicas) && a.MinReadySeconds == b.MinReadySeconds &&
		selectorEqual(a.Selector, b.Selector) && templateEqual(a.Template, b.Template)
}

func intOrStringPtrEqual(a, b *model.IntOrString) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func deploymentSpecEqual(a, b *model.DeploymentSpec) bool {
	ra, rb := a.Strategy.RollingUpdate, b.Strategy.RollingUpdate
	strategyEqual := a.Strategy.Type == b.Strategy.Type && (ra == nil) == (rb == nil) &&
		(ra == nil || intOrStringPtrEqual(ra.MaxSurge, rb.MaxSurge) && intOrStringPtrEqual(ra.MaxUnavailable, rb.MaxUnavailable))
	return int32PtrEqual(a.Replicas, b.Replicas) && selectorEqual(a.Selector, b.Selector) && templateEqual(a.Template, b.Template) &&
		strategyEqual && a.MinReadySeconds == b.MinReadySeconds && int32PtrEqual(a.RevisionHistoryLimit, b.RevisionHistoryLimit) &&
		a.Paused == b.Paused && int32PtrEqual(a.ProgressDeadlineSeconds, b.ProgressDeadlineSeconds)
}
