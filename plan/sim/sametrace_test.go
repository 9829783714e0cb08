package sim

import (
	"encoding/json"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/plan/inmemory"
)

// traceJSON runs cfg, with tweak (if not nil) adjusting the runner before
// the run, and returns the trace as JSON: two ways of running a Config
// that must not differ are compared by it byte for byte.
func traceJSON(t interface{ Fatal(...any) }, cfg Config, tweak func(*runner)) []byte {
	r, err := newRunner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tweak != nil {
		tweak(r)
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

// drawConditions draws onto cfg an apply mode, faults (plans cut short,
// writes lost, stale ReplicaSet status), a world of slow and failing pods
// and a script of user actions on cfg.Deployment: the conditions under
// which two ways of running must still give the same trace.
func drawConditions(t *rapid.T, cfg *Config) {
	cfg.Apply = rapid.SampledFrom([]inmemory.ApplyMode{inmemory.ApplyAccepted, inmemory.ApplyAll, inmemory.ApplyCoalesced}).Draw(t, "apply")
	cfg.Faults = Faults{
		PrefixRate:      rapid.Float64Range(0, 0.3).Draw(t, "prefix"),
		DropRate:        rapid.Float64Range(0, 0.2).Draw(t, "drop"),
		StaleStatusRate: rapid.Float64Range(0, 0.3).Draw(t, "stale"),
	}
	cfg.World = World{
		ReadyAfter:       time.Duration(rapid.IntRange(0, 10).Draw(t, "readyAfter")) * time.Second,
		TerminationGrace: time.Duration(rapid.IntRange(0, 20).Draw(t, "grace")) * time.Second,
		FailureRate:      rapid.SampledFrom([]float64{0, 0.05}).Draw(t, "failureRate"),
		Seed:             rapid.Uint64().Draw(t, "seed"),
	}
	cfg.Script = scriptGen(cfg.Deployment).Draw(t, "script")
}
