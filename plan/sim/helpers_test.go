package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

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

// drawWhen draws when the i-th generated action a fires: once the rollout
// is complete, once it settles, or at a time at least the previous timed
// action's (at, in seconds, which it advances).
func drawWhen(t *rapid.T, a Action, i int, at *int) Event {
	ev := Event{Action: a}
	switch rapid.IntRange(0, 5).Draw(t, "trigger") {
	case 0:
		ev.When = WhenComplete
	case 1:
		ev.When = WhenSettled
	default:
		*at += rapid.IntRange(0, 25).Draw(t, fmt.Sprintf("gap-%d", i))
		ev.At = time.Duration(*at) * time.Second
	}
	return ev
}

// drawTag draws the image tag of a generated template change: v1, v2, v3
// or, when allowBroken, "broken" (a template whose pods never become
// Ready, with World.NeverReady set to NeverReadyImage("broken")).
func drawTag(t *rapid.T, allowBroken bool) string {
	images := []string{"v1", "v2", "v3"}
	if allowBroken {
		images = append(images, "broken")
	}
	return rapid.SampledFrom(images).Draw(t, "image")
}
