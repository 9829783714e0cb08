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
			defer reportCPUTime(b)()
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

// BenchmarkValidateObjects validates the valid objects of the conformance
// states one by one, one object per op, by kind (a Deployment whose
// progressDeadlineSeconds is not above its minReadySeconds is left out).
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

func benchEach[T any](b *testing.B, all []T, validate func(T) error) {
	var objs []T
	for _, o := range all {
		if validate(o) == nil {
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 {
		b.Fatal("no valid objects")
	}
	b.ReportAllocs()
	defer reportCPUTime(b)()
	i := 0
	for b.Loop() {
		_ = validate(objs[i])
		if i++; i == len(objs) {
			i = 0
		}
	}
}

// reportCPUTime starts counting the process's CPU time; the function it
// returns, deferred to the end of the benchmark, reports it per op as
// "cpu-ns/op". On a shared machine CPU time is steadier than wall time, as
// it leaves out the time the benchmark waits for a core. It includes the
// benchmark's setup, which b.Loop keeps out of ns/op: call it after setup.
func reportCPUTime(b *testing.B) func() {
	start := processCPUTime()
	return func() {
		if used := processCPUTime() - start; used > 0 && b.N > 0 {
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// BenchmarkUniqueConformance is one model.Unique per op over the ReplicaSets
// and Pods of the 200 conformance states: the cross-object check a
// plan.Planner still makes for objects it has validated before.
func BenchmarkUniqueConformance(b *testing.B) {
	states := readConformanceSnapshots(b)
	b.ReportAllocs()
	defer reportCPUTime(b)()
	i := 0
	for b.Loop() {
		s := &states[i]
		if !model.Unique(s.ReplicaSets, s.Pods) {
			b.Fatalf("state %s: repeated names or UIDs", s.ID)
		}
		if i++; i == len(states) {
			i = 0
		}
	}
}
