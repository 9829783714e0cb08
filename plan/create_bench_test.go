package plan_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

// BenchmarkCreateManyAnnotations is a sync that creates the new
// ReplicaSet of a Deployment with 2 or 12 annotations of its own (a
// Helm- or Argo-managed one has several), through Sync and a Planner:
// the created ReplicaSet's annotations are those plus three.
func BenchmarkCreateManyAnnotations(b *testing.B) {
	for _, n := range []int{2, 12} {
		s := createState()
		s.Deployment.Annotations = map[string]string{}
		for i := range n {
			s.Deployment.Annotations[fmt.Sprintf("example.com/a%d", i)] = "v"
		}
		for _, how := range []struct {
			name string
			sync func(plan.State) (plan.Plan, error)
		}{
			{"Sync", func(s plan.State) (plan.Plan, error) { return plan.Sync(s) }},
			{"Planner", plan.NewPlanner().Sync},
		} {
			b.Run(fmt.Sprintf("annotations=%d/%s", n, how.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					p, err := how.sync(s)
					if err != nil || p.Actions[0].Kind != plan.CreateReplicaSet {
						b.Fatal(err, p.Actions)
					}
				}
			})
		}
	}
}
