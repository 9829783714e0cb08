package plan_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// BenchmarkCreateManyAnnotations is a sync that creates the new
// ReplicaSet of a Deployment with 2 or 12 annotations of its own (a
// Helm- or Argo-managed one has several): the created ReplicaSet's
// annotations are those plus three.
func BenchmarkCreateManyAnnotations(b *testing.B) {
	for _, n := range []int{2, 12} {
		d := newDeployment("web", 3, "v1", func(d *model.Deployment) {
			d.Spec.Template.Labels["tier"] = "front"
			d.Spec.Template.Annotations = map[string]string{"team": "a"}
			d.Spec.Selector.MatchExpressions = []model.LabelSelectorRequirement{{Key: "tier", Operator: model.SelectorOpIn, Values: []string{"front", "back"}}}
		})
		d.Annotations = map[string]string{}
		for i := range n {
			d.Annotations[fmt.Sprintf("example.com/a%d", i)] = "v"
		}
		s := plan.State{Deployment: d, Now: t0}
		b.Run(fmt.Sprintf("annotations=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, err := plan.Sync(s)
				if err != nil || p.Actions[0].Kind != plan.CreateReplicaSet {
					b.Fatal(err, p.Actions)
				}
			}
		})
	}
}
