package rollout

import (
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// oneAtATime returns the nginx Deployment with replicas rolled a pod at a
// time (maxSurge 0, maxUnavailable 1): its simulated rollout takes a sync
// or two per replica, the longest a strategy makes it.
func oneAtATime(replicas int32) *model.Deployment {
	d := nginx("nginx:1.16.1", 2, model.DeploymentStatus{})
	d.Spec.Replicas = model.Int32Ptr(replicas)
	d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{
		MaxSurge: model.IntOrStringPtr(model.FromInt(0)), MaxUnavailable: model.IntOrStringPtr(model.FromInt(1))}
	return d
}

// LintOptions.MaxWork bounds Lint's simulation (issue 24: kubectl-rolloutplan
// explain on a Deployment of 2147483647 replicas ran out of memory, its
// simulation unbounded): a rollout too long for the bound is refused with
// sim.ErrWorkBound, by the simulation when it runs past the bound and
// before it runs when it could not fit; the same rollout under no bound
// or a bound it fits completes alike; a negative bound is an error.
func TestLintMaxWork(t *testing.T) {
	d := oneAtATime(2_000)
	r, err := Lint(d, LintOptions{})
	require.NoError(t, err)
	require.True(t, r.Completed, "unbounded, the rollout completes: %+v", r)
	// 2 000 syncs at least, 4 000 units: the simulation starts and is
	// stopped by the bound.
	_, err = Lint(d, LintOptions{MaxWork: 5_000})
	require.ErrorIs(t, err, sim.ErrWorkBound, "a rollout of 2 000 replicas a pod at a time at MaxWork 5000")
	require.ErrorContains(t, err, "units of work (objects modelled and kept in the trace) after")
	// Below 4 000 units it is refused before it starts.
	_, err = Lint(d, LintOptions{MaxWork: 3_999})
	require.ErrorIs(t, err, sim.ErrWorkBound)
	require.ErrorContains(t, err, "2000 replicas, 1 a sync at most, take at least 2000 syncs and 4000 units of work, bound 3999")
	fits, err := Lint(d, LintOptions{MaxWork: 1_000_000})
	require.NoError(t, err)
	assert.Equal(t, r, fits, "a bound the rollout fits changes nothing")

	// The input of issue 24, refused at once at the commands' default.
	_, err = Lint(oneAtATime(1<<31-1), LintOptions{MaxWork: 10_000_000})
	require.ErrorIs(t, err, sim.ErrWorkBound)
	require.ErrorContains(t, err, "2147483647 replicas, 1 a sync at most, take at least 2147483647 syncs")

	_, err = Lint(d, LintOptions{MaxWork: -1})
	require.ErrorContains(t, err, "MaxWork must not be negative")
}

// The refusal before the simulation never refuses a rollout the
// simulation fits: over a grid of sizes, fenceposts and readiness delays,
// the least bound under which Lint's simulation runs (found by bisection
// on sim.Run) is at least checkRolloutWork's lower bound.
func TestLintWorkLowerBound(t *testing.T) {
	values := []string{"0", "1", "3", "25%", "100%"}
	n := 0
	for _, replicas := range []int32{1, 2, 5, 13, 40, 200} {
		for _, surge := range values {
			for _, unavailable := range values {
				if model.ParseIntOrString(surge).IsZeroLiteral() && model.ParseIntOrString(unavailable).IsZeroLiteral() {
					continue // rejected by validation
				}
				for _, ready := range []time.Duration{0, 7 * time.Second} {
					d := oneAtATime(replicas)
					d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{
						MaxSurge: model.IntOrStringPtr(model.ParseIntOrString(surge)), MaxUnavailable: model.IntOrStringPtr(model.ParseIntOrString(unavailable))}
					dd := model.Default(d)
					opts := LintOptions{ReadyAfter: ready}
					name := fmt.Sprintf("%d/%s/%s/%s", replicas, surge, unavailable, ready)
					least := sort.Search(1<<20, func(w int) bool {
						cfg := lintConfig(dd, opts)
						cfg.MaxWork = int64(w + 1)
						_, err := sim.Run(cfg)
						if err != nil && !errors.Is(err, sim.ErrWorkBound) {
							t.Fatalf("%s: %v", name, err)
						}
						return err == nil
					}) + 1
					require.Less(t, least, 1<<20, name)
					r := Report{Strategy: dd.Spec.Strategy.Type, Replicas: replicas, MaxSurge: proportion.MaxSurge(dd), MaxUnavailable: proportion.MaxUnavailable(dd)}
					require.NoError(t, checkRolloutWork(r, int64(least)), "%s: the simulation fits %d units", name, least)
					n++
				}
			}
		}
	}
	t.Logf("%d strategies bisected", n)
}
