package plan_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

func readConformanceStates(tb testing.TB) []plan.State {
	tb.Helper()
	states := plan.ReadConformanceStates(tb)
	if len(states) != 200 {
		tb.Fatalf("%d conformance states, want 200", len(states))
	}
	return states
}

// TestConformanceStatesPlan plans every recorded state: each is valid, and
// planning it twice gives the same plan (the benchmark's fixture; the
// decisions themselves are checked against the recording in examples/appsv1).
func TestConformanceStatesPlan(t *testing.T) {
	states := readConformanceStates(t)
	for i, s := range states {
		p, err := plan.Sync(s)
		if err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
		q, _ := plan.Sync(s)
		a, _ := json.Marshal(p)
		b, _ := json.Marshal(q)
		if string(a) != string(b) {
			t.Fatalf("state %d: two syncs differ:\n%s\n%s", i, a, b)
		}
	}
}

// BenchmarkSyncConformance is one plan.Sync per op, cycling through the 200
// recorded conformance states, with the default (canonical) hasher.
func BenchmarkSyncConformance(b *testing.B) {
	benchConformance(b, func(s plan.State) (plan.Plan, error) { return plan.Sync(s) })
}

// BenchmarkPlannerConformance is BenchmarkSyncConformance through one
// Planner: each state's objects are validated and hashed once, as for a
// controller replanning objects from its informer cache.
func BenchmarkPlannerConformance(b *testing.B) {
	benchConformance(b, plan.NewPlanner().Sync)
}

// benchConformance is one call of sync per op, cycling through the 200
// recorded conformance states.
func benchConformance(b *testing.B, sync func(plan.State) (plan.Plan, error)) {
	states := readConformanceStates(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := sync(states[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(states) {
			i = 0
		}
	}
}

// BenchmarkSyncScaling is the rolling-update sync of rollingBenchState over
// R = 10 … 10 000 ReplicaSets: the cost should grow linearly (n log n where
// ReplicaSets are sorted).
func BenchmarkSyncScaling(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run("R="+strconv.Itoa(n), func(b *testing.B) { benchRollingSync(b, n) })
	}
}
