package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
)

func req(key string, op model.SelectorOperator, values ...string) model.LabelSelectorRequirement {
	return model.LabelSelectorRequirement{Key: key, Operator: op, Values: values}
}

func exprs(rs ...model.LabelSelectorRequirement) *model.LabelSelector {
	return &model.LabelSelector{MatchExpressions: rs}
}

func matchLabels(kv ...string) *model.LabelSelector {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return &model.LabelSelector{MatchLabels: m}
}

func TestLabelSelectorMatches(t *testing.T) {
	web := map[string]string{"app": "web", "tier": "fe"}
	type c struct {
		tc
		sel    *model.LabelSelector
		labels map[string]string
		want   bool
	}
	runCases(t, []c{
		{tc{"nil selector", "upstream ClaimReplicaSets: a nil selector matches nothing"}, nil, web, false},
		{tc{"nil selector nil labels", "upstream ClaimReplicaSets: a nil selector matches nothing, not even no labels"}, nil, nil, false},
		{tc{"empty selector", "upstream ClaimReplicaSets: an empty selector matches everything"}, &model.LabelSelector{}, web, true},
		{tc{"empty selector nil labels", "upstream ClaimReplicaSets: empty matches everything, also unlabelled objects"}, &model.LabelSelector{}, nil, true},
		{tc{"empty non-nil matchLabels", "upstream quirk (selector edge cases): matchLabels {} slips past the guard and selects everything"}, &model.LabelSelector{MatchLabels: map[string]string{}}, web, true},
		{tc{"empty non-nil matchExpressions", "LabelSelectorAsSelector: no requirements selects everything"}, &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{}}, nil, true},
		{tc{"matchLabels subset", "every matchLabels pair must hold; extra labels are fine"}, matchLabels("app", "web"), web, true},
		{tc{"matchLabels all", "every matchLabels pair must hold"}, matchLabels("app", "web", "tier", "fe"), web, true},
		{tc{"matchLabels wrong value", "Equals requirement: value must be equal"}, matchLabels("app", "db"), web, false},
		{tc{"matchLabels missing key", "Equals requirement: key must be present"}, matchLabels("track", "stable"), web, false},
		{tc{"matchLabels nil labels", "Equals requirement: key must be present"}, matchLabels("app", "web"), nil, false},
		{tc{"matchLabels empty value present", "label values may be empty; Equals compares them"}, matchLabels("a", ""), map[string]string{"a": ""}, true},
		{tc{"matchLabels empty value absent", "Equals on an absent key is false even for an empty value"}, matchLabels("a", ""), map[string]string{}, false},
		{tc{"In hit", "In: key present with one of the values"}, exprs(req("app", model.SelectorOpIn, "api", "web")), web, true},
		{tc{"In miss", "In: value not in the set"}, exprs(req("app", model.SelectorOpIn, "db", "cache")), web, false},
		{tc{"In absent", "In: absent key never matches"}, exprs(req("track", model.SelectorOpIn, "stable")), web, false},
		{tc{"In empty value", "In: the empty value is a value"}, exprs(req("a", model.SelectorOpIn, "")), map[string]string{"a": ""}, true},
		{tc{"NotIn hit", "NotIn: value in the set fails"}, exprs(req("app", model.SelectorOpNotIn, "web")), web, false},
		{tc{"NotIn miss", "NotIn: value outside the set holds"}, exprs(req("app", model.SelectorOpNotIn, "db")), web, true},
		{tc{"NotIn absent", "NotIn: an absent key holds"}, exprs(req("track", model.SelectorOpNotIn, "canary")), web, true},
		{tc{"Exists present", "Exists: key present"}, exprs(req("tier", model.SelectorOpExists)), web, true},
		{tc{"Exists empty value", "Exists: presence, whatever the value"}, exprs(req("a", model.SelectorOpExists)), map[string]string{"a": ""}, true},
		{tc{"Exists absent", "Exists: key absent"}, exprs(req("track", model.SelectorOpExists)), web, false},
		{tc{"DoesNotExist absent", "DoesNotExist: key absent holds"}, exprs(req("track", model.SelectorOpDoesNotExist)), web, true},
		{tc{"DoesNotExist present", "DoesNotExist: key present fails"}, exprs(req("app", model.SelectorOpDoesNotExist)), web, false},
		{tc{"DoesNotExist nil labels", "DoesNotExist holds on unlabelled objects"}, exprs(req("app", model.SelectorOpDoesNotExist)), nil, true},
		{tc{"labels and expressions ANDed", "LabelSelector: every pair and every requirement must hold"},
			&model.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []model.LabelSelectorRequirement{req("tier", model.SelectorOpIn, "fe")}}, web, true},
		{tc{"labels hold expression fails", "AND: one failing requirement fails the selector"},
			&model.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []model.LabelSelectorRequirement{req("tier", model.SelectorOpNotIn, "fe")}}, web, false},
		{tc{"expressions ANDed", "AND across expressions"},
			exprs(req("app", model.SelectorOpExists), req("track", model.SelectorOpDoesNotExist), req("tier", model.SelectorOpIn, "fe", "be")), web, true},
		{tc{"prefixed key", "label keys may carry a DNS subdomain prefix"}, matchLabels("example.com/app", "web"), map[string]string{"example.com/app": "web"}, true},
	}, func(t *testing.T, c c) {
		got, err := c.sel.Matches(c.labels)
		if err != nil {
			t.Fatalf("Matches: unexpected error %v", err)
		}
		if got != c.want {
			t.Fatalf("Matches(%v) = %v, want %v", c.labels, got, c.want)
		}
		m, err := model.NewMatcher(c.sel)
		if err != nil {
			t.Fatalf("NewMatcher: %v", err)
		}
		if m.Matches(c.labels) != c.want {
			t.Fatalf("Matcher.Matches(%v) = %v, want %v", c.labels, !c.want, c.want)
		}
		sm, err := model.NewSharedMatcher(c.sel)
		if err != nil {
			t.Fatalf("NewSharedMatcher: %v", err)
		}
		if sm.Matches(c.labels) != c.want {
			t.Fatalf("shared Matcher.Matches(%v) = %v, want %v", c.labels, !c.want, c.want)
		}
	})
}

func TestLabelSelectorCheck(t *testing.T) {
	long63 := strings.Repeat("a", 63)
	long64 := strings.Repeat("a", 64)
	type c struct {
		tc
		sel      *model.LabelSelector
		wantErr  bool
		errMatch string // substring of the error when wantErr
	}
	runCases(t, []c{
		{tc{"nil", "upstream ClaimReplicaSets: a nil selector is valid and matches nothing"}, nil, false, ""},
		{tc{"empty", "an empty selector is valid (Everything)"}, &model.LabelSelector{}, false, ""},
		{tc{"simple", "valid key and value"}, matchLabels("app", "web"), false, ""},
		{tc{"prefixed key", "qualified name: DNS subdomain prefix + '/' + name"}, matchLabels("example.com/app", "web"), false, ""},
		{tc{"k8s prefix", "qualified name with a dotted prefix"}, matchLabels("app.kubernetes.io/name", "web"), false, ""},
		{tc{"name chars", "qualified name: alnum, '-', '_', '.' inside"}, matchLabels("My_app.v-1", "A_b.c-D"), false, ""},
		{tc{"empty value", "IsValidLabelValue accepts the empty string"}, matchLabels("app", ""), false, ""},
		{tc{"63 char value", "IsValidLabelValue: at most 63 characters"}, matchLabels("app", long63), false, ""},
		{tc{"63 char key", "IsQualifiedName: name part at most 63 characters"}, matchLabels(long63, "x"), false, ""},
		{tc{"all operators", "In/NotIn with values, Exists/DoesNotExist without"},
			exprs(req("a", model.SelectorOpIn, "x"), req("b", model.SelectorOpNotIn, "y", "z"), req("c", model.SelectorOpExists), req("d", model.SelectorOpDoesNotExist)), false, ""},
		{tc{"bad operator", "LabelSelectorAsSelector: only In, NotIn, Exists, DoesNotExist"}, exprs(req("a", "Equals", "x")), true, "operator"},
		{tc{"lowercase operator", "operators are case-sensitive"}, exprs(req("a", "in", "x")), true, "operator"},
		{tc{"empty operator", "an empty operator is not an operator"}, exprs(req("a", "", "x")), true, "operator"},
		{tc{"In without values", "labels.NewRequirement: In needs at least one value"}, exprs(req("a", model.SelectorOpIn)), true, "at least one value"},
		{tc{"NotIn with empty slice", "labels.NewRequirement: NotIn needs at least one value"}, exprs(model.LabelSelectorRequirement{Key: "a", Operator: model.SelectorOpNotIn, Values: []string{}}), true, "at least one value"},
		{tc{"Exists with values", "labels.NewRequirement: Exists takes no values"}, exprs(req("a", model.SelectorOpExists, "x")), true, "no values"},
		{tc{"DoesNotExist with values", "labels.NewRequirement: DoesNotExist takes no values"}, exprs(req("a", model.SelectorOpDoesNotExist, "x")), true, "no values"},
		{tc{"key with space", "IsQualifiedName: 'a b' has a space"}, matchLabels("a b", "x"), true, `"a b"`},
		{tc{"empty key", "IsQualifiedName: name part must be non-empty"}, matchLabels("", "x"), true, "empty"},
		{tc{"64 char key", "IsQualifiedName: name part at most 63 characters"}, matchLabels(long64, "x"), true, "63"},
		{tc{"key starts with dash", "IsQualifiedName: must start with alphanumeric"}, matchLabels("-a", "x"), true, "key"},
		{tc{"uppercase prefix", "prefix is a DNS-1123 subdomain: lower case only"}, matchLabels("Example.com/app", "x"), true, "prefix"},
		{tc{"empty prefix", "IsQualifiedName: prefix part must be non-empty"}, matchLabels("/app", "x"), true, "prefix"},
		{tc{"empty name after prefix", "IsQualifiedName: name part must be non-empty"}, matchLabels("example.com/", "x"), true, "name part"},
		{tc{"two slashes", "IsQualifiedName: at most one '/'"}, matchLabels("a/b/c", "x"), true, "key"},
		{tc{"value with space", "IsValidLabelValue: 'a b' has a space"}, matchLabels("app", "a b"), true, `"a b"`},
		{tc{"64 char value", "IsValidLabelValue: at most 63 characters"}, matchLabels("app", long64), true, "63"},
		{tc{"value ends with dot", "IsValidLabelValue: must end alphanumeric"}, matchLabels("app", "web."), true, "alphanumeric"},
		{tc{"expression bad key", "labels.NewRequirement validates the key"}, exprs(req("a b", model.SelectorOpExists)), true, "matchExpressions[0]"},
		{tc{"expression bad value", "labels.NewRequirement validates each value"}, exprs(req("a", model.SelectorOpIn, "ok", "not ok")), true, "not ok"},
		{tc{"second expression bad", "every requirement is checked"}, exprs(req("a", model.SelectorOpExists), req("b", model.SelectorOpIn)), true, "matchExpressions[1]"},
	}, func(t *testing.T, c c) {
		err := c.sel.Check()
		if (err != nil) != c.wantErr {
			t.Fatalf("Check() = %v, wantErr %v", err, c.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), c.errMatch) {
			t.Fatalf("Check() = %q, want it to mention %q", err, c.errMatch)
		}
		// Matches and NewMatcher fail exactly when Check does.
		ok, merr := c.sel.Matches(map[string]string{"a": "x"})
		if (merr != nil) != c.wantErr || (merr != nil && ok) {
			t.Fatalf("Matches = %v, %v; want an error iff Check fails, and false with it", ok, merr)
		}
		m, nerr := model.NewMatcher(c.sel)
		if (nerr != nil) != c.wantErr {
			t.Fatalf("NewMatcher error = %v, wantErr %v", nerr, c.wantErr)
		}
		if nerr != nil && m.Matches(nil) {
			t.Fatal("the Matcher returned with an error must match nothing")
		}
		sm, serr := model.NewSharedMatcher(c.sel)
		if (serr != nil) != c.wantErr || serr != nil && sm.Matches(nil) {
			t.Fatalf("NewSharedMatcher error = %v, wantErr %v; with an error it must match nothing", serr, c.wantErr)
		}
	})
}

func TestLabelSelectorIsEmpty(t *testing.T) {
	type c struct {
		tc
		sel  *model.LabelSelector
		want bool
	}
	runCases(t, []c{
		{tc{"nil", "upstream syncDeployment step 1: a nil selector is not caught by the guard"}, nil, false},
		{tc{"zero", "upstream syncDeployment step 1: nil matchLabels and nil matchExpressions is the SelectingAll case"}, &model.LabelSelector{}, true},
		{tc{"empty non-nil matchLabels", "upstream quirk (selector edge cases): plain equality lets matchLabels {} slip through"}, &model.LabelSelector{MatchLabels: map[string]string{}}, false},
		{tc{"empty non-nil matchExpressions", "upstream syncDeployment: plain deep equality, non-nil empty slice differs"}, &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{}}, false},
		{tc{"with labels", "a real selector"}, matchLabels("app", "web"), false},
		{tc{"with expressions", "a real selector"}, exprs(req("app", model.SelectorOpExists)), false},
	}, func(t *testing.T, c c) {
		if got := c.sel.IsEmpty(); got != c.want {
			t.Fatalf("IsEmpty() = %v, want %v", got, c.want)
		}
	})
}

func TestNewMatcherCopiesInput(t *testing.T) {
	sel := &model.LabelSelector{
		MatchLabels:      map[string]string{"app": "web"},
		MatchExpressions: []model.LabelSelectorRequirement{req("tier", model.SelectorOpIn, "fe")},
	}
	m, err := model.NewMatcher(sel)
	if err != nil {
		t.Fatal(err)
	}
	web := map[string]string{"app": "web", "tier": "fe"}
	if !m.Matches(web) {
		t.Fatal("matcher should match before mutation")
	}
	// Mutate everything reachable from the input.
	sel.MatchLabels["app"] = "db"
	sel.MatchLabels["extra"] = "x"
	sel.MatchExpressions[0].Values[0] = "be"
	sel.MatchExpressions[0].Operator = model.SelectorOpDoesNotExist
	sel.MatchExpressions = append(sel.MatchExpressions, req("app", model.SelectorOpDoesNotExist))
	if !m.Matches(web) {
		t.Fatal("changing the input selector changed the Matcher")
	}
	if m.Matches(map[string]string{"app": "db", "extra": "x", "tier": "be"}) {
		t.Fatal("the Matcher follows the mutated selector")
	}
}

func TestMatcherZeroValues(t *testing.T) {
	var zero model.Matcher
	if zero.Matches(nil) || zero.Matches(map[string]string{"a": "b"}) {
		t.Fatal("the zero Matcher must match nothing")
	}
	m, err := model.NewMatcher(nil)
	if err != nil || m.Matches(map[string]string{"a": "b"}) {
		t.Fatalf("NewMatcher(nil) = %v, %v: must match nothing (upstream ClaimReplicaSets)", m, err)
	}
	m, err = model.NewMatcher(&model.LabelSelector{})
	if err != nil || !m.Matches(nil) {
		t.Fatalf("NewMatcher(empty) = %v, %v: must match everything (upstream ClaimReplicaSets)", m, err)
	}
}

func TestSelectorFromLabels(t *testing.T) {
	l := map[string]string{"app": "web", model.PodTemplateHashLabel: "abc"}
	sel := model.SelectorFromLabels(l)
	if d := cmp.Diff(&model.LabelSelector{MatchLabels: map[string]string{"app": "web", model.PodTemplateHashLabel: "abc"}}, sel); d != "" {
		t.Fatalf("SelectorFromLabels (-want +got):\n%s", d)
	}
	if ok, err := sel.Matches(l); !ok || err != nil {
		t.Fatalf("selector from labels does not match them: %v %v", ok, err)
	}
	l["app"] = "db"
	if sel.MatchLabels["app"] != "web" {
		t.Fatal("SelectorFromLabels kept a reference to its input")
	}
	if s := model.SelectorFromLabels(nil); s == nil || !s.IsEmpty() {
		t.Fatalf("SelectorFromLabels(nil) = %#v, want a non-nil selector with nil maps (everything)", s)
	}
}

func TestSelectorErrorsMatchErrInvalid(t *testing.T) {
	for _, s := range []*model.LabelSelector{
		{MatchLabels: map[string]string{"a b": "x"}},
		{MatchExpressions: []model.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}},
		{MatchExpressions: []model.LabelSelectorRequirement{{Key: "a", Operator: model.SelectorOpIn}}},
	} {
		err := s.Check()
		var se *model.SelectorError
		if !errors.Is(err, model.ErrInvalid) || !errors.As(err, &se) {
			t.Errorf("Check(%+v) = %v: want a *model.SelectorError matching model.ErrInvalid", s, err)
		}
	}
}
