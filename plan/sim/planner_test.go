package sim

import (
	"hash/fnv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
)

// runWith runs cfg with every sync planned by plan.Sync (planner false) or
// by one plan.Planner for the run (planner true) and returns the trace as
// JSON.
func runWith(t interface{ Fatal(...any) }, cfg Config, planner bool) []byte {
	return traceJSON(t, cfg, func(r *runner) {
		if planner {
			r.sync = plan.NewPlanner(cfg.PlanOptions...).Sync
		} else {
			r.sync = func(s plan.State) (plan.Plan, error) { return plan.Sync(s, cfg.PlanOptions...) }
		}
	})
}

// fnvHasher is a pure hasher other than the default, so that the
// Planner's memory of template hashes is exercised with WithHasher too.
func fnvHasher(t model.PodTemplate, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write([]byte(t.Spec))
	if collisionCount != nil {
		h.Write([]byte{byte(*collisionCount)})
	}
	return hash.Encode(h.Sum32())
}

// One plan.Planner for a whole run plans exactly what plan.Sync plans: at
// both fidelities, under faults, failures, scripts (template changes,
// rollbacks, scaling), every apply mode and the planner's options, the
// full JSON trace is the same. The cluster replaces the objects it writes,
// which is what the Planner's memory by pointer requires.
func TestPlannerKeepsTheTrace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := gen.Deployment(12).Draw(t, "deployment")
		d.Spec.Paused = false
		var opts []plan.Option
		if rapid.Bool().Draw(t, "fnv") {
			opts = append(opts, plan.WithHasher(fnvHasher))
		}
		if rapid.Bool().Draw(t, "terminating") {
			opts = append(opts, plan.WithTerminatingReplicas(true))
		}
		if rapid.Bool().Draw(t, "rollbackWithoutCreate") {
			opts = append(opts, plan.RollbackWithoutCreate())
		}
		cfg := Config{
			Deployment: d, MaxSyncs: 300, Check: true, PlanOptions: opts,
			Fidelity: rapid.SampledFrom([]Fidelity{Counts, Pods}).Draw(t, "fidelity"),
		}
		drawConditions(t, &cfg)
		with, without := runWith(t, cfg, true), runWith(t, cfg, false)
		if string(with) != string(without) {
			t.Fatalf("traces differ:\nPlanner   %s\nplan.Sync %s", with, without)
		}
	})
}

// A user's edit reaches the Planner through a Deployment object it has
// planned (and hashed) before when the sync before the edit wrote nothing:
// here every write is lost, so the planner hashes the same Deployment at
// every sync until the template changes. The traces of the Planner and of
// plan.Sync agree at both fidelities; a cluster that edited the Deployment
// in place would hand the Planner a stale hash.
func TestPlannerSeesEditsOfPlannedObjects(t *testing.T) {
	for _, fid := range fidelities() {
		cfg := Config{
			Deployment: deployment(3, model.RollingUpdateStrategy, "1", "0"), Fidelity: fid,
			World: World{ReadyAfter: time.Second}, Faults: Faults{DropRate: 1}, MaxSyncs: 12,
			Script: []Event{
				setImage(3, "nginx:1.16.1"),
				{At: 6 * time.Second, Action: Action{Kind: ScaleTo, Replicas: 5}},
				setImage(9, "nginx:1.17"),
			},
		}
		with, without := runWith(t, cfg, true), runWith(t, cfg, false)
		if string(with) != string(without) {
			t.Fatalf("%s: traces differ:\nPlanner   %s\nplan.Sync %s", fid, with, without)
		}
	}
}
