package model_test

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// conformanceStatesFile holds the 200 recorded conformance states (the
// inputs of kube-controller-manager v1.36.3 syncs, converted to model types)
// that plan's benchmarks replay; examples/appsv1 regenerates it. Each entry
// is {"id": ..., "state": plan.State}; only the objects are read here, as
// model cannot import plan.
const conformanceStatesFile = "../plan/testdata/conformance-states.json.gz"

// conformanceSnapshot is the part of a plan.State that model.Validate checks.
type conformanceSnapshot struct {
	ID          string
	Deployment  *model.Deployment
	ReplicaSets []*model.ReplicaSet
	Pods        []*model.Pod
}

func readConformanceSnapshots(tb testing.TB) []conformanceSnapshot {
	tb.Helper()
	f, err := os.Open(conformanceStatesFile)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	var cases []struct {
		ID    string `json:"id"`
		State struct {
			Deployment  *model.Deployment
			ReplicaSets []*model.ReplicaSet
			Pods        []*model.Pod
		} `json:"state"`
	}
	if err := json.NewDecoder(r).Decode(&cases); err != nil {
		tb.Fatal(err)
	}
	if len(cases) != 200 {
		tb.Fatalf("%s holds %d states, want 200", conformanceStatesFile, len(cases))
	}
	out := make([]conformanceSnapshot, len(cases))
	for i, c := range cases {
		out[i] = conformanceSnapshot{ID: c.ID, Deployment: c.State.Deployment, ReplicaSets: c.State.ReplicaSets, Pods: c.State.Pods}
	}
	return out
}

// BenchmarkValidateConformance is one model.Validate per op, cycling through
// the 200 recorded conformance states: "all" of them, and the "valid" ones
// alone (the states model.Validate accepts; the others break a rule plan
// waives, such as progressDeadlineSeconds not above minReadySeconds).
func BenchmarkValidateConformance(b *testing.B) {
	all := readConformanceSnapshots(b)
	var valid []conformanceSnapshot
	for _, s := range all {
		if model.Validate(s.Deployment, s.ReplicaSets, s.Pods) == nil {
			valid = append(valid, s)
		}
	}
	if len(valid) < 150 {
		b.Fatalf("only %d of %d conformance states are valid", len(valid), len(all))
	}
	for _, bc := range []struct {
		name   string
		states []conformanceSnapshot
	}{{"all", all}, {"valid", valid}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s := &bc.states[i]
				_ = model.Validate(s.Deployment, s.ReplicaSets, s.Pods)
				if i++; i == len(bc.states) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkValidateObjects validates every object of the conformance states
// on its own, one object per op, by kind.
func BenchmarkValidateObjects(b *testing.B) {
	states := readConformanceSnapshots(b)
	var ds []*model.Deployment
	var rss []*model.ReplicaSet
	var pods []*model.Pod
	for _, s := range states {
		ds = append(ds, s.Deployment)
		rss = append(rss, s.ReplicaSets...)
		pods = append(pods, s.Pods...)
	}
	b.Run("Deployment", func(b *testing.B) { benchEach(b, ds, model.ValidateDeployment) })
	b.Run("ReplicaSet", func(b *testing.B) { benchEach(b, rss, model.ValidateReplicaSet) })
	b.Run("Pod", func(b *testing.B) { benchEach(b, pods, model.ValidatePod) })
}

func benchEach[T any](b *testing.B, objs []T, validate func(T) error) {
	if len(objs) == 0 {
		b.Fatal("no objects")
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = validate(objs[i])
		if i++; i == len(objs) {
			i = 0
		}
	}
}
