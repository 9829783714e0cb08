package replicaset

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/internal/cputime"
	"github.com/rolloutplan/rolloutplan/model"
)

// benchPods builds n pods of rs spread over 50 nodes, with a mix of states
// that exercises every ranking rule: some unscheduled or pending, some not
// ready, ready times and creation times over several buckets (many equal),
// restarts and deletion costs.
func benchPods(rs *model.ReplicaSet, n int) []*model.Pod {
	pods := make([]*model.Pod, n)
	for i := range pods {
		p := mkPod(fmt.Sprintf("web-%05d", i), uid(fmt.Sprintf("%08x", uint32(i)*2654435761)), ownedBy(rs),
			created(t0.Add(-time.Duration(i%97)*time.Hour)))
		switch {
		case i%53 == 0:
			// unscheduled
		case i%31 == 0:
			runningNotReady(fmt.Sprintf("node-%02d", i%50))(p)
		default:
			running(fmt.Sprintf("node-%02d", i%50), t0.Add(-time.Duration(i%89)*time.Minute))(p)
		}
		if i%7 == 0 {
			restarts(int32(i % 5))(p)
		}
		if i%11 == 0 {
			cost(fmt.Sprint(i%3 - 1))(p)
		}
		pods[i] = p
	}
	return pods
}

func BenchmarkSyncScaleDown(b *testing.B) {
	for _, bc := range []struct {
		name       string
		pods, keep int
	}{
		{"10of1000", 1000, 990},
		// 1000 surplus pods, but one sync deletes at most BurstReplicas (500).
		{"1000of10000_burst500", 10000, 9000},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rs := mkRS("web", int32(bc.keep))
			pods := benchPods(rs, bc.pods)
			b.ReportAllocs()
			for b.Loop() {
				p, err := Sync(rs, pods, nil, t0)
				if err != nil || p.Count(DeletePod) != min(bc.pods-bc.keep, BurstReplicas) {
					b.Fatalf("err %v, %d deletes", err, p.Count(DeletePod))
				}
			}
		})
	}
}

func BenchmarkSyncScaleUp500(b *testing.B) {
	rs := mkRS("web", 1000)
	pods := benchPods(rs, 500)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Sync(rs, pods, nil, t0)
		if err != nil || p.Count(CreatePod) != 500 {
			b.Fatalf("err %v, %d creates", err, p.Count(CreatePod))
		}
	}
}

// BenchmarkDeletionOrder is the ranking sort alone over 10,000 pods.
func BenchmarkDeletionOrder(b *testing.B) {
	rs := mkRS("web", 0)
	pods := benchPods(rs, 10000)
	b.ReportAllocs()
	for b.Loop() {
		if got := DeletionOrder(pods, pods, t0); len(got) != len(pods) {
			b.Fatal(len(got))
		}
	}
}

// BenchmarkDeletionOrderScaling reports the ranking cost per pod at growing
// sizes; ns/op divided by n log n should stay roughly flat.
func BenchmarkDeletionOrderScaling(b *testing.B) {
	rs := mkRS("web", 0)
	for _, n := range []int{1000, 10000, 100000} {
		pods := benchPods(rs, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				DeletionOrder(pods, pods, t0)
			}
		})
	}
}

// BenchmarkSyncScaling is the scaling curve of Sync over P pods of one
// ReplicaSet (benchPods: every ranking rule exercised): "steady" has as
// many pods as replicas (claim, validation and status only), "delete" a
// surplus of max(P/10, min(P/2, 500)) pods, so one sync ranks all P pods
// and deletes min(surplus, 500). ns/pod should stay flat (plus a log P for
// the ranking).
func BenchmarkSyncScaling(b *testing.B) {
	for _, n := range []int{100, 1_000, 10_000, 100_000, 1_000_000} {
		rs := mkRS("web", 0)
		pods := benchPods(rs, n)
		for _, bc := range []struct {
			name    string
			keep    int
			deletes int
		}{
			{"steady", n, 0},
			{"delete", n - max(n/10, min(n/2, BurstReplicas)), min(max(n/10, min(n/2, BurstReplicas)), BurstReplicas)},
		} {
			rs := mkRS("web", int32(bc.keep))
			b.Run(fmt.Sprintf("%s/pods=%d", bc.name, n), func(b *testing.B) {
				b.ReportAllocs()
				cpu := cputime.Process()
				for b.Loop() {
					p, err := Sync(rs, pods, nil, t0)
					if err != nil || p.Count(DeletePod) != bc.deletes {
						b.Fatalf("err %v, %d deletes, want %d", err, p.Count(DeletePod), bc.deletes)
					}
				}
				cpu = cputime.Process() - cpu
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/pod")
				// CPU time (both cores, GC included): steadier than the
				// wall clock on a shared machine.
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/pod")
			})
		}
	}
}
