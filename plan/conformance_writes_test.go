package plan_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/internal/conformancefile"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

var updateRecorded = flag.Bool("update", false, "rewrite testdata/conformance-plans.json.gz from the current code")

const recordedPlansFile = "testdata/conformance-plans.json.gz"

// recordedPlan is one entry of testdata/conformance-plans.json.gz: a
// recorded state planned under an option set, its writes as upstream sends
// them (whole objects, as JSON) and the rest of its plan.
type recordedPlan struct {
	ID       string                  `json:"id"`
	Options  string                  `json:"options"`
	Writes   json.RawMessage         `json:"writes"`
	Rejected *int                    `json:"rejected,omitempty"`
	Events   []plan.Event            `json:"events,omitempty"`
	Requeue  plan.Requeue            `json:"requeue"`
	Status   *model.DeploymentStatus `json:"status,omitempty"`
	Notes    []plan.Reason           `json:"notes,omitempty"`
	Error    *plan.SyncError         `json:"error,omitempty"`
}

// recordedOptionSets are the option sets of the file: upstream's defaults,
// and every option that departs from them.
var recordedOptionSets = []struct {
	name string
	opts []plan.Option
}{
	{"default", nil},
	{"all", []plan.Option{plan.WithTerminatingReplicas(false), plan.SurfaceOldReplicaSetErrors(), plan.ExactProportions(),
		plan.RollbackWithoutCreate(), plan.MonotonicProportions()}},
}

// TestRenderedWritesMatchRecorded: for each of the 200 recorded conformance
// states, under upstream's defaults and under every other option, the
// plan's writes rendered by render.Writes are, as JSON, byte for byte the
// whole-object writes recorded in testdata/conformance-plans.json.gz, and
// the rest of the plan (the first rejected write, events, requeue, status,
// notes and the sync's error) is as recorded. The file was recorded from
// the planner as it was before plans carried typed actions (main at
// 72b7f30, whose writes examples/appsv1 checks against what
// kube-controller-manager v1.36.3 sent for the same states); run with
// -update to rewrite it from the current code after an intended change.
func TestRenderedWritesMatchRecorded(t *testing.T) {
	cases, err := conformancefile.Read[plan.State]("testdata/conformance-states.json.gz")
	require.NoError(t, err)
	require.Len(t, cases, 200, "recorded states")
	var got []recordedPlan
	for _, set := range recordedOptionSets {
		for _, c := range cases {
			got = append(got, planRecord(t, c.ID, set.name, c.State, set.opts))
		}
	}
	if *updateRecorded {
		writeRecordedPlans(t, got)
		return
	}
	want := readRecordedPlans(t)
	require.Len(t, want, len(got), "entries in %s", recordedPlansFile)
	for i, g := range got {
		w := want[i]
		require.Equal(t, w.ID+"/"+w.Options, g.ID+"/"+g.Options, "entry %d of %s", i, recordedPlansFile)
		if !bytes.Equal(g.Writes, w.Writes) {
			t.Errorf("%s, options %s: rendered writes differ from the recorded ones (-recorded +rendered):\n%s",
				g.ID, g.Options, cmp.Diff(string(w.Writes), string(g.Writes)))
		}
		g.Writes, w.Writes = nil, nil
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s, options %s: plan differs from the recorded one (-recorded +planned):\n%s", g.ID, g.Options, diff)
		}
	}
}

// planRecord plans s with opts and renders the plan as an entry of the file.
func planRecord(t *testing.T, id, options string, s plan.State, opts []plan.Option) recordedPlan {
	t.Helper()
	p, err := plan.Sync(s, opts...)
	var serr *plan.SyncError
	if err != nil && !errors.As(err, &serr) {
		t.Fatalf("%s, options %s: %v", id, options, err)
	}
	ws, err := render.Writes(s, p)
	require.NoError(t, err, "%s, options %s: render.Writes", id, options)
	if ws == nil {
		ws = []render.Write{}
	}
	writes, err := json.Marshal(ws)
	require.NoError(t, err)
	r := recordedPlan{ID: id, Options: options, Writes: writes, Events: p.Events, Requeue: p.Requeue,
		Status: p.Status, Notes: p.Notes, Error: serr}
	if i, ok := p.Rejected(); ok {
		r.Rejected = &i
	}
	return r
}

func readRecordedPlans(t *testing.T) []recordedPlan {
	t.Helper()
	f, err := os.Open(recordedPlansFile)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	var out []recordedPlan
	require.NoError(t, json.NewDecoder(zr).Decode(&out), "decoding %s", recordedPlansFile)
	return out
}

// writeRecordedPlans writes the entries one a line, as recorded.
func writeRecordedPlans(t *testing.T, entries []recordedPlan) {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString("[\n")
	for i, e := range entries {
		b, err := json.Marshal(e)
		require.NoError(t, err)
		if i > 0 {
			buf.WriteString(",\n")
		}
		buf.Write(b)
	}
	buf.WriteString("\n]\n")
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, err := zw.Write(buf.Bytes())
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(recordedPlansFile, z.Bytes(), 0o644))
}
