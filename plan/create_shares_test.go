package plan_test

import (
	"maps"
	"reflect"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// sameMap reports whether a and b are one map (not only equal ones).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// createState is a State whose sync creates a ReplicaSet from a template
// with annotations under a selector with a match expression.
func createState() plan.State {
	d := newDeployment("web", 3, "v1", func(d *model.Deployment) {
		d.Spec.Template.Labels["tier"] = "front"
		d.Spec.Template.Annotations = map[string]string{"team": "a"}
		d.Spec.Selector.MatchExpressions = []model.LabelSelectorRequirement{{Key: "tier", Operator: model.SelectorOpIn, Values: []string{"front", "back"}}}
	})
	return plan.State{Deployment: d, Now: at(0)}
}

// TestPlannerCreateSharesUnchangedTemplateParts: the ReplicaSet a
// Planner's plan creates carries the Deployment's template annotations and
// its selector's match expressions unchanged, and shares them with the
// input (a Planner's plans may share what they do not change), while its
// labels, its selector's and template's labels (the hash added) and its
// annotations are maps of its own; the input is left as it was. Sync's
// plan of the same State shares nothing with it.
func TestPlannerCreateSharesUnchangedTemplateParts(t *testing.T) {
	s := createState()
	d := s.Deployment
	tmplAnn, tmplLabels, selLabels := maps.Clone(d.Spec.Template.Annotations), maps.Clone(d.Spec.Template.Labels), maps.Clone(d.Spec.Selector.MatchLabels)
	exprs := d.Spec.Selector.MatchExpressions
	pl, err := plan.NewPlanner().Sync(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.Actions) == 0 || pl.Actions[0].Kind != plan.CreateReplicaSet {
		t.Fatalf("first action %v, want a CreateReplicaSet", pl.Actions)
	}
	rs := pl.Actions[0].ReplicaSet
	if !sameMap(rs.Spec.Template.Annotations, d.Spec.Template.Annotations) {
		t.Error("the created template's annotations are a copy of the input's unchanged map")
	}
	if got := rs.Spec.Selector.MatchExpressions; len(got) != len(exprs) || &got[0] != &exprs[0] {
		t.Error("the created selector's match expressions are a copy of the input's unchanged list")
	}
	for name, m := range map[string]map[string]string{
		"labels": rs.Labels, "template labels": rs.Spec.Template.Labels,
		"selector labels": rs.Spec.Selector.MatchLabels, "annotations": rs.Annotations,
	} {
		for _, in := range []map[string]string{d.Annotations, d.Labels, d.Spec.Template.Labels, d.Spec.Template.Annotations, d.Spec.Selector.MatchLabels} {
			if in != nil && sameMap(in) {
				t.Errorf("the created ReplicaSet's %s are one of the input's maps", name)
			}
		}
		if m[model.PodTemplateHashLabel] == "" && name != "annotations" {
			t.Errorf("the created ReplicaSet's %s lack the hash: %v", name, m)
		}
	}
	if !maps.Equal(d.Spec.Template.Annotations, tmplAnn) || !maps.Equal(d.Spec.Template.Labels, tmplLabels) || !maps.Equal(d.Spec.Selector.MatchLabels, selLabels) {
		t.Error("the input's template or selector changed")
	}
	s2 := createState()
	p2, _ := plan.Sync(s2)
	if shared := sharedMemory(s2, p2); shared != "" {
		t.Errorf("Sync: %s", shared)
	}
	want, wantErr := plan.Sync(createState())
	samePlan(t, "create", want, wantErr, pl, nil)
}
