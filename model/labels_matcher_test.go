package model_test

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// TestLabelsMatcherAgreesWithSelector: LabelsMatcher(l) matches exactly
// what the selector SelectorFromLabels(l) matches (LabelSelector.Matches),
// for 0 to 7 labels (below, at and above the number a Matcher keeps without
// an allocation), against every label set where each of the labels is
// missing, has its value or another one.
func TestLabelsMatcherAgreesWithSelector(t *testing.T) {
	keys := []string{"app", "tier", "track", "zone", "team", "env", "rel", "extra"}
	checked, matched := 0, 0
	for n := 0; n <= 7; n++ {
		required := map[string]string{}
		for _, k := range keys[:n] {
			required[k] = "v"
		}
		m := model.LabelsMatcher(required)
		sel := model.SelectorFromLabels(required)
		for _, labels := range labelCombos(keys[:n+1], "v", "w") {
			want, err := sel.Matches(labels)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Matches(labels); got != want {
				t.Errorf("LabelsMatcher(%v) on %v = %v, want %v", required, labels, got, want)
			}
			checked++
			if want {
				matched++
			}
		}
	}
	if matched == 0 || matched == checked {
		t.Fatalf("%d of %d label sets match: the cases do not tell matching from not", matched, checked)
	}
}

// labelCombos returns every label set of keys where each key is missing,
// has the value v or the value other: 3^len(keys) sets, the c-th with the
// i-th key's choice (missing 0, v 1, other 2) as the i-th base-3 digit of c.
func labelCombos(keys []string, v, other string) []map[string]string {
	combos := 1
	for range keys {
		combos *= 3
	}
	out := make([]map[string]string, combos)
	for c := range out {
		labels := map[string]string{}
		for i, x := 0, c; i < len(keys); i, x = i+1, x/3 {
			switch x % 3 {
			case 1:
				labels[keys[i]] = v
			case 2:
				labels[keys[i]] = other
			}
		}
		out[c] = labels
	}
	return out
}

// TestLabelsMatcherEdges: no labels match everything (upstream's selector of
// an empty labels.Set selects everything); labels of invalid syntax are
// required by plain equality, unchecked (labels.Set.AsSelectorPreValidated,
// which the ReplicaSet controller uses for its template's labels); the
// Matcher does not follow later changes to the map; it differs from the zero
// Matcher, which matches nothing.
func TestLabelsMatcherEdges(t *testing.T) {
	for _, l := range []map[string]string{nil, {}} {
		m := model.LabelsMatcher(l)
		if !m.Matches(nil) || !m.Matches(map[string]string{"a": "b"}) {
			t.Errorf("LabelsMatcher(%#v) must match everything", l)
		}
	}
	bad := map[string]string{"bad key!": "a b", "app": "web", "x": "1", "y": "2", "z": "3"}
	m := model.LabelsMatcher(bad)
	if !m.Matches(map[string]string{"bad key!": "a b", "app": "web", "x": "1", "y": "2", "z": "3", "other": "o"}) {
		t.Error("labels of invalid syntax: a label set carrying them all must match")
	}
	if m.Matches(map[string]string{"bad key!": "a", "app": "web", "x": "1", "y": "2", "z": "3"}) {
		t.Error(`labels of invalid syntax: "bad key!" with another value must not match`)
	}
	if m.Matches(map[string]string{"bad key!": "a b", "app": "web", "x": "1", "y": "2"}) {
		t.Error(`a label set without "z" must not match`)
	}
	bad["app"] = "db"
	delete(bad, "z")
	if !m.Matches(map[string]string{"bad key!": "a b", "app": "web", "x": "1", "y": "2", "z": "3"}) {
		t.Error("changing the map after LabelsMatcher changed the Matcher")
	}
	var zero model.Matcher
	if zero.Matches(nil) {
		t.Error("the zero Matcher must match nothing")
	}
}

// TestMatcherManyLabels: a selector of twelve matchLabels (three times the
// number a Matcher keeps without an allocation) and a match expression
// requires every one of them: removing or changing any single label of a
// matching set makes it fail, through NewMatcher and NewSharedMatcher alike,
// as LabelSelector.Matches says; NewMatcher's Matcher does not follow later
// changes to the selector.
func TestMatcherManyLabels(t *testing.T) {
	sel := &model.LabelSelector{
		MatchLabels:      map[string]string{},
		MatchExpressions: []model.LabelSelectorRequirement{{Key: "blocked", Operator: model.SelectorOpDoesNotExist}},
	}
	all := map[string]string{"unrelated": "u"}
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		sel.MatchLabels[k] = "v-" + k
		all[k] = "v-" + k
	}
	copied, err := model.NewMatcher(sel)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := model.NewSharedMatcher(sel)
	if err != nil {
		t.Fatal(err)
	}
	check := func(labels map[string]string, want bool) {
		t.Helper()
		if ok, err := sel.Matches(labels); err != nil || ok != want {
			t.Fatalf("LabelSelector.Matches(%v) = %v, %v; the case expects %v", labels, ok, err, want)
		}
		if got := copied.Matches(labels); got != want {
			t.Errorf("Matcher on %v = %v, want %v", labels, got, want)
		}
		if got := shared.Matches(labels); got != want {
			t.Errorf("shared Matcher on %v = %v, want %v", labels, got, want)
		}
	}
	check(all, true)
	for k := range sel.MatchLabels {
		without := map[string]string{}
		changed := map[string]string{}
		for l, v := range all {
			changed[l] = v
			if l != k {
				without[l] = v
			}
		}
		changed[k] = "other"
		check(without, false)
		check(changed, false)
	}
	blocked := map[string]string{"blocked": ""}
	for k, v := range all {
		blocked[k] = v
	}
	check(blocked, false)
	sel.MatchLabels["a"] = "changed"
	sel.MatchLabels["m"] = "new"
	if !copied.Matches(all) {
		t.Error("changing the selector after NewMatcher changed the Matcher")
	}
}
