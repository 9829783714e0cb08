package gen

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// Every plan for a generated state respects the invariants, except where a
// documented upstream quirk breaks them, and then the option that fixes the
// quirk gives a plan without violations; every plan is deterministic.
func TestSyncRespectsInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := State(12, 4).Draw(t, "state")
		p, err := plan.Sync(s)
		if err != nil {
			t.Fatalf("generated state rejected: %v", err)
		}
		for _, v := range plantest.Check(s, p) {
			if v.Quirk == "" {
				t.Errorf("%s\nplan: %v", v, p.Actions)
			}
		}
		fixed, err := plan.Sync(s, plan.RollbackWithoutCreate(), plan.MonotonicProportions())
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range plantest.Check(s, fixed) {
			if v.Quirk != plantest.QuirkStaleAvailability { // the one quirk no option changes
				t.Errorf("with the quirk fixes: %s\nplan: %v", v, fixed.Actions)
			}
		}
		for _, v := range plantest.CheckDeterminism(s) {
			t.Error(v)
		}
	})
}
