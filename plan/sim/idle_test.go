package sim

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
	"pgregory.net/rapid"
)

// Skipping a ReplicaSet sync whose inputs equal those of its last idle
// sync changes nothing: under faults, failures, scripts and every apply
// mode the full trace (every step, write, event and count) is identical
// with and without the skipping.
func TestIdleSkipKeepsTheTrace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := gen.Deployment(12).Draw(t, "deployment")
		d.Spec.Paused = false
		cfg := Config{Deployment: d, Fidelity: Pods, MaxSyncs: 300, Check: true}
		drawConditions(t, &cfg)
		with := traceJSON(t, cfg, nil)
		without := traceJSON(t, cfg, func(r *runner) { r.world.(*podWorld).idle = nil })
		if string(with) != string(without) {
			t.Fatalf("traces differ:\nwith skipping    %s\nwithout skipping %s", with, without)
		}
	})
}
