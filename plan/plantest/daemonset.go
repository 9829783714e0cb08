package plantest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// QuirkExcessKeepsOldest names an upstream behaviour that can take a node's
// only available daemon pod: podsShouldBeOnNode, cleaning up a node that
// runs more daemon pods than it may, keeps the oldest (with maxSurge, the
// oldest of the current revision and the oldest of the others; equal
// creation times fall back to names) whatever their availability, and
// deletes the rest. Two template changes during a surge update leave two
// old pods on a node, the older one possibly not yet available; switching
// from maxSurge to maxUnavailable mid-update leaves an old and a new pod. The
// clean-up then deletes an available pod and keeps one that is not, which
// can leave more nodes without an available pod than the budget allows. No
// planner option avoids it. [CheckDaemonSet] tags a D1 violation with it
// exactly when the violation disappears once such deletions (an
// ExcessDaemonPod deletion of an available pod) are not counted.
const QuirkExcessKeepsOldest = "excess keeps oldest: the clean-up of a node with excess daemon pods keeps the oldest whatever their availability, and can delete the node's only available pod"

// CheckDaemonSet reports every violation of the DaemonSet invariants
// D1–D4 (see the package documentation) by the writes of p, planned for
// before; like [Check] it considers every write the plan attempts, as
// applied in order. An empty result means the plan is sound.
//
// The DaemonSet's pods are those the planner claims: pods of its namespace
// it controls, and orphans that its selector matches and that are not
// being deleted, each meant for the node its spec.nodeName names, or
// failing that its node affinity (before.PodNodeAffinity). A pod is
// available when it is Running, Ready for minReadySeconds at before.Now,
// not finished and not being deleted; a node is desired when it should run
// a daemon pod (daemonset.NodeShouldRunDaemonPod).
//
//   - D1: under RollingUpdate the plan's deletions never leave more desired
//     nodes without an available pod than before and than maxUnavailable
//     (resolved against the desired nodes, rounded up, at least 1), the
//     larger; with maxSurge never more than before.
//   - D2: a create never brings a node to more than one pod that is
//     neither finished nor being deleted (two with maxSurge, one of them of
//     an older revision), and a node gets at most one create per sync.
//   - D3: pods are created only on nodes that exist and should run one,
//     pinned to that node by their node affinity; every pod on a node that
//     may not keep one is deleted (unless the burst limit holds some back).
//   - D4: created pods carry the current revision's hash and the
//     DaemonSet's controller reference; a pod is deleted at most once,
//     never when already being deleted, and only if it is the DaemonSet's.
func CheckDaemonSet(before daemonset.State, p daemonset.Plan) []Violation {
	ds := before.DaemonSet
	if ds == nil || ds.DeletionTimestamp != nil {
		return nil
	}
	c := newDSCheck(before, p)
	c.checkBudget()
	c.checkSurge()
	c.checkPlacement()
	c.checkWrites()
	return c.out
}

type dsCheck struct {
	before    daemonset.State
	p         daemonset.Plan
	ds        *model.DaemonSet
	surge     bool
	placement map[string]daemonset.Placement // by node name, for the nodes that exist
	pods      map[string]*model.Pod          // claimed pods by name
	target    map[string]string              // claimed pods' nodes by pod name
	byNode    map[string][]*model.Pod
	deleted   map[string]daemonset.Action // the plan's pod deletions by pod name
	out       []Violation
}

func newDSCheck(before daemonset.State, p daemonset.Plan) *dsCheck {
	ds := before.DaemonSet
	c := &dsCheck{before: before, p: p, ds: ds, surge: daemonset.AllowsSurge(ds),
		placement: map[string]daemonset.Placement{}, pods: map[string]*model.Pod{}, target: map[string]string{},
		byNode: map[string][]*model.Pod{}, deleted: map[string]daemonset.Action{}}
	for _, n := range before.Nodes {
		if n != nil {
			c.placement[n.Name] = daemonset.NodeShouldRunDaemonPod(n, ds)
		}
	}
	for _, q := range before.Pods {
		if q == nil || q.Namespace != ds.Namespace {
			continue
		}
		selected, err := ds.Spec.Selector.Matches(q.Labels)
		ref := q.ControllerRef()
		owned := ref != nil && ref.Kind == model.DaemonSetKind && ref.UID == ds.UID
		if err != nil || !selected || !(owned || ref == nil && q.DeletionTimestamp == nil) {
			continue
		}
		c.pods[q.Name] = q
		node, err := model.TargetNodeName(q, before.PodNodeAffinity[q.Name])
		if err != nil {
			continue
		}
		c.target[q.Name] = node
		c.byNode[node] = append(c.byNode[node], q)
	}
	for _, a := range p.Actions {
		if a.Kind == daemonset.DeletePod {
			if _, twice := c.deleted[a.Object.Name]; !twice {
				c.deleted[a.Object.Name] = a
			}
		}
	}
	return c
}

func (c *dsCheck) fail(inv, format string, args ...any) {
	c.out = append(c.out, Violation{Invariant: inv, Message: fmt.Sprintf(format, args...)})
}

func (c *dsCheck) available(q *model.Pod) bool {
	return q.DeletionTimestamp == nil && !q.IsTerminal() && q.Status.Phase == model.PodRunning &&
		model.IsPodAvailable(q, c.ds.Spec.MinReadySeconds, c.before.Now)
}

// live reports a pod that runs or will: neither finished nor being
// deleted, before or by the plan.
func (c *dsCheck) live(q *model.Pod) bool {
	_, gone := c.deleted[q.Name]
	return q.DeletionTimestamp == nil && !q.IsTerminal() && !gone
}

// checkWrites is D4.
func (c *dsCheck) checkWrites() {
	seen := map[string]bool{}
	for _, a := range c.p.Actions {
		switch a.Kind {
		case daemonset.CreatePod:
			if a.Pod == nil {
				c.fail("D4", "the create on node %s carries no pod", a.Node)
				continue
			}
			if h := a.Pod.Labels[model.DaemonSetUniqueLabel]; c.p.Hash == "" || h != c.p.Hash {
				c.fail("D4", "%s is created with hash %q, not the current revision's %q", a.Object.Name, h, c.p.Hash)
			}
			if ref := a.Pod.ControllerRef(); ref == nil || ref.UID != c.ds.UID {
				c.fail("D4", "%s is created without the DaemonSet's controller reference", a.Object.Name)
			}
		case daemonset.DeletePod:
			name := a.Object.Name
			if seen[name] {
				c.fail("D4", "%s is deleted twice in one sync", name)
				continue
			}
			seen[name] = true
			q := c.pods[name]
			switch {
			case q == nil:
				c.fail("D4", "%s is deleted (%s) but is not a pod of the DaemonSet", name, a.Reason.Code)
			case q.DeletionTimestamp != nil:
				c.fail("D4", "%s is deleted (%s) while already being deleted", name, a.Reason.Code)
			}
		}
	}
}

// checkPlacement is D3.
func (c *dsCheck) checkPlacement() {
	for _, a := range c.p.Actions {
		if a.Kind != daemonset.CreatePod {
			continue
		}
		pl, exists := c.placement[a.Node]
		switch {
		case !exists:
			c.fail("D3", "%s is created on node %s, which does not exist", a.Object.Name, a.Node)
		case !pl.ShouldRun:
			c.fail("D3", "%s is created on node %s, which should not run a daemon pod: %s", a.Object.Name, a.Node, pl.Reason.Message)
		}
		if a.Pod != nil && a.Scheduling != nil {
			if node, err := model.TargetNodeName(a.Pod, a.Scheduling.RequiredNodeAffinity); err != nil || node != a.Node {
				c.fail("D3", "%s is created for node %s but its node affinity names %q (%v)", a.Object.Name, a.Node, node, err)
			}
		} else {
			c.fail("D3", "%s is created for node %s without its scheduling", a.Object.Name, a.Node)
		}
	}
	// A sync that stopped before managing the nodes (a hash collision)
	// and one that hit the burst limit leave pods for a later sync.
	if c.p.Hash == "" || slices.ContainsFunc(c.p.Notes, func(r daemonset.Reason) bool { return r.Code == daemonset.NoteBurstLimit }) {
		return
	}
	for node, pods := range c.byNode {
		pl, exists := c.placement[node]
		if !exists || pl.ShouldContinueRunning {
			continue
		}
		for _, q := range pods {
			if _, gone := c.deleted[q.Name]; q.DeletionTimestamp == nil && !gone {
				c.fail("D3", "%s stays on node %s, which may not keep a daemon pod: %s", q.Name, node, pl.Reason.Message)
			}
		}
	}
}

// checkSurge is D2.
func (c *dsCheck) checkSurge() {
	creates := map[string]int{}
	for _, a := range c.p.Actions {
		if a.Kind == daemonset.CreatePod {
			creates[a.Node]++
		}
	}
	for _, node := range sortedKeys(creates) {
		n := creates[node]
		if n > 1 {
			c.fail("D2", "node %s gets %d pods in one sync", node, n)
		}
		var live []*model.Pod
		for _, q := range c.byNode[node] {
			if c.live(q) {
				live = append(live, q)
			}
		}
		total := len(live) + n
		switch {
		case !c.surge && total > 1:
			c.fail("D2", "node %s would run %d daemon pods without maxSurge (%s and a new one)", node, total, podNames(live))
		case c.surge && total > 2:
			c.fail("D2", "node %s would run %d daemon pods (at most 2 with maxSurge: %s and a new one)", node, total, podNames(live))
		case c.surge && total == 2 && len(live) == 1 && live[0].Labels[model.DaemonSetUniqueLabel] == c.p.Hash:
			c.fail("D2", "node %s gets a second pod of the current revision beside %s", node, live[0].Name)
		}
	}
}

// maxUnavailable resolves the budget as upstream's rollingUpdate does.
func (c *dsCheck) maxUnavailable(desired int32) (int, error) {
	mu, err := daemonset.UnavailableCount(c.ds, desired)
	if err != nil {
		return 0, err
	}
	ms, err := daemonset.SurgeCount(c.ds, desired)
	if err != nil {
		return 0, err
	}
	if desired > 0 && mu == 0 && ms == 0 {
		mu = 1
	}
	return int(mu), nil
}

// unavailableNodes counts the desired nodes without an available pod, the
// pods in gone not counted.
func (c *dsCheck) unavailableNodes(gone func(name string) bool) (n int, desired int32) {
	for node, pl := range c.placement {
		if !pl.ShouldRun {
			continue
		}
		desired++
		if !slices.ContainsFunc(c.byNode[node], func(q *model.Pod) bool { return c.available(q) && !gone(q.Name) }) {
			n++
		}
	}
	return n, desired
}

// checkBudget is D1.
func (c *dsCheck) checkBudget() {
	if c.ds.Spec.UpdateStrategy.Type != model.DaemonSetRollingUpdate || len(c.deleted) == 0 {
		return
	}
	before, desired := c.unavailableNodes(func(string) bool { return false })
	after, _ := c.unavailableNodes(func(name string) bool { _, ok := c.deleted[name]; return ok })
	limit, why := before, "maxSurge: no more than before"
	if !c.surge {
		mu, err := c.maxUnavailable(desired)
		if err != nil {
			c.fail("D1", "maxUnavailable: %v", err)
			return
		}
		limit, why = max(before, mu), fmt.Sprintf("maxUnavailable %d", mu)
	}
	if after <= limit {
		return
	}
	c.fail("D1", "the plan leaves %d of %d nodes without an available daemon pod (%d before; %s)", after, desired, before, why)
	withoutExcess, _ := c.unavailableNodes(func(name string) bool {
		a, ok := c.deleted[name]
		return ok && !(a.Reason.Code == daemonset.ReasonExcessPod && c.available(c.pods[name]))
	})
	if withoutExcess <= limit {
		c.out[len(c.out)-1].Quirk = QuirkExcessKeepsOldest
	}
}

func podNames(pods []*model.Pod) string {
	if len(pods) == 0 {
		return "no other pod"
	}
	names := make([]string, len(pods))
	for i, q := range pods {
		names[i] = q.Name
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// CheckDaemonSetDeterminism is D5: it plans s three times, as given, with
// its slices (nodes, pods, revisions) reversed and with them rotated, and
// reports a violation when the plans differ, when planning changes the
// input, or when Sync fails on one ordering but not another.
func CheckDaemonSetDeterminism(s daemonset.State, opts ...daemonset.Option) []Violation {
	return checkSetDeterminism("D5", s, daemonset.Sync, opts, reversedDaemonSet, rotatedDaemonSet)
}

func reversedDaemonSet(s daemonset.State) daemonset.State {
	s.Nodes = reversedCopy(s.Nodes)
	s.Pods = reversedCopy(s.Pods)
	s.ControllerRevisions = reversedCopy(s.ControllerRevisions)
	return s
}

func rotatedDaemonSet(s daemonset.State) daemonset.State {
	s.Nodes = rotate(s.Nodes)
	s.Pods = rotate(s.Pods)
	s.ControllerRevisions = rotate(s.ControllerRevisions)
	return s
}
