package plan

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// podMapForDeployment is the reference grouping, built the way upstream's
// getPodMapForDeployment builds it: every ReplicaSet gets an entry, and a
// pod joins the entry of the ReplicaSet its controller reference names by
// kind, name and UID.
func podMapForDeployment(rsList []*model.ReplicaSet, pods []*model.Pod) map[string][]*model.Pod {
	type key struct{ name, uid string }
	out := map[string][]*model.Pod{}
	index := map[key]string{}
	for _, rs := range rsList {
		out[rs.UID] = []*model.Pod{}
		index[key{rs.Name, rs.UID}] = rs.UID
	}
	for _, p := range pods {
		if p == nil {
			continue
		}
		if ref := p.ControllerRef(); ref != nil && ref.Kind == model.ReplicaSetKind {
			if uid, ok := index[key{ref.Name, ref.UID}]; ok {
				out[uid] = append(out[uid], p)
			}
		}
	}
	return out
}

// TestPodOwnersMatchesPodMap: a sync's pods grouped on the fly give
// OldPodsRunning's answer on upstream's pod map, on every Recreate
// conformance state, with no new ReplicaSet and with each claimed one as
// the new one, for the claimed list as it is (scanned) and padded past
// ownerScanLimit ReplicaSets (indexed); with every pod's phase as recorded
// and with every pod running.
func TestPodOwnersMatchesPodMap(t *testing.T) {
	n := 0
	forEachRecreateClaim(t, func(i int, sy *syncer, claimed []*model.ReplicaSet) {
		padded := append([]*model.ReplicaSet(nil), claimed...)
		for j := 0; len(padded) <= ownerScanLimit; j++ {
			padded = append(padded, &model.ReplicaSet{ObjectMeta: model.ObjectMeta{Name: fmt.Sprintf("pad-%d", j), UID: fmt.Sprintf("pad-uid-%d", j)}})
		}
		running := make([]*model.Pod, len(sy.pods))
		for j, p := range sy.pods {
			if p != nil {
				cp := *p
				cp.Status.Phase = model.PodRunning
				running[j] = &cp
			}
		}
		for _, rsList := range [][]*model.ReplicaSet{claimed, padded} {
			for _, pods := range [][]*model.Pod{sy.pods, running} {
				for _, newRS := range append([]*model.ReplicaSet{nil}, rsList...) {
					want, wantWhy := OldPodsRunning(newRS, nil, podMapForDeployment(rsList, pods))
					got, gotWhy := oldPodsRunning(newRS, nil, &podOwners{rsList: rsList, pods: pods})
					if got != want || gotWhy.Message != wantWhy.Message {
						t.Errorf("state %d, %d ReplicaSets: %v %q, the pod map gives %v %q", i, len(rsList), got, gotWhy.Message, want, wantWhy.Message)
					}
					n++
				}
			}
		}
	})
	if n == 0 {
		t.Fatal("no Recreate state")
	}
}

// forEachRecreateClaim calls fn with each Recreate conformance state's
// index, its syncer scoped to the Deployment's namespace, and the
// ReplicaSets that syncer claims.
func forEachRecreateClaim(t *testing.T, fn func(i int, sy *syncer, claimed []*model.ReplicaSet)) {
	t.Helper()
	for i, c := range readConformanceStatesFile(t) {
		if c.Deployment.Spec.Strategy.Type != model.RecreateStrategy {
			continue
		}
		sy := new(syncer)
		sy.start(c, newConfig(nil))
		sy.scopeToNamespace()
		fn(i, sy, sy.claimReplicaSets())
	}
}
