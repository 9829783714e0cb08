package plan_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
		require.NoError(t, syncFailure(err), "state %d", i)
		q, err2 := plan.Sync(s)
		a, _ := json.Marshal(p)
		b, _ := json.Marshal(q)
		if string(a) != string(b) {
			t.Fatalf("state %d: two syncs differ:\n%s\n%s", i, a, b)
		}
		assert.Equal(t, err, err2, "state %d: the error of two syncs", i)
	}
}

// BenchmarkSyncConformance is one plan.Sync per op, cycling through the 200
// recorded conformance states, with the default (canonical) hasher.
func BenchmarkSyncConformance(b *testing.B) {
	states := readConformanceStates(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := plan.Sync(states[i]); syncFailure(err) != nil {
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
