package plantest

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// QuirkParallelFailedDelete names a double deletion upstream makes: under
// Parallel management, processReplica deletes a failed (or succeeded) pod
// so that it can be re-created and the sync goes on, and the rolling update,
// which reads the pod from the informer cache as it was, deletes it again
// when it is at an old revision (and lowers status.currentReplicas once
// more). The second request is harmless (the API server answers NotFound,
// which upstream ignores, or repeats the deletion); no option avoids it.
const QuirkParallelFailedDelete = "parallel failed delete: under Parallel the rolling update deletes again a failed pod the same sync deleted for re-creation"

// QuirkNilRollingUpdateLoop names an upstream livelock: a RollingUpdate
// set without a rollingUpdate block (the type was set without one, as
// apps/v1 allows) re-creates a missing pod below status.currentReplicas at
// the current revision; under Parallel the sync goes on to the rolling
// update, which deletes that pod, not yet counted, at once (or, when the
// sync did not create it, a stale claim or a pod of that name the set does
// not own being in the way, deletes by that name: nothing, or the other
// pod) and lowers status.currentReplicas below zero. A real API server rejects the status
// (statefulset.Action.Invalid), status.currentReplicas stays stale, and
// every sync creates and deletes the pod again. Reached, for example, by
// scaling down and switching an OnDelete set with outdated pods to
// RollingUpdate in one change; setting a partition (any rollingUpdate block)
// ends it. No planner option avoids it.
const QuirkNilRollingUpdateLoop = "nil rollingUpdate loop: under Parallel a RollingUpdate without a rollingUpdate block deletes the pod it creates at the current revision in the same sync, and the negative status.currentReplicas it then writes is rejected"

// StatefulSetGates are the feature gates a StatefulSet plan was made with,
// which [CheckStatefulSet] needs to know: the planner's options are
// functions it cannot read back.
type StatefulSetGates struct {
	// MaxUnavailable is the MaxUnavailableStatefulSet gate
	// (statefulset.WithMaxUnavailable); off, as in v1.36, a rolling update
	// takes down one pod at a time.
	MaxUnavailable bool
}

// CheckStatefulSet reports every violation of the StatefulSet invariants
// S1–S4 and S7 (see the package documentation) by the writes of p, planned
// for before with the given gates. Like [Check] it considers every write
// the plan attempts, rejected ones included, as applied in order; an empty
// result means the plan is sound.
//
// The pods of the set are those the planner claims: pods of the set's
// namespace named "<set>-<ordinal>" that it controls and whose labels its
// selector matches, and orphans so named and selected that are not being
// deleted. A pod is healthy when it is Running and Ready, available after
// minReadySeconds at before.Now, and not being deleted; indices count from
// spec.ordinals.start, and the partition is an index, as upstream's.
func CheckStatefulSet(before statefulset.State, p statefulset.Plan, gates StatefulSetGates) []Violation {
	set := before.StatefulSet
	if set == nil || set.Spec.Replicas == nil {
		return nil
	}
	c := newStatefulSetCheck(before, p, gates)
	c.checkWrites()
	c.checkOrderedCreation()
	c.checkPartition()
	c.checkUnavailable()
	c.checkScaleDown()
	return c.out
}

type stsCheck struct {
	before statefulset.State
	p      statefulset.Plan
	gates  StatefulSetGates
	set    *model.StatefulSet
	start  int
	n      int
	// pods are the set's pods by ordinal, byName by name; names are the
	// names of every pod of the namespace.
	pods   map[int]*model.Pod
	byName map[string]*model.Pod
	names  map[string]bool
	// rolling is the rolling update's block, nil for OnDelete or a
	// RollingUpdate without one.
	rolling   *model.RollingUpdateStatefulSetStrategy
	monotonic bool
	out       []Violation
}

func newStatefulSetCheck(before statefulset.State, p statefulset.Plan, gates StatefulSetGates) *stsCheck {
	set := before.StatefulSet
	c := &stsCheck{
		before: before, p: p, gates: gates, set: set,
		start: int(set.StartOrdinal()), n: int(*set.Spec.Replicas),
		pods: map[int]*model.Pod{}, byName: map[string]*model.Pod{}, names: map[string]bool{},
		monotonic: set.Spec.PodManagementPolicy != model.ParallelPodManagement,
	}
	if set.Spec.UpdateStrategy.Type == model.RollingUpdateStatefulSetStrategyType {
		c.rolling = set.Spec.UpdateStrategy.RollingUpdate
	}
	for _, q := range before.Pods {
		if q == nil || q.Namespace != set.Namespace {
			continue
		}
		c.names[q.Name] = true
		parent, o := statefulset.ParseOrdinal(q.Name)
		if parent != set.Name || o < 0 {
			continue
		}
		selected, err := set.Spec.Selector.Matches(q.Labels)
		if err != nil || !selected {
			continue
		}
		ref := q.ControllerRef()
		if ref != nil && ref.UID == set.UID || ref == nil && q.DeletionTimestamp == nil {
			c.byName[q.Name] = q
			if _, taken := c.pods[o]; !taken || q.Name == statefulset.PodName(set.Name, o) {
				c.pods[o] = q // upstream's later name wins: "web-1" over "web-01"
			}
		}
	}
	return c
}

func (c *stsCheck) fail(inv, format string, args ...any) {
	c.out = append(c.out, Violation{Invariant: inv, Message: fmt.Sprintf(format, args...)})
}

// inRange reports whether an ordinal is one of the replicas'.
func (c *stsCheck) inRange(o int) bool { return o >= c.start && o < c.start+c.n }

// healthy is what OrderedReady waits for: Running and Ready, available,
// not being deleted.
func (c *stsCheck) healthy(q *model.Pod) bool {
	return q != nil && q.Status.Phase == model.PodRunning && model.IsPodReady(q) &&
		model.IsPodAvailable(q, c.set.Spec.MinReadySeconds, c.before.Now) && q.DeletionTimestamp == nil
}

// unavailable is what maxUnavailable counts: missing, not available, or
// being deleted.
func (c *stsCheck) unavailable(q *model.Pod) bool {
	return q == nil || !model.IsPodAvailable(q, c.set.Spec.MinReadySeconds, c.before.Now) || q.DeletionTimestamp != nil
}

// firstUnhealthyReplica returns the lowest replica that is not healthy, or
// "" when all are.
func (c *stsCheck) firstUnhealthyReplica(below int) string {
	for o := c.start; o < below; o++ {
		if q := c.pods[o]; !c.healthy(q) {
			return c.describe(o)
		}
	}
	return ""
}

// describe names the pod at an ordinal with its state.
func (c *stsCheck) describe(o int) string {
	q := c.pods[o]
	name := statefulset.PodName(c.set.Name, o)
	switch {
	case q == nil:
		return name + " (missing)"
	case q.DeletionTimestamp != nil:
		return name + " (terminating)"
	case q.Status.Phase != model.PodRunning:
		return fmt.Sprintf("%s (phase %s)", name, q.Status.Phase)
	case !model.IsPodReady(q):
		return name + " (not Ready)"
	}
	return name + " (not yet available)"
}

// deletes returns the plan's pod deletions for a reason code.
func (c *stsCheck) deletes(code statefulset.ReasonCode) []statefulset.Action {
	var out []statefulset.Action
	for _, a := range c.p.Actions {
		if a.Kind == statefulset.DeletePod && a.Reason.Code == code {
			out = append(out, a)
		}
	}
	return out
}

// checkOrderedCreation is S1: under OrderedReady a pod is created only
// when every replica below it is healthy, one per sync.
func (c *stsCheck) checkOrderedCreation() {
	if !c.monotonic {
		return
	}
	creates := 0
	for _, a := range c.p.Actions {
		if a.Kind != statefulset.CreatePod {
			continue
		}
		creates++
		if bad := c.firstUnhealthyReplica(a.Ordinal); bad != "" {
			c.fail("S1", "OrderedReady creates %s while its predecessor %s is not Running, Ready and available", a.Object.Name, bad)
		}
	}
	if creates > 1 {
		c.fail("S1", "OrderedReady creates %d pods in one sync (at most 1)", creates)
	}
}

// partition is the lowest index the rolling update replaces (0 without a
// rollingUpdate block).
func (c *stsCheck) partition() int {
	if c.rolling == nil || c.rolling.Partition == nil {
		return 0
	}
	return int(*c.rolling.Partition)
}

// checkPartition is S2: the rolling update deletes only pods at or above
// the partition that are not at the update revision, never under OnDelete;
// a pod is created at the current revision below the partition and at the
// update revision from it up.
func (c *stsCheck) checkPartition() {
	st := c.p.Status
	for _, a := range c.deletes(statefulset.ReasonRollingUpdate) {
		if c.set.Spec.UpdateStrategy.Type != model.RollingUpdateStatefulSetStrategyType {
			c.fail("S2", "%s is deleted for a rolling update under %s", a.Object.Name, c.set.Spec.UpdateStrategy.Type)
			continue
		}
		if idx := a.Ordinal - c.start; idx < c.partition() {
			c.fail("S2", "the rolling update deletes %s, index %d below partition %d", a.Object.Name, idx, c.partition())
		}
		if q := c.pods[a.Ordinal]; st != nil && q != nil && q.Labels[model.StatefulSetRevisionLabel] == st.UpdateRevision {
			c.fail("S2", "the rolling update deletes %s, which is at the update revision %s", a.Object.Name, st.UpdateRevision)
		}
	}
	if st == nil {
		return
	}
	current := c.currentRevision()
	for _, a := range c.p.Actions {
		// A create of a name the namespace holds is upstream's attempt to
		// create again a pod that exists without a phase, with that pod:
		// the API server rejects it (S7 checks that).
		if a.Kind != statefulset.CreatePod || c.names[a.Object.Name] {
			continue
		}
		idx := a.Ordinal - c.start
		want, why := st.UpdateRevision, "from the partition up"
		switch {
		case c.rolling != nil && idx < c.partition():
			want, why = current, fmt.Sprintf("below partition %d", c.partition())
		case c.rolling == nil && c.set.Spec.UpdateStrategy.Type == model.RollingUpdateStatefulSetStrategyType && idx < int(c.set.Status.CurrentReplicas):
			want, why = current, fmt.Sprintf("below status.currentReplicas %d (no rollingUpdate block)", c.set.Status.CurrentReplicas)
		}
		if a.Revision != want {
			c.fail("S2", "%s (index %d) is created at revision %s, not %s (%s)", a.Object.Name, idx, a.Revision, want, why)
		}
	}
}

// currentRevision is the current revision the sync starts from: the stored
// status.currentRevision when the set's history holds it (revisions it
// controls and its selector matches, and those the plan adopts or
// creates), else the update revision. The status the plan computes may
// already name the update revision, once every replica is updated.
func (c *stsCheck) currentRevision() string {
	want := c.set.Status.CurrentRevision
	for _, a := range c.p.Actions {
		if (a.Kind == statefulset.AdoptControllerRevision || a.Kind == statefulset.CreateControllerRevision) && a.Object.Name == want {
			return want
		}
	}
	for _, r := range c.before.ControllerRevisions {
		if r == nil || r.Name != want || r.Namespace != c.set.Namespace || !r.IsControlledBy(c.set.UID) {
			continue
		}
		if ok, err := c.set.Spec.Selector.Matches(r.Labels); err == nil && ok {
			return want
		}
	}
	return c.p.Status.UpdateRevision
}

// maxUnavailable resolves rollingUpdate.maxUnavailable as upstream does:
// 1 by default, a percentage of replicas rounded down, at least 1.
func (c *stsCheck) maxUnavailable() (int, error) {
	if c.rolling == nil || c.rolling.MaxUnavailable == nil {
		return 1, nil
	}
	v, err := proportion.ScaledValue(c.rolling.MaxUnavailable, int32(c.n), false)
	if err != nil {
		return 0, err
	}
	return max(int(v), 1), nil
}

// checkUnavailable is S3: with the gate on, the rolling update's deletions
// never take the unavailable replicas above maxUnavailable; with it off, a
// sync deletes at most one pod for the update; under OrderedReady, only
// while every replica is healthy.
func (c *stsCheck) checkUnavailable() {
	rolled := c.deletes(statefulset.ReasonRollingUpdate)
	if len(rolled) == 0 {
		return
	}
	if c.monotonic {
		if bad := c.firstUnhealthyReplica(c.start + c.n); bad != "" {
			c.fail("S3", "OrderedReady deletes %s for the rolling update while %s is not Running, Ready and available", rolled[0].Object.Name, bad)
		}
	}
	if !c.gates.MaxUnavailable {
		if len(rolled) > 1 {
			c.fail("S3", "the rolling update deletes %d pods in one sync with the MaxUnavailableStatefulSet gate off (at most 1)", len(rolled))
		}
		return
	}
	maxU, err := c.maxUnavailable()
	if err != nil {
		c.fail("S3", "maxUnavailable: %v", err)
		return
	}
	unavailable := 0
	for o := c.start; o < c.start+c.n; o++ {
		if c.unavailable(c.pods[o]) {
			unavailable++
		}
	}
	if unavailable+len(rolled) > maxU {
		c.fail("S3", "%d replicas are unavailable and the rolling update deletes %d more: over maxUnavailable %d", unavailable, len(rolled), maxU)
	}
}

// checkScaleDown is S4: scale-down deletes only pods outside the replicas;
// under OrderedReady one per sync, the highest-ordinal such pod, and only
// while every replica is healthy.
func (c *stsCheck) checkScaleDown() {
	down := c.deletes(statefulset.ReasonScaleDown)
	for _, a := range down {
		if c.inRange(a.Ordinal) {
			c.fail("S4", "scale-down deletes %s, one of ordinals [%d, %d)", a.Object.Name, c.start, c.start+c.n)
		}
	}
	if !c.monotonic || len(down) == 0 {
		return
	}
	if len(down) > 1 {
		c.fail("S4", "OrderedReady deletes %d pods in one sync for a scale-down (at most 1)", len(down))
	}
	a := down[0]
	above := -1
	for o := range c.pods {
		if o > a.Ordinal && !c.inRange(o) {
			above = max(above, o)
		}
	}
	if above >= 0 {
		c.fail("S4", "OrderedReady deletes %s while %s above it still exists", a.Object.Name, c.pods[above].Name)
	}
	if bad := c.firstUnhealthyReplica(c.start + c.n); bad != "" {
		c.fail("S4", "OrderedReady deletes %s while %s is not Running, Ready and available", a.Object.Name, bad)
	}
}

// checkWrites is S7: every pod written is the set's; a pod is deleted at
// most once, never when already being deleted, and only when it failed (or
// succeeded), is outside the replicas, or is replaced by the rolling
// update; an accepted create is at an ordinal of the replicas whose name no
// pod of the namespace holds; a set being deleted gets no pod writes.
func (c *stsCheck) checkWrites() {
	deleted, created := map[string]bool{}, map[string]bool{}
	firstReason := map[string]statefulset.ReasonCode{}
	for _, a := range c.p.Actions {
		switch a.Kind {
		case statefulset.CreatePod:
			if c.set.DeletionTimestamp != nil {
				c.fail("S7", "%s is created while the StatefulSet is being deleted", a.Object.Name)
			}
			if !c.inRange(a.Ordinal) {
				c.fail("S7", "%s is created outside ordinals [%d, %d)", a.Object.Name, c.start, c.start+c.n)
			}
			if !a.Rejected() && c.names[a.Object.Name] && !deleted[a.Object.Name] {
				c.fail("S7", "%s is created while a pod of that name exists", a.Object.Name)
			}
			if want := statefulset.PodName(c.set.Name, a.Ordinal); a.Object.Name != want {
				c.fail("S7", "the pod of ordinal %d is created as %s, not %s", a.Ordinal, a.Object.Name, want)
			}
			created[a.Object.Name] = !a.Rejected()
		case statefulset.DeletePod:
			name := a.Object.Name
			if c.set.DeletionTimestamp != nil {
				c.fail("S7", "%s is deleted while the StatefulSet is being deleted", name)
			}
			if deleted[name] {
				c.fail("S7", "%s is deleted twice in one sync (%s, then %s)", name, firstReason[name], a.Reason.Code)
				if !c.monotonic && firstReason[name] == statefulset.ReasonFailedPod && a.Reason.Code == statefulset.ReasonRollingUpdate {
					c.out[len(c.out)-1].Quirk = QuirkParallelFailedDelete
				}
				continue
			}
			deleted[name] = true
			firstReason[name] = a.Reason.Code
			q := c.byName[name]
			if q == nil {
				switch {
				case created[name]:
					c.fail("S7", "%s is deleted (%s) in the sync that creates it", name, a.Reason.Code)
				case c.names[name]:
					c.fail("S7", "%s is deleted (%s) but is not a pod of the set (a pod of that name the set does not claim exists)", name, a.Reason.Code)
				default:
					c.fail("S7", "%s is deleted (%s) but does not exist", name, a.Reason.Code)
				}
				if !c.monotonic && c.rolling == nil && a.Reason.Code == statefulset.ReasonRollingUpdate {
					c.out[len(c.out)-1].Quirk = QuirkNilRollingUpdateLoop
				}
				continue
			}
			if q.DeletionTimestamp != nil {
				c.fail("S7", "%s is deleted while already being deleted", name)
			}
			switch a.Reason.Code {
			case statefulset.ReasonFailedPod:
				if !q.IsTerminal() {
					c.fail("S7", "%s is deleted as failed but is in phase %s", name, q.Status.Phase)
				}
			case statefulset.ReasonScaleDown, statefulset.ReasonRollingUpdate:
				// S4 and S2.
			default:
				c.fail("S7", "%s is deleted for an unexpected reason %s", name, a.Reason.Code)
			}
		}
	}
}

// CheckStatefulSetDeterminism is S6: it plans s three times, as given,
// with its slices reversed and with them rotated, and reports a violation
// when the plans differ, when planning changes the input, or when Sync
// fails on one ordering but not another.
func CheckStatefulSetDeterminism(s statefulset.State, opts ...statefulset.Option) []Violation {
	return checkSetDeterminism("S6", s, statefulset.Sync, opts, reversedStatefulSet, rotatedStatefulSet)
}

func reversedStatefulSet(s statefulset.State) statefulset.State {
	s.Pods = reversedCopy(s.Pods)
	s.ControllerRevisions = reversedCopy(s.ControllerRevisions)
	s.Claims = reversedCopy(s.Claims)
	return s
}

func rotatedStatefulSet(s statefulset.State) statefulset.State {
	s.Pods = rotate(s.Pods)
	s.ControllerRevisions = rotate(s.ControllerRevisions)
	s.Claims = rotate(s.Claims)
	return s
}
