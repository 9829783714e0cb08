package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/plan/sim"
	"github.com/stretchr/testify/assert"
)

// heapChildEnv, set to 1, makes the test binary measure the heap of one
// simulation (see simulateHeap) instead of running tests or benchmarks.
const heapChildEnv = "ROLLOUTPLAN_BENCH_HEAP_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(heapChildEnv) == "1" {
		h, err := measureSimulateHeap()
		if err == nil {
			err = json.NewEncoder(os.Stdout).Encode(h)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// heap is what heapGrowth measures, in bytes.
type heap struct {
	LivePeak, InUsePeak, Retained uint64
}

// simulateHeap measures the heap of one run of rollout100k in a fresh
// process of this test binary. In the benchmark's own process the heap
// already holds what the benchmarks before it left (the upstream
// controllers' informers among them), and the collector lets the heap grow
// in proportion to all it holds: measured there, the growth would be the
// rest of the binary's, not the simulation's.
func simulateHeap() (heap, error) {
	exe, err := os.Executable()
	if err != nil {
		return heap{}, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), heapChildEnv+"=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return heap{}, fmt.Errorf("measuring the simulation's heap: %w", err)
	}
	var h heap
	if err := json.Unmarshal(out, &h); err != nil {
		return heap{}, fmt.Errorf("measuring the simulation's heap: %q: %w", out, err)
	}
	return h, nil
}

func measureSimulateHeap() (heap, error) {
	var err error
	h := heapGrowth(func() {
		var tr *sim.Trace
		tr, err = sim.Run(rollout100k())
		if err == nil && !tr.Summary.Completed {
			err = errors.New("the simulated rollout did not complete")
		}
		runtime.KeepAlive(tr)
	})
	return h, err
}

// heapGrowth runs f and measures, after a collection before f:
//   - LivePeak: how far the live heap (what the last collection marked
//     live) rose above its size before f, the highest of readings taken
//     every 100 µs while f runs and one at its end: what f needs at once,
//     without the garbage it leaves between collections;
//   - InUsePeak: the same for the heap in use (MemStats' HeapInuse),
//     garbage not yet swept included, which rises towards the collector's
//     goal;
//   - Retained: how much more the live heap holds after a collection once
//     f has returned (what f keeps).
//
// The readings go through runtime/metrics, which neither stops the world
// nor allocates.
func heapGrowth(f func()) heap {
	samples := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
	}
	read := func() (live, inUse uint64) {
		metrics.Read(samples)
		return samples[0].Value.Uint64(), samples[1].Value.Uint64() + samples[2].Value.Uint64()
	}
	runtime.GC()
	live0, inUse0 := read()
	maxLive, maxInUse := live0, inUse0
	sample := func() {
		live, inUse := read()
		maxLive, maxInUse = max(maxLive, live), max(maxInUse, inUse)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	f()
	close(stop)
	<-done
	sample()
	runtime.GC()
	live1, _ := read()
	maxLive = max(maxLive, live1) // what f keeps was live while it ran
	return heap{LivePeak: maxLive - live0, InUsePeak: maxInUse - inUse0, Retained: max(live1, live0) - live0}
}

// TestSanityHeapGrowth: heapGrowth counts what f keeps reachable, live
// during f and retained after it, and not what f drops, which the
// collection after f frees. The bounds leave a quarter of the slice for
// what the rest of the process frees or keeps meanwhile.
func TestSanityHeapGrowth(t *testing.T) {
	const size = 16 << 20
	var kept []byte
	h := heapGrowth(func() { kept = make([]byte, size) })
	assert.Greater(t, h.Retained, uint64(size*3/4), "retained of a kept %d-byte slice", size)
	assert.Greater(t, h.LivePeak, uint64(size*3/4), "live peak of a kept %d-byte slice", size)
	runtime.KeepAlive(kept)
	kept = nil

	h = heapGrowth(func() { runtime.KeepAlive(make([]byte, size)) })
	assert.Less(t, h.Retained, uint64(size/4), "retained of a dropped %d-byte slice", size)
}
