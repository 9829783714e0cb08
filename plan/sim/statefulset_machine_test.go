package sim

import (
	"errors"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// A rapid state machine drives the StatefulSet planner by hand, in any
// interleaving the event-driven simulation would not choose: syncs (their
// writes applied in full, or cut short as by a controller crash), the
// kubelet advancing to a later clock (pods starting, failing, being
// evicted, going), and users scaling, changing the template, partition
// and strategy, deleting pods and undoing. Every sync is checked against
// S1–S4 and S7, and every state for determinism (S6).
func TestStatefulSetStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set, gate := drawStatefulSet(t, 5)
		if rapid.IntRange(0, 3).Draw(t, "onDelete") == 0 {
			onDeleteSet(set)
		}
		r, err := newStatefulSetRunner(StatefulSetConfig{StatefulSet: set, MaxUnavailable: gate, World: World{
			ReadyAfter:       time.Duration(rapid.IntRange(0, 10).Draw(t, "readyAfter")) * time.Second,
			TerminationGrace: time.Duration(rapid.IntRange(0, 10).Draw(t, "grace")) * time.Second,
			FailureRate:      rapid.SampledFrom([]float64{0, 0, 0.1}).Draw(t, "failureRate"),
			NeverReady:       NeverReadyImage("broken"),
			Seed:             rapid.Uint64().Draw(t, "seed"),
		}, EvictionRate: rapid.SampledFrom([]float64{0, 0, 0.1}).Draw(t, "evictionRate")})
		if err != nil {
			t.Fatal(err)
		}
		now := r.cfg.Start
		gates := plantest.StatefulSetGates{MaxUnavailable: gate}
		t.Repeat(map[string]func(*rapid.T){
			"sync": func(t *rapid.T) {
				s := r.ns.state(now)
				p, err := statefulset.Sync(s, r.opts...)
				if err != nil && !errors.As(err, new(*statefulset.SyncError)) {
					t.Fatalf("the planner rejected a reachable state: %v", err)
				}
				for _, v := range plantest.CheckStatefulSet(s, p, gates) {
					if v.Quirk == "" {
						t.Fatalf("%s\nplan: %v", v, p)
					}
				}
				accepted := p.Accepted()
				if rapid.IntRange(0, 4).Draw(t, "crash") == 0 {
					accepted = accepted[:rapid.IntRange(0, len(accepted)).Draw(t, "applied")]
				}
				for _, a := range accepted {
					if err := r.ns.apply(a, now); err != nil {
						t.Fatalf("the namespace refused %s: %v", a, err)
					}
				}
			},
			"time": func(t *rapid.T) {
				now = now.Add(time.Duration(rapid.IntRange(1, 15).Draw(t, "seconds")) * time.Second)
				r.kubelet.advance(&r.ns, now)
			},
			"user": func(t *rapid.T) {
				script, _, _ := stsScript(t, r.ns.set, true)
				for _, ev := range script {
					if err := ev.Action.applyToStatefulSet(&r.ns, now); errors.Is(err, errRefused) {
						t.Skip(err)
					} else if err != nil {
						t.Fatal(err)
					}
				}
			},
			"": func(t *rapid.T) {
				s := r.ns.state(now)
				if err := s.Validate(); err != nil {
					t.Fatalf("an invalid namespace: %v", err)
				}
				for _, v := range plantest.CheckStatefulSetDeterminism(s, r.opts...) {
					t.Fatal(v)
				}
				seen := map[string]bool{}
				for _, p := range r.ns.pods {
					if seen[p.Name] {
						t.Fatalf("two pods named %s", p.Name)
					}
					seen[p.Name] = true
				}
			},
		})
	})
}
