package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

func image(name string) string { return `{"containers":[{"image":"` + name + `","name":"web"}]}` }

func deployment(replicas int32, strategy model.StrategyType, surge, unavailable string) *model.Deployment {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "nginx", Namespace: "default", UID: "nginx-uid"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(replicas),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: image("nginx:1.14.2")},
			Strategy: model.Strategy{Type: strategy},
		},
	}
	if strategy == model.RollingUpdateStrategy {
		d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{
			MaxSurge:       model.IntOrStringPtr(model.ParseIntOrString(surge)),
			MaxUnavailable: model.IntOrStringPtr(model.ParseIntOrString(unavailable)),
		}
	}
	return d
}

// setImage changes the image at second `at` of the simulation.
func setImage(at int, name string) Event {
	return Event{At: time.Duration(at) * time.Second, Action: Action{Kind: SetTemplateSpec, Spec: image(name)}}
}

// scalingEvents lists the ScalingReplicaSet events after sync `from` as
// "new->N" / "old->N", the notation of the documented examples.
func scalingEvents(t *testing.T, tr *Trace, from int) []string {
	t.Helper()
	var out []string
	for _, s := range tr.Steps {
		if s.Sync < from {
			continue
		}
		newName := ""
		for _, rs := range s.Sets {
			if rs.New {
				newName = rs.Name
			}
		}
		for _, e := range s.Events {
			if e.Reason != model.EventScalingReplicaSet {
				continue
			}
			// "Scaled up replica set NAME from A to B"
			f := strings.Fields(e.Message)
			role := "old"
			if f[4] == newName {
				role = "new"
			}
			out = append(out, role+"->"+f[len(f)-1])
		}
	}
	return out
}

// finalSizes returns the new and old ReplicaSets' spec.replicas at the end.
func finalSizes(tr *Trace) (newSpec, oldSpec int32) {
	last := tr.Steps[len(tr.Steps)-1]
	for _, rs := range last.Sets {
		if rs.New {
			newSpec += rs.Spec
		} else {
			oldSpec += rs.Spec
		}
	}
	return newSpec, oldSpec
}

func mustRun(t *testing.T, cfg Config) *Trace {
	t.Helper()
	tr, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tr.Steps {
		for _, v := range s.Violations {
			if v.Quirk == "" {
				t.Errorf("sync %d: %s", s.Sync, v)
			}
		}
	}
	return tr
}

func fidelities() []Fidelity { return []Fidelity{Counts, Pods} }
