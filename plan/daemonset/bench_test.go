package daemonset_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// rollingPool is a DaemonSet in the middle of a rolling update over n
// nodes, the steady state of a large pool: the template changed (revision
// 2 of 2), the first 40% of the nodes run a ready pod of the new template
// and the others a ready pod of the old one, every pod available; with
// maxUnavailable 10% one sync deletes the old pods of 10% of the nodes
// (n/10 DeletePod actions, at most upstream's burst of 250 per sync) and
// writes the status.
func rollingPool(n int) daemonset.State {
	old := fluentd()
	ds := fluentd(newTemplate, withStrategy(model.FromString("10%"), model.FromInt(0)))
	oldHash, newHash := hashOf(old), hashOf(ds)
	s := daemonset.State{DaemonSet: ds, Now: t0,
		ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1), revisionOf(ds, 2)}}
	for i := range n {
		name := fmt.Sprintf("node-%05d", i)
		s.Nodes = append(s.Nodes, node(name))
		h := oldHash
		if i < n*4/10 {
			h = newHash
		}
		s.Pods = append(s.Pods, daemonPod(fmt.Sprintf("%s-%05d", dsName, i), name, h))
	}
	return s
}

// BenchmarkSyncNodes: one sync of rollingPool over 10, 100, 1 000 and
// 5 000 nodes, reported per node as well (ns/node): the cost is linear in
// the pool when ns/node stays flat. examples/bench checks the growth
// (TestSanityDaemonSetLinear) with generous bounds; timing has no place
// among this module's tests.
func BenchmarkSyncNodes(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 5000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			s := rollingPool(n)
			p, err := daemonset.Sync(s)
			if err != nil {
				b.Fatal(err)
			}
			if got, want := p.Count(daemonset.DeletePod), min(n/10, 250); got != want {
				b.Fatalf("the sync deletes %d old pods, want %d", got, want)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := daemonset.Sync(s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/node")
		})
	}
}

// TestRollingPool: the benchmark's state plans what its comment says, at
// every size: n/10 old pods deleted (none created), 40% of the nodes
// updated, every node eligible.
func TestRollingPool(t *testing.T) {
	for _, n := range []int{10, 100, 1000} {
		p, err := daemonset.Sync(rollingPool(n))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Count(daemonset.DeletePod); got != n/10 {
			t.Errorf("%d nodes: %d pods deleted, want %d", n, got, n/10)
		}
		if got := p.Count(daemonset.CreatePod); got != 0 {
			t.Errorf("%d nodes: %d pods created, want none", n, got)
		}
		if p.Status == nil || p.Status.UpdatedNumberScheduled != int32(n*4/10) || p.Status.DesiredNumberScheduled != int32(n) {
			t.Errorf("%d nodes: status %+v, want %d updated of %d desired", n, p.Status, n*4/10, n)
		}
	}
}
