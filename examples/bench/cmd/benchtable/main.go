// Command benchtable reads the output of `go test -bench` of package bench
// (several runs of each benchmark, -count) from standard input and prints
// the side-by-side table: for each row the median time of the upstream and
// rolloutplan halves with their spread and allocations (per sync where the
// benchmark reports its syncs per op, with the CPU time per sync where it
// reports cpu-ns/sync), the ratio of the halves (of their CPU times when
// both report them, of their wall-clock times otherwise), and whether
// it meets the row's target, the simulator's heap growth included. It exits
// 1 when a row misses its target or has no measurement, 2 on bad usage.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// row is one line of the table: a benchmark with upstream and rolloutplan
// halves, or a rolloutplan-only one with absolute limits.
type row struct {
	bench, what string
	minRatio    float64 // the ratio upstream/rolloutplan must reach; 0 for none
	maxNs       float64 // absolute limit of rolloutplan's median ns/op; 0 for none
	maxHeapMB   float64 // limit of rolloutplan's median MB-heap-growth; 0 for none
	// With none, the row is reported without a target: its ratio is
	// shown and it counts as met when measured.
	target string
}

var rows = []row{
	{"SyncModel", "one sync per case to typed actions, model types (plan.Sync + upstream hasher)", 100, 0, 0, "≥ 100×"},
	{"SyncModelCanonicalHash", "the same with plan.Sync's own canonical hasher (new ReplicaSets named unlike upstream)", 0, 0, 0, "reported"},
	{"SyncAdapter", "one sync per case through the apps/v1 adapter, steady state (a warm appsv1.Syncer: objects converted once per kind, UID and resourceVersion; plan.Sync; apps/v1 write requests)", 25, 0, 0, "≥ 25×"},
	{"SyncAdapterUncached", "the same through appsv1.Sync, remembering nothing (every object converted at every sync)", 0, 0, 0, "reported"},
	{"HashRealisticCanonical", "pod-template hash, realistic 541 B, canonical", 30, 0, 0, "keep (42× before; ≥ 30×)"},
	{"HashRealistic", "pod-template hash, realistic 541 B, upstream-identical", 10, 0, 0, "≥ 10×"},
	{"HashLarge", "pod-template hash, 9.4 KB template, upstream-identical", 10, 0, 0, "≥ 10×"},
	{"FindNewReplicaSet1000", "FindNewReplicaSet over 1 000 ReplicaSets", 1000, 0, 0, "keep (3 300× before; ≥ 1 000×)"},
	{"Simulate100kCounts", "simulate a 100 000-replica maxSurge 1 rollout (counts)", 0, 100e6, 10, "< 100 ms, heap growth < 10 MB"},
	{"StatefulSetSync", "one sync per recorded StatefulSet state through the apps/v1 adapter, steady state (a warm appsv1.StatefulSetSyncer: objects converted once per kind, UID and resourceVersion; statefulset.Sync; apps/v1 writes)", 50, 0, 0, "≥ 50×"},
	{"StatefulSetSyncUncached", "the same through appsv1.SyncStatefulSet, remembering nothing (every object converted, the set's revision data encoded, at every sync)", 0, 0, 0, "reported"},
	{"StatefulSetSyncModel", "statefulset.Sync alone on the converted states (with the adapter's revision encoder and defaults, uncached)", 0, 0, 0, "reported"},
	{"DaemonSetSync", "one sync per recorded DaemonSet state through the apps/v1 adapter, steady state (a warm appsv1.DaemonSetSyncer: objects converted once per kind, UID and resourceVersion; daemonset.Sync; apps/v1 writes)", 50, 0, 0, "≥ 50×"},
	{"DaemonSetSyncUncached", "the same through appsv1.SyncDaemonSet, remembering nothing (every object converted, the template hashed and encoded, at every sync)", 0, 0, 0, "reported"},
	{"DaemonSetSyncModel", "daemonset.Sync alone on the converted states (its own hasher and patcher)", 0, 0, 0, "reported"},
}

// sample holds the runs of one sub-benchmark.
type sample struct {
	ns, allocs []float64
	// syncs is the benchmark's syncs per op, the divisor of the per-sync
	// figures; heapMB its MB-heap-growth; cpu its CPU time per sync
	// (cpu-ns/sync).
	syncs, heapMB, cpu []float64
}

// parse collects ns/op, allocs/op, syncs and MB-heap-growth per
// "Bench/half" from go test output.
func parse(r io.Reader) (map[string]*sample, error) {
	out := map[string]*sample{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i] // the GOMAXPROCS suffix
			}
		}
		s := out[name]
		if s == nil {
			s = &sample{}
			out[name] = s
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: value %q: %w", f[0], f[i], err)
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			case "syncs":
				s.syncs = append(s.syncs, v)
			case "MB-heap-growth":
				s.heapMB = append(s.heapMB, v)
			case "cpu-ns/sync":
				s.cpu = append(s.cpu, v)
			}
		}
	}
	return out, sc.Err()
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// spread is (max−min)/median in percent.
func spread(v []float64) float64 {
	return 100 * (slices.Max(v) - slices.Min(v)) / median(v)
}

// ratio is upstream/rolloutplan: the median of the ratios of the runs
// taken together (the i-th of each half, close in time when run.sh runs
// the rounds one after the other), or the ratio of the medians when the
// halves have different numbers of runs.
func ratio(up, rp []float64) float64 {
	if len(up) != len(rp) {
		return median(up) / median(rp)
	}
	q := make([]float64, len(up))
	for i := range up {
		q[i] = up[i] / rp[i]
	}
	return median(q)
}

func human(ns float64) string {
	switch {
	case ns >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'f', 2, 64) + " µs"
	}
	return strconv.FormatFloat(ns, 'f', 0, 64) + " ns"
}

// cell shows a half: its median time with spread and runs, per sync when
// the benchmark reports its syncs per op (the whole op as well when an op
// is one long run, as the simulation is), its allocations, and its heap
// growth when measured.
func cell(s *sample) string {
	if s == nil || len(s.ns) == 0 {
		return "—"
	}
	syncs := 0.0
	if len(s.syncs) > 0 {
		syncs = median(s.syncs)
	}
	var c string
	switch {
	case syncs > 1000:
		c = fmt.Sprintf("%s ±%.0f%% (n=%d), %.0f syncs, %s/sync", human(median(s.ns)), spread(s.ns), len(s.ns), syncs, human(median(s.ns)/syncs))
	case syncs > 0:
		c = fmt.Sprintf("%s/sync ±%.0f%% (n=%d)", human(median(s.ns)/syncs), spread(s.ns), len(s.ns))
	default:
		c = fmt.Sprintf("%s ±%.0f%% (n=%d)", human(median(s.ns)), spread(s.ns), len(s.ns))
	}
	if len(s.cpu) > 0 {
		c += fmt.Sprintf(", CPU %s/sync ±%.0f%%", human(median(s.cpu)), spread(s.cpu))
	}
	switch {
	case len(s.allocs) > 0 && syncs > 0:
		c += ", " + strconv.FormatFloat(median(s.allocs)/syncs, 'f', 1, 64) + " allocs/sync"
	case len(s.allocs) > 0:
		c += fmt.Sprintf(", %.0f allocs", median(s.allocs))
	}
	if len(s.heapMB) > 0 {
		c += fmt.Sprintf(", %.1f MB heap growth", median(s.heapMB))
	}
	return c
}

// table writes the Markdown table and returns the number of rows missing
// their target or a measurement.
func table(w io.Writer, samples map[string]*sample) int {
	fmt.Fprintln(w, "| what | upstream | rolloutplan | ratio | target | met |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|:---:|")
	missed := 0
	for _, r := range rows {
		up, rp := samples[r.bench+"/upstream"], samples[r.bench+"/rolloutplan"]
		shown, met := "—", "no"
		switch {
		case rp == nil || len(rp.ns) == 0:
			met = "not run"
		case r.maxNs > 0 || r.maxHeapMB > 0:
			met = "yes"
			if r.maxNs > 0 && median(rp.ns) >= r.maxNs {
				met = "no"
			}
			if r.maxHeapMB > 0 && (len(rp.heapMB) == 0 || median(rp.heapMB) >= r.maxHeapMB) {
				met = "no"
			}
		case up == nil || len(up.ns) == 0:
			met = "not run"
		default:
			// On a busy machine the wall clock counts the time other
			// processes take the cores; CPU time, where both halves
			// report it, does not.
			q, unit := ratio(up.ns, rp.ns), "×"
			if len(up.cpu) > 0 && len(rp.cpu) > 0 {
				q, unit = ratio(up.cpu, rp.cpu), "× CPU"
			}
			shown = strconv.FormatFloat(q, 'f', 1, 64) + unit
			switch {
			case r.minRatio == 0:
				met = "n/a"
			case q >= r.minRatio:
				met = "yes"
			}
		}
		if met != "yes" && met != "n/a" {
			missed++
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.what, cell(up), cell(rp), shown, r.target, met)
	}
	return missed
}

func main() {
	fs := flag.NewFlagSet("benchtable", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: go test -bench . -count 5 | benchtable")
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "benchtable: unexpected argument %q (the benchmark output is read from standard input)\n", fs.Arg(0))
		os.Exit(2)
	}
	samples, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(2)
	}
	missed := table(os.Stdout, samples)
	fmt.Printf("\n%d of %d rows meet their target\n", len(rows)-missed, len(rows))
	if missed > 0 {
		os.Exit(1)
	}
}
