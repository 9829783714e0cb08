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
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/stretchr/testify/require"
)

// dsSeedFile holds 200 recorded syncs of the v1.36.3 DaemonSet controller
// (copied from shared/conformance/daemonset).
const dsSeedFile = "testdata/conformance/daemonset/public-seed1.jsonl"

// dsKnownFailures lists the recorded cases the planner does not match yet,
// each with why. The test fails when one of them starts to match (remove
// it) and when any other case fails: the list only shrinks.
var dsKnownFailures = map[string]string{}

type dsLine struct {
	Case   json.RawMessage `json:"case"`
	Expect json.RawMessage `json:"expect"`
	Meta   dsMeta          `json:"meta"`
}

type dsMeta struct {
	ID                      string            `json:"id"`
	Category                string            `json:"category"`
	OrderNondeterministic   bool              `json:"orderNondeterministic"`
	ContentNondeterministic bool              `json:"contentNondeterministic"`
	Choices                 *dsChoices        `json:"choices"`
	Alternatives            []json.RawMessage `json:"alternatives"`
}

// dsChoices says, per group, that exactly K actions (or events) of an
// output come from Pool: upstream picked different objects on different
// runs.
type dsChoices struct {
	Actions []dsChoiceGroup `json:"actions"`
	Events  []dsChoiceGroup `json:"events"`
	Errors  []string        `json:"errors"`
}

type dsChoiceGroup struct {
	K    int   `json:"k"`
	Pool []any `json:"pool"`
}

func readDaemonSetSeeds(t *testing.T) []dsLine {
	t.Helper()
	return appsv1.ReadJSONL[dsLine](t, dsSeedFile)
}

// TestDaemonSetConformance plans every recorded DaemonSet case through the
// apps/v1 adapter and compares the writes, events, error and requeue with
// what the real controller did, under the README's rules: generated pod
// names compared without their 5 random characters, outputs whose order
// varies compared as multisets, and upstream's own random picks matched
// against their pools.
func TestDaemonSetConformance(t *testing.T) {
	seeds := readDaemonSetSeeds(t)
	require.Len(t, seeds, 200, "%s", dsSeedFile)
	passed := 0
	var unexpected, fixed []string
	for _, l := range seeds {
		ok := t.Run(l.Meta.ID+"/"+l.Meta.Category, func(t *testing.T) {
			diffs := dsConform(l)
			if why, known := dsKnownFailures[l.Meta.ID]; known {
				if len(diffs) == 0 {
					t.Errorf("listed as a known failure (%s) but matches: remove it from dsKnownFailures", why)
				} else {
					t.Logf("known failure: %s", why)
				}
				return
			}
			for _, d := range diffs {
				t.Error(d)
			}
		})
		_, known := dsKnownFailures[l.Meta.ID]
		switch {
		case ok && !known:
			passed++
		case !ok && known:
			fixed = append(fixed, l.Meta.ID)
		case !ok:
			unexpected = append(unexpected, l.Meta.ID)
		}
	}
	t.Logf("DaemonSet conformance: %d/%d match, %d known failures", passed, len(seeds), len(dsKnownFailures))
	if len(unexpected) > 0 {
		t.Logf("failing: %s", strings.Join(unexpected, " "))
	}
	if len(fixed) > 0 {
		t.Logf("known failures that now match: %s", strings.Join(fixed, " "))
	}
}

// dsConform plans one case and returns one message per difference.
func dsConform(l dsLine) []string {
	var c appsv1.DaemonSetCase
	if err := json.Unmarshal(l.Case, &c); err != nil {
		return []string{fmt.Sprintf("decoding the case: %v", err)}
	}
	out, _, err := appsv1.SyncDaemonSet(c.State())
	var syncErr *daemonset.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return []string{fmt.Sprintf("SyncDaemonSet: %v", err)}
	}
	got, err := generic(out)
	if err != nil {
		return []string{err.Error()}
	}
	got = dsNormalize(normalize(got, false))
	var want map[string]any
	if err := json.Unmarshal(l.Expect, &want); err != nil {
		return []string{fmt.Sprintf("decoding the expectation: %v", err)}
	}
	want = dsNormalize(normalize(want, true))
	m := l.Meta
	if len(m.Alternatives) > 0 {
		outs := []map[string]any{want}
		for _, a := range m.Alternatives {
			var alt map[string]any
			if err := json.Unmarshal(a, &alt); err != nil {
				return []string{fmt.Sprintf("decoding an alternative: %v", err)}
			}
			outs = append(outs, dsNormalize(normalize(alt, true)))
		}
		var first []string
		for i, o := range outs {
			d := compareOutputs(o, got, true)
			if len(d) == 0 {
				return nil
			}
			if i == 0 {
				first = d
			}
		}
		return append([]string{"matches neither the expectation nor an alternative; against the expectation:"}, first...)
	}
	if m.ContentNondeterministic && m.Choices != nil {
		return dsComparePools(want, got, m.Choices)
	}
	return compareOutputs(want, got, m.OrderNondeterministic || m.ContentNondeterministic)
}

// dsComparePools applies the README's rule for upstream's random picks:
// requeues equal, the error equal or one of the listed ones, each group has
// exactly k items from its pool (none more often than in the pool), and
// the rest equals the expectation without its pool items, as multisets.
func dsComparePools(want, got map[string]any, ch *dsChoices) []string {
	var diffs []string
	if want["error"] != got["error"] && !slices.Contains(ch.Errors, fmt.Sprint(got["error"])) {
		diffs = append(diffs, fmt.Sprintf("error: want %q, got %q", want["error"], got["error"]))
	}
	if d := cmp.Diff(want["requeue"], got["requeue"]); d != "" {
		diffs = append(diffs, "requeue (-want +got):\n"+d)
	}
	for _, part := range []struct {
		key    string
		groups []dsChoiceGroup
	}{{"actions", ch.Actions}, {"events", ch.Events}} {
		restWant, restGot := keys(want[part.key].([]any)), keys(got[part.key].([]any))
		for gi, g := range part.groups {
			pool := keys(dsNormalizeList(g.Pool, part.key == "actions"))
			var picked int
			restGot, picked = removeFrom(restGot, pool, g.K)
			if picked != g.K {
				diffs = append(diffs, fmt.Sprintf("%s group %d: %d items from the pool, want %d", part.key, gi, picked, g.K))
			}
			restWant, _ = removeFrom(restWant, pool, g.K)
		}
		sort.Strings(restWant)
		sort.Strings(restGot)
		if d := cmp.Diff(restWant, restGot); d != "" {
			diffs = append(diffs, fmt.Sprintf("%s outside the pools (-want +got):\n%s", part.key, d))
		}
	}
	return diffs
}

// keys encodes each item as JSON (map keys sorted), for multiset
// comparisons.
func keys(items []any) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		b, _ := json.Marshal(it)
		out = append(out, string(b))
	}
	return out
}

// removeFrom removes from items up to k of those in pool, each at most as
// often as the pool holds it, and returns what is left and how many went.
// Once generated names are cut, a pool item can look like an item outside
// the pool; whichever of the look-alikes goes, the rest is the same
// multiset.
func removeFrom(items, pool []string, k int) ([]string, int) {
	left := map[string]int{}
	for _, p := range pool {
		left[p]++
	}
	var rest []string
	n := 0
	for _, it := range items {
		if n < k && left[it] > 0 {
			left[it]--
			n++
			continue
		}
		rest = append(rest, it)
	}
	return rest, n
}

// generatedSuffix is the number of random characters the API server
// appends to a generateName.
const generatedSuffix = 5

// dsNormalize replaces the random part of generated pod names, in create
// actions and in "Created pod: " events, by a placeholder.
func dsNormalize(o map[string]any) map[string]any {
	o["actions"] = dsNormalizeList(o["actions"].([]any), true)
	o["events"] = dsNormalizeList(o["events"].([]any), false)
	return o
}

func dsNormalizeList(items []any, actions bool) []any {
	out := make([]any, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			out = append(out, it)
			continue
		}
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		if actions {
			if c["verb"] == "create" && c["resource"] == "pods" {
				c["name"] = cutGenerated(fmt.Sprint(c["name"]))
			}
		} else if msg, ok := c["message"].(string); ok {
			if name, found := strings.CutPrefix(msg, "Created pod: "); found {
				c["message"] = "Created pod: " + cutGenerated(name)
			}
		}
		out = append(out, c)
	}
	return out
}

func cutGenerated(name string) string {
	if len(name) <= generatedSuffix {
		return name
	}
	return name[:len(name)-generatedSuffix] + "#####"
}

// TestDaemonSetPoolRules checks the pool comparison itself on a made-up
// output: one of two pool items picked matches, none or both do not.
func TestDaemonSetPoolRules(t *testing.T) {
	a := map[string]any{"verb": "delete", "resource": "pods", "name": "a"}
	b := map[string]any{"verb": "delete", "resource": "pods", "name": "b"}
	st := map[string]any{"verb": "update", "resource": "daemonsets", "name": "ds"}
	want := map[string]any{"error": "", "requeue": []any{}, "events": []any{}, "actions": []any{a, st}}
	ch := &dsChoices{Actions: []dsChoiceGroup{{K: 1, Pool: []any{a, b}}}}
	for _, tc := range []struct {
		name    string
		actions []any
		ok      bool
	}{
		{"the expected pick", []any{a, st}, true},
		{"the other pick", []any{st, b}, true},
		{"no pick", []any{st}, false},
		{"both picks", []any{a, b, st}, false},
		{"missing status", []any{a}, false},
	} {
		got := map[string]any{"error": "", "requeue": []any{}, "events": []any{}, "actions": tc.actions}
		diffs := dsComparePools(want, got, ch)
		if (len(diffs) == 0) != tc.ok {
			t.Errorf("%s: diffs %v, want match %v", tc.name, diffs, tc.ok)
		}
	}
	if got := cutGenerated("fluentd-bcdfg"); got != "fluentd-#####" {
		t.Errorf("cutGenerated = %q", got)
	}
}
