package revision

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// Sentinels for the errors of kubectl rollout undo, for errors.Is. The typed
// errors below carry the details and upstream's exact messages.
var (
	// ErrRevisionNotFound is matched by [*RevisionNotFoundError].
	ErrRevisionNotFound = errors.New("revision not found in history")
	// ErrNoRolloutHistory is matched by [*NoRolloutHistoryError].
	ErrNoRolloutHistory = errors.New("no rollout history")
	// ErrAlreadyCurrent is matched by [*AlreadyCurrentError].
	ErrAlreadyCurrent = errors.New("current template already matches the revision")
	// ErrPaused is kubectl's refusal to roll back a paused Deployment, with
	// its exact text.
	ErrPaused = errors.New("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
)

// RevisionNotFoundError is kubectl's error for a requested revision that no
// ReplicaSet has, or a negative one:
//
//	unable to find specified revision 7 in history
type RevisionNotFoundError struct {
	Revision int64 // as requested
}

// Error returns kubectl's message.
func (e *RevisionNotFoundError) Error() string {
	return fmt.Sprintf("unable to find specified revision %d in history", e.Revision)
}

// Is makes errors.Is match [ErrRevisionNotFound].
func (e *RevisionNotFoundError) Is(target error) bool { return target == ErrRevisionNotFound }

// NoRolloutHistoryError is kubectl's error for "undo to the previous
// revision" when there is no previous revision:
//
//	no rollout history found for deployment "web"
type NoRolloutHistoryError struct {
	Deployment string // the Deployment's name
}

// Error returns kubectl's message.
func (e *NoRolloutHistoryError) Error() string {
	return fmt.Sprintf("no rollout history found for deployment %q", e.Deployment)
}

// Is makes errors.Is match [ErrNoRolloutHistory].
func (e *NoRolloutHistoryError) Is(target error) bool { return target == ErrNoRolloutHistory }

// AlreadyCurrentError means the chosen revision's template already is the
// Deployment's template, so undo does nothing. kubectl reports it as success
// with the line "deployment.apps/<name> skipped rollback (current template
// already matches revision N)"; Error returns the part after the name. N is
// the revision as requested, so 0 when undoing to the previous revision
// (upstream quirk: kubectl undo replaces the annotation map wholesale).
type AlreadyCurrentError struct {
	Revision int64 // as requested; 0 means "previous"
}

// Error returns kubectl's message.
func (e *AlreadyCurrentError) Error() string {
	return fmt.Sprintf("skipped rollback (current template already matches revision %d)", e.Revision)
}

// Is makes errors.Is match [ErrAlreadyCurrent].
func (e *AlreadyCurrentError) Is(target error) bool { return target == ErrAlreadyCurrent }

// RollbackTarget selects the ReplicaSet kubectl rollout undo would restore
// and returns it, one of the caller's own pointers.
//
// rss may be every ReplicaSet of the namespace: only those controlled by d
// (controller owner reference to d.UID) whose labels match d.Spec.Selector
// are considered. As in kubectl, a nil selector selects every ReplicaSet
// (kubectl lists with the selector's empty string form), and an invalid one
// is an error. They are ordered as kubectl orders them: the new ReplicaSet
// (the oldest whose template equals d's, ignoring pod-template-hash) last,
// the others before it by creation time and name.
//
//   - toRevision > 0: the first of them whose revision equals toRevision,
//     or a [*RevisionNotFoundError].
//   - toRevision == 0 (the previous revision): the one with the
//     second-highest revision, scanning in that order; with several
//     ReplicaSets of the highest revision, the later one counts as the
//     previous revision. A missing annotation is revision 0; unparsable
//     ones are skipped. With fewer than two, a [*NoRolloutHistoryError].
//   - toRevision < 0: a [*RevisionNotFoundError].
//
// When the target's template already equals d's, RollbackTarget returns the
// target together with an [*AlreadyCurrentError], so that a dry run can
// still show it. It does not check spec.paused; [Undo] does, in kubectl's
// order.
//
// Example (worked example of kubectl rollout undo target selection): with revisions 1, 2, 3 (3 current), 0 selects
// revision 2, 1 selects revision 1, 3 selects revision 3 with "skipped
// rollback (current template already matches revision 3)", and 7 fails with
// "unable to find specified revision 7 in history".
func RollbackTarget(d *model.Deployment, rss []*model.ReplicaSet, toRevision int64) (*model.ReplicaSet, error) {
	if toRevision < 0 {
		return nil, &RevisionNotFoundError{Revision: toRevision}
	}
	if d == nil {
		return nil, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	all, err := kubectlReplicaSets(d, rss)
	if err != nil {
		return nil, err
	}
	var target *model.ReplicaSet
	if toRevision > 0 {
		for _, rs := range all {
			if v, ok := revisionOf(rs); ok && v == toRevision {
				target = rs
				break
			}
		}
		if target == nil {
			return nil, &RevisionNotFoundError{Revision: toRevision}
		}
	} else {
		var latest *model.ReplicaSet
		latestRev, previousRev := int64(-1), int64(-1)
		for _, rs := range all {
			v, ok := revisionOf(rs)
			switch {
			case !ok:
			case v > latestRev:
				target, previousRev = latest, latestRev
				latest, latestRev = rs, v
			case v > previousRev:
				target, previousRev = rs, v
			}
		}
		if target == nil {
			return nil, &NoRolloutHistoryError{Deployment: d.Name}
		}
	}
	if model.EqualIgnoreHash(target.Spec.Template, d.Spec.Template) {
		return target, &AlreadyCurrentError{Revision: toRevision}
	}
	return target, nil
}

// kubectlReplicaSets returns the ReplicaSets kubectl considers for d, in
// kubectl's order: the old ones by creation time and name, then the new one.
func kubectlReplicaSets(d *model.Deployment, rss []*model.ReplicaSet) ([]*model.ReplicaSet, error) {
	matches := func(map[string]string) bool { return true }
	if d.Spec.Selector != nil {
		m, err := model.NewMatcher(d.Spec.Selector)
		if err != nil {
			return nil, fmt.Errorf("spec.selector: %w", err)
		}
		matches = m.Matches
	}
	var owned []*model.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rs.IsControlledBy(d.UID) && matches(rs.Labels) {
			owned = append(owned, rs)
		}
	}
	slices.SortFunc(owned, byCreationThenUID)

	var newRS *model.ReplicaSet
	for _, rs := range owned {
		if model.EqualIgnoreHash(rs.Spec.Template, d.Spec.Template) {
			newRS = rs
			break
		}
	}
	if newRS == nil {
		return owned, nil
	}
	all := make([]*model.ReplicaSet, 0, len(owned))
	for _, rs := range owned {
		// kubectl drops every ReplicaSet with the new one's UID; the pointer
		// test keeps that right for callers that leave UIDs empty.
		if rs == newRS || (rs.UID != "" && rs.UID == newRS.UID) {
			continue
		}
		all = append(all, rs)
	}
	return append(all, newRS), nil
}

// RollbackTemplate returns the template kubectl rollout undo writes into the
// Deployment: a copy of target's template without the pod-template-hash
// label (the controller adds it back to the ReplicaSet it manages, not to
// the Deployment). Other labels, annotations and the spec are kept as they
// are. target is only read; a nil target gives the zero template.
func RollbackTemplate(target *model.ReplicaSet) model.PodTemplate {
	if target == nil {
		return model.PodTemplate{}
	}
	t := target.Spec.Template.DeepCopy()
	delete(t.Labels, model.PodTemplateHashLabel)
	return t
}

// UndoAnnotations returns the annotation map kubectl rollout undo writes
// over d's (a JSON-patch replace of /metadata/annotations): d's own
// skip-list annotations ([model.IsSkippedAnnotation]), plus every other
// annotation of target. Annotations of d that target lacks are removed
// (upstream quirk: kubectl undo replaces the annotation map wholesale). The map is new; d and target are only read.
//
// Example: d {revision: 3, kubectl.kubernetes.io/last-applied-configuration:
// {...}, team: a} undone to target {revision: 1, change-cause: "v1"} gets
// {revision: 3, last-applied-configuration: {...}, change-cause: "v1"}.
func UndoAnnotations(d *model.Deployment, target *model.ReplicaSet) map[string]string {
	var current, from map[string]string
	if d != nil {
		current = d.Annotations
	}
	if target != nil {
		from = target.Annotations
	}
	return mergeForRollback(current, from)
}

// UndoPatch is what kubectl rollout undo writes to the Deployment: both
// fields replace the Deployment's wholesale.
type UndoPatch struct {
	// Target is the chosen ReplicaSet, one of the caller's pointers.
	Target *model.ReplicaSet
	// Template replaces spec.template ([RollbackTemplate]).
	Template model.PodTemplate
	// Annotations replaces metadata.annotations ([UndoAnnotations]).
	Annotations map[string]string
}

// Undo plans kubectl rollout undo --to-revision=toRevision against d, in
// kubectl's order of checks:
//
//  1. target selection ([RollbackTarget]): a [*RevisionNotFoundError],
//     [*NoRolloutHistoryError] or selector error ends it;
//  2. a paused Deployment: [ErrPaused];
//  3. a target whose template is already d's: an [*AlreadyCurrentError]
//     (kubectl prints it and exits successfully); the patch then has only
//     Target set;
//  4. otherwise the patch to apply.
//
// kubectl's client-side dry run prints the target's template after step 1,
// before the paused check; use [RollbackTarget] for that.
func Undo(d *model.Deployment, rss []*model.ReplicaSet, toRevision int64) (UndoPatch, error) {
	target, err := RollbackTarget(d, rss, toRevision)
	if err != nil && !errors.Is(err, ErrAlreadyCurrent) {
		return UndoPatch{}, err
	}
	if d.Spec.Paused {
		return UndoPatch{}, ErrPaused
	}
	if err != nil {
		return UndoPatch{Target: target}, err
	}
	return UndoPatch{
		Target:      target,
		Template:    RollbackTemplate(target),
		Annotations: UndoAnnotations(d, target),
	}, nil
}
