package appsv1_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// TestComputeHashVectors checks the ComputeHash vectors measured against the real controller
// for k8s.io/api v0.36 (templates not defaulted).
func TestComputeHashVectors(t *testing.T) {
	nginx := core.PodTemplateSpec{}
	nginx.Labels = map[string]string{"app": "nginx"}
	nginx.Spec.Containers = []core.Container{{Name: "nginx", Image: "nginx:1.27"}}
	tests := []struct {
		name string
		t    *core.PodTemplateSpec
		cc   *int32
		want string
	}{
		{"empty template, no collision count", &core.PodTemplateSpec{}, nil, "85748b7f68"},
		{"nil template hashes as the empty one", nil, nil, "85748b7f68"},
		{"collision count 0 already changes the hash", &core.PodTemplateSpec{}, new(int32(0)), "777dfcd544"},
		{"collision count 1, a nine-character hash", &core.PodTemplateSpec{}, new(int32(1)), "b54bc767c"},
		{"nginx template", &nginx, nil, "56fd7b57c8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := appsv1.ComputeHash(tt.t, tt.cc); got != tt.want {
				t.Errorf("ComputeHash = %q, want %q", got, tt.want)
			}
			var m model.PodTemplate
			if tt.t != nil {
				var err error
				if m, err = appsv1.TemplateToModel(tt.t); err != nil {
					t.Fatal(err)
				}
			}
			if got := appsv1.PodTemplateHash(m, tt.cc); got != tt.want {
				t.Errorf("PodTemplateHash of the converted template = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestHashReproducesConformanceNames checks every ReplicaSet the real
// controller created (or tried to create, in the collision cases) in the
// public cases and the scenarios: its name is <deployment>-<hash> (the name cut to fit, upstream getNewReplicaSet (creation)) and its
// pod-template-hash label the hash, where the hash is ours of the case's
// Deployment template with its status.collisionCount, both directly and
// through the model.
func TestHashReproducesConformanceNames(t *testing.T) {
	type example struct {
		id             string
		caseJ, expectJ json.RawMessage
	}
	var all []example
	for _, l := range readSeeds(t) {
		all = append(all, example{l.Meta.ID, l.Case, l.Expect})
	}
	for _, sc := range readScenarios(t) {
		for _, st := range sc.Steps {
			all = append(all, example{fmt.Sprintf("%s/%d", sc.Name, st.Step), st.Case, st.Result})
		}
	}
	var checked, reproduced int
	for _, e := range all {
		var c appsv1.Case
		if err := json.Unmarshal(e.caseJ, &c); err != nil {
			t.Fatal(err)
		}
		var want struct {
			Actions []struct {
				Verb   string           `json:"verb"`
				Name   string           `json:"name"`
				Object *apps.ReplicaSet `json:"object"`
			} `json:"actions"`
		}
		if err := json.Unmarshal(e.expectJ, &want); err != nil {
			t.Fatal(err)
		}
		d := c.Deployment
		m, err := appsv1.DeploymentToModel(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range want.Actions {
			if a.Verb != "create" {
				continue
			}
			checked++
			direct := appsv1.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
			viaModel := appsv1.PodTemplateHash(m.Spec.Template, m.Status.CollisionCount)
			label := a.Object.Labels["pod-template-hash"]
			if direct != label || viaModel != label || a.Name != hash.ReplicaSetName(d.Name, label) {
				t.Errorf("%s: created %s with label %q; ComputeHash %q, PodTemplateHash %q", e.id, a.Name, label, direct, viaModel)
				continue
			}
			reproduced++
		}
	}
	if checked == 0 {
		t.Fatal("no created ReplicaSet in the conformance data")
	}
	t.Logf("%d/%d created ReplicaSet names reproduced", reproduced, checked)
}
