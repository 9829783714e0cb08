package statefulset

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// replicas holds the pods at ordinals start … start+n-1 by index: the
// cached pod of the ordinal, or the pod the sync would create there, built
// when first needed (upstream builds them all up front; building lazily
// keeps a set of many replicas cheap when OrderedReady stops early).
type replicas struct {
	n     int
	pods  map[int]*model.Pod
	built map[*model.Pod]bool
	build func(i int) *model.Pod
}

func (r *replicas) get(i int) *model.Pod {
	if p, ok := r.pods[i]; ok {
		return p
	}
	p := r.build(i)
	r.pods[i] = p
	r.built[p] = true
	return p
}

// cached returns the cached pods of the replicas, by index.
func (r *replicas) cached() []*model.Pod {
	idx := make([]int, 0, len(r.pods))
	for i, p := range r.pods {
		if !r.built[p] {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx)
	out := make([]*model.Pod, len(idx))
	for k, i := range idx {
		out[k] = r.pods[i]
	}
	return out
}

// Pod predicates as the StatefulSet controller reads them.

func isCreated(p *model.Pod) bool     { return p.Status.Phase != "" }
func isTerminating(p *model.Pod) bool { return p.DeletionTimestamp != nil }
func runningAndReady(p *model.Pod) bool {
	return p.Status.Phase == model.PodRunning && model.IsPodReady(p)
}

// available is model.IsPodAvailable with the set's minReadySeconds at the
// sync's now.
func (sy *syncer) available(p *model.Pod) bool {
	return model.IsPodAvailable(p, sy.set.Spec.MinReadySeconds, sy.now)
}

func (sy *syncer) unavailable(p *model.Pod) bool { return !sy.available(p) || isTerminating(p) }

// podInAPI reports whether the API server holds a pod of that name: one of
// the State not deleted by this sync, or one this sync created.
func (sy *syncer) podInAPI(name string) bool {
	return sy.createdPods[name] || sy.podNames[name] && !sy.deletedPod(name)
}

func (sy *syncer) deletedPod(name string) bool {
	for _, a := range sy.out.Actions {
		if a.Kind == DeletePod && a.Object.Name == name && a.Error == "" {
			return true
		}
	}
	return false
}

// countStatus is upstream's updateStatus over some pods: counts reset and
// recomputed.
func (sy *syncer) countStatus(st *model.StatefulSetStatus, lists ...[]*model.Pod) {
	st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas = 0, 0, 0, 0, 0
	for _, l := range lists {
		for _, p := range l {
			if isCreated(p) {
				st.Replicas++
			}
			if runningAndReady(p) {
				st.ReadyReplicas++
				if sy.available(p) {
					st.AvailableReplicas++
				}
			}
			if isCreated(p) && !isTerminating(p) {
				rev := podRevision(p)
				if rev == st.CurrentRevision {
					st.CurrentReplicas++
				}
				if rev == st.UpdateRevision {
					st.UpdatedReplicas++
				}
			}
		}
	}
}

// podSync is the state of upstream's updateStatefulSet: the revisions, the
// replicas and the condemned pods.
type podSync struct {
	current, update *model.ControllerRevision
	status          *model.StatefulSetStatus
	reps            *replicas
	condemned       []*model.Pod
	first           *model.Pod // the first unavailable pod
	monotonic       bool
}

// updatePods is upstream's updateStatefulSet: it returns the status and the
// failure the pod work ends with.
func (sy *syncer) updatePods(current, update *model.ControllerRevision, collisionCount int32, pods []*model.Pod) (*model.StatefulSetStatus, *failure) {
	set := sy.set
	cc := collisionCount
	ps := &podSync{current: current, update: update, monotonic: set.Spec.PodManagementPolicy != model.ParallelPodManagement}
	ps.status = &model.StatefulSetStatus{ObservedGeneration: set.Generation, CurrentRevision: current.Name, UpdateRevision: update.Name, CollisionCount: &cc}
	sy.countStatus(ps.status, pods)

	n, start := int(*set.Spec.Replicas), int(set.StartOrdinal())
	ps.reps = &replicas{n: n, pods: map[int]*model.Pod{}, built: map[*model.Pod]bool{}, build: func(i int) *model.Pod {
		return sy.versionedPod(current, update, start+i)
	}}
	for _, p := range pods {
		o := ordinalOf(p.Name)
		switch {
		case o >= start && o <= start+n-1:
			ps.reps.pods[o-start] = p
		case o >= 0:
			ps.condemned = append(ps.condemned, p)
		}
	}
	slices.SortStableFunc(ps.condemned, func(a, b *model.Pod) int { return cmp.Compare(ordinalOf(b.Name), ordinalOf(a.Name)) })
	for i := 0; i < n; i++ {
		if p := ps.reps.get(i); sy.unavailable(p) {
			ps.first = p
			break
		}
	}
	if ps.first == nil {
		for i := len(ps.condemned) - 1; i >= 0; i-- {
			if sy.unavailable(ps.condemned[i]) {
				ps.first = ps.condemned[i]
				break
			}
		}
	}
	if set.DeletionTimestamp != nil {
		sy.note(reason(NoteDeleting, nil, "the StatefulSet is being deleted: only its status is synced"))
		return ps.status, nil
	}
	recount := func() { sy.countStatus(ps.status, ps.reps.cached(), ps.condemned) }

	if exit, f := sy.runForAll(n, ps.monotonic, func(i int) (bool, *failure) { return sy.processReplica(ps, i) }); exit || f != nil {
		recount()
		return ps.status, f
	}
	if exit, f := sy.runForAll(len(ps.condemned), ps.monotonic, func(i int) (bool, *failure) {
		if p := ps.condemned[i]; !sy.claimsMatchRetention(p) {
			sy.updateClaimsForRetention(p, ReasonClaimRetention)
		}
		return false, nil
	}); exit || f != nil {
		recount()
		return ps.status, f
	}
	if exit, f := sy.runForAll(len(ps.condemned), ps.monotonic, func(i int) (bool, *failure) { return sy.processCondemned(ps, i) }); exit || f != nil {
		recount()
		return ps.status, f
	}
	recount()
	if set.Spec.UpdateStrategy.Type == model.OnDeleteStatefulSetStrategyType {
		sy.noteOnDelete(ps)
		return ps.status, nil
	}
	if sy.cfg.maxUnavailable {
		return ps.status, sy.rollWithMaxUnavailable(ps)
	}
	sy.roll(ps)
	return ps.status, nil
}

// versionedPod is upstream's newVersionedStatefulSetPod: the pod at an
// ordinal, at the current revision below the partition (or, for a
// RollingUpdate without a rollingUpdate block, below
// start+status.currentReplicas), at the update revision otherwise.
func (sy *syncer) versionedPod(current, update *model.ControllerRevision, ordinal int) *model.Pod {
	set := sy.set
	start := int(set.StartOrdinal())
	ru := set.Spec.UpdateStrategy.RollingUpdate
	atCurrent := set.Spec.UpdateStrategy.Type == model.RollingUpdateStatefulSetStrategyType && ru == nil && ordinal < start+int(set.Status.CurrentReplicas) ||
		ru != nil && ordinal < start+int(*ru.Partition)
	if atCurrent {
		return newPod(set, current.Template, current.Name, ordinal)
	}
	return newPod(set, update.Template, update.Name, ordinal)
}

// runForAll is upstream's runForAll: in order, stopping at the first item
// that asks to, under OrderedReady; in slow-start batches of 1, 2, 4, …
// (at most 500), stopping after a batch with a failure, under Parallel (the
// items of a batch run concurrently upstream, here in index order).
func (sy *syncer) runForAll(n int, monotonic bool, fn func(i int) (bool, *failure)) (bool, *failure) {
	if monotonic {
		for i := 0; i < n; i++ {
			if exit, f := fn(i); exit || f != nil {
				return true, f
			}
		}
		return false, nil
	}
	j := 0
	for batch := min(n, 1); batch > 0; {
		var fs []*failure
		for k := 0; k < batch; k++ {
			if _, f := fn(j); f != nil {
				fs = append(fs, f)
			}
			j++
		}
		if len(fs) > 0 {
			return true, aggregate(fs...)
		}
		n -= batch
		batch = min(2*batch, n, maxBatchSize)
	}
	return false, nil
}

// processReplica is upstream's processReplica for the pod at index i.
func (sy *syncer) processReplica(ps *podSync, i int) (bool, *failure) {
	set := sy.set
	p := ps.reps.get(i)
	if p.Status.Phase == model.PodFailed || p.Status.Phase == model.PodSucceeded {
		if p.DeletionTimestamp == nil {
			sy.deletePod(p, reason(ReasonFailedPod, []Value{val("ordinal", int64(ordinalOf(p.Name)))}, "%s is %s: it is deleted so that it can be re-created", p.Name, p.Status.Phase))
		}
		if ps.monotonic {
			sy.note(reason(NoteWaitingForFailedPod, []Value{val("ordinal", int64(ordinalOf(p.Name)))}, "%s is %s; OrderedReady re-creates it once it is gone before going past it", p.Name, p.Status.Phase))
		}
		return true, nil
	}
	if !isCreated(p) {
		if claim, stale := sy.staleClaim(p); stale {
			sy.note(reason(NoteStaleClaim, []Value{val("ordinal", int64(ordinalOf(p.Name)))}, "claim %s still has an owner reference to an earlier %s: %s is not created until the claim is garbage-collected", claim, p.Name, p.Name))
			return true, nil
		}
		if f := sy.createPod(ps, p, i); f != nil {
			return true, f
		}
		if ps.monotonic {
			sy.note(reason(NoteWaitingForCreated, []Value{val("ordinal", int64(ordinalOf(p.Name)))}, "%s is created; OrderedReady waits for it to be Running and Ready before %s", p.Name, sy.nextStep(ps, i)))
			return true, nil
		}
	}
	if p.Status.Phase == model.PodPending {
		if f := sy.createClaims(p); f != nil {
			return true, f
		}
		sy.updateClaimsForRetention(p, ReasonClaimRetention)
	}
	if ps.monotonic {
		o := []Value{val("ordinal", int64(ordinalOf(p.Name)))}
		switch {
		case isTerminating(p):
			sy.note(reason(NoteWaitingForTermination, o, "%s is terminating; OrderedReady waits for it to be gone before %s", p.Name, sy.nextStep(ps, i)))
			return true, nil
		case !runningAndReady(p):
			sy.note(reason(NoteWaitingForReady, o, "%s is not Running and Ready (phase %s); OrderedReady waits before %s", p.Name, phaseText(p), sy.nextStep(ps, i)))
			return true, nil
		case !sy.available(p):
			sy.note(reason(NoteWaitingForAvailable, append(o, val("minReadySeconds", int64(set.Spec.MinReadySeconds))), "%s is ready but not yet available (minReadySeconds %d); OrderedReady waits before %s", p.Name, set.Spec.MinReadySeconds, sy.nextStep(ps, i)))
			return true, nil
		}
	}
	if identityMatches(set, p) && storageMatches(set, p) && sy.claimsMatchRetention(p) {
		return false, nil
	}
	if f := sy.updatePod(ps, p); f != nil {
		return true, f
	}
	return false, nil
}

func phaseText(p *model.Pod) string {
	if p.Status.Phase == "" {
		return "unset"
	}
	return string(p.Status.Phase)
}

// nextStep says what OrderedReady does after the replica at index i once it
// may go on.
func (sy *syncer) nextStep(ps *podSync, i int) string {
	if i+1 < ps.reps.n {
		p, ok := ps.reps.pods[i+1]
		if !ok || ps.reps.built[p] {
			return "creating " + PodName(sy.set.Name, int(sy.set.StartOrdinal())+i+1)
		}
		return "going on to " + p.Name
	}
	if len(ps.condemned) > 0 {
		return "deleting " + ps.condemned[0].Name
	}
	return "the rolling update"
}

// staleClaim is upstream's PodClaimIsStale: under whenScaled Delete, a claim
// of the pod with an owner reference to an earlier pod of its name.
func (sy *syncer) staleClaim(p *model.Pod) (string, bool) {
	if !retentionOf(sy.set).scaledDelete {
		return "", false
	}
	for _, t := range claimTemplates(sy.set) {
		name := ClaimName(t.Name, sy.set.Name, ordinalOf(p.Name))
		if c, ok := sy.claims[name]; ok && hasStaleOwnerRef(c, podOwner(p)) {
			return name, true
		}
	}
	return "", false
}

// createClaims is upstream's createPersistentVolumeClaims: each claim of
// the pod missing from the cache is created; one being deleted is an error.
func (sy *syncer) createClaims(p *model.Pod) *failure {
	var fs []*failure
	o := ordinalOf(p.Name)
	for _, t := range claimTemplates(sy.set) {
		c := newClaim(sy.set, t, o)
		cached, ok := sy.claims[c.Name]
		switch {
		case !ok:
			a := Action{Kind: CreateClaim, Object: plan.ObjectRef{Namespace: c.Namespace, Name: c.Name}, Ordinal: o, Claim: c,
				Reason: reason(ReasonMissingClaim, []Value{val("ordinal", int64(o))}, "%s needs claim %s (template %s), which does not exist", p.Name, c.Name, t.Name)}
			if sy.createdClaims[c.Name] {
				msg := fmt.Sprintf("persistentvolumeclaims %q already exists", c.Name)
				a.Error = msg
				sy.add(a)
				fs = append(fs, leaf(ErrKindAlreadyExists, fmt.Sprintf("failed to create PVC %s: %s", c.Name, msg)))
				continue
			}
			sy.add(a)
			if sy.createdClaims == nil {
				sy.createdClaims = map[string]bool{}
			}
			sy.createdClaims[c.Name] = true
			sy.event(model.EventTypeNormal, EventSuccessfulCreate, "Create Claim %s Pod %s in StatefulSet %s success", c.Name, p.Name, sy.set.Name)
		case cached.DeletionTimestamp != nil:
			fs = append(fs, leaf(ErrKindClaimDeleting, fmt.Sprintf("pvc %s is being deleted", c.Name)))
		}
	}
	return aggregate(fs...)
}

// claimsMatchRetention is upstream's ClaimsMatchRetentionPolicy: every
// cached claim of the pod has the owner references the policy wants.
func (sy *syncer) claimsMatchRetention(p *model.Pod) bool {
	o := ordinalOf(p.Name)
	for _, t := range sy.set.Spec.VolumeClaimTemplates {
		if c, ok := sy.claims[ClaimName(t.Name, sy.set.Name, o)]; ok && !claimOwnerUpToDate(c, sy.set, p) {
			return false
		}
	}
	return true
}

// updateClaimsForRetention is upstream's UpdatePodClaimForRetentionPolicy:
// each cached claim of the pod whose owner references disagree with the
// policy is written with the references it should have. A claim with a
// foreign controller gets a ConflictingController warning.
func (sy *syncer) updateClaimsForRetention(p *model.Pod, code ReasonCode) {
	set := sy.set
	o := ordinalOf(p.Name)
	for _, t := range set.Spec.VolumeClaimTemplates {
		name := ClaimName(t.Name, set.Name, o)
		c, ok := sy.claims[name]
		if !ok {
			continue
		}
		if hasUnexpectedController(c, set, setOwner(set), podOwner(p)) {
			sy.event(model.EventTypeWarning, EventConflictingController, "PersistentVolumeClaim %s has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim", name)
		}
		if claimOwnerUpToDate(c, set, p) {
			continue
		}
		refs := claimOwnerRefs(c, set, p)
		scaled := "in range"
		if !inOrdinalRange(set, p.Name) {
			scaled = "scaled down"
		}
		pol := set.RetentionPolicy()
		sy.add(Action{Kind: UpdateClaim, Object: ref(&c.ObjectMeta), Ordinal: o, OwnerReferences: refs,
			Reason: reason(code, []Value{val("ordinal", int64(o))}, "claim %s of %s (%s) has owner references that disagree with the retention policy (whenScaled %s, whenDeleted %s)", name, p.Name, scaled, pol.WhenScaled, pol.WhenDeleted)})
	}
}

// createPod is upstream's CreateStatefulPod: claims, then the pod, then the
// claims' owner references.
func (sy *syncer) createPod(ps *podSync, p *model.Pod, i int) *failure {
	set := sy.set
	if f := sy.createClaims(p); f != nil {
		sy.event(model.EventTypeWarning, EventFailedCreate, "Create Pod %s in StatefulSet %s failed error: %s", p.Name, set.Name, f.message())
		return f
	}
	o := ordinalOf(p.Name)
	rev := podRevision(p)
	var claims []string
	for _, t := range claimTemplates(set) {
		claims = append(claims, ClaimName(t.Name, set.Name, o))
	}
	claims = slices.Compact(claims)
	why := reason(ReasonMissingPod, []Value{val("ordinal", int64(o)), val("replicas", int64(ps.reps.n))}, "ordinal %d of %d replicas has no pod: %s is created at revision %s", o, ps.reps.n, p.Name, rev)
	if !ps.reps.built[p] {
		why = reason(ReasonMissingPod, []Value{val("ordinal", int64(o))}, "%s exists without a phase: upstream creates it again", p.Name)
	}
	a := Action{Kind: CreatePod, Object: plan.ObjectRef{Namespace: set.Namespace, Name: p.Name}, Ordinal: o, Pod: p.DeepCopy(), Revision: rev, Claims: claims, Reason: why}
	if sy.podInAPI(p.Name) {
		msg := fmt.Sprintf("pods %q already exists", p.Name)
		a.Error = msg
		sy.add(a)
		return leaf(ErrKindAlreadyExists, msg)
	}
	sy.add(a)
	if sy.createdPods == nil {
		sy.createdPods = map[string]bool{}
	}
	sy.createdPods[p.Name] = true
	sy.updateClaimsForRetention(p, ReasonClaimRetention)
	sy.event(model.EventTypeNormal, EventSuccessfulCreate, "Create Pod %s in StatefulSet %s successful", p.Name, set.Name)
	return nil
}

// updatePod is upstream's UpdateStatefulPod: identity and storage restored,
// missing claims created, claim owner references fixed, the pod written
// back.
func (sy *syncer) updatePod(ps *podSync, p *model.Pod) *failure {
	set := sy.set
	q := p.DeepCopy()
	u := &PodUpdate{}
	o := ordinalOf(q.Name)
	var why []string
	code := ReasonPodClaimsOwners
	if !identityMatches(set, q) {
		code = ReasonPodIdentity
		name := PodName(set.Name, o)
		if name != q.Name {
			u.Name, q.Name = name, name
			why = append(why, "its name is written "+name)
		}
		if q.Labels == nil {
			q.Labels = map[string]string{}
		}
		for k, v := range map[string]string{model.StatefulSetPodNameLabel: name, model.PodIndexLabel: strconv.Itoa(o)} {
			if old, ok := p.Labels[k]; !ok || old != v {
				if u.Labels == nil {
					u.Labels = map[string]string{}
				}
				u.Labels[k] = v
				why = append(why, fmt.Sprintf("label %s=%s", k, v))
			}
			q.Labels[k] = v
		}
	}
	if !storageMatches(set, q) {
		if code == ReasonPodClaimsOwners {
			code = ReasonPodStorage
		}
		q.Spec.Volumes = storageVolumes(set, o, q.Spec.Volumes)
		u.Volumes = slices.Clone(q.Spec.Volumes)
		why = append(why, "its claim volumes")
		if f := sy.createClaims(q); f != nil {
			sy.event(model.EventTypeWarning, EventFailedUpdate, "Update Pod %s in StatefulSet %s failed error: %s", q.Name, set.Name, f.message())
			return f
		}
	}
	if !sy.claimsMatchRetention(q) {
		sy.updateClaimsForRetention(q, ReasonClaimRetention)
		why = append(why, "its claims' owner references")
	}
	slices.Sort(why)
	a := Action{Kind: UpdatePod, Object: ref(&p.ObjectMeta), Ordinal: o, PodUpdate: u,
		Reason: reason(code, []Value{val("ordinal", int64(o))}, "%s is written back with %s", p.Name, strings.Join(why, ", "))}
	if !sy.podInAPI(q.Name) {
		msg := fmt.Sprintf("pods %q not found", q.Name)
		a.Error = msg
		sy.add(a)
		sy.event(model.EventTypeWarning, EventFailedUpdate, "Update Pod %s in StatefulSet %s failed error: %s", q.Name, set.Name, msg)
		return leaf(ErrKindNotFound, msg)
	}
	sy.add(a)
	sy.event(model.EventTypeNormal, EventSuccessfulUpdate, "Update Pod %s in StatefulSet %s successful", q.Name, set.Name)
	return nil
}

// deletePod is upstream's DeleteStatefulPod (a pod already gone counts as
// deleted).
func (sy *syncer) deletePod(p *model.Pod, why Reason) {
	sy.add(Action{Kind: DeletePod, Object: ref(&p.ObjectMeta), Ordinal: ordinalOf(p.Name), Reason: why})
	sy.event(model.EventTypeNormal, EventSuccessfulDelete, "Delete Pod %s in StatefulSet %s successful", p.Name, sy.set.Name)
}

// processCondemned is upstream's processCondemned for the condemned pod i
// (condemned pods run from the highest ordinal down).
func (sy *syncer) processCondemned(ps *podSync, i int) (bool, *failure) {
	p := ps.condemned[i]
	o := []Value{val("ordinal", int64(ordinalOf(p.Name))), val("replicas", int64(ps.reps.n))}
	if isTerminating(p) {
		if ps.monotonic {
			sy.note(reason(NoteScaleDownWaiting, o, "%s is terminating; OrderedReady waits for it to be gone before deleting the next pod", p.Name))
			return true, nil
		}
		return false, nil
	}
	if ps.monotonic && p != ps.first && (!runningAndReady(p) || !sy.available(p)) {
		first := "no pod"
		if ps.first != nil {
			first = ps.first.Name
		}
		sy.note(reason(NoteScaleDownWaiting, o, "%s is not Running, Ready and available, and the first unhealthy pod is %s: OrderedReady deletes only the first unhealthy pod or healthy ones", p.Name, first))
		return true, nil
	}
	start := int(sy.set.StartOrdinal())
	sy.deletePod(p, reason(ReasonScaleDown, o, "%s is outside ordinals [%d, %d) of %d replicas", p.Name, start, start+ps.reps.n, ps.reps.n))
	return true, nil
}

// noteOnDelete explains an OnDelete set's outdated pods.
func (sy *syncer) noteOnDelete(ps *podSync) {
	outdated := 0
	for _, p := range ps.reps.cached() {
		if podRevision(p) != ps.update.Name {
			outdated++
		}
	}
	if outdated > 0 {
		sy.note(reason(NoteOnDelete, []Value{val("outdated", int64(outdated))}, "OnDelete: %d pods are not at revision %s; each is replaced only when it is deleted", outdated, ps.update.Name))
	}
}

// partition is the lowest index the rolling update replaces.
func (sy *syncer) partition() int {
	if ru := sy.set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		return int(*ru.Partition)
	}
	return 0
}

// roll is upstream's rolling update with the MaxUnavailableStatefulSet gate
// off: from the top down to the partition, the first pod not at the update
// revision (and not terminating) is deleted; an updated pod that is not
// available stops the walk.
func (sy *syncer) roll(ps *podSync) {
	min := sy.partition()
	for t := ps.reps.n - 1; t >= min; t-- {
		p := ps.reps.get(t)
		o := []Value{val("ordinal", int64(ordinalOf(p.Name))), val("partition", int64(min))}
		if podRevision(p) != ps.update.Name && !isTerminating(p) {
			sy.deletePod(p, reason(ReasonRollingUpdate, o, "%s is at revision %q, not %s: the rolling update replaces it (highest ordinal first, down to partition %d)", p.Name, podRevision(p), ps.update.Name, min))
			ps.status.CurrentReplicas--
			return
		}
		if sy.unavailable(p) {
			sy.note(reason(NoteUpdateWaiting, o, "%s is not available; the rolling update waits for it before replacing the next pod", p.Name))
			return
		}
	}
	sy.noteRolled(ps, min)
}

// noteRolled explains a rolling update with nothing left to replace.
func (sy *syncer) noteRolled(ps *podSync, min int) {
	if min > 0 && ps.reps.n > 0 {
		sy.note(reason(NotePartition, []Value{val("partition", int64(min))}, "pods below partition %d keep revision %s", min, ps.current.Name))
	}
	sy.note(reason(NoteUpdated, []Value{val("partition", int64(min))}, "every pod from index %d up is at revision %s", min, ps.update.Name))
}

// rollWithMaxUnavailable is upstream's rolling update with the
// MaxUnavailableStatefulSet gate on.
func (sy *syncer) rollWithMaxUnavailable(ps *podSync) *failure {
	maxU := 1
	min := sy.partition()
	if ru := sy.set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		v := model.FromInt(1)
		if ru.MaxUnavailable != nil {
			v = *ru.MaxUnavailable
		}
		n, err := proportion.ScaledValue(&v, int32(ps.reps.n), false)
		if err != nil {
			return leaf("InvalidMaxUnavailable", err.Error())
		}
		maxU = max(int(n), 1)
	}
	unavailable := 0
	for t := ps.reps.n - 1; t >= 0; t-- {
		if sy.unavailable(ps.reps.get(t)) {
			unavailable++
		}
	}
	if unavailable >= maxU {
		sy.note(reason(NoteMaxUnavailable, []Value{val("unavailable", int64(unavailable)), val("maxUnavailable", int64(maxU))}, "%d pods are unavailable and maxUnavailable is %d: the rolling update waits", unavailable, maxU))
		return nil
	}
	budget := maxU - unavailable
	deleted := 0
	for t := ps.reps.n - 1; t >= min && deleted < budget; t-- {
		p := ps.reps.get(t)
		if podRevision(p) != ps.update.Name && !isTerminating(p) {
			sy.deletePod(p, reason(ReasonRollingUpdate, []Value{val("ordinal", int64(ordinalOf(p.Name))), val("maxUnavailable", int64(maxU)), val("unavailable", int64(unavailable))}, "%s is at revision %q, not %s: the rolling update replaces it (%d of maxUnavailable %d unavailable)", p.Name, podRevision(p), ps.update.Name, unavailable+deleted, maxU))
			deleted++
			ps.status.CurrentReplicas--
		}
	}
	if deleted == 0 {
		sy.noteRolled(ps, min)
	}
	return nil
}
