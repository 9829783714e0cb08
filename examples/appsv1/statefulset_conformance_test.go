package appsv1_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statefulSetSeedFile holds what kube-controller-manager v1.36.3's
// StatefulSet controller wrote in one sync of 200 recorded states (copied
// from shared/conformance/statefulset).
const statefulSetSeedFile = "testdata/conformance/statefulset/public-seed1.jsonl"

// statefulSetKnownFailures lists the recorded cases the planner does not
// reproduce yet, each with why. The conformance test fails when any other
// case fails, and when a listed case passes (so the list only shrinks).
var statefulSetKnownFailures = map[string]string{}

type ssSeedLine struct {
	Case   json.RawMessage `json:"case"`
	Expect json.RawMessage `json:"expect"`
	Meta   ssMeta          `json:"meta"`
}

// ssMeta is a recording's meta: its id and category, and how upstream's
// own runs varied (README "StatefulSets and DaemonSets").
type ssMeta struct {
	ID                      string          `json:"id"`
	Category                string          `json:"category"`
	OrderNondeterministic   bool            `json:"orderNondeterministic"`
	ContentNondeterministic bool            `json:"contentNondeterministic"`
	Choices                 *ssChoices      `json:"choices"`
	Alternatives            []ssOutputLists `json:"alternatives"`
}

type ssChoices struct {
	Actions []ssGroup `json:"actions"`
	Events  []ssGroup `json:"events"`
	Errors  []string  `json:"errors"`
}

// ssGroup says that exactly K items come from Pool.
type ssGroup struct {
	K    int   `json:"k"`
	Pool []any `json:"pool"`
}

// ssOutputLists is an Output read generically.
type ssOutputLists struct {
	Actions []any  `json:"actions"`
	Error   string `json:"error"`
	Events  []any  `json:"events"`
	Requeue []any  `json:"requeue"`
}

func readStatefulSetSeeds(t testing.TB) []ssSeedLine {
	t.Helper()
	return appsv1.ReadJSONL[ssSeedLine](t, statefulSetSeedFile)
}

// TestStatefulSetConformance plans every recorded StatefulSet sync through
// the apps/v1 adapter and compares writes, events, error and requeue with
// what the real controller did, under the README's matching rules.
func TestStatefulSetConformance(t *testing.T) {
	seeds := readStatefulSetSeeds(t)
	require.Len(t, seeds, 200)
	passed := 0
	var failing []string
	for _, l := range seeds {
		diffs := statefulSetConform(l)
		_, known := statefulSetKnownFailures[l.Meta.ID]
		switch {
		case len(diffs) == 0 && known:
			t.Errorf("%s passes but is listed in statefulSetKnownFailures: remove it", l.Meta.ID)
		case len(diffs) == 0:
			passed++
		case known:
			failing = append(failing, l.Meta.ID)
		default:
			failing = append(failing, l.Meta.ID)
			t.Errorf("%s (%s):\n%s", l.Meta.ID, l.Meta.Category, strings.Join(diffs, "\n"))
		}
	}
	for id := range statefulSetKnownFailures {
		if !slices.ContainsFunc(seeds, func(l ssSeedLine) bool { return l.Meta.ID == id }) {
			t.Errorf("statefulSetKnownFailures lists %s, which is no recorded case", id)
		}
	}
	t.Logf("StatefulSet conformance: %d/%d recorded syncs match; known failures: %d", passed, len(seeds), len(statefulSetKnownFailures))
	if len(failing) > 0 {
		t.Logf("not matching: %s", strings.Join(failing, " "))
	}
}

// statefulSetConform plans one recorded case and returns one message per
// difference.
func statefulSetConform(l ssSeedLine) []string {
	var c appsv1.StatefulSetCase
	if err := json.Unmarshal(l.Case, &c); err != nil {
		return []string{fmt.Sprintf("decoding the case: %v", err)}
	}
	out, _, err := appsv1.SyncStatefulSet(c.State())
	var se *statefulset.SyncError
	if err != nil && !errors.As(err, &se) {
		return []string{fmt.Sprintf("SyncStatefulSet: %v", err)}
	}
	got, err := ssGeneric(out)
	if err != nil {
		return []string{err.Error()}
	}
	var want ssOutputLists
	if err := json.Unmarshal(l.Expect, &want); err != nil {
		return []string{fmt.Sprintf("decoding the expectation: %v", err)}
	}
	return ssCompare(want, got, l.Meta)
}

// ssGeneric round-trips an output through JSON into generic values.
func ssGeneric(v any) (ssOutputLists, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return ssOutputLists{}, fmt.Errorf("marshalling the output: %v", err)
	}
	var out ssOutputLists
	if err := json.Unmarshal(b, &out); err != nil {
		return ssOutputLists{}, fmt.Errorf("unmarshalling the output: %v", err)
	}
	return out, nil
}

// ssCompare applies the README's rules: exact order unless the recording is
// order-nondeterministic (then multisets); with contentNondeterministic
// choices, k items of each group from its pool and the rest equal to the
// expectation without its pools; any alternative whole output matches too.
func ssCompare(want, got ssOutputLists, meta ssMeta) []string {
	diffs := ssCompareOne(want, got, meta)
	if len(diffs) == 0 {
		return nil
	}
	for _, alt := range meta.Alternatives {
		m := meta
		m.OrderNondeterministic = true
		if len(ssCompareOne(alt, got, m)) == 0 {
			return nil
		}
	}
	return diffs
}

func ssCompareOne(want, got ssOutputLists, meta ssMeta) []string {
	var diffs []string
	wantErrs := []string{want.Error}
	if meta.Choices != nil {
		wantErrs = append(wantErrs, meta.Choices.Errors...)
	}
	if !slices.Contains(wantErrs, got.Error) {
		diffs = append(diffs, fmt.Sprintf("error: want %q, got %q", want.Error, got.Error))
	}
	if d := cmp.Diff(ssNonNil(want.Requeue), ssNonNil(got.Requeue)); d != "" {
		diffs = append(diffs, "requeue (-want +got):\n"+d)
	}
	unordered := meta.OrderNondeterministic || meta.ContentNondeterministic
	var actionGroups, eventGroups []ssGroup
	if meta.ContentNondeterministic && meta.Choices != nil {
		actionGroups, eventGroups = meta.Choices.Actions, meta.Choices.Events
	}
	diffs = append(diffs, ssCompareList("actions", ssNonNil(want.Actions), ssNonNil(got.Actions), unordered, actionGroups)...)
	diffs = append(diffs, ssCompareList("events", ssNonNil(want.Events), ssNonNil(got.Events), unordered, eventGroups)...)
	return diffs
}

func ssNonNil(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// ssCompareList compares one list: in order, or as multisets when
// unordered, after taking each group's pool items out of both sides (got
// must hold exactly k of them, none more often than the pool does).
func ssCompareList(what string, want, got []any, unordered bool, groups []ssGroup) []string {
	var diffs []string
	for gi, g := range groups {
		want = ssRemoveAll(want, g.Pool)
		var taken int
		got, taken = ssRemoveUpTo(got, g.Pool)
		if taken != g.K {
			diffs = append(diffs, fmt.Sprintf("%s: choice group %d: %d items from its pool, want %d", what, gi, taken, g.K))
		}
	}
	if unordered {
		want, got = ssSortedByJSON(want), ssSortedByJSON(got)
	}
	if ws, gs := ssHeads(want), ssHeads(got); !slices.Equal(ws, gs) {
		return append(diffs, fmt.Sprintf("%s:\n  want %s\n  got  %s", what, strings.Join(ws, "\n       "), strings.Join(gs, "\n       ")))
	}
	for i := range want {
		if d := cmp.Diff(want[i], got[i]); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s %d (%s) (-want +got):\n%s", what, i, ssHeads(want[i : i+1])[0], d))
		}
	}
	return diffs
}

// ssRemoveAll drops from l one occurrence of each pool item it holds.
func ssRemoveAll(l, pool []any) []any {
	out, _ := ssRemoveUpTo(l, pool)
	return out
}

// ssRemoveUpTo drops from l the items of pool, each at most as often as the
// pool holds it, and says how many it dropped.
func ssRemoveUpTo(l, pool []any) ([]any, int) {
	left := map[string]int{}
	for _, p := range pool {
		left[ssKey(p)]++
	}
	var out []any
	taken := 0
	for _, x := range l {
		if k := ssKey(x); left[k] > 0 {
			left[k]--
			taken++
			continue
		}
		out = append(out, x)
	}
	return out, taken
}

func ssKey(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// ssHeads renders each item as its verb, resource and name (actions) or
// its reason and message (events).
func ssHeads(l []any) []string {
	out := make([]string, 0, len(l))
	for _, x := range l {
		m, _ := x.(map[string]any)
		if _, ok := m["verb"]; ok {
			r := fmt.Sprint(m["resource"])
			if s, _ := m["subresource"].(string); s != "" {
				r += "/" + s
			}
			h := fmt.Sprintf("%v %s %v", m["verb"], r, m["name"])
			if e, ok := m["error"]; ok {
				h += fmt.Sprintf(" (rejected: %v)", e)
			}
			out = append(out, h)
			continue
		}
		out = append(out, fmt.Sprintf("%v %v", m["reason"], m["message"]))
	}
	return out
}

func ssSortedByJSON(l []any) []any {
	out := slices.Clone(l)
	sort.SliceStable(out, func(i, j int) bool { return ssKey(out[i]) < ssKey(out[j]) })
	return out
}

// TestStatefulSetCompareRules shows that the comparison can fail: a changed
// field, a missing write, a reordered list (unless order-nondeterministic),
// and a choice group with the wrong number of pool items.
func TestStatefulSetCompareRules(t *testing.T) {
	a := func(name string) any {
		return map[string]any{"verb": "create", "resource": "pods", "subresource": "", "name": name}
	}
	base := ssOutputLists{Actions: []any{a("web-0"), a("web-1")}}
	assert.Empty(t, ssCompare(base, base, ssMeta{}), "equal outputs")
	assert.NotEmpty(t, ssCompare(base, ssOutputLists{Actions: []any{a("web-0")}}, ssMeta{}), "a missing write")
	swapped := ssOutputLists{Actions: []any{a("web-1"), a("web-0")}}
	assert.NotEmpty(t, ssCompare(base, swapped, ssMeta{}), "order matters by default")
	assert.Empty(t, ssCompare(base, swapped, ssMeta{OrderNondeterministic: true}), "multisets when order-nondeterministic")
	assert.NotEmpty(t, ssCompare(base, ssOutputLists{Actions: base.Actions, Error: "boom"}, ssMeta{}), "an error differs")

	pooled := ssMeta{ContentNondeterministic: true, Choices: &ssChoices{Actions: []ssGroup{{K: 1, Pool: []any{a("web-1"), a("web-2")}}}}}
	assert.Empty(t, ssCompare(base, ssOutputLists{Actions: []any{a("web-0"), a("web-2")}}, pooled), "another pick from the pool")
	assert.NotEmpty(t, ssCompare(base, ssOutputLists{Actions: []any{a("web-0")}}, pooled), "no pick from the pool")
	assert.NotEmpty(t, ssCompare(base, ssOutputLists{Actions: []any{a("web-0"), a("web-1"), a("web-2")}}, pooled), "two picks from the pool")
	alt := ssMeta{Alternatives: []ssOutputLists{{Actions: []any{a("web-3")}}}}
	assert.Empty(t, ssCompare(base, ssOutputLists{Actions: []any{a("web-3")}}, alt), "an alternative output")
}
