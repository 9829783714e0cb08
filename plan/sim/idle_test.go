package sim

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
	"pgregory.net/rapid"
)

// runPods runs cfg at Pods fidelity, with the skipping of idle ReplicaSet
// syncs on or off, and returns the trace as JSON.
func runPods(t *rapid.T, cfg Config, skip bool) []byte {
	r, err := newRunner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !skip {
		r.world.(*podWorld).idle = nil
	}
	tr, err := r.run()
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Skipping a ReplicaSet sync whose inputs equal those of its last idle
// sync changes nothing: under faults, failures, scripts and every apply
// mode the full trace (every step, write, event and count) is identical
// with and without the skipping.
func TestIdleSkipKeepsTheTrace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := gen.Deployment(12).Draw(t, "deployment")
		d.Spec.Paused = false
		cfg := Config{
			Deployment: d, Fidelity: Pods, MaxSyncs: 300, Check: true,
			Apply: rapid.SampledFrom([]plantest.ApplyMode{plantest.ApplyAccepted, plantest.ApplyAll, plantest.ApplyCoalesced}).Draw(t, "apply"),
			Faults: Faults{
				PrefixRate:      rapid.Float64Range(0, 0.3).Draw(t, "prefix"),
				DropRate:        rapid.Float64Range(0, 0.2).Draw(t, "drop"),
				StaleStatusRate: rapid.Float64Range(0, 0.3).Draw(t, "stale"),
			},
			World: World{
				ReadyAfter:       time.Duration(rapid.IntRange(0, 10).Draw(t, "readyAfter")) * time.Second,
				TerminationGrace: time.Duration(rapid.IntRange(0, 20).Draw(t, "grace")) * time.Second,
				FailureRate:      rapid.SampledFrom([]float64{0, 0.05}).Draw(t, "failureRate"),
				Seed:             rapid.Uint64().Draw(t, "seed"),
			},
			Script: scriptGen(d).Draw(t, "script"),
		}
		with, without := runPods(t, cfg, true), runPods(t, cfg, false)
		if string(with) != string(without) {
			t.Fatalf("traces differ:\nwith skipping    %s\nwithout skipping %s", with, without)
		}
	})
}
