package proportion

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

var (
	sinkInt32 int32
	sinkDist  Distribution
	sinkRS    *model.ReplicaSet
)

func BenchmarkResolveFenceposts(b *testing.B) {
	surge, unav := strv("25%"), strv("25%")
	b.ReportAllocs()
	for b.Loop() {
		s, u, _ := ResolveFenceposts(surge, unav, 10)
		sinkInt32 = s + u
	}
}

func BenchmarkMaxSurge(b *testing.B) {
	d := rolling(10, strv("25%"), strv("25%"))
	b.ReportAllocs()
	for b.Loop() {
		sinkInt32 = MaxSurge(d)
	}
}

func BenchmarkMaxUnavailable(b *testing.B) {
	d := rolling(10, strv("25%"), strv("25%"))
	b.ReportAllocs()
	for b.Loop() {
		sinkInt32 = MaxUnavailable(d)
	}
}

func BenchmarkGetProportion(b *testing.B) {
	d := rolling(120, intv(10), intv(1))
	rs := annotate(replicaSet("rs", 50, minute(0)), 100, 110)
	b.ReportAllocs()
	for b.Loop() {
		sinkInt32 = GetProportion(rs, d, 20, 3, Options{})
	}
}

// benchReplicaSets returns n active ReplicaSets sized under max 10·n, as after
// an undisturbed sizing of a Deployment with 10 replicas each.
func benchReplicaSets(n int) []*model.ReplicaSet {
	rss := make([]*model.ReplicaSet, n)
	for i := range rss {
		rss[i] = annotate(replicaSet(fmt.Sprintf("rs-%04d", i), int32(1+i%19), minute(i%7)), int32(10*n), int32(10*n))
	}
	return rss
}

func BenchmarkDistribute(b *testing.B) {
	for _, n := range []int{10, 1000} {
		rss := benchReplicaSets(n)
		d := rolling(int32(12*n), strv("25%"), strv("25%"))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkDist = Distribute(d, rss, Options{})
			}
		})
	}
}

func BenchmarkFindActiveOrLatest(b *testing.B) {
	rss := benchReplicaSets(1000)
	b.ReportAllocs()
	for b.Loop() {
		sinkRS = FindActiveOrLatest(rss[0], rss[1:])
	}
}
