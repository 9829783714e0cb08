package plan_test

import (
	"maps"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// TestPlannerScaleSharesUnchangedAnnotations: a Planner's ReplicaSet
// updates copy the input's annotations only when they change. On every
// conformance state, an UpdateReplicaSet that sends the input ReplicaSet's
// annotations unchanged sends the input's map itself (the plan may share
// what it does not change), and one that changes them sends a map of its
// own; the input keeps its annotations either way.
func TestPlannerScaleSharesUnchangedAnnotations(t *testing.T) {
	p := plan.NewPlanner()
	shared, own := 0, 0
	for i, s := range readConformanceStates(t) {
		before := map[string]map[string]string{}
		inputs := map[string]*model.ReplicaSet{}
		for _, rs := range s.ReplicaSets {
			before[rs.Name], inputs[rs.Name] = maps.Clone(rs.Annotations), rs
		}
		pl, err := p.Sync(s)
		if err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
		for _, a := range pl.Actions {
			in := inputs[a.Name]
			if a.Kind != plan.UpdateReplicaSet || in == nil || in.Annotations == nil {
				continue
			}
			same := sameMap(a.ReplicaSet.Annotations, in.Annotations)
			unchanged := maps.Equal(a.ReplicaSet.Annotations, before[a.Name])
			switch {
			case unchanged && same:
				shared++
			case !unchanged && !same:
				own++
			case unchanged:
				t.Errorf("state %d, %s: unchanged annotations copied", i, a.Name)
			default:
				t.Errorf("state %d, %s: changed annotations written into the input's map", i, a.Name)
			}
		}
		for _, rs := range s.ReplicaSets {
			if !maps.Equal(rs.Annotations, before[rs.Name]) {
				t.Errorf("state %d, %s: input annotations changed", i, rs.Name)
			}
		}
	}
	if shared == 0 || own == 0 {
		t.Fatalf("%d updates share the input's annotations, %d have their own: both must occur", shared, own)
	}
}
