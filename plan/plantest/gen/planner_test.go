package gen

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// A Planner that plans a stream of snapshots mixing the objects of several
// generated states (some objects made invalid, some listed twice, some
// Deployments planned against another's ReplicaSets) answers every one of
// them exactly as Sync does, errors included.
func TestPlannerAnswersAsSync(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var (
			ds   []*model.Deployment
			rss  []*model.ReplicaSet
			nows = []plan.State{}
		)
		for range rapid.IntRange(1, 4).Draw(t, "states") {
			s := State(20, 5).Draw(t, "state")
			ds = append(ds, s.Deployment)
			rss = append(rss, s.ReplicaSets...)
			nows = append(nows, s)
		}
		// Invalid variants of objects already in the pool.
		if rapid.Bool().Draw(t, "badReplicaSet") && len(rss) > 0 {
			bad := rss[rapid.IntRange(0, len(rss)-1).Draw(t, "bad")].DeepCopy()
			bad.Spec.Replicas = model.Int32Ptr(-1)
			rss = append(rss, bad)
		}
		if rapid.Bool().Draw(t, "badDeployment") {
			bad := ds[0].DeepCopy()
			bad.Spec.Strategy.Type = "Canary"
			ds = append(ds, bad)
		}
		p := plan.NewPlanner()
		for i := range rapid.IntRange(1, 12).Draw(t, "syncs") {
			s := nows[rapid.IntRange(0, len(nows)-1).Draw(t, "now")]
			s.Deployment = rapid.SampledFrom(ds).Draw(t, "deployment")
			if len(rss) > 0 {
				s.ReplicaSets = rapid.SliceOfN(rapid.SampledFrom(rss), 0, 6).Draw(t, "replicaSets")
			}
			want, wantErr := plan.Sync(s)
			before, _ := json.Marshal(s)
			got, err := p.Sync(s)
			if after, _ := json.Marshal(s); string(after) != string(before) {
				t.Fatalf("sync %d: the Planner changed its input", i)
			}
			samePlan(t, i, want, wantErr, got, err)
		}
	})
}

// samePlan fails t unless the Planner's answer to sync i equals Sync's: the
// same plan and the same error, word for word.
func samePlan(t *rapid.T, i int, want plan.Plan, wantErr error, got plan.Plan, err error) {
	t.Helper()
	if (wantErr == nil) != (err == nil) || wantErr != nil && wantErr.Error() != err.Error() {
		t.Fatalf("sync %d: Planner error %v, Sync's %v", i, err, wantErr)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("sync %d: Planner differs from Sync (-Sync +Planner):\n%s", i, diff)
	}
}
