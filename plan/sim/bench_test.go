package sim

import (
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// A 100 000-replica rollout with maxSurge 1 and maxUnavailable 0 at count
// fidelity: about 200 000 syncs of two ReplicaSets each.
func BenchmarkRollout100kCounts(b *testing.B) { benchRollout(b, countsRollout(100_000)) }

// The same rollout with 5 000 replicas, for quick profiles.
func BenchmarkRollout5kCounts(b *testing.B) { benchRollout(b, countsRollout(5_000)) }

// A 1 000-replica 25%/25% rollout at pod fidelity, pods ready after 5 s.
func BenchmarkRollout1kPods(b *testing.B) {
	benchRollout(b, Config{
		Deployment: deployment(1000, model.RollingUpdateStrategy, "25%", "25%"),
		Fidelity:   Pods, Record: RecordSummary,
		World:  World{ReadyAfter: 5 * time.Second, TerminationGrace: 10 * time.Second},
		Script: []Event{setImage(2, "nginx:1.16.1")},
	})
}

func countsRollout(replicas int32) Config {
	return Config{
		Deployment: deployment(replicas, model.RollingUpdateStrategy, "1", "0"),
		Script:     []Event{setImage(2, "nginx:1.16.1")}, Record: RecordSummary,
	}
}

// benchRollout simulates cfg to completion per iteration and reports the
// number of syncs it took.
func benchRollout(b *testing.B, cfg Config) {
	b.ReportAllocs()
	for b.Loop() {
		tr, err := Run(cfg)
		if err != nil || !tr.Summary.Completed {
			b.Fatalf("%v %+v", err, tr.Summary)
		}
		b.ReportMetric(float64(tr.Summary.Syncs), "syncs")
	}
}

// A 20 000-replica 25%/25% rollout at pod fidelity: the cost per sync must
// stay linear in the number of pods.
func BenchmarkRollout20kPods(b *testing.B) {
	benchRollout(b, Config{
		Deployment: deployment(20_000, model.RollingUpdateStrategy, "25%", "25%"),
		Fidelity:   Pods, Record: RecordSummary,
		Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx:1.16.1")}}},
	})
}
