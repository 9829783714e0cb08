package rollout

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

func BenchmarkStatus(b *testing.B) {
	d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 2})
	b.ReportAllocs()
	for b.Loop() {
		_, _, _ = Status(d, 2)
	}
}

func BenchmarkHistory(b *testing.B) {
	d, rss := nginxHistory()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = History(d, rss)
	}
}

func BenchmarkHistoryRevision(b *testing.B) {
	d, rss := nginxHistory()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = HistoryRevision(d, rss, 2)
	}
}

func BenchmarkUndo(b *testing.B) {
	d, rss := nginxHistory()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Undo(d, rss, 0, nil)
	}
}

func BenchmarkLint(b *testing.B) {
	d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
	d.Spec.Replicas = model.Int32Ptr(100)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Lint(d, LintOptions{})
	}
}
