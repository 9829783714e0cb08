package sim

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// The summary counts each pod once. Before, it added status.replicas (which
// in the sync that deletes pods still counts them) to the terminating pods:
// the nginx Recreate story reported a peak of 6 pods for 3 replicas and the
// RollingUpdate story 5 where at most 4 pods (3 replicas + maxSurge 1)
// existed.
func TestPeakPodsCountsEachPodOnce(t *testing.T) {
	for _, tc := range []struct {
		name     string
		strategy model.StrategyType
		grace    time.Duration
		peak     int32
	}{
		// Recreate stops the 3 old pods before creating 3 new ones.
		{"Recreate", model.RecreateStrategy, 0, 3},
		{"Recreate with a 30s grace period", model.RecreateStrategy, 30 * time.Second, 3},
		// 3 replicas + maxSurge 1 (25% of 3 rounded up).
		{"RollingUpdate", model.RollingUpdateStrategy, 0, 4},
	} {
		for _, fid := range fidelities() {
			t.Run(tc.name+"/"+fid.String(), func(t *testing.T) {
				tr := mustRun(t, Config{
					Deployment: deployment(3, tc.strategy, "25%", "25%"),
					Script:     []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx:1.16.1")}}},
					World:      World{TerminationGrace: tc.grace},
					Fidelity:   fid, Check: true,
				})
				if got := tr.Summary.PeakPods; got != tc.peak {
					t.Errorf("peak pods %d, want %d", got, tc.peak)
				}
			})
		}
	}
}

// At every sync of a rollout the counts add up (pods = active +
// terminating, the ReplicaSets' counts sum to the Deployment's), active
// pods never exceed replicas + maxSurge, and under Recreate no new pod exists
// while an old one (terminating or not) does.
func TestAccountingProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := gen.Deployment(25).Draw(t, "deployment")
		d.Spec.Paused = false
		d.Spec.ProgressDeadlineSeconds = model.Int32Ptr(model.NoLimit)
		fid := rapid.SampledFrom([]Fidelity{Counts, Pods}).Draw(t, "fidelity")
		tr, err := Run(Config{
			Deployment: d, Fidelity: fid, Check: true,
			World: World{
				ReadyAfter:       time.Duration(rapid.IntRange(0, 10).Draw(t, "readyAfter")) * time.Second,
				TerminationGrace: time.Duration(rapid.IntRange(0, 20).Draw(t, "grace")) * time.Second,
			},
			Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: d.Spec.Template.Spec + "-next"}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		replicas := d.DesiredReplicas()
		surge := int32(0)
		if ru := d.Spec.Strategy.RollingUpdate; d.Spec.Strategy.Type == model.RollingUpdateStrategy {
			surge, _, _ = proportion.ResolveFenceposts(ru.MaxSurge, ru.MaxUnavailable, replicas)
		}
		var peak int32
		for _, s := range tr.Steps {
			c := s.Pods
			peak = max(peak, c.Pods)
			var active, ready, available, terminating, newPods, oldPods int32
			for _, rs := range s.Sets {
				active += rs.Active
				ready += rs.Ready
				available += rs.Available
				terminating += rs.Terminating
				if rs.New {
					newPods += rs.Active + rs.Terminating
				} else {
					oldPods += rs.Active + rs.Terminating
				}
			}
			if c.Pods != c.Active+c.Terminating || active != c.Active || ready != c.Ready || available != c.Available || terminating > c.Terminating {
				t.Fatalf("sync %d: counts do not add up: %+v vs ReplicaSets %+v", s.Sync, c, s.Sets)
			}
			if c.Available > c.Ready || c.Ready > c.Active {
				t.Fatalf("sync %d: available ≤ ready ≤ active broken: %+v", s.Sync, c)
			}
			if c.Active > replicas+surge {
				t.Fatalf("sync %d: %d active pods > replicas %d + maxSurge %d", s.Sync, c.Active, replicas, surge)
			}
			if d.Spec.Strategy.Type == model.RecreateStrategy && newPods > 0 && oldPods > 0 && s.Sync > 0 {
				t.Fatalf("sync %d: Recreate with %d new and %d old pods at once: %+v", s.Sync, newPods, oldPods, s.Sets)
			}
		}
		if peak != tr.Summary.PeakPods && tr.Summary.From == 0 {
			t.Fatalf("summary peak %d, steps peak %d", tr.Summary.PeakPods, peak)
		}
	})
}
