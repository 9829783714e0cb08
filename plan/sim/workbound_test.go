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
	return leastWork(t, func(w int64) error {
		cfg.MaxWork = w
		_, err := Run(cfg)
		return err
	})
}

// leastWork returns the least work bound under which run (a simulation
// with that bound) passes, by bisection; run failing other than with
// ErrWorkBound fails the test.
func leastWork(t *testing.T, run func(maxWork int64) error) int64 {
	t.Helper()
	passes := func(w int64) bool {
		err := run(w)
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

// The StatefulSet and DaemonSet simulators charge their work as a
// Deployment's does (issue 24: they had no work bound): the work of a run
// that records its steps is the work of the same run recording only its
// summary plus the units of every step, and every sync costs at least one
// unit for the set besides its step.
func TestSetMaxWorkChargesTheTrace(t *testing.T) {
	t.Run("StatefulSet", func(t *testing.T) {
		// Seed 004's web set updated once complete, with a grace period
		// so that pods terminate for a while.
		cfg := StatefulSetConfig{StatefulSet: stsSet(3),
			Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}}},
			World:  World{TerminationGrace: 5 * time.Second}}
		tr := mustRunSTS(t, cfg)
		var kept int64
		for i := range tr.Steps {
			kept += tr.Steps[i].units()
		}
		run := func(w int64) error { cfg.MaxWork = w; _, err := RunStatefulSet(cfg); return err }
		steps := leastWork(t, run)
		cfg.Record = RecordSummary
		summary := leastWork(t, run)
		assert.Equal(t, summary+kept, steps, "work with steps = work with the summary only + the steps' units")
		assert.GreaterOrEqual(t, summary, int64(len(tr.Steps)), "one unit a sync for the set at least")
	})
	t.Run("DaemonSet", func(t *testing.T) {
		// Three nodes, one tainted so that the trace keeps an ineligible
		// node, and an image update once complete.
		nodes := pool(3)
		nodes[2].Spec.Taints = []model.Taint{{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}}
		cfg := DaemonSetConfig{DaemonSet: dsSet(rolling("1", "0")), Nodes: nodes, Script: []Event{updateTo("fluentd:v2")},
			World: World{TerminationGrace: 5 * time.Second}}
		tr := mustRunDS(t, cfg)
		var kept int64
		for i := range tr.Steps {
			var prev *DaemonSetStep
			if i > 0 {
				prev = &tr.Steps[i-1]
			}
			kept += tr.Steps[i].units(prev)
		}
		run := func(w int64) error { cfg.MaxWork = w; _, err := RunDaemonSet(cfg); return err }
		steps := leastWork(t, run)
		cfg.Record = RecordSummary
		summary := leastWork(t, run)
		assert.Equal(t, summary+kept, steps, "work with steps = work with the summary only + the steps' units")
		assert.GreaterOrEqual(t, summary, int64(len(tr.Steps))*4, "one unit a sync for the DaemonSet and one per node at least")
	})
}

// The sets' worst case: one pod evicted every sync, so that a run goes on
// for ever over almost no objects and its trace grows a step a sync.
// MaxWork stops it with the error Run gives, after at most MaxWork units;
// without steps the same bound allows more syncs.
func TestSetMaxWorkBoundsAnEndlessRun(t *testing.T) {
	const bound = 20_000
	sts := StatefulSetConfig{StatefulSet: stsSet(1), EvictionRate: 1, MaxSyncs: 1 << 30, MaxWork: bound}
	_, err := RunStatefulSet(sts)
	require.ErrorIs(t, err, ErrWorkBound)
	assert.Contains(t, err.Error(), "units of work (objects modelled and kept in the trace)")
	assert.Contains(t, err.Error(), "bound 20000")
	ds := DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(1), EvictionRate: 1, MaxSyncs: 1 << 30, MaxWork: bound}
	_, err = RunDaemonSet(ds)
	require.ErrorIs(t, err, ErrWorkBound)
	assert.Contains(t, err.Error(), "bound 20000")

	// Within bound/24 syncs, the steps the run keeps are what the bound
	// stops: recording only the summary, the same syncs fit it (a sync
	// costs 23 units at most: the set, its pod and its revision, and the
	// pod and revision it may create, ten each).
	sts.MaxSyncs = bound / 24
	_, err = RunStatefulSet(sts)
	require.ErrorIs(t, err, ErrWorkBound, "recording steps")
	sts.Record = RecordSummary
	_, err = RunStatefulSet(sts)
	require.NoError(t, err, "recording the summary only: the set, its pod, its revision and the creates to come a sync")
}

// A Parallel StatefulSet creates every missing replica in one sync (as
// upstream's controller does, without a burst limit), so the pods a sync
// may create are charged before it is planned, ten units each (createUnits):
// a set of 2 000 replicas under a bound of 10 000 stops before its first
// sync creates a pod.
// Before, the first sync created them all and the bound was checked only
// after it (2147483647 replicas: 23 GB before the process was killed).
func TestSetMaxWorkChargesTheCreatesToCome(t *testing.T) {
	set := stsSet(2_000, parallelSet)
	_, err := RunStatefulSet(StatefulSetConfig{StatefulSet: set, MaxWork: 10_000})
	require.ErrorIs(t, err, ErrWorkBound)
	assert.Contains(t, err.Error(), "after 0 syncs with 0 pods modelled")
	// A claim template doubles what a sync may create.
	www(set)
	set.Spec.Replicas = model.Int32Ptr(600)
	_, err = RunStatefulSet(StatefulSetConfig{StatefulSet: set, MaxWork: 10_000})
	require.ErrorIs(t, err, ErrWorkBound)
	assert.Contains(t, err.Error(), "after 0 syncs with 0 pods modelled")
	set.Spec.Replicas = model.Int32Ptr(400)
	_, err = RunStatefulSet(StatefulSetConfig{StatefulSet: set, MaxWork: 10_000})
	require.ErrorIs(t, err, ErrWorkBound)
	assert.NotContains(t, err.Error(), "after 0 syncs", "the first sync fits the bound")
}
