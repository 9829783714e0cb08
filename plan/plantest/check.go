package plantest

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// Violation is one broken invariant, with the numbers that break it.
type Violation struct {
	Invariant string `json:"invariant"` // "I1" ... "I9", "S1" ... "S7" for StatefulSets, "D1" ... "D5" for DaemonSets
	Message   string `json:"message"`
	// Quirk names the documented upstream behaviour behind the violation,
	// and the plan option that avoids it, when the planner reproduced
	// upstream faithfully; "" for a violation upstream would not make.
	Quirk string `json:"quirk,omitempty"`
}

// String renders "I1: message", and the quirk if any.
func (v Violation) String() string {
	if v.Quirk != "" {
		return v.Invariant + ": " + v.Message + " [upstream quirk " + v.Quirk + "]"
	}
	return v.Invariant + ": " + v.Message
}

// Known upstream quirks that break invariants, as Violation.Quirk names them.
const (
	QuirkRollbackCreate   = "rollback creates: the legacy rollback creates a ReplicaSet for the abandoned template; plan.RollbackWithoutCreate avoids it"
	QuirkProportionalSign = "proportional sign: proportions from inconsistent max-replicas annotations move against the change; plan.MonotonicProportions avoids it"
	// QuirkStaleAvailability has no option: the planner cannot know how
	// many of the reported pods are really still there.
	QuirkStaleAvailability = "stale availability: an old ReplicaSet's status still reports more available pods than its spec keeps (the status lags a scale-down) and upstream's availability budget counts them"
)

// Check reports every violation of the invariants I1–I3 and I6–I9 (see the
// package documentation) by the writes of p, planned for before. It
// considers every write the plan attempts, as applied in order. An empty
// result means the plan is sound.
func Check(before plan.State, p plan.Plan) []Violation {
	d := before.Deployment
	if d == nil {
		return nil
	}
	c := newCheck(before, p)
	c.checkTotal()
	c.checkAvailability()
	c.checkNewAndOld()
	c.checkProportional()
	c.checkCleanup()
	c.checkCollisionCount()
	c.checkPausedAndRecreate()
	c.attributeQuirks()
	return c.out
}

// attributeQuirks tags violations that a faithful planner inherits from a
// documented upstream quirk.
func (c *check) attributeQuirks() {
	rollbackCreate, againstTheChange := false, false
	for _, a := range c.p.Actions {
		switch a.Reason.Code {
		case plan.ReasonRollback:
			rollbackCreate = rollbackCreate || c.wroteWith(plan.ReasonCreateNewReplicaSet, plan.ReasonRecreateScaleUp, plan.ReasonScaleUpNew)
		case plan.ReasonProportional:
			proportion, _ := a.Reason.Value("proportion")
			allowed, _ := a.Reason.Value("allowed")
			current, _ := a.Reason.Value("current")
			toAdd := allowed - current
			againstTheChange = againstTheChange || proportion != 0 && (proportion > 0) != (toAdd > 0)
		}
	}
	staleAvailability := false
	for _, name := range c.names {
		if s := c.byName[name]; !s.reset && s.rs.Status.AvailableReplicas > s.spec {
			staleAvailability = true
		}
	}
	wraps := len(c.out) > 0 && c.wraps()
	for i, v := range c.out {
		switch {
		case wraps:
			c.out[i].Quirk = QuirkInt32Wrap
		case staleAvailability && v.Invariant == "I2":
			c.out[i].Quirk = QuirkStaleAvailability
		case rollbackCreate && (v.Invariant == "I1" || v.Invariant == "I3" || v.Invariant == "I9"):
			c.out[i].Quirk = QuirkRollbackCreate
		case againstTheChange && (v.Invariant == "I1" || v.Invariant == "I6"):
			c.out[i].Quirk = QuirkProportionalSign
		}
	}
}

type sizes struct {
	spec  int32
	rs    *model.ReplicaSet // the object before the sync, or the created one
	gone  bool
	reset bool // created this sync
}

type check struct {
	before  plan.State
	p       plan.Plan
	d       *model.Deployment
	desired int32
	surge   int32
	unav    int32
	names   []string // owned ReplicaSets, in first-seen order
	byName  map[string]*sizes
	after   map[string]int32
	newName string
	reasons map[string][]plan.ReasonCode // reason codes of the writes to each ReplicaSet
	out     []Violation
}

func newCheck(before plan.State, p plan.Plan) *check {
	d := before.Deployment
	c := &check{
		before: before, p: p, d: d, desired: d.DesiredReplicas(),
		surge: proportion.MaxSurge(d), unav: proportion.MaxUnavailable(d),
		byName: map[string]*sizes{}, after: map[string]int32{}, reasons: map[string][]plan.ReasonCode{},
	}
	adopted := map[string]bool{}
	for _, a := range p.Actions {
		if a.Kind == plan.AdoptReplicaSet {
			adopted[a.Object.Name] = true
		}
	}
	for _, rs := range before.ReplicaSets {
		// The planner, like upstream's namespaced listers, never sees
		// another namespace.
		if rs == nil || rs.Namespace != d.Namespace || !(rs.IsControlledBy(d.UID) || adopted[rs.Name]) {
			continue
		}
		c.add(rs.Name, &sizes{spec: rs.SpecReplicas(), rs: rs})
	}
	for _, a := range p.Actions {
		switch a.Kind {
		case plan.CreateReplicaSet:
			c.add(a.Object.Name, &sizes{rs: a.ReplicaSet, reset: true})
			c.after[a.Object.Name] = a.ReplicaSet.SpecReplicas()
		case plan.ScaleReplicaSet, plan.UpdateReplicaSet:
			if _, ok := c.byName[a.Object.Name]; ok {
				c.after[a.Object.Name] = a.Update.Replicas
			}
		case plan.DeleteReplicaSet, plan.ReleaseReplicaSet:
			if s, ok := c.byName[a.Object.Name]; ok {
				s.gone = true
				delete(c.after, a.Object.Name)
			}
		}
		if a.ReplicaSet != nil || a.Update != nil || a.Kind == plan.DeleteReplicaSet {
			c.reasons[a.Object.Name] = append(c.reasons[a.Object.Name], a.Reason.Code)
		}
	}
	owned := make([]*model.ReplicaSet, 0, len(c.names))
	for _, name := range c.names {
		owned = append(owned, c.byName[name].rs)
	}
	// The planner's own rule (oldest with the template, ties by name), so
	// the answer does not depend on the input order.
	if newRS := plan.FindNewReplicaSet(d, owned); newRS != nil {
		c.newName = newRS.Name
	}
	return c
}

func (c *check) add(name string, s *sizes) {
	if _, ok := c.byName[name]; !ok {
		c.names = append(c.names, name)
	}
	c.byName[name] = s
	c.after[name] = s.spec
}

func (c *check) fail(inv, format string, args ...any) {
	c.out = append(c.out, Violation{Invariant: inv, Message: fmt.Sprintf(format, args...)})
}

// totals sums spec.replicas before and after the sync in 64 bits, so that
// the check itself never wraps.
func (c *check) totals() (before, after int64) {
	for _, name := range c.names {
		s := c.byName[name]
		if !s.reset {
			before += int64(s.spec)
		}
		if !s.gone {
			after += int64(c.after[name])
		}
	}
	return before, after
}

// checkTotal is I1.
func (c *check) checkTotal() {
	before, after := c.totals()
	limit := int64(c.desired) + int64(c.surge)
	if after > limit && after > before {
		c.fail("I1", "total spec.replicas grows %d→%d above replicas %d + maxSurge %d = %d", before, after, c.desired, c.surge, limit)
	}
}

// wroteWith reports whether any ReplicaSet write of the plan has one of the
// reason codes.
func (c *check) wroteWith(codes ...plan.ReasonCode) bool {
	for name := range c.reasons {
		if c.grewFor(name, codes...) {
			return true
		}
	}
	return false
}

// checkAvailability is I2: counting, for each ReplicaSet the sync resizes,
// the available pods that survive its new size (unavailable pods go first).
func (c *check) checkAvailability() {
	if !c.wroteWith(plan.ReasonScaleDownOld, plan.ReasonCleanupUnhealthy) {
		return
	}
	var availBefore, availAfter int64
	for _, name := range c.names {
		s := c.byName[name]
		if s.reset {
			continue
		}
		avail := int64(s.rs.Status.AvailableReplicas)
		availBefore += avail
		switch {
		case s.gone:
		case c.after[name] == s.spec:
			// Untouched by this sync: whatever the ReplicaSet controller does
			// with a lagging status is not this plan's doing.
			availAfter += avail
		default:
			availAfter += min(avail, max(0, int64(c.after[name])))
		}
	}
	floor := min(availBefore, int64(c.desired)-int64(c.unav))
	if availAfter < floor {
		c.fail("I2", "a rolling scale-down leaves at most %d available pods, below min(available %d, replicas %d − maxUnavailable %d)",
			availAfter, availBefore, c.desired, c.unav)
	}
}

// checkNewAndOld is I3.
func (c *check) checkNewAndOld() {
	for _, name := range c.names {
		s := c.byName[name]
		after := c.after[name]
		if s.gone {
			continue
		}
		if name == c.newName {
			if after > c.desired && after > s.spec && c.grewFor(name, plan.ReasonScaleUpNew, plan.ReasonCreateNewReplicaSet, plan.ReasonRecreateScaleUp) {
				c.fail("I3", "the new ReplicaSet %s grows to %d above replicas %d", name, after, c.desired)
			}
			continue
		}
		if after > s.spec && !c.grewFor(name, plan.ReasonProportional, plan.ReasonScaleActive) {
			c.fail("I3", "old ReplicaSet %s grows %d→%d outside a scaling event", name, s.spec, after)
		}
	}
}

// grewFor reports whether a write to the named ReplicaSet has one of the
// reason codes.
func (c *check) grewFor(name string, codes ...plan.ReasonCode) bool {
	for _, got := range c.reasons[name] {
		if slices.Contains(codes, got) {
			return true
		}
	}
	return false
}

// checkProportional is I6.
func (c *check) checkProportional() {
	var allowed, current int64
	found := false
	for _, a := range c.p.Actions {
		if a.Reason.Code != plan.ReasonProportional {
			continue
		}
		found = true
		allowed, _ = a.Reason.Value("allowed")
		current, _ = a.Reason.Value("current")
		if a.Update != nil && a.Update.Replicas < 0 {
			c.fail("I6", "proportional scaling takes %s below zero (%d)", a.Object.Name, a.Update.Replicas)
		}
	}
	if !found {
		return
	}
	var sum int64
	consistent, clamped := true, false
	for _, name := range c.names {
		s := c.byName[name]
		if s.reset || s.gone || s.spec == 0 {
			continue
		}
		after := c.after[name]
		sum += int64(after)
		if after == 0 && current > allowed {
			clamped = true
		}
		if m, ok := proportion.NonNegativeInt32Annotation(s.rs.Annotations, model.MaxReplicasAnnotation); !ok || int64(m) != current {
			consistent = false
		}
	}
	if sum != allowed && !clamped {
		c.fail("I6", "proportional scaling reaches %d, not replicas + maxSurge = %d", sum, allowed)
	}
	if !consistent {
		return
	}
	for _, name := range c.names {
		s := c.byName[name]
		if s.reset || s.gone || s.spec == 0 {
			continue
		}
		move := int64(c.after[name]) - int64(s.spec)
		if move != 0 && (move > 0) != (allowed > current) {
			c.fail("I6", "proportional scaling moves %s %d→%d against the change %d→%d", name, s.spec, c.after[name], current, allowed)
		}
	}
}

// checkCleanup is I7.
func (c *check) checkCleanup() {
	deleted := 0
	for _, a := range c.p.Actions {
		if a.Kind != plan.DeleteReplicaSet {
			continue
		}
		deleted++
		s, ok := c.byName[a.Object.Name]
		if !ok {
			c.fail("I7", "deletes %s, which the Deployment does not own", a.Object.Name)
			continue
		}
		rs := s.rs
		switch {
		case a.Object.Name == c.newName:
			c.fail("I7", "deletes the new ReplicaSet %s", a.Object.Name)
		case rs.SpecReplicas() != 0 || rs.Status.Replicas != 0:
			c.fail("I7", "deletes %s, which has pods (spec %d, status %d)", a.Object.Name, rs.SpecReplicas(), rs.Status.Replicas)
		case rs.Generation > rs.Status.ObservedGeneration:
			c.fail("I7", "deletes %s before its generation %d is observed (%d)", a.Object.Name, rs.Generation, rs.Status.ObservedGeneration)
		case rs.DeletionTimestamp != nil:
			c.fail("I7", "deletes %s, which is already being deleted", a.Object.Name)
		}
	}
	limit := c.d.Spec.RevisionHistoryLimit
	if deleted == 0 || limit == nil || *limit == model.NoLimit {
		return
	}
	var oldBefore int
	for _, name := range c.names {
		s := c.byName[name]
		if !s.reset && name != c.newName && s.rs.DeletionTimestamp == nil {
			oldBefore++
		}
	}
	if kept := oldBefore - deleted; kept < min(oldBefore, int(*limit)) {
		c.fail("I7", "keeps %d old ReplicaSets of %d, fewer than revisionHistoryLimit %d", kept, oldBefore, *limit)
	}
}

// checkCollisionCount is I8.
func (c *check) checkCollisionCount() {
	before := c.d.Status.CollisionCount
	for _, a := range c.p.Actions {
		if a.Deployment == nil || a.Deployment.Status == nil {
			continue
		}
		after := a.Deployment.Status.CollisionCount
		if before != nil && (after == nil || *after < *before) {
			c.fail("I8", "collisionCount decreases from %d to %s", *before, int32String(after))
		}
	}
}

func int32String(p *int32) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(int(*p))
}

// checkPausedAndRecreate is I9.
func (c *check) checkPausedAndRecreate() {
	if c.d.Spec.Paused {
		for _, name := range c.names {
			s := c.byName[name]
			if s.reset {
				c.fail("I9", "creates ReplicaSet %s while paused", name)
				continue
			}
			if !s.gone && c.after[name] != s.spec && !c.grewFor(name, plan.ReasonScaleActive, plan.ReasonScaleSaturated, plan.ReasonProportional) {
				c.fail("I9", "rolls %s %d→%d while paused", name, s.spec, c.after[name])
			}
		}
	}
	if c.d.Spec.Strategy.Type != model.RecreateStrategy || c.newName == "" || !c.oldPodsRunning() {
		return
	}
	s := c.byName[c.newName]
	var before int32
	if !s.reset {
		before = s.spec
	}
	if after := c.after[c.newName]; after > before && !c.grewFor(c.newName, plan.ReasonScaleActive, plan.ReasonProportional) {
		c.fail("I9", "Recreate sizes the new ReplicaSet %s %d→%d while old pods still run", c.newName, before, after)
	}
}

// oldPodsRunning reports whether an old ReplicaSet reports pods, or a pod
// of the Deployment's namespace whose controller reference names an old
// ReplicaSet by kind, name and UID (whatever its labels) has not finished.
func (c *check) oldPodsRunning() bool {
	type owner struct{ name, uid string }
	old := map[owner]bool{}
	for _, name := range c.names {
		s := c.byName[name]
		if s.reset || name == c.newName {
			continue
		}
		if s.rs.Status.Replicas > 0 {
			return true
		}
		old[owner{s.rs.Name, s.rs.UID}] = true
	}
	for _, p := range c.before.Pods {
		if p == nil || p.Namespace != c.d.Namespace {
			continue
		}
		ref := p.ControllerRef()
		if ref != nil && ref.Kind == model.ReplicaSetKind && old[owner{ref.Name, ref.UID}] && !p.IsTerminal() {
			return true
		}
	}
	return false
}
