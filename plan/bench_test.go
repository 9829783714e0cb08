package plan_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// rollingBenchState is a rolling update of 10 replicas (surge 3, unavailable
// 2) with n ReplicaSets: n−2 idle old ones (revisions 1..n−2), one old one
// with 5 pods and the new one with 8 pods of which 6 are available. The sync
// scales the old one down by 3 and writes the status.
func rollingBenchState(n int) plan.State {
	d := newDeployment("web", 10, "new", generation(2), revisionAnn(n),
		withStatus(depStatus(1, 13, 8, 11, 11, 2, availableCond(true, at(-time.Hour)),
			progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-new" is progressing.`, at(-time.Minute), at(-time.Hour)))))
	rss := make([]*model.ReplicaSet, 0, n)
	for i := 1; i <= n-2; i++ {
		rss = append(rss, newRS(d, "old"+strconv.Itoa(i), i, 0, at(time.Duration(i-n-10)*time.Minute)))
	}
	rss = append(rss,
		newRS(d, "active", n-1, 5, at(-5*time.Minute)),
		rsStatus(newRS(d, "new", n, 8, at(-time.Minute)), 8, 6, 6))
	return plan.State{Deployment: d, ReplicaSets: rss, Now: t0}
}

func BenchmarkRollingSync(b *testing.B) {
	for _, n := range []int{3, 10, 100, 1000} {
		b.Run(strconv.Itoa(n)+"RS", func(b *testing.B) { benchRollingSync(b, n) })
	}
}

// benchRollingSync is one plan.Sync per op of rollingBenchState(n), after
// checking that the fixture plans its two writes.
func benchRollingSync(b *testing.B, n int) {
	s := rollingBenchState(n)
	if p, err := plan.Sync(s); err != nil || len(p.Actions) != 2 {
		b.Fatalf("fixture: %v, %d actions", err, len(p.Actions))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := plan.Sync(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProportionalScale: a scaling event 30 → 45 replicas (25% surge:
// 8 → 12) spread over 10 active ReplicaSets.
func BenchmarkProportionalScale(b *testing.B) {
	d := newDeployment("web", 45, "v9", revisionAnn(10), generation(3),
		withStatus(depStatus(2, 38, 4, 38, 38, 0,
			progressingCond(model.ConditionTrue, model.ReasonReplicaSetUpdated, `ReplicaSet "web-v9" is progressing.`, at(-time.Minute), at(-time.Hour)))))
	sizes := []int32{2, 3, 4, 5, 6, 2, 3, 4, 5, 4}
	var rss []*model.ReplicaSet
	for i, sz := range sizes {
		rss = append(rss, replicasAnn(newRS(d, "v"+strconv.Itoa(i), i+1, sz, at(time.Duration(i-20)*time.Minute)), 30, 38))
	}
	s := plan.State{Deployment: d, ReplicaSets: rss, Now: t0}
	if p, err := plan.Sync(s); err != nil || len(p.Actions) != 11 {
		b.Fatalf("fixture: %v, %d actions", err, len(p.Actions))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := plan.Sync(s); err != nil {
			b.Fatal(err)
		}
	}
}
