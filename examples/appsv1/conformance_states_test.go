package appsv1_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"io"
	"os"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
)

// statesFile is the root module's copy of the recorded conformance states in
// model types (gzipped JSON, one case per line), for benchmarks that cannot
// import k8s.io types.
const statesFile = "../../plan/testdata/conformance-states.json.gz"

var updateStates = flag.Bool("update-states", false, "rewrite "+statesFile+" from the conformance seeds")

// conformanceState is one line of statesFile.
type conformanceState struct {
	ID    string     `json:"id"`
	State plan.State `json:"state"`
}

// encodeConformanceStates converts every recorded case with State.Model and
// encodes the result one case per line.
func encodeConformanceStates(t testing.TB, seeds []seedLine) []byte {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i, l := range seeds {
		var c appsv1.Case
		if err := json.Unmarshal(l.Case, &c); err != nil {
			t.Fatalf("%s: decoding the case: %v", l.Meta.ID, err)
		}
		s, err := c.State().Model()
		if err != nil {
			t.Fatalf("%s: converting: %v", l.Meta.ID, err)
		}
		b, err := json.Marshal(conformanceState{ID: l.Meta.ID, State: s})
		if err != nil {
			t.Fatalf("%s: encoding: %v", l.Meta.ID, err)
		}
		buf.Write(b)
		if i < len(seeds)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString("]\n")
	return buf.Bytes()
}

// TestConformanceStatesFileCurrent fails when the root module's model-typed
// copy of the conformance states no longer matches what the conversion makes
// of the seeds; run `go test -run ConformanceStatesFile -update-states` to
// rewrite it.
func TestConformanceStatesFileCurrent(t *testing.T) {
	seeds := readSeeds(t)
	want := encodeConformanceStates(t, seeds)
	if *updateStates {
		var z bytes.Buffer
		w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(want); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(statesFile, z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := readGzip(statesFile)
	if err != nil {
		t.Fatalf("%v (run go test -run ConformanceStatesFile -update-states)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go test -run ConformanceStatesFile -update-states in examples/appsv1", statesFile)
	}
	var decoded []conformanceState
	if err := json.Unmarshal(got, &decoded); err != nil {
		t.Fatal(err)
	}
	if len(decoded) != len(seeds) {
		t.Fatalf("%s holds %d states, want %d", statesFile, len(decoded), len(seeds))
	}
}

// readGzip returns the decompressed content of a gzip file. The content, not
// the compressed bytes, is compared: gzip output may differ between Go
// releases.
func readGzip(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// modelStates converts every recorded case once.
func modelStates(b *testing.B) []plan.State {
	b.Helper()
	f, err := os.Open(seedFile)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var out []plan.State
	dec := json.NewDecoder(f)
	for dec.More() {
		var l seedLine
		if err := dec.Decode(&l); err != nil {
			b.Fatal(err)
		}
		var c appsv1.Case
		if err := json.Unmarshal(l.Case, &c); err != nil {
			b.Fatal(err)
		}
		s, err := c.State().Model()
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// BenchmarkPlanSyncConformance is one plan.Sync of a recorded conformance
// state per op, cycling through the 200 cases (model types, converted
// before timing): with rolloutplan's canonical hasher and with the
// upstream-identical one an adapter uses.
func BenchmarkPlanSyncConformance(b *testing.B) {
	states := modelStates(b)
	if len(states) != 200 {
		b.Fatalf("%d states, want 200", len(states))
	}
	for _, bc := range []struct {
		name string
		opts []plan.Option
	}{
		{"canonical", nil},
		{"upstream", []plan.Option{appsv1.WithUpstreamHash()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for _, s := range states {
				if _, err := plan.Sync(s, bc.opts...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := plan.Sync(states[i], bc.opts...); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(states) {
					i = 0
				}
			}
		})
	}
}
