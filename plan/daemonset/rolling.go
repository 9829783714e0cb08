package daemonset

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// AllowsSurge reports whether ds may run two pods on a node during an
// update (upstream util.AllowsSurge): a RollingUpdate whose maxSurge,
// resolved against one node and rounded up, is positive.
func AllowsSurge(ds *model.DaemonSet) bool {
	n, err := SurgeCount(ds, 1)
	return err == nil && n > 0
}

// SurgeCount resolves maxSurge against numberToSchedule nodes, rounding
// up (upstream util.SurgeCount): 0 for OnDelete or without a rollingUpdate
// block or maxSurge.
func SurgeCount(ds *model.DaemonSet, numberToSchedule int32) (int32, error) {
	us := ds.Spec.UpdateStrategy
	if us.Type != model.DaemonSetRollingUpdate || us.RollingUpdate == nil || us.RollingUpdate.MaxSurge == nil {
		return 0, nil
	}
	return proportion.ScaledValue(us.RollingUpdate.MaxSurge, numberToSchedule, true)
}

// UnavailableCount resolves maxUnavailable against numberToSchedule
// nodes, rounding up (upstream util.UnavailableCount; unlike a
// Deployment's, a DaemonSet's percentage rounds up): 0 for OnDelete or
// without a rollingUpdate block, an error for a missing maxUnavailable.
func UnavailableCount(ds *model.DaemonSet, numberToSchedule int32) (int32, error) {
	us := ds.Spec.UpdateStrategy
	if us.Type != model.DaemonSetRollingUpdate || us.RollingUpdate == nil {
		return 0, nil
	}
	return proportion.ScaledValue(us.RollingUpdate.MaxUnavailable, numberToSchedule, true)
}

// findUpdatedPodsOnNode is upstream findUpdatedPodsOnNode: the node's new
// and old pod among those not being deleted, or false when it has more
// than one of either.
func (s *syncer) findUpdatedPodsOnNode(pods []*podInfo) (newPod, oldPod *podInfo, ok bool) {
	for _, pi := range pods {
		if pi.pod.DeletionTimestamp != nil {
			continue
		}
		if s.updated(pi) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = pi
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = pi
		}
	}
	return newPod, oldPod, true
}

// rollingUpdate is upstream rollingUpdate. Upstream walks its map of nodes
// in Go's random order, so when the budget lets only some candidates go,
// which ones it picks varies between runs; the planner walks the nodes in
// name order, picking the candidates on the first nodes by name. It
// reports false when the sync ends with an error.
func (s *syncer) rollingUpdate() bool {
	s.emitClaims()
	byNode := s.group(false)
	var desired int32
	for _, n := range s.nodes {
		if !s.placement(n.Name).ShouldRun {
			continue
		}
		desired++
		if _, ok := byNode[n.Name]; !ok {
			byNode[n.Name] = nil
		}
	}
	maxUnavailable, err := UnavailableCount(s.ds, desired)
	if err != nil {
		s.fail(plan.ErrKindInvalidFencepost, "couldn't get unavailable numbers: invalid value for MaxUnavailable: %v", err)
		return false
	}
	maxSurge, err := SurgeCount(s.ds, desired)
	if err != nil {
		s.fail(plan.ErrKindInvalidFencepost, "couldn't get unavailable numbers: invalid value for MaxSurge: %v", err)
		return false
	}
	if desired > 0 && maxUnavailable == 0 && maxSurge == 0 {
		maxUnavailable = 1
	}
	nodes := slices.Sorted(maps.Keys(byNode))
	if maxSurge == 0 {
		s.rollUnavailable(nodes, byNode, int(maxUnavailable))
		return true
	}
	return s.rollSurge(nodes, byNode, int(maxSurge), int(desired))
}

// rollUnavailable is the maxUnavailable half of upstream rollingUpdate:
// old pods are deleted, so that the manage step of a later sync creates
// their replacements, while at most maxUnavailable nodes lack an available
// pod.
func (s *syncer) rollUnavailable(nodes []string, byNode map[string][]*podInfo, maxUnavailable int) {
	numUnavailable := 0
	var allowed, candidates []toDelete
	var skipped []string
	for _, name := range nodes {
		newPod, oldPod, ok := s.findUpdatedPodsOnNode(byNode[name])
		if !ok {
			numUnavailable++
			continue
		}
		switch {
		case oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
			numUnavailable++
		case newPod != nil:
			if !s.available(newPod) {
				numUnavailable++
			}
		default:
			switch {
			case !s.available(oldPod):
				allowed = append(allowed, toDelete{oldPod, reason(ReasonReplaceUnavailable, nil,
					"old pod %s on node %s is not available: it is replaced at once", oldPod.pod.Name, name)})
				numUnavailable++
			case numUnavailable >= maxUnavailable:
				skipped = append(skipped, name)
			default:
				candidates = append(candidates, toDelete{oldPod, Reason{}})
			}
		}
	}
	remaining := min(max(maxUnavailable-numUnavailable, 0), len(candidates))
	for i := range candidates[:remaining] {
		c := &candidates[i]
		c.reason = reason(ReasonReplaceWithinBudget,
			[]Value{val("maxUnavailable", int64(maxUnavailable)), val("unavailable", int64(numUnavailable)), val("replaced", int64(remaining))},
			"old pod %s on node %s is replaced: %d nodes lack an available pod, maxUnavailable %d allows %d more",
			c.pi.pod.Name, c.pi.target, numUnavailable, maxUnavailable, remaining)
	}
	for _, c := range candidates[remaining:] {
		skipped = append(skipped, c.pi.target)
	}
	if len(skipped) > 0 {
		slices.Sort(skipped)
		s.note(reason(NoteBudgetSpent, []Value{val("maxUnavailable", int64(maxUnavailable)), val("unavailable", int64(numUnavailable)), val("waiting", int64(len(skipped)))},
			"%d nodes keep their available old pod this sync (%s): %d nodes lack an available pod, maxUnavailable is %d",
			len(skipped), nodeList(skipped), numUnavailable, maxUnavailable))
	}
	victims := append(allowed, candidates[:remaining]...)
	if len(victims) == 0 && len(skipped) == 0 && numUnavailable == 0 {
		s.note(reason(NoteUpdated, nil, "every node runs an available pod of the current revision"))
	}
	s.syncNodes(victims, nil)
}

// rollSurge is the maxSurge half of upstream rollingUpdate: a new pod is
// created beside an old one, within maxSurge nodes at a time unless the
// old pod is not available, and the old pod is deleted once the new one
// is available. It reports false when the sync ends with an error.
func (s *syncer) rollSurge(nodes []string, byNode map[string][]*podInfo, maxSurge, desired int) bool {
	var victims, shouldNotRun []toDelete
	var candidates, allowed []toCreate
	numSurge, numAvailable := 0, 0
	var skipped []string
	for _, name := range nodes {
		newPod, oldPod, ok := s.findUpdatedPodsOnNode(byNode[name])
		if !ok {
			numSurge++
			continue
		}
		if oldPod != nil {
			if s.available(oldPod) {
				numAvailable++
			}
		} else if newPod != nil && s.available(newPod) {
			numAvailable++
		}
		switch {
		case oldPod == nil:
		case newPod == nil:
			if s.node(name) == nil {
				s.fail(ErrKindNodeNotFound, "couldn't get node for nodeName %q: node %q not found", name, name)
				return false
			}
			pl := s.placement(name)
			if !s.available(oldPod) {
				if !pl.ShouldRun {
					victims = append(victims, toDelete{oldPod, reason(ReasonNodeShouldNotRun, nil,
						"old pod %s is not available and %s", oldPod.pod.Name, pl.Reason.Message)})
					continue
				}
				allowed = append(allowed, toCreate{name, reason(ReasonSurgeUnavailable, nil,
					"old pod %s on node %s is not available: a new pod is created beside it at once", oldPod.pod.Name, name)})
				continue
			}
			if !pl.ShouldRun {
				shouldNotRun = append(shouldNotRun, toDelete{oldPod, Reason{}})
				continue
			}
			if numSurge >= maxSurge {
				skipped = append(skipped, name)
				continue
			}
			candidates = append(candidates, toCreate{name, Reason{}})
		default:
			if !s.available(newPod) {
				numSurge++
				continue
			}
			victims = append(victims, toDelete{oldPod, reason(ReasonNewPodAvailable, nil,
				"new pod %s on node %s is available, so old pod %s goes", newPod.pod.Name, name, oldPod.pod.Name)})
		}
	}
	remainingSurge := maxSurge - numSurge
	if deletable := numAvailable - desired; deletable > 0 {
		deletable = min(deletable, len(shouldNotRun))
		for _, d := range shouldNotRun[:deletable] {
			d.reason = reason(ReasonSurgeMoved, []Value{val("available", int64(numAvailable)), val("desired", int64(desired))},
				"old pod %s is on node %s, which should no longer run one, and %d pods are available for %d nodes",
				d.pi.pod.Name, d.pi.target, numAvailable, desired)
			victims = append(victims, d)
		}
	}
	remainingSurge = min(max(remainingSurge, 0), len(candidates))
	for i := range candidates[:remainingSurge] {
		c := &candidates[i]
		c.reason = reason(ReasonSurgeWithinBudget,
			[]Value{val("maxSurge", int64(maxSurge)), val("surging", int64(numSurge)), val("created", int64(remainingSurge))},
			"node %s gets a new pod beside its available old one: %d nodes are surging, maxSurge %d allows %d more",
			c.node, numSurge, maxSurge, remainingSurge)
	}
	for _, c := range candidates[remainingSurge:] {
		skipped = append(skipped, c.node)
	}
	if len(skipped) > 0 {
		slices.Sort(skipped)
		s.note(reason(NoteBudgetSpent, []Value{val("maxSurge", int64(maxSurge)), val("surging", int64(numSurge)), val("waiting", int64(len(skipped)))},
			"%d nodes keep their available old pod without a new one beside it this sync (%s): %d nodes are surging, maxSurge is %d",
			len(skipped), nodeList(skipped), numSurge, maxSurge))
	}
	creates := append(allowed, candidates[:remainingSurge]...)
	if len(victims)+len(creates) == 0 && len(skipped)+len(shouldNotRun) == 0 && numSurge == 0 {
		s.note(reason(NoteUpdated, nil, "every node runs an available pod of the current revision"))
	}
	s.syncNodes(victims, creates)
	return true
}

// nodeList names nodes for a note: all of them up to ten, then how many
// more.
func nodeList(names []string) string {
	const shown = 10
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:shown], ", ") + ", and " + strconv.Itoa(len(names)-shown) + " more"
}
