package plan

import "testing"

// TestSecondCallReusesTheSplit: when the first getAllReplicaSetsAndSyncRevision
// of a sync wrote something or found no new ReplicaSet to reuse, the second
// (the strategy's, here creating) splits the same claimed list the same
// way without comparing every template again: it goes on with the first
// call's list of old ReplicaSets. Once the working copy's template is
// replaced (a rollback) the split is made anew. On every conformance state
// that reaches the strategy.
func TestSecondCallReusesTheSplit(t *testing.T) {
	reused := 0
	for i, st := range readConformanceStatesFile(t) {
		for _, replaced := range []bool{false, true} {
			sy := newSyncer(st, newConfig(nil))
			d := sy.d
			if d.Spec.Selector.IsEmpty() || d.DeletionTimestamp != nil || d.Spec.Paused {
				continue
			}
			if _, ok := rollbackTo(d); ok {
				continue
			}
			sy.scopeToNamespace()
			rsList := sy.claimReplicaSets()
			writes := len(sy.plan.Actions)
			newRS, old1, ok := sy.getAllReplicaSetsAndSyncRevision(rsList, false)
			if !ok || len(old1) == 0 || (newRS != nil && len(sy.plan.Actions) == writes) {
				continue // ended, nothing to split, or the whole result is reused
			}
			sy.templateReplaced = replaced
			_, old2, _ := sy.getAllReplicaSetsAndSyncRevision(rsList, true)
			if got := sameList(old1, old2); got == replaced {
				t.Errorf("state %d (template replaced %v): second call reused the first's old ReplicaSets: %v", i, replaced, got)
			}
			if !replaced {
				reused++
			}
		}
	}
	if reused == 0 {
		t.Fatal("no state reaches a second call that splits again")
	}
	t.Logf("%d states reuse the split", reused)
}
