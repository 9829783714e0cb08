package appsv1

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
)

// The keys and values the generators below draw from: few, so that
// selectors and label sets often meet; a prefixed key and an empty value
// included.
var (
	diffKeys   = []string{"app", "tier", "track", "role", "example.com/zone", "example.com/team", "x", "y"}
	diffValues = []string{"web", "db", "a", "b", ""}
)

// genSelector draws a valid apps/v1 label selector (nil now and then): up
// to eight matchLabels and up to four requirements of every operator.
func genSelector(t *rapid.T) *metav1.LabelSelector {
	if rapid.IntRange(0, 19).Draw(t, "nil") == 0 {
		return nil
	}
	s := &metav1.LabelSelector{}
	// As many matchLabels as keys, evenly: a Matcher keeps the first four
	// apart from the rest.
	n := rapid.IntRange(0, len(diffKeys)).Draw(t, "matchLabels")
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(diffKeys), n, n, rapid.ID).Draw(t, "matchKeys") {
		if s.MatchLabels == nil {
			s.MatchLabels = map[string]string{}
		}
		s.MatchLabels[k] = rapid.SampledFrom(diffValues).Draw(t, "matchValue")
	}
	ops := []metav1.LabelSelectorOperator{metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn, metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist}
	for range rapid.IntRange(0, 4).Draw(t, "requirements") {
		r := metav1.LabelSelectorRequirement{
			Key:      rapid.SampledFrom(diffKeys).Draw(t, "key"),
			Operator: rapid.SampledFrom(ops).Draw(t, "operator"),
		}
		if r.Operator == metav1.LabelSelectorOpIn || r.Operator == metav1.LabelSelectorOpNotIn {
			r.Values = rapid.SliceOfNDistinct(rapid.SampledFrom(diffValues), 1, 3, rapid.ID).Draw(t, "values")
		}
		s.MatchExpressions = append(s.MatchExpressions, r)
	}
	return s
}

// genLabels draws a label set over the same keys and values (nil now and
// then). Half of them start from the selector's matchLabels, with one
// label changed, removed or added, so that every required label is
// tested on its own, the last of many included.
func genLabels(t *rapid.T, s *metav1.LabelSelector) map[string]string {
	if rapid.IntRange(0, 19).Draw(t, "nilLabels") == 0 {
		return nil
	}
	l := map[string]string{}
	if s != nil && rapid.Bool().Draw(t, "nearSelector") {
		for k, v := range s.MatchLabels {
			l[k] = v
		}
		k := rapid.SampledFrom(diffKeys).Draw(t, "editedKey")
		switch rapid.IntRange(0, 2).Draw(t, "edit") {
		case 0:
			l[k] = rapid.SampledFrom(diffValues).Draw(t, "editedValue")
		case 1:
			delete(l, k)
		}
		return l
	}
	for _, k := range rapid.SliceOfNDistinct(rapid.SampledFrom(diffKeys), 0, len(diffKeys), rapid.ID).Draw(t, "labelKeys") {
		l[k] = rapid.SampledFrom(diffValues).Draw(t, "labelValue")
	}
	return l
}

// TestSelectorMatchesAsApimachinery: every way the model matches a
// selector (LabelSelector.Matches, NewMatcher, NewSharedMatcher,
// NewPreValidatedMatcher) answers as apimachinery's
// LabelSelectorAsSelector(...).Matches on the converted selector, and
// LabelsMatcher as labels.SelectorFromValidatedSet, the pre-validated
// selector the ReplicaSet controller counts fully labeled pods with.
func TestSelectorMatchesAsApimachinery(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := genSelector(t)
		l := genLabels(t, ls)
		ref, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil {
			t.Fatalf("apimachinery rejects a generated selector %+v: %v", ls, err)
		}
		want := ref.Matches(labels.Set(l))

		ms := selectorToModel(ls)
		if err := ms.Check(); err != nil {
			t.Fatalf("the model rejects %+v, which apimachinery accepts: %v", ls, err)
		}
		got, err := ms.Matches(l)
		if err != nil || got != want {
			t.Fatalf("LabelSelector.Matches(%v) = %v, %v; apimachinery %v (selector %+v)", l, got, err, want, ls)
		}
		copied, err := model.NewMatcher(ms)
		if err != nil {
			t.Fatal(err)
		}
		shared, err := model.NewSharedMatcher(ms)
		if err != nil {
			t.Fatal(err)
		}
		pre := model.NewPreValidatedMatcher(ms)
		for name, m := range map[string]*model.Matcher{"NewMatcher": &copied, "NewSharedMatcher": &shared, "NewPreValidatedMatcher": &pre} {
			if got := m.Matches(l); got != want {
				t.Fatalf("%s(%+v).Matches(%v) = %v, apimachinery %v", name, ls, l, got, want)
			}
		}

		if ls != nil {
			lm := model.LabelsMatcher(ls.MatchLabels)
			if got, want := lm.Matches(l), labels.SelectorFromValidatedSet(ls.MatchLabels).Matches(labels.Set(l)); got != want {
				t.Fatalf("LabelsMatcher(%v).Matches(%v) = %v, apimachinery %v", ls.MatchLabels, l, got, want)
			}
		}
	})
}
