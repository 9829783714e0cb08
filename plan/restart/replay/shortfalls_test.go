package replay

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan/restart"
)

// sent is what a test checks of a patch: the step it was sent in, whether
// it restarts, its restart value and its error.
type sent struct {
	I       int
	Restart bool
	Value   string
	Error   string
}

func sentPatches(t *testing.T, raw []byte) []sent {
	t.Helper()
	var tr struct {
		Steps []struct {
			I       int
			Patches []struct {
				Restart bool
				Error   string
				Body    struct {
					Spec struct {
						Template struct {
							Metadata struct {
								Annotations map[string]string
							}
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatal(err)
	}
	var out []sent
	for _, st := range tr.Steps {
		for _, p := range st.Patches {
			out = append(out, sent{st.I, p.Restart, p.Body.Spec.Template.Metadata.Annotations[restart.AnnotationTimestamp], p.Error})
		}
	}
	return out
}

func readScript(t *testing.T, path string) Script {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseScript(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func plannerPatches(t *testing.T, s Script, opts restart.Options) []sent {
	t.Helper()
	tr, err := Run(s, Options{Planner: opts})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	return sentPatches(t, b)
}

// TestShortfallsFixed shows, for each hand-made scenario of a shortfall of
// the original (and the two narrow choices it made), the original's recorded
// patches and the planner's.
func TestShortfallsFixed(t *testing.T) {
	const webhook = `admission webhook "policy" denied the request`
	for _, tc := range []struct {
		name     string
		opts     restart.Options
		original []sent // from the recorded trace
		planner  []sent
	}{{
		// The deployment's ConfigMap is deleted at t=8 and re-created with
		// new data, then edited: the original never
		// links the new ConfigMap, the planner restarts on the re-creation
		// with new data (t=15) and on the later edit (t=25).
		name:     "bug-recreated-config-unlinked",
		opts:     restart.Options{OriginalReferences: true},
		original: nil,
		planner:  []sent{{33, true, "Jan  1 00:00:15", ""}, {54, true, "Jan  1 00:00:25", ""}},
	}, {
		// A new deployment, then one edit of its existing ConfigMap inside
		// the deployment's grace period: the original only records the
		// checksum, the planner restarts (the edit came after the workload
		// first referenced the config).
		name:     "todo-single-update-missed",
		opts:     restart.Options{OriginalReferences: true},
		original: []sent{{32, false, "", ""}},
		planner:  []sent{{32, true, "Jan  1 00:00:15", ""}},
	}, {
		// A restart patch fails with an ignored error: the original never
		// tries again, the planner sends the restart again one grace period
		// later.
		name:     "ignored-error-loses-restart",
		opts:     restart.Options{OriginalReferences: true},
		original: []sent{{29, true, "Jan  1 00:00:13", webhook}},
		planner:  []sent{{29, true, "Jan  1 00:00:13", webhook}, {40, true, "Jan  1 00:00:18", ""}},
	}, {
		// Caveat 2 is kept: the change observed before the kill is lost, the
		// new instance only records the checksum.
		name:     "caveat2-killed-during-grace",
		opts:     restart.Options{OriginalReferences: true},
		original: []sent{{43, false, "", ""}},
		planner:  []sent{{43, false, "", ""}},
	}, {
		// Secret volumes, env valueFrom, init containers and projected
		// volumes: untracked by the original (and with OriginalReferences),
		// tracked by the planner's default.
		name:     "untracked-references",
		opts:     restart.Options{},
		original: nil,
		planner:  []sent{{14, false, "", ""}, {34, true, "Jan  1 00:00:13", ""}},
	}, {
		// binaryData: ignored by the original, covered with
		// IncludeBinaryData.
		name:     "binarydata-ignored",
		opts:     restart.Options{OriginalReferences: true, IncludeBinaryData: true},
		original: nil,
		planner:  []sent{{28, true, "Jan  1 00:00:13", ""}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := os.ReadFile("testdata/conformance/" + tc.name + ".trace.json")
			if err != nil {
				t.Fatal(err)
			}
			if got := sentPatches(t, tb); !reflect.DeepEqual(got, tc.original) {
				t.Errorf("original (recorded): %+v, want %+v", got, tc.original)
			}
			s := readScript(t, "testdata/conformance/"+tc.name+".json")
			if got := plannerPatches(t, s, tc.opts); !reflect.DeepEqual(got, tc.planner) {
				t.Errorf("planner: %+v, want %+v", got, tc.planner)
			}
		})
	}
}

// TestNullAnnotation: a checksums annotation holding JSON null made the
// original panic on its first update of the deployment (t=5); the planner
// treats it as empty and records the checksum without a restart.
func TestNullAnnotation(t *testing.T) {
	tb, err := os.ReadFile("testdata/conformance/bug-null-annotation-panic.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	var orig struct {
		Steps []struct {
			I     int
			Panic string
		}
	}
	if err := json.Unmarshal(tb, &orig); err != nil {
		t.Fatal(err)
	}
	panicked := -1
	for _, st := range orig.Steps {
		if st.Panic != "" {
			panicked = st.I
			if st.Panic != "assignment to entry in nil map" {
				t.Errorf("original panic %q", st.Panic)
			}
		}
	}
	if panicked != 11 {
		t.Errorf("original panicked at step %d, want 11", panicked)
	}
	s := readScript(t, "testdata/conformance/bug-null-annotation-panic.json")
	tr, err := Run(s, Options{Planner: restart.Options{OriginalReferences: true}})
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	for _, st := range tr.Steps {
		for _, p := range st.Patches {
			if st.I != 11 || p.Restart || p.Error != "" {
				t.Errorf("step %d: unexpected patch %+v", st.I, p)
			}
			body = p.Body
		}
	}
	want := `{"metadata":{"annotations":{"com.xing.deployment-restart.applied-config-checksums":"{\"configmap/default/app-config\":\"b8513f1a0c28d8dd\"}"}}}`
	if string(body) != want {
		t.Errorf("planner patch %s, want %s", body, want)
	}
}

// TestSameSecondRestarts: two restarts within one second. The original's
// time.Stamp value repeats (with Compat.SameSecondTimestamp), so the second
// patch would not change the template and nothing would roll out; the
// planner refines the second value to nanoseconds.
func TestSameSecondRestarts(t *testing.T) {
	s := readScript(t, "testdata/scenarios/same-second.json")
	orig := plannerPatches(t, s, restart.Options{Compat: restart.Compat{SameSecondTimestamp: true}})
	wantOrig := []sent{{4, true, "Jan  1 00:00:01", ""}, {6, true, "Jan  1 00:00:01", ""}}
	if !reflect.DeepEqual(orig, wantOrig) {
		t.Errorf("original behaviour: %+v, want %+v", orig, wantOrig)
	}
	got := plannerPatches(t, s, restart.Options{})
	want := []sent{{4, true, "Jan  1 00:00:01", ""}, {6, true, "Jan  1 00:00:01.500000000", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("planner: %+v, want %+v", got, want)
	}
}

// TestPatchOrderFixed: the original sent the patches of one pass in map
// order (the recorded traces mark such steps "nondeterministic"); the
// planner sends them sorted by workload, the same on every run.
func TestPatchOrderFixed(t *testing.T) {
	multi := 0
	for _, rec := range loadRecorded(t) {
		if rec.name == "bug-null-annotation-panic" {
			continue
		}
		first, err := Run(rec.script, Options{Planner: restart.Options{OriginalReferences: true}})
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Run(rec.script, Options{Planner: restart.Options{OriginalReferences: true}})
		a, _ := json.Marshal(first)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Fatalf("%s: two replays differ", rec.name)
		}
		for _, st := range first.Steps {
			if len(st.Patches) < 2 {
				continue
			}
			multi++
			for i := 1; i < len(st.Patches); i++ {
				p, q := st.Patches[i-1], st.Patches[i]
				if kindKey(p)+"/"+p.Namespace+"/"+p.Name >= kindKey(q)+"/"+q.Namespace+"/"+q.Name {
					t.Errorf("%s step %d: patches out of order", rec.name, st.I)
				}
			}
		}
	}
	if multi == 0 {
		t.Error("no step with several patches")
	}
	t.Logf("%d steps with several patches, all in workload order", multi)
}

func kindKey(p Patch) string {
	if p.Kind == "Deployment" {
		return "deployment"
	}
	return "statefulset"
}
