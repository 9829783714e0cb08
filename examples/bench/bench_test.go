package bench

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/controller"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
)

// Each Benchmark below is one row of the side-by-side table: its upstream
// and rolloutplan sub-benchmarks do the same work on the same inputs. The
// sync benchmarks do one sync of each of the 200 public cases per
// iteration and also report ns/sync.

func upstreamSyncs(b *testing.B) []*upstreamSync {
	ctx := context.Background()
	var us []*upstreamSync
	for _, c := range loadCases(b) {
		u, err := newUpstreamSync(ctx, c.Case)
		if err != nil {
			b.Fatal(err)
		}
		us = append(us, u)
	}
	return us
}

// benchSyncs runs sync once on every input per iteration and reports
// ns/sync, cpu-ns/sync (the process's CPU time, user and system, per
// sync: what the benchmark costs on a machine whose other processes take
// its cores now and then, which the wall clock counts and the CPU time
// does not; it includes the garbage collector's work) and syncs (per op,
// so that the table can show allocations per sync) besides the
// allocations. An error fails the benchmark, except a
// *plan.SyncError: the sync of a hash-collision case ends with one, as
// upstream's does (TestSanitySync compares them), and its plan is still
// made. warm, if set, runs before the timed iterations.
func benchSyncs[T any](b *testing.B, ins []T, warm bool, sync func(T) error) {
	run := func() {
		for _, in := range ins {
			var se *plan.SyncError
			if err := sync(in); err != nil && !errors.As(err, &se) {
				b.Fatal(err)
			}
		}
	}
	if warm {
		run()
	}
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		run()
	}
	cpu = cpuTime(b) - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ins)), "ns/sync")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(ins)), "cpu-ns/sync")
	b.ReportMetric(float64(len(ins)), "syncs")
}

// benchUpstreamSync: upstream's syncs of the cases. Their errors are not
// checked here: TestSanitySync compares them with rolloutplan's.
func benchUpstreamSync(b *testing.B) {
	ctx := context.Background()
	benchSyncs(b, upstreamSyncs(b), false, func(u *upstreamSync) error {
		_, _ = u.run(ctx)
		return nil
	})
}

// modelStates converts the 200 cases to the planner's input once.
func modelStates(b testing.TB) []plan.State {
	var ins []plan.State
	for _, c := range loadCases(b) {
		in, err := c.Case.State().Model()
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, in)
	}
	return ins
}

// BenchmarkSyncModel: one sync per case to typed actions on model types,
// plan.Sync with the upstream hasher (the cases converted beforehand).
// Every call does the whole work: plan.Sync remembers nothing between
// calls.
func BenchmarkSyncModel(b *testing.B) {
	b.Run("upstream", benchUpstreamSync)
	b.Run("rolloutplan", func(b *testing.B) {
		opt := appsv1.WithUpstreamHash()
		benchSyncs(b, modelStates(b), false, func(in plan.State) error {
			_, err := plan.Sync(in, opt)
			return err
		})
	})
}

// BenchmarkSyncModelCanonicalHash: the same with plan.Sync's default
// hasher (rolloutplan's canonical hash, which names new ReplicaSets
// differently from upstream): what the upstream-identical hash of the model
// template costs in the SyncModel row.
func BenchmarkSyncModelCanonicalHash(b *testing.B) {
	b.Run("upstream", benchUpstreamSync)
	b.Run("rolloutplan", func(b *testing.B) {
		benchSyncs(b, modelStates(b), false, func(in plan.State) error {
			_, err := plan.Sync(in)
			return err
		})
	})
}

// BenchmarkSyncAdapter: one sync per case through the apps/v1 adapter as
// a controller runs it, one warm appsv1.Syncer for all 200 cases: the
// objects are those of an informer's cache, each converted once per
// (kind, UID, resourceVersion) before the timed iterations; every sync
// plans with plan.Sync and renders the apps/v1 write requests. This is the
// steady state of a controller.
func BenchmarkSyncAdapter(b *testing.B) {
	b.Run("upstream", benchUpstreamSync)
	b.Run("rolloutplan", func(b *testing.B) {
		var syncer appsv1.Syncer
		benchSyncs(b, loadCases(b), true, func(c seedCase) error {
			_, _, err := syncer.Sync(c.Case.State())
			return err
		})
	})
}

// BenchmarkSyncAdapterUncached: the same through appsv1.Sync, which
// remembers nothing: every sync converts every object (a canonical JSON
// encoding of each distinct pod template), plans, and derives the writes.
func BenchmarkSyncAdapterUncached(b *testing.B) {
	b.Run("upstream", benchUpstreamSync)
	b.Run("rolloutplan", func(b *testing.B) {
		benchSyncs(b, loadCases(b), false, func(c seedCase) error {
			_, _, err := appsv1.Sync(c.Case.State())
			return err
		})
	})
}

func benchUpstreamHash(b *testing.B, t core.PodTemplateSpec) {
	b.ReportAllocs()
	for b.Loop() {
		_ = controller.ComputeHash(&t, nil)
	}
}

// BenchmarkHashRealisticCanonical: the realistic template hashed by
// upstream, and by rolloutplan's own canonical hash (hash.ComputeHash of
// the converted template; a different value by design).
func BenchmarkHashRealisticCanonical(b *testing.B) {
	t := realisticTemplate(b)
	b.Run("upstream", func(b *testing.B) { benchUpstreamHash(b, t) })
	b.Run("rolloutplan", func(b *testing.B) {
		m, err := appsv1.TemplateToModel(&t)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = hash.ComputeHash(m, nil)
		}
	})
}

// BenchmarkHashRealistic: the realistic template hashed by upstream and by
// appsv1.ComputeHash, which gives the same name.
func BenchmarkHashRealistic(b *testing.B) {
	t := realisticTemplate(b)
	b.Run("upstream", func(b *testing.B) { benchUpstreamHash(b, t) })
	b.Run("rolloutplan", func(b *testing.B) { benchAdapterHash(b, t) })
}

// BenchmarkHashLarge: the same for the 9.4 KB template.
func BenchmarkHashLarge(b *testing.B) {
	t := largeTemplate(b)
	b.Run("upstream", func(b *testing.B) { benchUpstreamHash(b, t) })
	b.Run("rolloutplan", func(b *testing.B) { benchAdapterHash(b, t) })
}

func benchAdapterHash(b *testing.B, t core.PodTemplateSpec) {
	b.ReportAllocs()
	for b.Loop() {
		_ = appsv1.ComputeHash(&t, nil)
	}
}

// BenchmarkFindNewReplicaSet1000: the new ReplicaSet among 1 000.
func BenchmarkFindNewReplicaSet1000(b *testing.B) {
	d, rss := manyReplicaSets(b, 1000)
	b.Run("upstream", func(b *testing.B) {
		list := make([]*apps.ReplicaSet, len(rss))
		b.ReportAllocs()
		for b.Loop() {
			copy(list, rss) // upstream sorts the list it is given
			_ = deploymentutil.FindNewReplicaSet(d, list)
		}
	})
	b.Run("rolloutplan", func(b *testing.B) {
		md, mrss := modelReplicaSets(b, d, rss)
		b.ReportAllocs()
		for b.Loop() {
			_ = plan.FindNewReplicaSet(md, mrss)
		}
	})
}

func modelReplicaSets(tb testing.TB, d *apps.Deployment, rss []*apps.ReplicaSet) (*model.Deployment, []*model.ReplicaSet) {
	tb.Helper()
	md, err := appsv1.DeploymentToModel(d)
	if err != nil {
		tb.Fatal(err)
	}
	var out []*model.ReplicaSet
	for _, rs := range rss {
		m, err := appsv1.ReplicaSetToModel(rs)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, m)
	}
	return md, out
}

// BenchmarkSimulate100kCounts: a 100 000-replica maxSurge 1 rollout
// simulated to completion at count fidelity. Upstream has no simulator:
// this row has no upstream half; its targets are absolute (< 100 ms, heap
// growth < 10 MB). After the timed runs one more run, in a fresh process
// of this test binary, measures how much the live heap grows (see
// simulateHeap), reported as MB-heap-growth.
func BenchmarkSimulate100kCounts(b *testing.B) {
	b.Run("rolloutplan", func(b *testing.B) {
		cfg := rollout100k()
		b.ReportAllocs()
		var syncs int
		for b.Loop() {
			tr, err := sim.Run(cfg)
			if err != nil || !tr.Summary.Completed {
				b.Fatalf("%v %+v", err, tr.Summary)
			}
			syncs = tr.Summary.Syncs
		}
		b.ReportMetric(float64(syncs), "syncs")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*syncs), "ns/sync")
		h, err := simulateHeap()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(h.LivePeak)/1e6, "MB-heap-growth")
		b.ReportMetric(float64(h.InUsePeak)/1e6, "MB-heap-inuse-growth")
		b.ReportMetric(float64(h.Retained)/1e6, "MB-heap-retained")
	})
}

// TestSanityHash: upstream's ComputeHash and appsv1.ComputeHash agree on
// both benchmark templates, on every template of the public cases, with and
// without a collision count.
func TestSanityHash(t *testing.T) {
	ts := []core.PodTemplateSpec{realisticTemplate(t), largeTemplate(t)}
	for _, c := range loadCases(t) {
		ts = append(ts, c.Case.Deployment.Spec.Template)
		for _, rs := range c.Case.ReplicaSets {
			ts = append(ts, rs.Spec.Template)
		}
	}
	for i, tmpl := range ts {
		for _, cc := range []*int32{nil, new(int32(0)), new(int32(7))} {
			if up, rp := controller.ComputeHash(&tmpl, cc), appsv1.ComputeHash(&tmpl, cc); up != rp {
				t.Fatalf("template %d, collisionCount %v: upstream %s, rolloutplan %s", i, cc, up, rp)
			}
		}
	}
	m, err := appsv1.TemplateToModel(&ts[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := appsv1.PodTemplateHash(m, nil); got != controller.ComputeHash(&ts[0], nil) {
		t.Fatalf("PodTemplateHash of the converted template %s, upstream %s", got, controller.ComputeHash(&ts[0], nil))
	}
	if len(hash.ComputeHash(m, nil)) < 9 {
		t.Fatal("canonical hash is not a pod-template-hash")
	}
}

// TestSanityFindNewReplicaSet: both find the same ReplicaSet among 1 000,
// and both find none when the Deployment's template matches none.
func TestSanityFindNewReplicaSet(t *testing.T) {
	d, rss := manyReplicaSets(t, 1000)
	md, mrss := modelReplicaSets(t, d, rss)
	up := deploymentutil.FindNewReplicaSet(d, slices.Clone(rss))
	rp := plan.FindNewReplicaSet(md, mrss)
	if up == nil || rp == nil || up.Name != rp.Name || up.Name != rss[len(rss)-1].Name {
		t.Fatalf("upstream %v, rolloutplan %v", up, rp)
	}
	d2, rss2 := manyReplicaSets(t, 10)
	d2.Spec.Template.Spec.Containers[0].Image = "none"
	md2, mrss2 := modelReplicaSets(t, d2, rss2)
	if up, rp := deploymentutil.FindNewReplicaSet(d2, slices.Clone(rss2)), plan.FindNewReplicaSet(md2, mrss2); up != nil || rp != nil {
		t.Fatalf("no match expected: upstream %v, rolloutplan %v", up, rp)
	}
}

// TestSanitySyncModel: plan.Sync on the converted cases gives the plan
// appsv1.Sync gives (whose writes TestSanitySync compares with upstream's),
// the same *plan.SyncError included (the hash-collision cases end with one).
func TestSanitySyncModel(t *testing.T) {
	for _, c := range loadCases(t) {
		s := c.Case.State()
		in, err := s.Model()
		require.NoError(t, err, c.ID)
		p, err := plan.Sync(in, appsv1.WithUpstreamHash())
		var se *plan.SyncError
		if err != nil {
			require.ErrorAs(t, err, &se, "%s: plan.Sync", c.ID)
		}
		viaModel, err := appsv1.ToOutput(s, p)
		require.NoError(t, err, c.ID)
		direct, _, directErr := appsv1.Sync(s)
		if se == nil {
			require.NoError(t, directErr, "%s: appsv1.Sync", c.ID)
		} else {
			var de *plan.SyncError
			require.ErrorAs(t, directErr, &de, "%s: appsv1.Sync", c.ID)
			assert.Equal(t, *se, *de, c.ID)
		}
		assert.Equal(t, plannedWrites(direct), plannedWrites(viaModel), "%s: writes of appsv1.Sync and of plan.Sync", c.ID)
	}
}

// TestSanitySimulate: the simulated rollout completes with every replica
// on the new template, run as the Simulate100kCounts row's heap measurement
// runs it: in a fresh process of this test binary (see simulateHeap).
func TestSanitySimulate(t *testing.T) {
	_, err := simulateHeap()
	require.NoError(t, err)
}
