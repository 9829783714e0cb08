package plan

import (
	"slices"
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// Sync plans one sync of s.Deployment the way the upstream Deployment
// controller (v1.36) carries it out: the select-everything guard, ownership
// claims, the status-only sync of a Deployment being deleted, pause
// bookkeeping, paused and scaling syncs with proportional scaling, the legacy
// rollback annotation, and the Recreate and RollingUpdate strategies, with
// revision-history cleanup, status, conditions and the progress-deadline
// requeue.
//
// Errors come in two kinds, told apart with errors.As:
//   - invalid input: the State fails [State.Validate] (the
//     *model.ValidationError names each field), or the [WithHasher] function
//     returns a hash that cannot label pods and end a ReplicaSet name. The
//     Plan is then the zero Plan.
//   - a *[SyncError]: the error upstream's sync ends with on valid input (a
//     hash collision, a write the server refuses as invalid, an unresolvable
//     maxSurge, or an old-ReplicaSet error under
//     [SurfaceOldReplicaSetErrors]). The Plan then holds what upstream did
//     before it stopped, to be applied like any other.
//
// For example, a Deployment of 10 replicas with maxSurge 25% (3) and
// maxUnavailable 25% (2) whose template just changed, with one old ReplicaSet
// of 10 available pods, plans: create the new ReplicaSet with 3 replicas,
// record revision 2 on the Deployment, scale the old ReplicaSet 10→8, and
// write the status (that last write conflicts on a real server; see
// [Plan.Rejected]).
func Sync(s State, opts ...Option) (Plan, error) {
	cfg := newConfig(opts)
	if err := s.validate(cfg.validateOptions()); err != nil {
		return Plan{}, err
	}
	var sy syncer
	sy.start(s, cfg)
	sy.syncDeployment()
	if sy.hasherErr != nil {
		return Plan{}, sy.hasherErr
	}
	return sy.finish()
}

func (s *syncer) syncDeployment() {
	d := s.d
	if d.Spec.Selector.IsEmpty() {
		s.selectingAll()
		return
	}
	s.scopeToNamespace()
	rsList := s.claimReplicaSets()
	if d.DeletionTimestamp != nil {
		s.note(reason(NoteDeleting, nil, "the Deployment is being deleted: status only"))
		s.syncStatusOnly(rsList)
		return
	}
	s.checkPausedConditions()
	if d.Spec.Paused {
		s.note(reason(NotePaused, nil, "the Deployment is paused: it scales and cleans up but does not roll out"))
		s.sync(rsList)
		return
	}
	if _, ok := rollbackTo(d); ok {
		s.rollback(rsList)
		return
	}
	if s.isScalingEvent(rsList) {
		s.sync(rsList)
		return
	}
	// State.Validate admits only the two strategies upstream knows.
	if d.Spec.Strategy.Type == model.RecreateStrategy {
		s.rolloutRecreate(rsList)
	} else {
		s.rolloutRolling(rsList)
	}
}

func (s *syncer) selectingAll() {
	s.event(model.EventTypeWarning, model.EventSelectingAll, "This deployment is selecting all pods. A non-empty selector is required.")
	if s.d.Status.ObservedGeneration < s.d.Generation {
		s.d.Status.ObservedGeneration = s.d.Generation
		s.updateStatus(reason(ReasonSelectingAll, []Value{v("generation", s.d.Generation)},
			"the selector selects everything: only observedGeneration is recorded (generation %d)", s.d.Generation))
		return
	}
	s.note(reason(ReasonSelectingAll, nil, "the selector selects everything: nothing is done"))
}

// syncStatusOnly is the sync of a Deployment being deleted: it may still sync
// the new ReplicaSet's annotations and the revision (upstream quirk: deleting Deployments still get annotations).
func (s *syncer) syncStatusOnly(rsList []*model.ReplicaSet) {
	newRS, oldRSs, ok := s.getAllReplicaSetsAndSyncRevision(rsList, false)
	if !ok {
		return
	}
	s.syncDeploymentStatus(appendRS(oldRSs, newRS), newRS)
}

// sortedByCreation returns rss sorted oldest first, ties by name: the order
// upstream's in-place sort leaves the claimed list in. It returns rss itself
// when it is already in that order, so the result must not be modified.
func sortedByCreation(rss []*model.ReplicaSet) []*model.ReplicaSet {
	if slices.IsSortedFunc(rss, proportion.ByCreationTimestamp) {
		return rss // callers only read it
	}
	out := slices.Clone(rss)
	slices.SortFunc(out, proportion.ByCreationTimestamp)
	return out
}

// rollbackTo reads the legacy rollback annotation: absent, empty or not an
// integer means no request (an invalid value is ignored and left in place).
func rollbackTo(d *model.Deployment) (int64, bool) {
	s := d.Annotations[model.RollbackToAnnotation]
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}
