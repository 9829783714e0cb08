package restart

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// benchState: n configs and n workloads, each workload linked to three
// configs with their old checksums applied; every config changed and due.
func benchState(n int) (Catalog, Changes) {
	c := Catalog{Configs: map[string]ConfigEntry{}, Workloads: map[string]WorkloadEntry{}}
	ch := Changes{}
	name := func(i int) string { return fmt.Sprintf("configmap/ns/cfg-%05d", i%n) }
	for i := 0; i < n; i++ {
		c.Configs[name(i)] = ConfigEntry{Checksum: fmt.Sprintf("%016x", i+1)}
		ch[name(i)] = Change{Since: t0, Observations: 1}
	}
	for i := 0; i < n; i++ {
		ref := Ref{KindDeployment, "ns", fmt.Sprintf("web-%05d", i)}
		refs := []string{name(i), name(i + 1), name(i + 2)}
		applied := map[string]string{}
		for _, r := range refs {
			applied[r] = "old"
		}
		slices.Sort(refs)
		c.Workloads[ref.String()] = WorkloadEntry{Ref: ref, Refs: refs, Applied: applied}
	}
	return c, ch
}

func BenchmarkPlan1000Workloads1000Configs(b *testing.B) {
	c, ch := benchState(1000)
	opts := Options{GracePeriod: DefaultGracePeriod}
	b.ReportAllocs()
	for b.Loop() {
		res, err := Plan(c, ch, t0.Add(time.Minute), opts)
		if err != nil || len(res.Patches) != 1000 {
			b.Fatal(err, len(res.Patches))
		}
	}
}

// Nothing due: the common restart-check tick.
func BenchmarkPlan1000NothingDue(b *testing.B) {
	c, ch := benchState(1000)
	opts := Options{GracePeriod: DefaultGracePeriod}
	b.ReportAllocs()
	for b.Loop() {
		res, _ := Plan(c, ch, t0.Add(time.Second), opts)
		if len(res.Patches) != 0 {
			b.Fatal(len(res.Patches))
		}
	}
}

func BenchmarkReferences(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := References("ns", allKindsSpec, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkObserveWorkload(b *testing.B) {
	tr, _ := NewTracker(Options{GracePeriod: DefaultGracePeriod})
	w := workload(dep, "1", map[string]string{cfgA: "abc"}, cfgA, cfgB)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		w.Version = fmt.Sprint(i)
		if _, err := tr.ObserveWorkload(w, t0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkConfigMapChecksum(b *testing.B) {
	data := map[string]string{"LOG_LEVEL": "info", "URL": "https://example.com/?a=1&b=2", "PASSWORD": "secret"}
	b.ReportAllocs()
	for b.Loop() {
		_ = ConfigMapChecksum(data, nil, false)
	}
}
