package plan_test

import (
	"slices"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// With an unparsable revision among the candidates upstream's sort by
// revision is not transitive, so which ReplicaSet it deletes depends on the
// order it holds them in. A paused sync holds them newest first (its
// FindActiveOrLatest re-sorted them), a rollout sync in creation order.
// Upstream's choices below were computed with sort.Sort(ReplicaSetsByRevision)
// over those starting orders.
func TestCleanupOrderWithUnparsableRevisions(t *testing.T) {
	type tc struct {
		why
		paused bool
		want   []string
	}
	cases := []tc{
		{why{"paused: newest first", "upstream sync/FindActiveOrLatest/upstream cleanupDeployment: sort.Sort over [c, b, a] puts b (\"x\") first"}, true, []string{"web-b"}},
		{why{"rollout: creation order", "upstream rolloutRolling/cleanupDeployment: sort.Sort over [a, b, c] puts a (revision 3) first"}, false, []string{"web-a"}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		opts := []depOpt{revisionAnn(4), generation(1), historyLimit(2),
			withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond))}
		if c.paused {
			opts = append(opts, paused())
		}
		d := newDeployment("web", 3, "new", opts...)
		old := func(v, rev string, created time.Duration) *model.ReplicaSet {
			return rsAnn(newRS(d, v, 0, 0, at(created)), model.RevisionAnnotation, rev)
		}
		rss := []*model.ReplicaSet{old("a", "3", -4*time.Hour), old("b", "x", -3*time.Hour), old("c", "1", -2*time.Hour),
			newRS(d, "new", 4, 3, at(-time.Hour))}
		p, err := plan.Sync(plan.State{Deployment: d, ReplicaSets: rss, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		var deleted []string
		for _, a := range p.Actions {
			if a.Kind == plan.DeleteReplicaSet {
				deleted = append(deleted, a.Object.Name)
			}
		}
		if !slices.Equal(deleted, c.want) {
			t.Errorf("deleted %v, want %v; actions %v", deleted, c.want, p.Actions)
		}
	})
}
