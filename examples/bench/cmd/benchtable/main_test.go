package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const out = `goos: linux
BenchmarkHashRealistic/upstream-2         	   50000	     24000 ns/op	    5700 B/op	     303 allocs/op
BenchmarkHashRealistic/upstream-2         	   50000	     26000 ns/op	    5700 B/op	     303 allocs/op
BenchmarkHashRealistic/upstream-2         	   50000	     25000 ns/op	    5700 B/op	     303 allocs/op
BenchmarkHashRealistic/rolloutplan-2      	  500000	      2000 ns/op	       0 B/op	       0 allocs/op
BenchmarkHashRealistic/rolloutplan-2      	  500000	      3000 ns/op	       0 B/op	       0 allocs/op
BenchmarkSyncModel/upstream-2             	      40	  28000000 ns/op	    140000 ns/sync	       200.0 syncs	 3000000 B/op	  155800 allocs/op
BenchmarkSyncModel/rolloutplan-2          	   10000	    300000 ns/op	      1500 ns/sync	       200.0 syncs	   90000 B/op	     900 allocs/op
BenchmarkSimulate100kCounts/rolloutplan-2 	       1	 2900000000 ns/op	  14500 ns/sync	  12.00 MB-heap-growth	 0.01 MB-heap-retained	  200003 syncs	 1000 B/op	 2400036 allocs/op
BenchmarkFindNewReplicaSet1000/rolloutplan-2	  200000	      6000 ns/op	       0 B/op	       0 allocs/op
PASS
`

// TestTable: medians (25 000 and 2 500: the mean of the middle two of an
// even count), the ratio of the medians 10.0× (3 against 2 runs; meets
// ≥ 10×), a sync row shown per sync (28 ms and 155 800 allocations for 200
// syncs: 140 µs and 779 allocations a sync) whose ratio 93.3× misses
// ≥ 100×, the simulator over both its absolute limits (time and heap
// growth), and rows without measurements (or without their upstream half)
// reported as not run.
func TestTable(t *testing.T) {
	s, err := parse(strings.NewReader(out))
	require.NoError(t, err)
	assert.Equal(t, 25000.0, median(s["HashRealistic/upstream"].ns))
	assert.Equal(t, 2500.0, median(s["HashRealistic/rolloutplan"].ns))
	assert.Equal(t, 8.0, spread(s["HashRealistic/upstream"].ns), "2000 of 25000")
	assert.Equal(t, 10.0, ratio([]float64{10, 30, 20}, []float64{1, 2, 4}), "the median of 10, 15, 5")
	assert.Equal(t, []float64{12}, s["Simulate100kCounts/rolloutplan"].heapMB)
	assert.Equal(t, []float64{200003}, s["Simulate100kCounts/rolloutplan"].syncs)

	var b strings.Builder
	missed := table(&b, s)
	assert.Equal(t, len(rows)-1, missed, "all rows but HashRealistic miss:\n%s", b.String())
	for _, want := range []string{
		"| 10.0× | ≥ 10× | yes |",
		"| 140.00 µs/sync ±0% (n=1), 779.0 allocs/sync | 1.50 µs/sync ±0% (n=1), 4.5 allocs/sync | 93.3× | ≥ 100× | no |",
		"2900.00 ms ±0% (n=1), 200003 syncs, 14.50 µs/sync, 12.0 allocs/sync, 12.0 MB heap growth | — | < 100 ms, heap growth < 10 MB | no |",
		"| — | 6.00 µs ±0% (n=1), 0 allocs | — | keep (3 300× before; ≥ 1 000×) | not run |",
	} {
		assert.Contains(t, b.String(), want)
	}

	// Within both limits the simulator meets its target; over either, or
	// without a heap measurement, it does not.
	sim := s["Simulate100kCounts/rolloutplan"]
	for _, c := range []struct {
		ns, heapMB []float64
		met        bool
	}{
		{[]float64{90e6}, []float64{3}, true},
		{[]float64{90e6}, []float64{12}, false},
		{[]float64{120e6}, []float64{3}, false},
		{[]float64{90e6}, nil, false},
	} {
		sim.ns, sim.heapMB = c.ns, c.heapMB
		var b strings.Builder
		table(&b, s)
		line := ""
		for l := range strings.SplitSeq(b.String(), "\n") {
			if strings.Contains(l, "100 000-replica") {
				line = l
			}
		}
		assert.Equal(t, c.met, strings.HasSuffix(line, "| yes |"), "ns %v, heap %v: %s", c.ns, c.heapMB, line)
	}
}

// TestTableCPU: where both halves report cpu-ns/sync, the cell shows the
// CPU time per sync and the ratio is of the CPU times (600 µs against
// 10 µs: 60×, meeting ≥ 50×, although the wall-clock ratio, 1.2 ms against
// 40 µs, is 30×); where one half lacks it, the ratio is the wall clock's.
func TestTableCPU(t *testing.T) {
	const cpuOut = `BenchmarkStatefulSetSync/upstream-2     	10	 240000000 ns/op	  600000 cpu-ns/sync	 1200000 ns/sync	 200.0 syncs	 1000 B/op	 400000 allocs/op
BenchmarkStatefulSetSync/rolloutplan-2  	300	   8000000 ns/op	   10000 cpu-ns/sync	   40000 ns/sync	 200.0 syncs	 1000 B/op	  20000 allocs/op
BenchmarkDaemonSetSync/upstream-2       	10	 240000000 ns/op	  600000 cpu-ns/sync	 1200000 ns/sync	 200.0 syncs	 1000 B/op	 400000 allocs/op
BenchmarkDaemonSetSync/rolloutplan-2    	300	   8000000 ns/op	   40000 ns/sync	 200.0 syncs	 1000 B/op	  20000 allocs/op
`
	s, err := parse(strings.NewReader(cpuOut))
	require.NoError(t, err)
	var b strings.Builder
	table(&b, s)
	var ss, ds string
	for l := range strings.SplitSeq(b.String(), "\n") {
		switch {
		case strings.Contains(l, "StatefulSetSyncer"):
			ss = l
		case strings.Contains(l, "DaemonSetSyncer"):
			ds = l
		}
	}
	assert.Contains(t, ss, "| 1.20 ms/sync ±0% (n=1), CPU 600.00 µs/sync ±0%, 2000.0 allocs/sync | 40.00 µs/sync ±0% (n=1), CPU 10.00 µs/sync ±0%, 100.0 allocs/sync | 60.0× CPU | ≥ 50× | yes |")
	assert.Contains(t, ds, "| 30.0× | ≥ 50× | no |")
}
