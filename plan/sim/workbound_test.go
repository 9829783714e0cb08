package sim

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
)

// minWork returns the least Config.MaxWork under which cfg runs without
// ErrWorkBound, found by bisection (the work a run does does not depend on
// its bound, so a bound passes exactly when it is at least that work).
func minWork(t *testing.T, cfg Config) int64 {
	t.Helper()
	passes := func(w int64) bool {
		cfg.MaxWork = w
		_, err := Run(cfg)
		if err != nil && !errors.Is(err, ErrWorkBound) {
			t.Fatal(err)
		}
		return err == nil
	}
	hi := int64(1)
	for !passes(hi) {
		hi *= 2
	}
	lo := hi / 2 // fails (or is 0: no bound to test below 1)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if passes(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// Config.MaxWork charges what the trace keeps of each sync: the work of a
// run that records its steps is the work of the same run recording only
// its summary plus stepUnits of every Step, and at Counts fidelity (no pod
// is charged) at least one unit per step for the Deployment, one per
// ReplicaSet it starts with and the step's own. Before, the trace was free: a Counts run
// of the nginx story cost one unit per ReplicaSet and one for the
// Deployment per sync, whatever its trace held (issue 24: 7.8 GB under
// -max-work 3000000).
func TestMaxWorkChargesTheTrace(t *testing.T) {
	for _, fid := range fidelities() {
		t.Run(fid.String(), func(t *testing.T) {
			// The nginx story of the Kubernetes documentation (see
			// TestPeakPodsCountsEachPodOnce), with a grace period so that
			// pods terminate for a while.
			cfg := Config{
				Deployment: deployment(3, model.RollingUpdateStrategy, "25%", "25%"),
				Script:     []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx:1.16.1")}}},
				World:      World{TerminationGrace: 5 * time.Second},
				Fidelity:   fid, Check: true,
			}
			tr := mustRun(t, cfg)
			var kept, floor int64
			for i := range tr.Steps {
				kept += stepUnits(&tr.Steps[i])
				// A sync charges the ReplicaSets it starts with: at
				// least those the step before ended with.
				floor += stepUnits(&tr.Steps[i]) + 1
				if i > 0 {
					floor += int64(len(tr.Steps[i-1].Sets))
				}
			}
			steps := minWork(t, cfg)
			cfg.Record = RecordSummary
			summary := minWork(t, cfg)
			assert.Equal(t, summary+kept, steps, "work with steps = work with the summary only + the steps' units")
			assert.GreaterOrEqual(t, steps, floor)
		})
	}
}

// The worst input of issue 24 at Counts fidelity: 2147483647 replicas
// rolled out one pod a sync (maxSurge 0, maxUnavailable 1). MaxWork stops
// it with a trace of at most MaxWork units; recording only the summary, the
// same bound allows more syncs, as the trace then keeps nothing.
func TestMaxWorkBoundsALongCountsRun(t *testing.T) {
	cfg := Config{
		Deployment: deployment(math.MaxInt32, model.RollingUpdateStrategy, "0", "1"),
		Script:     []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx:1.16.1")}}},
		Check:      true, MaxWork: 20_000,
	}
	_, err := Run(cfg)
	require.ErrorIs(t, err, ErrWorkBound)
	assert.Contains(t, err.Error(), "units of work (objects modelled and kept in the trace)")
	// Each sync charges the Deployment, its ReplicaSet, the Step, the
	// Step's ReplicaSet and the status write: at most 20 000 / 5 syncs.
	cfg.MaxSyncs = 20_000 / 5
	cfg.MaxWork = 0
	tr := mustRun(t, cfg)
	var units int64
	for i := range tr.Steps {
		units += stepUnits(&tr.Steps[i]) + int64(len(tr.Steps[i].Sets)) + 1
	}
	assert.Greater(t, units, int64(20_000), "the bound stops the run within %d syncs", cfg.MaxSyncs)
	cfg.MaxWork = 20_000
	_, err = Run(cfg)
	require.ErrorIs(t, err, ErrWorkBound, "recording steps")
	cfg.Record = RecordSummary
	_, err = Run(cfg)
	require.NoError(t, err, "recording the summary only: two units a sync")
}
