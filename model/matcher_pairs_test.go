package model_test

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// TestMatcherAgreesWithSelector: a Matcher (shared, copied, or made by
// NewPreValidatedMatcher for a selector already checked) matches exactly what
// LabelSelector.Matches matches, for selectors of 0 to 6 matchLabels
// (below, at and above the number a Matcher keeps as pairs),
// with and without match expressions, against every subset of a set of
// labels, each with its required value, another value, or missing.
func TestMatcherAgreesWithSelector(t *testing.T) {
	keys := []string{"app", "tier", "track", "zone", "team", "env", "rel"}
	exprs := [][]model.LabelSelectorRequirement{
		nil,
		{{Key: "extra", Operator: model.SelectorOpDoesNotExist}},
		{{Key: "track", Operator: model.SelectorOpIn, Values: []string{"v2", "other"}}},
	}
	checked, matched := 0, 0
	for n := 0; n <= 6; n++ {
		for _, ex := range exprs {
			sel := &model.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: ex}
			for _, k := range keys[:n] {
				sel.MatchLabels[k] = "v"
			}
			shared, err := model.NewSharedMatcher(sel)
			if err != nil {
				t.Fatal(err)
			}
			copied, err := model.NewMatcher(sel)
			if err != nil {
				t.Fatal(err)
			}
			checkedOnce := model.NewPreValidatedMatcher(sel)
			// Each of the first n+1 keys is missing, has the required
			// value or another one; "extra" is set in every other set.
			for c, labels := range labelCombos(keys[:n+1], "v", "v2") {
				if c%2 == 1 {
					labels["extra"] = "x"
				}
				want, err := sel.Matches(labels)
				if err != nil {
					t.Fatal(err)
				}
				if got := shared.Matches(labels); got != want {
					t.Errorf("shared Matcher of %v on %v = %v, want %v", sel, labels, got, want)
				}
				if got := copied.Matches(labels); got != want {
					t.Errorf("Matcher of %v on %v = %v, want %v", sel, labels, got, want)
				}
				if got := checkedOnce.Matches(labels); got != want {
					t.Errorf("checked Matcher of %v on %v = %v, want %v", sel, labels, got, want)
				}
				checked++
				if want {
					matched++
				}
			}
		}
	}
	if matched == 0 || matched == checked {
		t.Fatalf("%d of %d label sets match: the cases do not tell matching from not", matched, checked)
	}
}
