package replicaset

import (
	"maps"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// labelPair is one required label.
type labelPair struct{ key, value string }

// podMatcher is a selector prepared for thousands of pods: its matchLabels
// become a slice of pairs, each one map lookup in the pod's labels, instead
// of an iteration over the selector's map per pod; match expressions, when
// there are any, go through model.Matcher. It matches exactly what
// model.Matcher matches; the zero podMatcher matches nothing, like the zero
// model.Matcher.
type podMatcher struct {
	valid bool
	pairs []labelPair
	exprs bool          // the selector has match expressions
	full  model.Matcher // the whole selector, for match expressions
}

// newPodMatcher checks sel like model.NewMatcher and prepares it.
func newPodMatcher(sel *model.LabelSelector) (podMatcher, error) {
	m, err := model.NewMatcher(sel)
	if err != nil || sel == nil {
		return podMatcher{}, err
	}
	return podMatcher{valid: true, pairs: requiredLabels(sel.MatchLabels), exprs: len(sel.MatchExpressions) > 0, full: m}, nil
}

// requiredLabels lists labels as pairs, in key order.
func requiredLabels(labels map[string]string) []labelPair {
	out := make([]labelPair, 0, len(labels))
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		out = append(out, labelPair{k, labels[k]})
	}
	return out
}

// hasAll reports whether every pair is among labels.
func hasAll(labels map[string]string, pairs []labelPair) bool {
	for _, p := range pairs {
		if got, ok := labels[p.key]; !ok || got != p.value {
			return false
		}
	}
	return true
}

// matches reports whether labels satisfy the selector.
func (m *podMatcher) matches(labels map[string]string) bool {
	if !m.valid || !hasAll(labels, m.pairs) {
		return false
	}
	return !m.exprs || m.full.Matches(labels)
}
