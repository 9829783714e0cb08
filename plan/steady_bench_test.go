package plan_test

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

// BenchmarkPlannerSteadyState is BenchmarkPlannerConformance over the
// recorded states whose plans write nothing: a controller resyncing
// Deployments that are where they should be, its most common sync.
func BenchmarkPlannerSteadyState(b *testing.B) {
	var steady []plan.State
	for _, s := range readConformanceStates(b) {
		p, err := plan.Sync(s)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Actions) == 0 && len(p.Events) == 0 {
			steady = append(steady, s)
		}
	}
	if len(steady) < 10 {
		b.Fatalf("%d states write nothing", len(steady))
	}
	planner := plan.NewPlanner()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := planner.Sync(steady[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(steady) {
			i = 0
		}
	}
}
