package gen

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// Every StatefulSet plan for a generated namespace (orphans, foreign and
// deselected pods, failed, terminating and phaseless pods, every claim
// owner, revisions in any order) respects S1–S4 and S7, except where a
// documented upstream quirk breaks them, and is deterministic (S6).
func TestStatefulSetSyncRespectsInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := StatefulSetState(6).Draw(t, "state")
		gates := plantest.StatefulSetGates{MaxUnavailable: rapid.Bool().Draw(t, "maxUnavailableGate")}
		opts := []statefulset.Option{statefulset.WithMaxUnavailable(gates.MaxUnavailable)}
		p, err := statefulset.Sync(s, opts...)
		var se *statefulset.SyncError
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("generated state rejected: %v", err)
		}
		for _, v := range plantest.CheckStatefulSet(s, p, gates) {
			if v.Quirk == "" {
				t.Errorf("%s\nplan: %v", v, p)
			}
		}
		for _, v := range plantest.CheckStatefulSetDeterminism(s, opts...) {
			t.Error(v)
		}
	})
}
