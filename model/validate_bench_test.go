package model_test

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/internal/cputime"
	"github.com/rolloutplan/rolloutplan/model"
)

// conformanceSnapshot and readConformanceSnapshots are the internal
// tests' reader of the 200 recorded conformance states.
type conformanceSnapshot = model.ConformanceSnapshot

var readConformanceSnapshots = model.ReadConformanceSnapshots

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
	start := cputime.Process()
	return func() {
		if used := cputime.Process() - start; used > 0 && b.N > 0 {
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
