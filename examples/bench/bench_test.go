package bench

import (
	"context"
	"slices"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/sim"
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

// benchSyncs runs sync once on every input per iteration, fails on the
// first error, and reports ns/sync besides the allocations.
func benchSyncs[T any](b *testing.B, ins []T, sync func(T) error) {
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range ins {
			if err := sync(in); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ins)), "ns/sync")
}

// benchUpstreamSync: upstream's syncs of the cases. Their errors are not
// checked here: TestSanitySync compares them with rolloutplan's.
func benchUpstreamSync(b *testing.B) {
	ctx := context.Background()
	benchSyncs(b, upstreamSyncs(b), func(u *upstreamSync) error {
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

// BenchmarkSyncModel: one sync per case on model types, plan.Sync with the
// upstream hasher (the cases converted beforehand).
func BenchmarkSyncModel(b *testing.B) {
	b.Run("upstream", benchUpstreamSync)
	b.Run("rolloutplan", func(b *testing.B) {
		opt := appsv1.WithUpstreamHash()
		benchSyncs(b, modelStates(b), func(in plan.State) error {
			_, err := plan.Sync(in, opt)
			return err
		})
	})
}

// BenchmarkSyncPlanner: the same through one plan.Planner with the
// upstream hasher, as a controller plans objects from its informer cache:
// each object is validated once and each Deployment's template hashed once.
func BenchmarkSyncPlanner(b *testing.B) {
	b.Run("upstream", benchUpstreamSync)
	b.Run("rolloutplan", func(b *testing.B) {
		p := plan.NewPlanner(appsv1.WithUpstreamHash())
		benchSyncs(b, modelStates(b), func(in plan.State) error {
			_, err := p.Sync(in)
			return err
		})
	})
}

// BenchmarkSyncAdapter: one sync per case through the apps/v1 adapter as
// a controller runs it, one appsv1.Syncer for all 200 cases: the objects
// come from an informer's cache (the same pointers at every sync, as long
// as they do not change), each converted once per resourceVersion and
// handed to the Syncer's plan.Planner; every sync plans and derives the
// apps/v1 writes. This is the steady state of a controller.
func BenchmarkSyncAdapter(b *testing.B) {
	b.Run("upstream", benchUpstreamSync)
	b.Run("rolloutplan", func(b *testing.B) {
		var syncer appsv1.Syncer
		benchSyncs(b, loadCases(b), func(c seedCase) error {
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
		benchSyncs(b, loadCases(b), func(c seedCase) error {
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
// this row has no upstream half; its target is absolute (< 100 ms).
func BenchmarkSimulate100kCounts(b *testing.B) {
	b.Run("rolloutplan", func(b *testing.B) {
		cfg := rollout100k()
		b.ReportAllocs()
		for b.Loop() {
			tr, err := sim.Run(cfg)
			if err != nil || !tr.Summary.Completed {
				b.Fatalf("%v %+v", err, tr.Summary)
			}
			b.ReportMetric(float64(tr.Summary.Syncs), "syncs")
		}
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
// appsv1.Sync gives (whose writes TestSanitySync compares with upstream's).
func TestSanitySyncModel(t *testing.T) {
	for _, c := range loadCases(t) {
		s := c.Case.State()
		in, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		p, err := plan.Sync(in, appsv1.WithUpstreamHash())
		if err != nil {
			t.Fatal(err)
		}
		viaModel, err := appsv1.ToOutput(s, p)
		if err != nil {
			t.Fatal(err)
		}
		direct, _, err := appsv1.Sync(s)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := plannedWrites(viaModel), plannedWrites(direct); !slices.Equal(a, b) {
			t.Errorf("%s: plan.Sync %q, appsv1.Sync %q", c.ID, a, b)
		}
	}
}

// TestSanitySimulate: the simulated rollout completes with every replica
// on the new template.
func TestSanitySimulate(t *testing.T) {
	tr, err := sim.Run(rollout100k())
	if err != nil || !tr.Summary.Completed {
		t.Fatalf("%v %+v", err, tr.Summary)
	}
}
