package daemonset

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// revision is a ControllerRevision of the State as this sync's earlier
// writes left it (upstream keeps working on the objects its updates
// return).
type revision struct {
	cr     *model.ControllerRevision
	labels map[string]string
	number int64
	data   string
}

func (s *syncer) revisionData(cr *model.ControllerRevision) string {
	if cr.Data != "" {
		return cr.Data
	}
	return s.c.patcher(cr.Template)
}

// constructHistory is upstream constructHistory: it claims the
// revisions, labels those that lack the hash label, splits them into the
// current one (recording the DaemonSet's template) and old ones, and
// creates, deduplicates or renumbers the current one. It reports false when
// the sync ends there (a hash collision).
func (s *syncer) constructHistory() (cur *revision, old []*revision, ok bool) {
	var all []*model.ControllerRevision
	for _, cr := range s.s.ControllerRevisions {
		if cr.Namespace == s.ns {
			all = append(all, cr)
		}
	}
	slices.SortFunc(all, func(a, b *model.ControllerRevision) int { return strings.Compare(a.Name, b.Name) })
	byName := make(map[string]*revision, len(all))
	var histories []*revision
	for _, cr := range all {
		r := &revision{cr: cr, labels: cr.Labels, number: cr.Revision}
		byName[cr.Name] = r
		match := s.selector.Matches(cr.Labels)
		if ref := cr.ControllerRef(); ref != nil {
			if ref.UID != s.ds.UID {
				continue
			}
			if match {
				histories = append(histories, r)
				continue
			}
			rel := *ref
			s.add(Action{Kind: ReleaseControllerRevision, Object: s.ref(&cr.ObjectMeta), OwnerReference: &rel,
				Reason: reason(ReasonReleaseRevision, nil, "ControllerRevision %s no longer matches the selector", cr.Name)})
			continue
		}
		if !match || cr.DeletionTimestamp != nil {
			continue
		}
		ref := s.ctrlRef
		s.add(Action{Kind: AdoptControllerRevision, Object: s.ref(&cr.ObjectMeta), OwnerReference: &ref,
			Reason: reason(ReasonAdoptRevision, nil, "ControllerRevision %s has no controller and matches the selector", cr.Name)})
		histories = append(histories, r)
	}
	dsData := s.c.patcher(s.ds.Spec.Template)
	var current []*revision
	for _, r := range histories {
		if _, ok := r.labels[model.DaemonSetUniqueLabel]; !ok {
			// Upstream would panic on a revision without labels; the
			// planner gives it the label.
			r.labels = maps.Clone(r.labels)
			if r.labels == nil {
				r.labels = map[string]string{}
			}
			r.labels[model.DaemonSetUniqueLabel] = r.cr.Name
			s.add(Action{Kind: UpdateControllerRevision, Object: s.ref(&r.cr.ObjectMeta),
				RevisionUpdate: &RevisionUpdate{Labels: map[string]string{model.DaemonSetUniqueLabel: r.cr.Name}, FromRevision: r.number, Revision: r.number},
				Reason:         reason(ReasonLabelRevision, nil, "ControllerRevision %s lacks the %s label", r.cr.Name, model.DaemonSetUniqueLabel)})
		}
		r.data = s.revisionData(r.cr)
		if r.data == dsData {
			current = append(current, r)
		} else {
			old = append(old, r)
		}
	}
	var maxOld int64
	for _, r := range old {
		maxOld = max(maxOld, r.number)
	}
	next := maxOld + 1
	if len(current) == 0 {
		return s.snapshot(dsData, next, byName, old)
	}
	cur = s.dedup(current)
	if cur.number < next {
		s.add(Action{Kind: UpdateControllerRevision, Object: s.ref(&cur.cr.ObjectMeta),
			RevisionUpdate: &RevisionUpdate{FromRevision: cur.number, Revision: next},
			Reason: reason(ReasonRenumberRevision, []Value{val("from", cur.number), val("to", next)},
				"ControllerRevision %s records the current template and becomes revision %d (the newest old one is %d)", cur.cr.Name, next, maxOld)})
		cur.number = next
	}
	return cur, old, true
}

// snapshot is upstream snapshot: the current template gets a new
// revision, unless a revision of that name exists. One with the same data
// (which the DaemonSet does not control) is taken as the current revision;
// one with other data is a hash collision.
func (s *syncer) snapshot(dsData string, number int64, byName map[string]*revision, old []*revision) (*revision, []*revision, bool) {
	ds := s.ds
	h := s.c.hasher(ds.Spec.Template, ds.Status.CollisionCount)
	name := ds.Name + "-" + h
	if existing := byName[name]; existing != nil {
		if existing.data == "" {
			existing.data = s.revisionData(existing.cr)
		}
		if existing.data == dsData {
			s.note(reason(NoteExistingRevision, nil, "ControllerRevision %s, which the DaemonSet does not control, already records the template: upstream's create fails and it uses that one", name))
			return existing, old, true
		}
		st := ds.Status.DeepCopy()
		n := int32(0)
		if st.CollisionCount != nil {
			n = *st.CollisionCount
		}
		n++
		st.CollisionCount = &n
		s.add(Action{Kind: UpdateDaemonSetStatus, Object: s.ref(&ds.ObjectMeta), Status: &st,
			Reason: reason(ReasonHashCollision, []Value{val("collisionCount", int64(n))},
				"ControllerRevision %s exists with another template: collisionCount becomes %d", name, n)})
		s.fail(ErrKindAlreadyExists, "failed to construct revisions of DaemonSet: controllerrevisions.apps %q already exists", name)
		return nil, nil, false
	}
	labels := maps.Clone(ds.Spec.Template.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[model.DaemonSetUniqueLabel] = h
	cr := &model.ControllerRevision{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: s.ns, Labels: labels, Annotations: maps.Clone(ds.Annotations),
			OwnerReferences: []model.OwnerReference{s.ctrlRef},
		},
		Template: ds.Spec.Template.DeepCopy(),
		Data:     dsData,
		Revision: number,
	}
	s.add(Action{Kind: CreateControllerRevision, Object: plan.ObjectRef{Namespace: s.ns, Name: name}, Revision: cr,
		Reason: reason(ReasonCreateRevision, []Value{val("revision", number)}, "no ControllerRevision records the current template: %s becomes revision %d", name, number)})
	return &revision{cr: cr.DeepCopy(), labels: labels, number: number, data: dsData}, old, true
}

// dedup is upstream dedupCurHistories: of several revisions recording the
// current template the one with the highest number stays (upstream keeps
// the last of equal numbers in its random listing order; the planner the
// last by name); the DaemonSet's pods are relabelled with its hash and the
// others are deleted.
func (s *syncer) dedup(current []*revision) *revision {
	if len(current) == 1 {
		return current[0]
	}
	var keep *revision
	var maxRev int64
	for _, r := range current {
		if r.number >= maxRev {
			keep, maxRev = r, r.number
		}
	}
	keepHash := keep.labels[model.DaemonSetUniqueLabel]
	s.listPods() // upstream lists (and claims) the pods here too
	s.emitClaims()
	for _, pi := range s.claimed {
		if pi.pod.Labels[model.DaemonSetUniqueLabel] != keepHash {
			s.add(Action{Kind: RelabelPod, Object: s.ref(&pi.pod.ObjectMeta), Labels: map[string]string{model.DaemonSetUniqueLabel: keepHash},
				Reason: reason(ReasonRelabelPod, nil, "duplicate revisions of the current template are merged into %s: pod %s takes its hash", keep.cr.Name, pi.pod.Name)})
		}
	}
	for _, r := range current {
		if r == keep {
			continue
		}
		s.add(Action{Kind: DeleteControllerRevision, Object: s.ref(&r.cr.ObjectMeta),
			Reason: reason(ReasonDuplicateRevision, []Value{val("revision", r.number)}, "ControllerRevision %s duplicates %s, which stays", r.cr.Name, keep.cr.Name)})
	}
	return keep
}

// cleanupHistory is upstream cleanupHistory: old revisions beyond
// revisionHistoryLimit whose hash no pod carries are deleted, lowest
// number first (upstream's sort is not stable; equal numbers go by name
// here).
func (s *syncer) cleanupHistory(old []*revision) {
	s.emitClaims()
	limit := int(*s.ds.Spec.RevisionHistoryLimit)
	toKill := len(old) - limit
	if toKill <= 0 {
		return
	}
	byNode := s.group(true)
	live := map[string]bool{}
	for _, pods := range byNode {
		for _, pi := range pods {
			if h := pi.pod.Labels[model.DaemonSetUniqueLabel]; h != "" {
				live[h] = true
			}
		}
	}
	sorted := slices.Clone(old)
	slices.SortFunc(sorted, func(a, b *revision) int {
		return cmp.Or(cmp.Compare(a.number, b.number), strings.Compare(a.cr.Name, b.cr.Name))
	})
	for _, r := range sorted {
		if toKill <= 0 {
			break
		}
		if live[r.labels[model.DaemonSetUniqueLabel]] {
			continue
		}
		s.add(Action{Kind: DeleteControllerRevision, Object: s.ref(&r.cr.ObjectMeta),
			Reason: reason(ReasonHistoryLimit, []Value{val("revision", r.number), val("revisionHistoryLimit", int64(limit)), val("old", int64(len(old)))},
				"%d old revisions exceed revisionHistoryLimit %d and no pod uses revision %d (%s)", len(old), limit, r.number, r.cr.Name)})
		toKill--
	}
}
