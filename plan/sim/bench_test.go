package sim

import (
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// A 100 000-replica rollout with maxSurge 1 and maxUnavailable 0 at count
// fidelity: about 200 000 syncs of two ReplicaSets each.
func BenchmarkRollout100kCounts(b *testing.B) {
	d := deployment(100_000, model.RollingUpdateStrategy, "1", "0")
	cfg := Config{Deployment: d, Script: []Event{setImage(2, "nginx:1.16.1")}, Record: RecordSummary}
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Run(cfg)
		if err != nil || !tr.Summary.Completed {
			b.Fatalf("%v %+v", err, tr.Summary)
		}
		b.ReportMetric(float64(tr.Summary.Syncs), "syncs")
	}
}

// A 1 000-replica 25%/25% rollout at pod fidelity, pods ready after 5 s.
func BenchmarkRollout1kPods(b *testing.B) {
	d := deployment(1000, model.RollingUpdateStrategy, "25%", "25%")
	cfg := Config{
		Deployment: d, Fidelity: Pods, Record: RecordSummary,
		World:  World{ReadyAfter: 5 * time.Second, TerminationGrace: 10 * time.Second},
		Script: []Event{setImage(2, "nginx:1.16.1")},
	}
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Run(cfg)
		if err != nil || !tr.Summary.Completed {
			b.Fatalf("%v %+v", err, tr.Summary)
		}
		b.ReportMetric(float64(tr.Summary.Syncs), "syncs")
	}
}

// A 5 000-replica version of BenchmarkRollout100kCounts, small enough for
// instruction counting under callgrind.
func BenchmarkRollout5kCounts(b *testing.B) {
	d := deployment(5_000, model.RollingUpdateStrategy, "1", "0")
	cfg := Config{Deployment: d, Script: []Event{setImage(2, "nginx:1.16.1")}, Record: RecordSummary}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(cfg); err != nil {
			b.Fatal(err)
		}
	}
}
