package statefulset

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// maxBatchSize caps a slow-start batch of Parallel creates and deletes
// (upstream MaxBatchSize).
const maxBatchSize = 500

// Sync plans one sync of s.StatefulSet the way the upstream StatefulSet
// controller (v1.36, default feature gates) carries it out, in its order:
// adopting orphan revisions, claiming pods, choosing the current and update
// revisions (creating, or renumbering on rollback, the update revision),
// processing the pods from ordinal start up (failed pods deleted, missing
// pods and claims created, identity, storage and claim owner references
// fixed; OrderedReady stops at the first pod that is not Running, Ready
// and available), fixing the claims of pods above the replicas and deleting
// those pods (one at a time from the top under OrderedReady), the rolling
// update from the top down to the partition, the status write, and the
// history cleanup, then the requeue for minReadySeconds.
//
// Errors come in two kinds, told apart with errors.As:
//   - invalid input: the State fails [State.Validate] (a
//     *model.ValidationError naming each field), or the [Encoder] fails.
//     The Plan is then the zero Plan.
//   - a *[SyncError]: upstream's sync ends with this error (a create whose
//     name is taken, a claim being deleted). The Plan then holds what
//     upstream attempted, including the rejected write (Action.Error).
//
// For example, a new OrderedReady set "web" of 3 replicas with no pods
// plans: create its first revision, create web-0 (and its claims), write
// the status; web-1 waits for web-0 to be Running and Ready.
func Sync(s State, opts ...Option) (Plan, error) {
	cfg := newConfig(opts)
	if err := s.validate(cfg.podSpecsValidated); err != nil {
		return Plan{}, err
	}
	sy := newSyncer(s, cfg)
	if err := sy.run(); err != nil {
		return Plan{}, err
	}
	return sy.finish()
}

// syncer carries one sync: the caches it reads (never changed by the sync's
// own writes, as upstream's informers do not see them within a sync), what
// the API server holds by name (for creates that fail as AlreadyExists),
// and the plan being built.
type syncer struct {
	cfg config
	set *model.StatefulSet
	now time.Time
	// selector is the set's selector, compiled once (Sync validated it).
	selector model.Matcher

	pods      []*model.Pod // pods of the namespace, sorted by name
	podNames  map[string]bool
	revisions []*model.ControllerRevision // revisions of the namespace, sorted
	revNames  map[string]*model.ControllerRevision
	claims    map[string]*model.PersistentVolumeClaim

	createdPods   map[string]bool
	createdClaims map[string]bool
	encoded       map[*model.ControllerRevision]string

	out     Plan
	failure *failure
}

func newSyncer(s State, cfg config) *syncer {
	set := s.StatefulSet
	ns := set.Namespace
	sy := &syncer{
		cfg: cfg, set: set, now: s.Now,
		selector: model.NewPreValidatedMatcher(set.Spec.Selector),
		podNames: make(map[string]bool, len(s.Pods)),
		revNames: make(map[string]*model.ControllerRevision, len(s.ControllerRevisions)),
		claims:   make(map[string]*model.PersistentVolumeClaim, len(s.Claims)),
		// createdPods, createdClaims and encoded are made when first
		// written: most syncs write none.
	}
	sy.pods = make([]*model.Pod, 0, len(s.Pods))
	sy.revisions = make([]*model.ControllerRevision, 0, len(s.ControllerRevisions))
	for _, p := range s.Pods {
		if p.Namespace == ns {
			sy.pods = append(sy.pods, p)
			sy.podNames[p.Name] = true
		}
	}
	slices.SortFunc(sy.pods, func(a, b *model.Pod) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
	})
	for _, r := range s.ControllerRevisions {
		if r.Namespace == ns {
			sy.revisions = append(sy.revisions, r)
			sy.revNames[r.Name] = r
		}
	}
	slices.SortStableFunc(sy.revisions, model.CompareRevisions)
	for _, c := range s.Claims {
		if c.Namespace == ns {
			sy.claims[c.Name] = c
		}
	}
	return sy
}

// run is upstream's sync: revisions adopted, pods claimed, the set synced.
// It returns only invalid-input errors; upstream's errors end in
// sy.failure.
func (sy *syncer) run() error {
	history := sy.listRevisions()
	if f := sy.adoptOrphanRevisions(history); f != nil {
		sy.failure = f
		sy.note(reason(NoteSyncFailed, nil, "the sync ended with %q before claiming pods; upstream retries with rate limiting", f.message()))
		return nil
	}
	pods := sy.claimPods()
	status, f, err := sy.updateStatefulSet(history, pods)
	if err != nil {
		return err
	}
	if f != nil {
		sy.failure = f
		sy.note(reason(NoteSyncFailed, nil, "the sync ended with %q; upstream retries with rate limiting", f.message()))
		return nil
	}
	sy.requeue(status, pods)
	return nil
}

// finish returns the plan and the error the sync ends with.
func (sy *syncer) finish() (Plan, error) {
	if len(sy.out.Actions) == 0 && len(sy.out.Notes) == 0 {
		sy.note(reason(NoteStatusUnchanged, nil, "nothing to do"))
	}
	if sy.failure != nil {
		return sy.out, sy.failure.syncError()
	}
	return sy.out, nil
}

// ref is the reference of an object of the State.
func ref(m *model.ObjectMeta) plan.ObjectRef {
	return plan.ObjectRef{Namespace: m.Namespace, Name: m.Name, UID: m.UID, ResourceVersion: m.ResourceVersion}
}

func (sy *syncer) add(a Action) {
	sy.out.Actions = append(sy.out.Actions, a)
}

func (sy *syncer) event(typ, rsn, format string, args ...any) {
	sy.out.Events = append(sy.out.Events, Event{
		Type: typ, Reason: rsn, Message: fmt.Sprintf(format, args...),
		Object: model.StatefulSetKind + "/" + sy.set.Name, AfterWrites: len(sy.out.Actions),
	})
}

func (sy *syncer) note(r Reason) {
	sy.out.Notes = append(sy.out.Notes, r)
}

// selects reports whether the set's selector matches labels.
func (sy *syncer) selects(labels map[string]string) bool {
	return sy.selector.Matches(labels)
}

// listRevisions is the set's history: revisions the selector matches that
// the set controls or that have no controller, sorted by revision.
func (sy *syncer) listRevisions() []*model.ControllerRevision {
	var out []*model.ControllerRevision
	for _, r := range sy.revisions {
		if !sy.selects(r.Labels) {
			continue
		}
		if c := r.ControllerRef(); c == nil || c.UID == sy.set.UID {
			out = append(out, r)
		}
	}
	return out
}

// adoptOrphanRevisions patches a controller reference onto each orphan of
// the history.
func (sy *syncer) adoptOrphanRevisions(history []*model.ControllerRevision) *failure {
	var orphans []*model.ControllerRevision
	for _, r := range history {
		if r.ControllerRef() == nil {
			orphans = append(orphans, r)
		}
	}
	if len(orphans) == 0 {
		return nil
	}
	if f := sy.recheckDeletion(); f != nil {
		return leaf(f.kind, "can't adopt ControllerRevisions: "+f.msg)
	}
	for _, r := range orphans {
		or := setControllerRef(sy.set)
		sy.add(Action{Kind: AdoptControllerRevision, Object: ref(&r.ObjectMeta), OwnerReference: &or,
			Reason: reason(ReasonAdoptRevision, []Value{val("revision", r.Revision)}, "revision %s (%d) has no controller and the selector matches it", r.Name, r.Revision)})
	}
	return nil
}

// recheckDeletion is upstream's RecheckDeletionTimestamp on the set.
func (sy *syncer) recheckDeletion() *failure {
	if d := sy.set.DeletionTimestamp; d != nil {
		return leaf(ErrKindSetDeleted, fmt.Sprintf("%s/%s has just been deleted at %s", sy.set.Namespace, sy.set.Name, d.UTC()))
	}
	return nil
}

// claimPods is upstream's getPodsForStatefulSet: the pods the set controls
// (by kind, name and UID) and the orphans of the namespace, adopted when
// the selector matches and the name is the set's, released when the set
// controls them but no longer selects them. It returns the claimed pods,
// controlled ones first, each group in name order.
func (sy *syncer) claimPods() []*model.Pod {
	var owned, orphans []*model.Pod
	for _, p := range sy.pods {
		c := p.ControllerRef()
		switch {
		case c == nil:
			orphans = append(orphans, p)
		case c.Kind == model.StatefulSetKind && c.Name == sy.set.Name && c.UID == sy.set.UID:
			owned = append(owned, p)
		}
	}
	deleting := sy.set.DeletionTimestamp != nil
	var claimed []*model.Pod
	for _, p := range owned {
		if sy.selects(p.Labels) && isMemberOf(sy.set, p) {
			claimed = append(claimed, p)
			continue
		}
		if deleting {
			continue
		}
		or := *p.ControllerRef()
		why := "the selector no longer matches its labels"
		if sy.selects(p.Labels) {
			why = fmt.Sprintf("its name is not %s-<ordinal>", sy.set.Name)
		}
		sy.add(Action{Kind: ReleasePod, Object: ref(&p.ObjectMeta), OwnerReference: &or,
			Reason: reason(ReasonReleasePod, nil, "%s is controlled by the set but %s", p.Name, why)})
	}
	for _, p := range orphans {
		if deleting || !sy.selects(p.Labels) || !isMemberOf(sy.set, p) || p.DeletionTimestamp != nil {
			continue
		}
		or := setControllerRef(sy.set)
		sy.add(Action{Kind: AdoptPod, Object: ref(&p.ObjectMeta), OwnerReference: &or, Ordinal: ordinalOf(p.Name),
			Reason: reason(ReasonAdoptPod, []Value{val("ordinal", int64(ordinalOf(p.Name)))}, "%s has no controller, is named for the set and the selector matches it", p.Name)})
		claimed = append(claimed, p)
	}
	return claimed
}

// revisionData is the data of r: as stored, or its template encoded.
func (sy *syncer) revisionData(r *model.ControllerRevision) (string, error) {
	if r.Data != "" {
		return r.Data, nil
	}
	if d, ok := sy.encoded[r]; ok {
		return d, nil
	}
	d, err := sy.cfg.encode(r.Template)
	if err != nil {
		return "", fmt.Errorf("encoding the template of revision %s: %w", r.Name, err)
	}
	if sy.encoded == nil {
		sy.encoded = map[*model.ControllerRevision]string{}
	}
	sy.encoded[r] = d
	return d, nil
}

// chooseRevisions is upstream's getStatefulSetRevisions: the current and update
// revisions and the collision count. The update revision is the latest
// revision when it records the set's template, else an older one that does
// (renumbered: a rollback), else a new one.
func (sy *syncer) chooseRevisions(history []*model.ControllerRevision) (current, update *model.ControllerRevision, collisionCount int32, err error) {
	set := sy.set
	if set.Status.CollisionCount != nil {
		collisionCount = *set.Status.CollisionCount
	}
	data, err := sy.cfg.encode(set.Spec.Template)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("encoding the template of statefulSet %s/%s: %w", set.Namespace, set.Name, err)
	}
	next := int64(1)
	if n := len(history); n > 0 {
		next = history[n-1].Revision + 1
	}
	var equal []*model.ControllerRevision
	for _, r := range history {
		d, err := sy.revisionData(r)
		if err != nil {
			return nil, nil, 0, err
		}
		if d == data {
			equal = append(equal, r)
		}
	}
	var latest *model.ControllerRevision
	if n := len(history); n > 0 {
		latest = history[n-1]
	}
	switch {
	case len(equal) > 0 && equal[len(equal)-1] == latest:
		update = latest
	case len(equal) > 0:
		old := equal[len(equal)-1]
		update = old.DeepCopy()
		update.Revision = next
		if update.Data == "" {
			update.Data = data
		}
		sy.add(Action{Kind: UpdateControllerRevision, Object: ref(&old.ObjectMeta), RevisionUpdate: &RevisionUpdate{From: old.Revision, To: next},
			Reason: reason(ReasonRollback, []Value{val("from", old.Revision), val("to", next)}, "revision %s (%d) records the set's template but is not the latest (%d): it becomes revision %d", old.Name, old.Revision, latest.Revision, next)})
	case latest != nil && sy.cfg.semantic && sy.semanticallyLatest(latest, data):
		update = latest
	default:
		update = sy.createRevision(data, next, &collisionCount)
	}
	for _, r := range history {
		if r.Name == set.Status.CurrentRevision {
			current = r
			break
		}
	}
	if current == nil {
		current = update
	}
	return current, update, collisionCount, nil
}

// semanticallyLatest reports whether the latest revision's template,
// defaulted, re-encodes to the set's data.
func (sy *syncer) semanticallyLatest(latest *model.ControllerRevision, data string) bool {
	t := latest.Template
	if sy.cfg.defaults != nil {
		var err error
		if t, err = sy.cfg.defaults(t.DeepCopy()); err != nil {
			return false
		}
	}
	d, err := sy.cfg.encode(t)
	return err == nil && d == data
}

// createRevision is upstream's CreateControllerRevision loop: the revision
// is created under the name its data and collision count hash to; a name
// taken by a revision with other data bumps the collision count and tries
// again, a name taken by one with the same data returns that revision.
func (sy *syncer) createRevision(data string, number int64, collisionCount *int32) *model.ControllerRevision {
	set := sy.set
	labels := maps.Clone(set.Spec.Template.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	// The hash label keeps the first hash even when a collision renames
	// the revision.
	labels[model.ControllerRevisionHashLabel] = HashRevision(data, collisionCount)
	annotations := maps.Clone(set.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	for {
		name := RevisionName(set.Name, HashRevision(data, collisionCount))
		rev := &model.ControllerRevision{
			ObjectMeta: model.ObjectMeta{
				Name: name, Labels: maps.Clone(labels), Annotations: maps.Clone(annotations),
				OwnerReferences: []model.OwnerReference{setControllerRef(set)},
			},
			Template: set.Spec.Template.DeepCopy(),
			Data:     data,
			Revision: number,
		}
		a := Action{Kind: CreateControllerRevision, Object: plan.ObjectRef{Namespace: set.Namespace, Name: name}, ControllerRevision: rev,
			Reason: reason(ReasonNewRevision, []Value{val("revision", number), val("collisionCount", int64(*collisionCount))}, "no revision records the set's template: revision %d", number)}
		existing, taken := sy.revNames[name]
		if !taken {
			sy.add(a)
			return rev
		}
		a.Error = fmt.Sprintf("controllerrevisions.apps %q already exists", name)
		d, err := sy.revisionData(existing)
		if err == nil && d == data {
			a.Reason = reason(ReasonNewRevision, []Value{val("revision", existing.Revision)}, "no revision of the set's history records its template; %s, outside the history, does and is used", name)
			sy.add(a)
			return existing
		}
		a.Reason = reason(ReasonRevisionCollision, []Value{val("collisionCount", int64(*collisionCount))}, "the name %s is taken by a revision of another template: the collision count becomes %d", name, *collisionCount+1)
		sy.add(a)
		*collisionCount++
	}
}
