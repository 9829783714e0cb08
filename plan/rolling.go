package plan

import (
	"fmt"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// Scale is a planned size change of one ReplicaSet.
type Scale struct {
	ReplicaSet *model.ReplicaSet
	To         int32
	Reason     Reason
}

// newRSNewReplicas is upstream's NewRSNewReplicas with the reason for its
// answer; [proportion.NewRSNewReplicas] is the same arithmetic without the
// reason. It returns the size the new ReplicaSet may grow to now
// (upstream NewRSNewReplicas). For RollingUpdate the total of all ReplicaSets (allRSs, which
// includes newRS) may reach replicas + maxSurge, and the new ReplicaSet may
// not pass replicas: with replicas 10, maxSurge 3 (25%), an old ReplicaSet of
// 10 and a new one of 0 the answer is 0 + min(13 − 10, 10 − 0) = 3. Recreate
// returns replicas. maxSurge is resolved directly, without the fencepost
// rule, so an unresolvable maxSurge is an error here.
func newRSNewReplicas(d *model.Deployment, allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) (int32, Reason, error) {
	n, err := newRSNewReplicasDetail(d, allRSs, newRS)
	if err != nil {
		return 0, Reason{}, err
	}
	return n.Count, newRSReason("", nil, d, newRS, n), nil
}

// newRSNewReplicasDetail is [proportion.NewRSNewReplicasDetail] for the
// strategies a sync knows.
func newRSNewReplicasDetail(d *model.Deployment, allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) (proportion.NewReplicas, error) {
	if d != nil && d.Spec.Strategy.Type != model.RollingUpdateStrategy && d.Spec.Strategy.Type != model.RecreateStrategy {
		return proportion.NewReplicas{}, fmt.Errorf("deployment type %s isn't supported", d.Spec.Strategy.Type)
	}
	return proportion.NewRSNewReplicasDetail(d, allRSs, newRS)
}

// newRSReason is newRSNewReplicas's reason for n, its message written after
// lead and its values after leadValues.
func newRSReason(lead string, leadValues []Value, d *model.Deployment, newRS *model.ReplicaSet, n proportion.NewReplicas) Reason {
	if d.Spec.Strategy.Type == model.RecreateStrategy {
		values := append(append(make([]Value, 0, len(leadValues)+1), leadValues...), v("replicas", int64(n.Desired)))
		return reasonAfter(lead, ReasonRecreateScaleUp, values,
			"Recreate sizes the new ReplicaSet to replicas %d at once", n.Desired)
	}
	values := append(append(make([]Value, 0, len(leadValues)+6), leadValues...),
		v("from", int64(n.From)), v("to", int64(n.Count)), v("current", int64(n.Current)),
		v("maxTotal", int64(n.MaxTotal)), v("replicas", int64(n.Desired)), v("maxSurge", int64(n.Surge)))
	if n.Full {
		return reasonAfter(lead, NoteSurgeBudgetSpent, values,
			"total %d ≥ replicas %d + maxSurge %d = %d: the new ReplicaSet %s stays at %d",
			n.Current, n.Desired, n.Surge, n.MaxTotal, newRS.Name, n.From)
	}
	return reasonAfter(lead, ReasonScaleUpNew, values,
		"up = min(replicas %d + maxSurge %d − total %d, replicas %d − new %d) = %d",
		n.Desired, n.Surge, n.Current, n.Desired, n.From, n.Count-n.From)
}

// ReconcileNewReplicaSet decides the new ReplicaSet's size in a rolling sync
// (upstream reconcileNewReplicaSet): down to replicas when above it, else the size
// [proportion.NewRSNewReplicas] allows. ok
// is false when the size stays.
func ReconcileNewReplicaSet(allRSs []*model.ReplicaSet, newRS *model.ReplicaSet, d *model.Deployment) (to int32, ok bool, why Reason, err error) {
	if d == nil || newRS == nil {
		return 0, false, Reason{}, errNil("deployment or newRS")
	}
	desired := d.DesiredReplicas()
	have := newRS.SpecReplicas()
	if have == desired {
		return have, false, reason(NoteReplicasReached, vals(v("replicas", int64(desired))),
			"the new ReplicaSet %s already has replicas %d", newRS.Name, desired), nil
	}
	if have > desired {
		return desired, true, reason(ReasonScaleDownNew, vals(v("from", int64(have)), v("to", int64(desired))),
			"the new ReplicaSet %s has %d > replicas %d", newRS.Name, have, desired), nil
	}
	n, err := newRSNewReplicasDetail(d, allRSs, newRS)
	if err != nil {
		return have, false, Reason{}, err
	}
	// A size change leads the message with it.
	lead := ""
	if n.Count != have {
		lead = fmt.Sprintf("new %s %d→%d: ", newRS.Name, have, n.Count)
	}
	return n.Count, n.Count != have, newRSReason(lead, nil, d, newRS, n), nil
}

// createReason is the reason of the create of rs, the new ReplicaSet of
// revision rev, with the size newRSNewReplicas decides (n): its reason led
// by the create.
func (s *syncer) createReason(rs *model.ReplicaSet, rev string, n proportion.NewReplicas) Reason {
	lead := fmt.Sprintf("no ReplicaSet has the current template: create %s (revision %s) with %d: ", rs.Name, rev, n.Count)
	why := newRSReason(lead, []Value{v("replicas", int64(n.Count))}, s.d, rs, n)
	why.Code = ReasonCreateNewReplicaSet
	return why
}

// CleanupUnhealthyReplicas plans the removal of old pods that are not
// available, oldest ReplicaSet first, at most maxCleanup in all (upstream cleanupUnhealthyReplicas):
// an old ReplicaSet of 10 with 8 available loses 2 when the budget allows.
// It returns the scales in order and their total. An old ReplicaSet whose
// status reports more available pods than its spec makes it stop with an
// error after the scales already planned, as upstream does.
func CleanupUnhealthyReplicas(oldActive []*model.ReplicaSet, d *model.Deployment, maxCleanup int32) ([]Scale, int32, error) {
	var scales []Scale
	var total int32
	for _, rs := range sortedByCreation(oldActive) {
		if total >= maxCleanup {
			break
		}
		if rs == nil {
			continue
		}
		spec, avail := rs.SpecReplicas(), rs.Status.AvailableReplicas
		if spec == 0 || spec == avail {
			continue
		}
		n := min(maxCleanup-total, spec-avail)
		to := spec - n
		if to > spec {
			return scales, total, fmt.Errorf("when cleaning up unhealthy replicas, got invalid request to scale down %s/%s %d -> %d", rs.Namespace, rs.Name, spec, to)
		}
		scales = append(scales, Scale{ReplicaSet: rs, To: to, Reason: reason(ReasonCleanupUnhealthy,
			vals(v("from", int64(spec)), v("to", int64(to)), v("available", int64(avail)), v("budget", int64(maxCleanup-total))),
			"old %s %d→%d: %d of its pods are not available (budget %d)", rs.Name, spec, to, spec-avail, maxCleanup-total)})
		total += n
	}
	return scales, total, nil
}

// ScaleDownOldReplicaSetsForRollingUpdate plans the healthy scale-down of old
// ReplicaSets, oldest first, by as much as availability allows (upstream scaleDownOldReplicaSetsForRollingUpdate):
// with replicas 10, maxUnavailable 2 and 10 available pods, 2 old pods go.
func ScaleDownOldReplicaSetsForRollingUpdate(allRSs, oldActive []*model.ReplicaSet, d *model.Deployment) ([]Scale, int32, Reason) {
	if d == nil {
		return nil, 0, Reason{}
	}
	desired := d.DesiredReplicas()
	maxUnavailable := proportion.MaxUnavailable(d)
	minAvailable := desired - maxUnavailable
	available := sumAvailable(allRSs)
	// Each reason gets its own copy of the budget's values (with room
	// for its own), made when it is given.
	budget := [...]Value{v("available", int64(available)), v("minAvailable", int64(minAvailable)), v("replicas", int64(desired)), v("maxUnavailable", int64(maxUnavailable))}
	if available <= minAvailable {
		return nil, 0, reason(NoteAvailabilityBudgetSpent, append([]Value(nil), budget[:]...),
			"available %d ≤ minAvailable %d = replicas %d − maxUnavailable %d: no old pod may go", available, minAvailable, desired, maxUnavailable)
	}
	target := available - minAvailable
	var scales []Scale
	var total int32
	for _, rs := range sortedByCreation(oldActive) {
		if total >= target {
			break
		}
		if rs == nil {
			continue
		}
		spec := rs.SpecReplicas()
		if spec == 0 {
			continue
		}
		n := min(spec, target-total)
		scales = append(scales, Scale{ReplicaSet: rs, To: spec - n, Reason: reason(ReasonScaleDownOld,
			append(append(make([]Value, 0, len(budget)+2), budget[:]...), v("from", int64(spec)), v("to", int64(spec-n))),
			"old %s %d→%d: available %d > minAvailable %d = replicas %d − maxUnavailable %d",
			rs.Name, spec, spec-n, available, minAvailable, desired, maxUnavailable)})
		total += n
	}
	return scales, total, Reason{}
}

// rolloutRolling is one RollingUpdate sync (upstream rolloutRolling): at most one direction
// per sync, new ReplicaSet first.
func (s *syncer) rolloutRolling(rsList []*model.ReplicaSet) {
	d := s.d
	newRS, oldRSs, ok := s.getAllReplicaSetsAndSyncRevision(rsList, true)
	if !ok {
		return
	}
	allRSs := appendRS(oldRSs, newRS)

	to, scale, why, err := ReconcileNewReplicaSet(allRSs, newRS, d)
	if err != nil {
		s.failFencepost(err)
		return
	}
	if scale {
		if scaled, _ := s.scaleReplicaSetAndRecordEvent(newRS, to, why); scaled {
			s.syncRolloutStatus(allRSs, newRS)
			return
		}
	} else if why.Code != "" {
		s.note(why)
	}

	if s.reconcileOldReplicaSets(allRSs, activeOf(oldRSs), newRS) {
		s.syncRolloutStatus(allRSs, newRS)
		return
	}
	if s.err != nil {
		// SurfaceOldReplicaSetErrors: the newest tree still reports status.
		s.syncRolloutStatus(allRSs, newRS)
		return
	}
	if DeploymentComplete(d, &d.Status) {
		s.cleanupDeployment(oldRSs)
	}
	s.syncRolloutStatus(allRSs, newRS)
}

// ReconcileOldReplicaSets decides how far old ReplicaSets shrink in a
// rolling sync (upstream reconcileOldReplicaSets). The budget is total − minAvailable − the new
// ReplicaSet's unavailable pods (10 + 3 − 8 − 3 = 2 while the 3 new pods are
// not available yet); within it, unavailable old pods go first
// ([CleanupUnhealthyReplicas]), then available ones as far as availability
// allows ([ScaleDownOldReplicaSetsForRollingUpdate], computed on the sizes
// the cleanup leaves). It returns the scales in upstream's order, notes on
// why it stopped short, and the error upstream computes when an old
// ReplicaSet reports more available pods than its spec; the scales before
// that error are still upstream's writes.
func ReconcileOldReplicaSets(allRSs, oldActive []*model.ReplicaSet, newRS *model.ReplicaSet, d *model.Deployment) ([]Scale, []Reason, error) {
	if d == nil || newRS == nil {
		return nil, nil, errNil("deployment or newRS")
	}
	oldActive = slices.DeleteFunc(slices.Clone(oldActive), func(rs *model.ReplicaSet) bool { return rs == nil })
	if proportion.ReplicaCount(oldActive) == 0 {
		return nil, nil, nil
	}
	allPods := proportion.ReplicaCount(allRSs)
	minAvailable := d.DesiredReplicas() - proportion.MaxUnavailable(d)
	newUnavailable := newRS.SpecReplicas() - newRS.Status.AvailableReplicas
	maxScaledDown := allPods - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return nil, []Reason{reason(NoteAvailabilityBudgetSpent,
			vals(v("total", int64(allPods)), v("minAvailable", int64(minAvailable)), v("newUnavailable", int64(newUnavailable))),
			"total %d − minAvailable %d − unavailable new pods %d ≤ 0: old ReplicaSets wait for new pods to become available",
			allPods, minAvailable, newUnavailable)}, nil
	}
	cleanups, _, err := CleanupUnhealthyReplicas(oldActive, d, maxScaledDown)
	if err != nil {
		return cleanups, nil, err
	}
	// The healthy scale-down sees the sizes the cleanup leaves.
	resized := slices.Clone(sortedByCreation(oldActive))
	for _, sc := range cleanups {
		i := slices.Index(resized, sc.ReplicaSet)
		c := *resized[i]
		c.Spec.Replicas = model.Int32Ptr(sc.To)
		resized[i] = &c
	}
	downs, _, why := ScaleDownOldReplicaSetsForRollingUpdate(appendRS(resized, newRS), resized, d)
	for i, sc := range downs {
		downs[i].ReplicaSet = oldActive[slices.IndexFunc(oldActive, func(rs *model.ReplicaSet) bool { return rs.Name == sc.ReplicaSet.Name })]
	}
	var notes []Reason
	if why.Code != "" {
		notes = []Reason{why}
	}
	if len(cleanups) == 0 {
		return downs, notes, nil
	}
	return append(cleanups, downs...), notes, nil
}

// reconcileOldReplicaSets carries ReconcileOldReplicaSets out and reports
// whether any old ReplicaSet changed. A ReplicaSet scaled twice is written
// the second time from the first write's result, as upstream does.
func (s *syncer) reconcileOldReplicaSets(allRSs, oldActive []*model.ReplicaSet, newRS *model.ReplicaSet) bool {
	scales, notes, err := ReconcileOldReplicaSets(allRSs, oldActive, newRS, s.d)
	for _, n := range notes {
		s.note(n)
	}
	latest := map[string]*model.ReplicaSet{}
	scaled := false
	for _, sc := range scales {
		base := sc.ReplicaSet
		if rs, ok := latest[base.Name]; ok {
			base = rs
		}
		did, out := s.scaleReplicaSetAndRecordEvent(base, sc.To, sc.Reason)
		latest[base.Name] = out
		scaled = scaled || did
	}
	if err != nil {
		return s.oldReplicaSetError(err)
	}
	return scaled
}

// oldReplicaSetError handles an error of the old-ReplicaSet scale-down:
// swallowed by released upstream, surfaced by the newest tree.
func (s *syncer) oldReplicaSetError(err error) bool {
	if s.cfg.surfaceOldRSErrors {
		s.fail(ErrKindInvalidScale, "%s", err.Error())
		return false
	}
	s.note(reason(NoteSwallowedError, nil, "upstream ignores: %s", err.Error()))
	return false
}

func sumAvailable(rss []*model.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.AvailableReplicas
		}
	}
	return n
}

// errNil reports a nil argument the way validation reports a missing field.
func errNil(what string) error {
	return &model.FieldError{Field: what, Detail: "must not be nil"}
}
