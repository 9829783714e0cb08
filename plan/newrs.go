package plan

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
	"github.com/rolloutplan/rolloutplan/revision"
)

// FindNewReplicaSet returns the ReplicaSet whose template equals the
// Deployment's (ignoring pod-template-hash), or nil. When several match, the
// oldest wins (ties by name), as upstream. rss is not reordered.
func FindNewReplicaSet(d *model.Deployment, rss []*model.ReplicaSet) *model.ReplicaSet {
	if d == nil {
		return nil
	}
	var found *model.ReplicaSet
	for _, rs := range rss {
		if rs == nil || !model.EqualIgnoreHash(rs.Spec.Template, d.Spec.Template) {
			continue
		}
		if found == nil || model.CompareCreation(rs, found) < 0 {
			found = rs
		}
	}
	return found
}

// FindOldReplicaSets returns, oldest first, the ReplicaSets other than the
// new one: required holds those with spec.replicas ≠ 0, all holds every one.
func FindOldReplicaSets(d *model.Deployment, rss []*model.ReplicaSet) (required, all []*model.ReplicaSet) {
	newRS := FindNewReplicaSet(d, rss)
	for _, rs := range sortedByCreation(rss) {
		if rs == nil || rs == newRS {
			continue
		}
		all = append(all, rs)
		if rs.SpecReplicas() != 0 {
			required = append(required, rs)
		}
	}
	return required, all
}

// getAllReplicaSetsAndSyncRevision finds the new ReplicaSet (creating it when
// create is set) and the old ones; ok is false when the sync ends here.
//
// Upstream calls it up to twice per sync (to detect a scaling event, then
// for the strategy). When the first call wrote nothing, the second would
// compute exactly the same from the same inputs, so its result is reused;
// after a write (or to create the new ReplicaSet the first call did not)
// the second call runs again, as it must to reproduce upstream's second
// write, from the same split of rsList into the existing new ReplicaSet
// and the old ones: a pure result of the same list and template.
func (s *syncer) getAllReplicaSetsAndSyncRevision(rsList []*model.ReplicaSet, create bool) (newRS *model.ReplicaSet, oldRSs []*model.ReplicaSet, ok bool) {
	f := &s.found
	if f.valid && (f.newRS != nil || !create) {
		return f.newRS, f.oldRSs, true
	}
	writes := len(s.plan.Actions)
	var existing *model.ReplicaSet
	if f.split && !s.templateReplaced && sameList(f.rsList, rsList) {
		existing, oldRSs = f.existing, f.oldRSs
	} else {
		// rsList is the claimed list, already in creation order.
		existing = FindNewReplicaSet(s.d, rsList)
		oldRSs = make([]*model.ReplicaSet, 0, len(rsList))
		for _, rs := range rsList {
			if rs != existing {
				oldRSs = append(oldRSs, rs)
			}
		}
		*f = foundReplicaSets{split: !s.templateReplaced, rsList: rsList, existing: existing, oldRSs: oldRSs}
	}
	newRS, ok = s.getNewReplicaSet(existing, oldRSs, create)
	if ok && len(s.plan.Actions) == writes {
		f.valid, f.newRS = true, newRS
	}
	return newRS, oldRSs, ok
}

// foundReplicaSets remembers how getAllReplicaSetsAndSyncRevision split a
// list (split: rsList into existing and oldRSs, for the working copy's
// template while it is the input's) and, when the call wrote nothing, its
// result (valid: newRS and oldRSs).
type foundReplicaSets struct {
	split    bool
	rsList   []*model.ReplicaSet
	existing *model.ReplicaSet
	valid    bool
	newRS    *model.ReplicaSet
	oldRSs   []*model.ReplicaSet
}

// sameList reports whether a and b are the same list (not only equal ones).
func sameList(a, b []*model.ReplicaSet) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// getNewReplicaSet returns existing, the ReplicaSet with the Deployment's
// template (or nil), after syncing its annotations and the Deployment's
// revision (upstream getNewReplicaSet (existing new ReplicaSet)), or creates it (upstream getNewReplicaSet (creation)).
func (s *syncer) getNewReplicaSet(existing *model.ReplicaSet, oldRSs []*model.ReplicaSet, create bool) (*model.ReplicaSet, bool) {
	d := s.d
	newRevision := strconv.FormatInt(revision.MaxRevision(oldRSs)+1, 10)
	if existing != nil {
		// Only the annotations change in place, and only in a copy made
		// when something would change (else the sync goes on with existing
		// itself, which it only reads); a written copy is made whole first.
		c := existing
		annCopied, annChanged := false, false
		if !revision.NewReplicaSetAnnotationsCurrent(d, existing, newRevision, model.MaxRevisionHistoryLength) {
			cp := *existing
			c = &cp
			c.Annotations = maps.Clone(existing.Annotations)
			annCopied = true
			annChanged = revision.SetNewReplicaSetAnnotations(d, c, newRevision, model.MaxRevisionHistoryLength)
		}
		if annChanged || c.Spec.MinReadySeconds != d.Spec.MinReadySeconds {
			sent := *existing
			if annCopied {
				sent.Annotations = c.Annotations
			}
			sent.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			out := s.updateReplicaSet(&sent, existing, reason(ReasonSyncNewReplicaSet,
				vals(v("minReadySeconds", int64(d.Spec.MinReadySeconds))),
				"the new ReplicaSet %s gets the Deployment's annotations, revision %s and minReadySeconds %d",
				sent.Name, sent.Annotations[model.RevisionAnnotation], d.Spec.MinReadySeconds))
			return out, true
		}
		needs := s.setDeploymentRevision(c.Annotations[model.RevisionAnnotation])
		if HasProgressDeadline(d) && d.Status.Condition(model.DeploymentProgressing) == nil {
			s.statusChanged = true
			SetDeploymentCondition(&d.Status, newCondition(model.DeploymentProgressing, model.ConditionTrue,
				model.ReasonFoundNewReplicaSet, fmt.Sprintf("Found new replica set %q", c.Name), s.now))
			needs = true
		}
		if needs {
			s.updateStatus(reason(ReasonSyncRevision, nil, "the Deployment records revision %s of its new ReplicaSet %s",
				c.Annotations[model.RevisionAnnotation], c.Name))
		}
		// Upstream goes on with its copy, which can carry annotations copied
		// but never written (upstream quirk: a non-numeric revision breaks annotation syncing); later writes of it send them.
		return c, true
	}
	if !create {
		return nil, true
	}
	return s.createNewReplicaSet(oldRSs, newRevision)
}

func (s *syncer) createNewReplicaSet(oldRSs []*model.ReplicaSet, newRevision string) (*model.ReplicaSet, bool) {
	d := s.d
	podHash := s.podTemplateHash()
	if err := checkHash(podHash); err != nil {
		s.hasherErr = err
		return nil, false
	}
	// The new ReplicaSet shares nothing with the Deployment: the plan hands
	// it to the caller.
	// The label maps are made anew with the hash, not copied first.
	tmpl, sel := d.Spec.Template, *d.Spec.Selector
	tmpl.Labels, sel.MatchLabels = nil, nil
	tmpl = tmpl.DeepCopy()
	tmpl.Labels = withLabel(d.Spec.Template.Labels, model.PodTemplateHashLabel, podHash)
	selector := sel.DeepCopy()
	selector.MatchLabels = withLabel(d.Spec.Selector.MatchLabels, model.PodTemplateHashLabel, podHash)
	name := hash.ReplicaSetName(d.Name, podHash)
	taken := s.replicaSetNamed(name)
	rs := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name:            name,
			Namespace:       d.Namespace,
			Labels:          maps.Clone(tmpl.Labels),
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID)},
		},
		Spec: model.ReplicaSetSpec{
			Replicas: new(int32), MinReadySeconds: d.Spec.MinReadySeconds, Selector: selector, Template: tmpl,
		},
	}
	n, err := newRSNewReplicasDetail(d, appendRS(oldRSs, rs), rs)
	if err != nil {
		s.failFencepost(err)
		return nil, false
	}
	count := n.Count
	*rs.Spec.Replicas = count
	revision.SetNewReplicaSetAnnotations(d, rs, newRevision, model.MaxRevisionHistoryLength)
	SetReplicasAnnotations(rs, s.replicas(), s.replicas()+proportion.MaxSurge(d))

	created, alreadyExists := rs, false
	if taken != nil {
		if !taken.IsControlledBy(d.UID) || !model.EqualIgnoreHash(d.Spec.Template, taken.Spec.Template) {
			s.hashCollision(rs.Name, podHash)
			return nil, false
		}
		// Ours after all (released this sync, so not claimed): upstream
		// carries on with the cached object as if it had created it.
		created, alreadyExists = taken, true
	} else {
		s.createReplicaSet(rs, s.createReason(rs, newRevision, n))
	}
	if !alreadyExists && count > 0 {
		s.event(model.EventTypeNormal, model.EventScalingReplicaSet, "Scaled up replica set %s from 0 to %d", rs.Name, count)
	}
	needs := s.setDeploymentRevision(newRevision)
	if !alreadyExists && HasProgressDeadline(d) {
		s.statusChanged = true
		SetDeploymentCondition(&d.Status, newCondition(model.DeploymentProgressing, model.ConditionTrue,
			model.ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", rs.Name), s.now))
		needs = true
	}
	if needs {
		s.updateStatus(reason(ReasonSyncRevision, nil, "the Deployment records revision %s and its new ReplicaSet %s", newRevision, rs.Name))
	}
	return created, true
}

// hashCollision plans what upstream ends up doing when the create fails with
// AlreadyExists for a ReplicaSet that is not this template's: bump
// status.collisionCount, write the status, and end the sync with the error.
func (s *syncer) hashCollision(name, podHash string) {
	d := s.d
	var count int32
	if d.Status.CollisionCount != nil {
		count = *d.Status.CollisionCount
	}
	count++
	s.statusChanged = true
	d.Status.CollisionCount = model.Int32Ptr(count)
	s.updateStatus(reason(ReasonHashCollision, vals(v("collisionCount", int64(count))),
		"ReplicaSet %s (hash %s) already exists with another template: collisionCount becomes %d", name, podHash, count))
	s.fail(ErrKindAlreadyExists, "replicasets.apps %q already exists", name)
}

// withLabel returns a copy of labels with key set to value.
func withLabel(labels map[string]string, key, value string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	maps.Copy(out, labels)
	out[key] = value
	return out
}
