package appsv1_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
)

// sameMap reports whether a and b are the same map (not only equal ones).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// TestOutputSharesThePlanMaps: as Action documents, the maps the plan
// sets are the plan's own in the Output: a created ReplicaSet's labels,
// annotations, selector labels and template maps, and a Deployment's
// annotations when they differ from those read; and deriving the Output
// changes nothing of the Plan. On every public case and scenario step,
// through Sync and ToOutput.
func TestOutputSharesThePlanMaps(t *testing.T) {
	creates, changed := 0, 0
	for i, c := range allCases(t) {
		s := c.State()
		out, p, err := appsv1.Sync(s)
		if err != nil {
			t.Fatal(err)
		}
		before, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		viaToOutput, err := appsv1.ToOutput(s, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []appsv1.Output{out, viaToOutput} {
			for j, w := range o.Actions {
				a := p.Actions[j]
				switch obj := w.Object.(type) {
				case *apps.ReplicaSet:
					if a.Kind != plan.CreateReplicaSet {
						continue
					}
					creates++
					m := a.ReplicaSet
					if !sameMap(obj.Labels, m.Labels) || !sameMap(obj.Annotations, m.Annotations) ||
						!sameMap(obj.Spec.Selector.MatchLabels, m.Spec.Selector.MatchLabels) ||
						!sameMap(obj.Spec.Template.Labels, m.Spec.Template.Labels) ||
						!sameMap(obj.Spec.Template.Annotations, m.Spec.Template.Annotations) {
						t.Fatalf("case %d action %d: a created ReplicaSet does not share the plan's maps", i, j)
					}
				case *apps.Deployment:
					if reflect.DeepEqual(a.Deployment.Annotations, s.Deployment.Annotations) {
						if !sameMap(obj.Annotations, s.Deployment.Annotations) {
							t.Fatalf("case %d action %d: unchanged annotations are not those read", i, j)
						}
						continue
					}
					changed++
					if !sameMap(obj.Annotations, a.Deployment.Annotations) {
						t.Fatalf("case %d action %d: changed annotations are not the plan's", i, j)
					}
				}
			}
		}
		after, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(before) != string(after) {
			t.Fatalf("case %d: deriving the Output changed the Plan", i)
		}
	}
	if creates == 0 || changed == 0 {
		t.Fatalf("%d creates and %d changed annotations checked, want some of both", creates, changed)
	}

	// A template no object of the State holds is decoded from its Spec,
	// with the plan's maps too.
	tmpl := model.PodTemplate{Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"a": "1"}, Spec: `{"spec":{"containers":[{"name":"web","image":"web:9"}]}}`}
	rs := &model.ReplicaSet{ObjectMeta: model.ObjectMeta{Name: "web-9", Namespace: "default"}, Spec: model.ReplicaSetSpec{Template: tmpl}}
	out, err := appsv1.ToOutput(appsv1.State{}, plan.Plan{Actions: []plan.Action{{Kind: plan.CreateReplicaSet, Namespace: "default", Name: "web-9", ReplicaSet: rs}}})
	if err != nil {
		t.Fatal(err)
	}
	got := out.Actions[0].Object.(*apps.ReplicaSet).Spec.Template
	if got.Spec.Containers[0].Image != "web:9" || !sameMap(got.Labels, tmpl.Labels) || !sameMap(got.Annotations, tmpl.Annotations) {
		t.Errorf("a decoded template: image %q, maps shared %v %v", got.Spec.Containers[0].Image, sameMap(got.Labels, tmpl.Labels), sameMap(got.Annotations, tmpl.Annotations))
	}
}

// TestOutputOwnsWhatItAllocates: what Action documents as newly allocated
// (replica counts, changed conditions, status counts, a created
// ReplicaSet's metadata, owner references and their flags, and selector)
// belongs to one write alone: changing it in one Syncer's Output changes
// neither the State, nor the Plan, nor the Output of the next sync of the
// same State (which shares the Syncer's memory), nor the other writes of
// the same Output. On every public case and scenario step.
func TestOutputOwnsWhatItAllocates(t *testing.T) {
	mutated := 0
	for gi, g := range caseGroups(t) {
		c := appsv1.NewSyncer()
		for i, cs := range g {
			id := fmt.Sprintf("group %d case %d", gi, i)
			s, want := twice(t, cs)
			if _, _, err := c.Sync(s); err != nil { // converted: the next ones are warm
				t.Fatal(err)
			}
			out, p, err := c.Sync(s)
			if err != nil {
				t.Fatal(err)
			}
			planBefore, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			wantNext, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			// Each write, changed in turn: the writes derived before it
			// and after it must stay as derived.
			for j := range out.Actions {
				others, err := json.Marshal(without(out.Actions, j))
				if err != nil {
					t.Fatal(err)
				}
				if mutateOwned(out.Actions[j], s) {
					mutated++
				}
				if got, _ := json.Marshal(without(out.Actions, j)); string(got) != string(others) {
					t.Fatalf("%s: changing write %d changed other writes", id, j)
				}
			}
			if !reflect.DeepEqual(want, s) {
				t.Fatalf("%s: changing the Output changed the State", id)
			}
			if got, _ := json.Marshal(p); string(got) != string(planBefore) {
				t.Fatalf("%s: changing the Output changed the Plan", id)
			}
			next, _, err := c.Sync(s)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := json.Marshal(next); string(got) != string(wantNext) {
				t.Fatalf("%s: changing an Output changed the next one:\n%s\n%s", id, got, wantNext)
			}
		}
	}
	if mutated == 0 {
		t.Fatal("no write changed")
	}
}

// without is the actions but the j-th.
func without(actions []appsv1.Action, j int) []appsv1.Action {
	return append(actions[:j:j], actions[j+1:]...)
}

// mutateOwned changes, in place, what Action documents as newly allocated
// in w (s is the State it derives from). It reports whether it changed
// anything.
func mutateOwned(w appsv1.Action, s appsv1.State) bool {
	switch obj := w.Object.(type) {
	case *apps.ReplicaSet:
		if obj.Spec.Replicas != nil {
			*obj.Spec.Replicas = -7
		}
		if w.Verb != appsv1.VerbCreate {
			return true
		}
		obj.Name, obj.Namespace, obj.Generation = "changed", "changed", -7
		for k := range obj.OwnerReferences {
			r := &obj.OwnerReferences[k]
			r.Name, r.UID = "changed", "changed"
			if r.Controller != nil {
				*r.Controller = false
			}
			if r.BlockOwnerDeletion != nil {
				*r.BlockOwnerDeletion = false
			}
		}
		if sel := obj.Spec.Selector; sel != nil {
			sel.MatchLabels = nil
			for k := range sel.MatchExpressions {
				sel.MatchExpressions[k].Key = "changed"
			}
		}
		return true
	case *apps.Deployment:
		st := &obj.Status
		st.Replicas, st.ObservedGeneration = -7, -7
		if st.TerminatingReplicas != nil {
			*st.TerminatingReplicas = -7
		}
		if st.CollisionCount != nil {
			*st.CollisionCount = -7
		}
		read := s.Deployment.Status.Conditions
		if len(st.Conditions) > 0 && (len(read) == 0 || &st.Conditions[0] != &read[0]) {
			for k := range st.Conditions {
				st.Conditions[k].Reason, st.Conditions[k].Message = "changed", "changed"
			}
		}
		return true
	}
	return false
}
