package replay

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/plan/restart"
)

// BenchmarkReplayRecordedScripts replays the 100 generated scripts and the
// hand-made scenarios once per iteration.
func BenchmarkReplayRecordedScripts(b *testing.B) {
	recs := loadRecorded(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, rec := range recs {
			if _, err := Run(rec.script, Options{Planner: restart.Options{OriginalReferences: true}}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
