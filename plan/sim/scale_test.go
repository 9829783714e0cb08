package sim

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/internal/cputime"
	"github.com/rolloutplan/rolloutplan/plan"
)

// measured runs cfg to completion with plan.Sync timed call by call. It
// reports the time spent in plan.Sync (the floor of any simulator built
// around it), the syncs, the bytes allocated and the peak growth of the
// heap in use over the start. Every 251st plan.Sync (an odd stride, as
// syncs alternate between scaling up and down) is bracketed by
// runtime.ReadMemStats, which counts its allocations exactly and samples
// the heap; the time these readings take is kept apart.
type measured struct {
	syncs            int
	planTime         time.Duration
	overhead         time.Duration // reading the heap and counting allocations
	totalAlloc       uint64
	peakHeapGrowth   uint64
	mallocs          uint64
	planMallocs      uint64 // by the sampled plan.Syncs
	planSamples      int
	completed        bool
	summaryForChecks Summary
}

// planAllocsPerSync estimates the allocations per sync in plan.Sync.
func (m measured) planAllocsPerSync() float64 {
	if m.planSamples == 0 {
		return 0
	}
	return float64(m.planMallocs) / float64(m.planSamples)
}

// simTime is the time outside plan.Sync and the measurements.
func (m measured) simTime(total time.Duration) time.Duration { return total - m.planTime - m.overhead }

func measure(tb testing.TB, cfg Config) measured {
	tb.Helper()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var m measured
	peak := before.HeapInuse
	r, err := newRunner(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	var ms runtime.MemStats
	sync := r.sync
	r.sync = func(s plan.State) (plan.Plan, error) {
		sampled := m.syncs%251 == 0
		m.syncs++
		var before uint64
		if sampled {
			t := time.Now()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			before = ms.Mallocs
			m.overhead += time.Since(t)
		}
		start := time.Now()
		p, err := sync(s)
		end := time.Now()
		m.planTime += end.Sub(start)
		if sampled {
			runtime.ReadMemStats(&ms)
			m.planMallocs += ms.Mallocs - before
			m.planSamples++
			m.overhead += time.Since(end)
		}
		return p, err
	}
	tr, err := r.run()
	if err != nil {
		tb.Fatal(err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	peak = max(peak, after.HeapInuse)
	m.totalAlloc = after.TotalAlloc - before.TotalAlloc
	m.mallocs = after.Mallocs - before.Mallocs
	m.peakHeapGrowth = peak - before.HeapInuse
	m.completed = tr.Summary.Completed
	m.summaryForChecks = tr.Summary
	return m
}

// BenchmarkScaleCounts is the scaling curve of the simulator at Counts
// fidelity: a maxSurge 1 / maxUnavailable 0 rollout of R replicas takes
// about 2R syncs, so ns/sync should stay flat. plan-ns/sync is the part
// spent in plan.Sync alone; sim-ns/sync the rest (the simulator's own
// work, the timer's overhead included, the measurements' excluded).
// plan-allocs/sync is sampled on every 251st sync; sim-allocs/sync is the
// rest of allocs/sync.
func BenchmarkScaleCounts(b *testing.B) {
	for _, replicas := range []int32{10, 100, 1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			b.ReportAllocs()
			var last measured
			var wall time.Duration
			var cpu time.Duration
			for b.Loop() {
				start, startCPU := time.Now(), cputime.Process()
				last = measure(b, countsRollout(replicas))
				wall, cpu = time.Since(start), cputime.Process()-startCPU
				if !last.completed {
					b.Fatalf("not completed: %+v", last.summaryForChecks)
				}
			}
			s := float64(last.syncs)
			b.ReportMetric(s, "syncs")
			b.ReportMetric(float64(wall.Nanoseconds())/s, "ns/sync")
			b.ReportMetric(float64(cpu.Nanoseconds())/s, "cpu-ns/sync")
			b.ReportMetric(float64(last.planTime.Nanoseconds())/s, "plan-ns/sync")
			b.ReportMetric(float64(last.simTime(wall).Nanoseconds())/s, "sim-ns/sync")
			b.ReportMetric(float64(last.mallocs)/s, "allocs/sync")
			b.ReportMetric(last.planAllocsPerSync(), "plan-allocs/sync")
			b.ReportMetric(float64(last.mallocs)/s-last.planAllocsPerSync(), "sim-allocs/sync")
			b.ReportMetric(float64(last.totalAlloc)/1e6, "MB-alloc")
			b.ReportMetric(float64(last.peakHeapGrowth)/1e6, "MB-heap-growth")
		})
	}
}

// BenchmarkSimOwnWork is the simulator's own work per sync at Counts
// fidelity, without the planner: a first run records every plan.Sync
// result, and the timed runs replay them in order (the simulation is
// deterministic, so each replayed plan is the one plan.Sync would return
// for that state; the summary must come out the same). What is left is
// the world model, the cluster's writes and the accounting.
func BenchmarkSimOwnWork(b *testing.B) {
	for _, replicas := range []int32{1_000, 10_000} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			cfg := countsRollout(replicas)
			r, err := newRunner(cfg)
			if err != nil {
				b.Fatal(err)
			}
			var plans []plan.Plan
			sync := r.sync
			r.sync = func(s plan.State) (plan.Plan, error) {
				p, err := sync(s)
				plans = append(plans, p)
				return p, err
			}
			want, err := r.run()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				r, err := newRunner(cfg)
				if err != nil {
					b.Fatal(err)
				}
				next := 0
				r.sync = func(plan.State) (plan.Plan, error) {
					next++
					return plans[next-1], nil
				}
				start := cputime.Process()
				got, err := r.run()
				cpu += cputime.Process() - start
				if err != nil || got.Summary != want.Summary {
					b.Fatalf("replay: %v\ngot  %+v\nwant %+v", err, got.Summary, want.Summary)
				}
			}
			b.ReportMetric(float64(len(plans)), "syncs")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(plans)), "ns/sync")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(plans)), "cpu-ns/sync")
		})
	}
}
