package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan/restart"
)

// recorded is one script with the original controller's trace.
type recorded struct {
	name   string
	script Script
	trace  json.RawMessage
}

func loadRecorded(t testing.TB) []recorded {
	t.Helper()
	var out []recorded
	f, err := os.Open("testdata/conformance/public-restart-seed1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var line struct {
			Name   string          `json:"name"`
			Script json.RawMessage `json:"script"`
			Trace  json.RawMessage `json:"trace"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		s, err := ParseScript(line.Script)
		if err != nil {
			t.Fatalf("%s: %v", line.Name, err)
		}
		out = append(out, recorded{line.Name, s, line.Trace})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	traces, _ := filepath.Glob("testdata/conformance/*.trace.json")
	for _, tp := range traces {
		sp := strings.TrimSuffix(tp, ".trace.json") + ".json"
		sb, err := os.ReadFile(sp)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseScript(sb)
		if err != nil {
			t.Fatalf("%s: %v", sp, err)
		}
		tb, err := os.ReadFile(tp)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, recorded{strings.TrimSuffix(filepath.Base(tp), ".trace.json"), s, tb})
	}
	return out
}

// normalize turns a trace into generic JSON for comparison: the delivered
// "object" (the interpreter's copy of the cluster, not a decision) and
// "patchOrder" are dropped, and the patches of a step are sorted (the
// original sent them in map order).
func normalize(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	var tr map[string]any
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatal(err)
	}
	steps, _ := tr["steps"].([]any)
	for _, s := range steps {
		st := s.(map[string]any)
		delete(st, "object")
		delete(st, "patchOrder")
		if ps, ok := st["patches"].([]any); ok {
			slices.SortFunc(ps, func(a, b any) int {
				x, _ := json.Marshal(a)
				y, _ := json.Marshal(b)
				return strings.Compare(string(x), string(y))
			})
		}
	}
	return tr
}

// diff returns "" when the traces agree, else the first difference.
func diff(want, got map[string]any) (string, int) {
	ws, _ := want["steps"].([]any)
	gs, _ := got["steps"].([]any)
	agreeing := 0
	for i := 0; i < len(ws) && i < len(gs); i++ {
		if !reflect.DeepEqual(ws[i], gs[i]) {
			w, _ := json.Marshal(ws[i])
			g, _ := json.Marshal(gs[i])
			return fmt.Sprintf("step %d:\n want %s\n  got %s", i, w, g), agreeing
		}
		agreeing++
	}
	if len(ws) != len(gs) {
		return fmt.Sprintf("%d steps, want %d", len(gs), len(ws)), agreeing
	}
	if !reflect.DeepEqual(want["final"], got["final"]) {
		w, _ := json.Marshal(want["final"])
		g, _ := json.Marshal(got["final"])
		return fmt.Sprintf("final:\n want %s\n  got %s", w, g), agreeing
	}
	return "", agreeing
}

func replayNormalized(t testing.TB, s Script, opts restart.Options) map[string]any {
	t.Helper()
	tr, err := Run(s, Options{Planner: opts})
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	return normalize(t, b)
}

// allCompat reproduces every shortfall of the original the planner can
// reproduce.
var allCompat = restart.Compat{RecreatedConfigUnlinked: true, MissSingleUpdate: true, NoRetry: true, SameSecondTimestamp: true}

func TestCompatReplayAgreesWithOriginal(t *testing.T) {
	agree, steps, generated, generatedSteps := 0, 0, 0, 0
	for _, rec := range loadRecorded(t) {
		if rec.name == "bug-null-annotation-panic" {
			continue // a panic the planner cannot reproduce; see TestNullAnnotation
		}
		want := normalize(t, rec.trace)
		got := replayNormalized(t, rec.script, restart.Options{OriginalReferences: true, Compat: allCompat})
		d, n := diff(want, got)
		steps += n
		if d != "" {
			t.Errorf("%s: %s", rec.name, d)
			continue
		}
		agree++
		if strings.HasPrefix(rec.name, "restart-s1-") {
			generated++
			generatedSteps += n
		}
	}
	t.Logf("compat: %d/113 scripts agree step for step (%d steps); of them generated %d/100 (%d steps), hand-made %d/13", agree, steps, generated, generatedSteps, agree-generated)
}

// shortfalls names the Compat fields, one per shortfall of the original.
var shortfalls = []struct {
	name string
	set  func(*restart.Compat)
}{
	{"RecreatedConfigUnlinked", func(c *restart.Compat) { c.RecreatedConfigUnlinked = true }},
	{"MissSingleUpdate", func(c *restart.Compat) { c.MissSingleUpdate = true }},
	{"NoRetry", func(c *restart.Compat) { c.NoRetry = true }},
	{"SameSecondTimestamp", func(c *restart.Compat) { c.SameSecondTimestamp = true }},
}

// TestDefaultReplayAgreesOrIsAShortfall replays every recorded script with
// the planner's defaults (only the original's reference set, to compare like
// with like). A script either agrees with the original, or agrees once the
// smallest set of the original's shortfalls is switched back on: the
// difference is then exactly a fix.
func TestDefaultReplayAgreesOrIsAShortfall(t *testing.T) {
	agree, steps := 0, 0
	fixed := map[string][]string{}
	for _, rec := range loadRecorded(t) {
		if rec.name == "bug-null-annotation-panic" {
			continue
		}
		want := normalize(t, rec.trace)
		got := replayNormalized(t, rec.script, restart.Options{OriginalReferences: true})
		d, n := diff(want, got)
		steps += n
		if d == "" {
			agree++
			continue
		}
		explained := ""
		for mask := 1; mask < 1<<len(shortfalls) && explained == ""; mask++ {
			var c restart.Compat
			var names []string
			for i, sf := range shortfalls {
				if mask&(1<<i) != 0 {
					sf.set(&c)
					names = append(names, sf.name)
				}
			}
			if d2, _ := diff(want, replayNormalized(t, rec.script, restart.Options{OriginalReferences: true, Compat: c})); d2 == "" {
				explained = strings.Join(names, "+")
			}
		}
		if explained == "" {
			t.Errorf("%s: differs from the original and no shortfall explains it: %s", rec.name, d)
			continue
		}
		fixed[explained] = append(fixed[explained], rec.name)
	}
	t.Logf("defaults: %d scripts agree with the original (%d steps before a first difference in all scripts)", agree, steps)
	for _, k := range slices.Sorted(maps.Keys(fixed)) {
		t.Logf("differ by fixing %s: %d scripts %v", k, len(fixed[k]), fixed[k])
	}
}
