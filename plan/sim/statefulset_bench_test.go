package sim

import (
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// benchStatefulSet simulates cfg to completion per iteration and reports the
// number of syncs it took.
func benchStatefulSet(b *testing.B, cfg StatefulSetConfig) {
	b.ReportAllocs()
	for b.Loop() {
		tr, err := RunStatefulSet(cfg)
		if err != nil || !tr.Summary.Completed {
			b.Fatalf("%v %+v", err, tr.Summary)
		}
		b.ReportMetric(float64(tr.Summary.Syncs), "syncs")
	}
}

// The seed's "web" set with 100 OrderedReady replicas and a claim template
// is created pod by pod, then rolled pod by pod: about 500 syncs over a
// namespace of 100 pods and claims.
func BenchmarkStatefulSetRollout100(b *testing.B) {
	benchStatefulSet(b, StatefulSetConfig{StatefulSet: stsSet(100, www), Record: RecordSummary,
		World:  World{ReadyAfter: 5 * time.Second, TerminationGrace: 10 * time.Second},
		Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}}}})
}

// 1 000 Parallel replicas with the MaxUnavailableStatefulSet gate on and
// maxUnavailable 10%: created at once, rolled 100 at a time; the trace
// keeps every step.
func BenchmarkStatefulSetParallel1k(b *testing.B) {
	set := stsSet(1000, parallelSet)
	set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromString("10%"))
	benchStatefulSet(b, StatefulSetConfig{StatefulSet: set, MaxUnavailable: true,
		World:  World{ReadyAfter: 5 * time.Second, TerminationGrace: 10 * time.Second},
		Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}}}})
}
