package gen

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// A Planner handed one Deployment's lists again and again, each time
// reordered, cut short, or with entries replaced by other objects (equal
// copies, invalid copies, twins sharing a name or a UID, entries listed
// twice, nil), and now and then a new copy of the Deployment, answers
// every sync exactly as Sync does, errors included. It is the stream a
// controller's informer hands it, and the one that reaches every way the
// Planner matches a State with the last valid lists it remembers.
func TestPlannerMatchesKnownListsAsSync(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := State(20, 5).Draw(t, "state")
		s.Pods = append(s.Pods, ownedPods(t, s.ReplicaSets)...)
		// Pods of no ReplicaSet, for lists long enough to be looked up
		// by address.
		for i := range rapid.IntRange(0, 24).Draw(t, "otherPods") {
			s.Pods = append(s.Pods, &model.Pod{ObjectMeta: model.ObjectMeta{
				Name: fmt.Sprintf("other-%d", i), Namespace: s.Deployment.Namespace, UID: fmt.Sprintf("uid-other-%d", i),
			}})
		}
		rsPool := append([]*model.ReplicaSet(nil), s.ReplicaSets...)
		podPool := append([]*model.Pod(nil), s.Pods...)
		for _, rs := range s.ReplicaSets {
			if rapid.Bool().Draw(t, "rsVariants") {
				copied, bad, twin, uidTwin := rs.DeepCopy(), rs.DeepCopy(), rs.DeepCopy(), rs.DeepCopy()
				bad.Spec.Replicas = model.Int32Ptr(-1)
				twin.UID += "-twin"
				uidTwin.Name += "-twin"
				rsPool = append(rsPool, copied, bad, twin, uidTwin, nil)
			}
		}
		for _, pod := range s.Pods {
			if rapid.Bool().Draw(t, "podVariants") {
				copied, bad, nameTwin, uidTwin := pod.DeepCopy(), pod.DeepCopy(), pod.DeepCopy(), pod.DeepCopy()
				bad.Status.ContainerStatuses = []model.ContainerStatus{{RestartCount: -1}}
				nameTwin.UID += "-twin"
				uidTwin.Name += "-twin"
				podPool = append(podPool, copied, bad, nameTwin, uidTwin, nil)
			}
		}
		p := plan.NewPlanner()
		cur := s
		for i := range rapid.IntRange(1, 16).Draw(t, "syncs") {
			next := cur
			next.ReplicaSets = edit(t, cur.ReplicaSets, rsPool, "rs")
			next.Pods = edit(t, cur.Pods, podPool, "pod")
			if rapid.IntRange(0, 5).Draw(t, "newDeployment") == 0 {
				next.Deployment = cur.Deployment.DeepCopy()
			}
			want, wantErr := plan.Sync(next)
			got, err := p.Sync(next)
			samePlan(t, i, want, wantErr, got, err)
			if err == nil || rapid.Bool().Draw(t, "keepInvalid") {
				cur = next
			}
		}
	})
}

// edit returns a new list made from list: the same, reordered, shortened,
// lengthened, or with entries replaced from pool.
func edit[T any](t *rapid.T, list, pool []*T, label string) []*T {
	out := append([]*T(nil), list...)
	switch rapid.IntRange(0, 4).Draw(t, label+"Edit") {
	case 0: // the same objects in the same order, in a new list
	case 1:
		perm := rapid.Permutation(out).Draw(t, label+"Order")
		out = perm
	case 2:
		if len(out) > 0 {
			out = out[:rapid.IntRange(0, len(out)-1).Draw(t, label+"Cut")]
		}
	default:
		for range rapid.IntRange(1, 3).Draw(t, label+"Changes") {
			if len(pool) == 0 {
				break
			}
			x := rapid.SampledFrom(pool).Draw(t, label+"From")
			if len(out) == 0 || rapid.Bool().Draw(t, label+"Append") {
				out = append(out, x)
			} else {
				out[rapid.IntRange(0, len(out)-1).Draw(t, label+"At")] = x
			}
		}
	}
	return out
}
