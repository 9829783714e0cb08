package appsv1_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
)

// The conformance data (copied from shared/conformance): what kube-controller-manager
// v1.36.3 wrote in one sync for each recorded state.
const (
	seedFile     = "testdata/conformance/public-seed1.jsonl"
	scenarioGlob = "testdata/conformance/scenarios/*.json"
)

type seedLine struct {
	Case   json.RawMessage `json:"case"`
	Expect json.RawMessage `json:"expect"`
	Meta   struct {
		ID                    string `json:"id"`
		Category              string `json:"category"`
		OrderNondeterministic bool   `json:"orderNondeterministic"`
	} `json:"meta"`
}

type scenario struct {
	Name  string `json:"name"`
	Steps []struct {
		Step   int             `json:"step"`
		Note   string          `json:"note"`
		Case   json.RawMessage `json:"case"`
		Result json.RawMessage `json:"result"`
	} `json:"steps"`
}

func readSeeds(t *testing.T) []seedLine {
	t.Helper()
	return appsv1.ReadJSONL[seedLine](t, seedFile)
}

func readScenarios(t *testing.T) []scenario {
	t.Helper()
	files, err := filepath.Glob(scenarioGlob)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenario matches %s", scenarioGlob)
	}
	var out []scenario
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var sc scenario
		if err := json.Unmarshal(data, &sc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(sc.Steps) == 0 {
			t.Fatalf("%s: no steps", file)
		}
		out = append(out, sc)
	}
	return out
}

// TestConformanceSeed plans every public case and compares the writes, events,
// error and requeue with what the real controller did.
func TestConformanceSeed(t *testing.T) {
	seeds := readSeeds(t)
	if len(seeds) != 200 {
		t.Errorf("%s holds %d cases, want 200", seedFile, len(seeds))
	}
	passed, total := map[string]int{}, map[string]int{}
	var failed []string
	for _, l := range seeds {
		name := l.Meta.ID + "/" + l.Meta.Category
		total[l.Meta.Category]++
		ok := t.Run(name, func(t *testing.T) {
			for _, d := range conform(l.Case, l.Expect, l.Meta.OrderNondeterministic) {
				t.Error(d)
			}
		})
		if ok {
			passed[l.Meta.Category]++
		} else {
			failed = append(failed, l.Meta.ID)
		}
	}
	t.Log(summary(passed, total))
	if len(failed) > 0 {
		t.Logf("failing: %s", strings.Join(failed, " "))
	}
}

// TestConformanceScenarios plans every step of every multi-sync scenario.
func TestConformanceScenarios(t *testing.T) {
	passed, total := map[string]int{}, map[string]int{}
	for _, sc := range readScenarios(t) {
		for _, st := range sc.Steps {
			total[sc.Name]++
			ok := t.Run(fmt.Sprintf("%s/step-%02d", sc.Name, st.Step), func(t *testing.T) {
				if st.Note != "" {
					t.Logf("before this sync: %s", st.Note)
				}
				for _, d := range conform(st.Case, st.Result, false) {
					t.Error(d)
				}
			})
			if ok {
				passed[sc.Name]++
			}
		}
	}
	t.Log(summary(passed, total))
}

func summary(passed, total map[string]int) string {
	var b strings.Builder
	keys := make([]string, 0, len(total))
	for k := range total {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	all, allPassed := 0, 0
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-40s %3d/%d", k, passed[k], total[k])
		all += total[k]
		allPassed += passed[k]
	}
	return fmt.Sprintf("passed %d/%d:%s", allPassed, all, b.String())
}

// conform plans the case and returns one message per difference from want.
func conform(caseJSON, wantJSON json.RawMessage, unordered bool) []string {
	var c appsv1.Case
	if err := json.Unmarshal(caseJSON, &c); err != nil {
		return []string{fmt.Sprintf("decoding the case: %v", err)}
	}
	out, _, err := appsv1.Sync(c.State())
	if planningFailed(err) {
		return []string{fmt.Sprintf("Sync: %v", err)}
	}
	if err != nil && out.Error != err.Error() {
		return []string{fmt.Sprintf("Sync returned %q, its Output's error is %q", err, out.Error)}
	}
	got, err := generic(out)
	if err != nil {
		return []string{err.Error()}
	}
	var want map[string]any
	if err := json.Unmarshal(wantJSON, &want); err != nil {
		return []string{fmt.Sprintf("decoding the expectation: %v", err)}
	}
	return compareOutputs(normalize(want, true), normalize(got, false), unordered)
}

// planningFailed reports whether err, from Sync, says that the state could
// not be planned, rather than being the *plan.SyncError the sync ends with
// (returned with its Output and Plan).
func planningFailed(err error) bool {
	var syncErr *plan.SyncError
	return err != nil && !errors.As(err, &syncErr)
}

// generic round-trips v through JSON into maps and slices.
func generic(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("marshalling the output: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("unmarshalling the output: %v", err)
	}
	return m, nil
}

// normalize makes absent and empty lists alike and, in the expectation, drops
// the writes the API server rejected (the README: a planner that sees the
// whole namespace plans their outcome instead).
func normalize(o map[string]any, expectation bool) map[string]any {
	out := map[string]any{"error": o["error"]}
	for _, k := range []string{"actions", "events", "requeue"} {
		l, _ := o[k].([]any)
		if l == nil {
			l = []any{}
		}
		out[k] = l
	}
	if out["error"] == nil {
		out["error"] = ""
	}
	if expectation {
		kept := []any{}
		for _, a := range out["actions"].([]any) {
			if m, ok := a.(map[string]any); ok {
				if _, rejected := m["error"]; rejected {
					continue
				}
			}
			kept = append(kept, a)
		}
		out["actions"] = kept
	}
	return out
}

func compareOutputs(want, got map[string]any, unordered bool) []string {
	var diffs []string
	if want["error"] != got["error"] {
		diffs = append(diffs, fmt.Sprintf("error: want %q, got %q", want["error"], got["error"]))
	}
	if d := cmp.Diff(want["requeue"], got["requeue"]); d != "" {
		diffs = append(diffs, "requeue (-want +got):\n"+d)
	}
	wantEv, gotEv := want["events"].([]any), got["events"].([]any)
	wantAc, gotAc := want["actions"].([]any), got["actions"].([]any)
	if unordered {
		wantEv, gotEv = sortedByJSON(wantEv), sortedByJSON(gotEv)
		wantAc, gotAc = sortedByJSON(wantAc), sortedByJSON(gotAc)
	}
	if d := cmp.Diff(wantEv, gotEv); d != "" {
		diffs = append(diffs, "events (-want +got):\n"+d)
	}
	if ws, gs := actionHeads(wantAc), actionHeads(gotAc); !slices.Equal(ws, gs) {
		diffs = append(diffs, fmt.Sprintf("writes:\n  want %s\n  got  %s", strings.Join(ws, "\n       "), strings.Join(gs, "\n       ")))
		return diffs
	}
	for i := range wantAc {
		if d := cmp.Diff(wantAc[i], gotAc[i]); d != "" {
			diffs = append(diffs, fmt.Sprintf("write %d (%s) (-want +got):\n%s", i, actionHeads(wantAc[i : i+1])[0], d))
		}
	}
	return diffs
}

// actionHeads renders each write as "verb resource[/subresource] name".
func actionHeads(as []any) []string {
	out := make([]string, 0, len(as))
	for _, a := range as {
		m, _ := a.(map[string]any)
		r := fmt.Sprint(m["resource"])
		if s, _ := m["subresource"].(string); s != "" {
			r += "/" + s
		}
		out = append(out, fmt.Sprintf("%v %s %v", m["verb"], r, m["name"]))
	}
	return out
}

// sortedByJSON orders a list by the JSON encoding of its elements, for the
// cases whose order depends on upstream's random cache listing.
func sortedByJSON(l []any) []any {
	type keyed struct {
		k string
		v any
	}
	ks := make([]keyed, 0, len(l))
	for _, v := range l {
		b, _ := json.Marshal(v)
		ks = append(ks, keyed{string(b), v})
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].k < ks[j].k })
	out := make([]any, 0, len(l))
	for _, k := range ks {
		out = append(out, k.v)
	}
	return out
}
