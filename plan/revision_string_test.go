package plan_test

import (
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// TestSteadySyncMakesNoRevisionString: a sync of a complete Deployment
// that writes nothing allocates as much at revision 150 as at revision 5
// (Sync's allocations, unlike a Planner's pooled ones, do not vary): the new revision (the old ReplicaSets' highest plus one) is
// the new ReplicaSet's annotation, not a string made anew (strconv makes
// one for every number past 99).
func TestSteadySyncMakesNoRevisionString(t *testing.T) {
	allocs := func(rev int) float64 {
		d := newDeployment("web", 3, "v3", revisionAnn(rev),
			withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
		s := plan.State{Deployment: d, Now: t0, ReplicaSets: []*model.ReplicaSet{
			newRS(d, "v1", rev-2, 0, at(-3*time.Hour)), newRS(d, "v2", rev-1, 0, at(-2*time.Hour)), newRS(d, "v3", rev, 3, at(-time.Hour)),
		}}
		pl, err := plan.Sync(s)
		if err != nil || len(pl.Actions) != 0 {
			t.Fatalf("revision %d: %v, actions %v: want a sync that writes nothing", rev, err, pl.Actions)
		}
		return testing.AllocsPerRun(100, func() { _, _ = plan.Sync(s) })
	}
	if low, high := allocs(5), allocs(150); high != low {
		t.Errorf("a steady sync allocates %v times at revision 150, %v at revision 5", high, low)
	}
}
