package replicaset

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Sync plans one upstream ReplicaSet-controller sync of rs (upstream
// syncReplicaSet): claim pods, create or delete pods towards spec.replicas, and
// write the status.
//
// pods are the pods of rs's namespace (pods of other namespaces are ignored)
// and replicaSets the ReplicaSets of the namespace; the latter are read only
// to find the ReplicaSets with the same controller as rs, whose pods count
// for the co-location rule of the deletion ranking. rs may or may not be in
// replicaSets. now is the controller's clock: it decides availability
// (minReadySeconds), the logarithmic ranking buckets and condition times.
//
// The error result is one of:
//   - invalid input, with the zero Plan: a *model.ValidationError naming
//     each bad field (a nil rs or pod, an unset or negative spec.replicas,
//     an invalid selector or one that does not select the template, pods
//     without a UID or with duplicate names or UIDs), or a [PodNamer] that
//     cannot find a free name;
//   - a *[SyncError], with the Plan: upstream's sync ends with this error
//     (the first failed create or delete), after the writes the Plan holds.
//     errors.As(err, new(*SyncError)) tells the two apart.
//
// Sync reads only rs, pods and replicaSets, never modifies them, and returns
// a Plan that shares nothing with them. The Plan does not depend on the order
// of pods or replicaSets (unless [WithUpstreamTieOrder] asks it to).
//
// For example, a ReplicaSet of 3 replicas without pods plans three creates
// in batches 1 and 2 and a status update observing its generation; one of 2
// replicas with pods ready, not-ready and unscheduled deletes the
// unscheduled pod.
func Sync(rs *model.ReplicaSet, pods []*model.Pod, replicaSets []*model.ReplicaSet, now time.Time, opts ...Option) (Plan, error) {
	cfg := newConfig(opts)
	names, err := validate(rs, pods, replicaSets, cfg.objectsValidated)
	if err != nil {
		return Plan{}, err
	}
	s := &syncer{rs: rs, now: now, cfg: &cfg, spec: int(rs.SpecReplicas()), replicaSets: replicaSets, names: names}
	// names holds every pod of rs's namespace (validate rejects pods
	// without a name), so when it holds them all, pods is read as it is.
	if len(names) == len(pods) {
		s.pods = pods
	} else {
		s.pods = make([]*model.Pod, 0, len(names))
		for _, p := range pods {
			if p.Namespace == rs.Namespace {
				s.pods = append(s.pods, p)
			}
		}
	}
	// Validated above, so the matcher cannot fail; Sync only reads rs.
	s.sel, _ = model.NewSharedMatcher(rs.Spec.Selector)
	s.claim()
	terminating := 0
	if cfg.terminating {
		for _, p := range s.pods {
			if ref := p.ControllerRef(); model.IsPodTerminating(p) && ref != nil && listedFor(ref, rs) && s.sel.Matches(p.Labels) {
				terminating++
			}
		}
	}
	if rs.DeletionTimestamp != nil {
		s.note(Reason{Code: NoteDeleting, Message: fmt.Sprintf("ReplicaSet is being deleted: no pods are created or deleted (%d active, %d desired)", len(s.active), s.spec),
			Values: []Value{val("active", int64(len(s.active))), val("desired", int64(s.spec))}})
	} else if cfg.pending {
		s.note(Reason{Code: NoteExpectationsPending, Message: fmt.Sprintf("waiting to observe the controller's last creates and deletes: no pods are created or deleted (%d active, %d desired)", len(s.active), s.spec),
			Values: []Value{val("active", int64(len(s.active))), val("desired", int64(s.spec))}})
	} else if err := s.manage(); err != nil {
		return Plan{}, err
	}
	counts := countStatus(rs, s.active, terminating, now, &cfg)
	st, changed, condNote := calculateStatus(rs, counts, s.err, len(s.active), now)
	s.plan.Status = st
	s.plan.StatusChanged = changed
	if changed {
		written := st
		written.Conditions = slices.Clone(st.Conditions)
		if st.TerminatingReplicas != nil {
			t := *st.TerminatingReplicas
			written.TerminatingReplicas = &t
		}
		s.plan.Actions = append(s.plan.Actions, Action{
			Kind:            UpdateReplicaSetStatus,
			Namespace:       rs.Namespace,
			Name:            rs.Name,
			UID:             rs.UID,
			Status:          &written,
			ResourceVersion: rs.ResourceVersion,
			Reason:          statusReason(rs.Status, st, rs.Generation, condNote),
		})
	} else {
		s.note(Reason{Code: NoteStatusUnchanged, Message: "the computed status equals the stored one"})
	}
	if s.err == nil && rs.Spec.MinReadySeconds > 0 && st.ReadyReplicas != st.AvailableReplicas {
		after, ok := nextAvailabilityCheck(s.active, rs.Spec.MinReadySeconds, now)
		if !ok {
			after = time.Duration(rs.Spec.MinReadySeconds) * time.Second
		}
		s.plan.RequeueAfter = after
		s.note(Reason{Code: NoteRequeueMinReady,
			Message: fmt.Sprintf("%d pods are ready but %d available: sync again in %v, when the next one has been ready for minReadySeconds %d", st.ReadyReplicas, st.AvailableReplicas, after, rs.Spec.MinReadySeconds),
			Values:  []Value{val("ready", int64(st.ReadyReplicas)), val("available", int64(st.AvailableReplicas)), val("minReadySeconds", int64(rs.Spec.MinReadySeconds))}})
	}
	if s.err != nil {
		return s.plan, s.err
	}
	return s.plan, nil
}

type syncer struct {
	rs   *model.ReplicaSet
	now  time.Time
	cfg  *config
	spec int
	pods []*model.Pod // of rs's namespace, in input order; read only (may be the caller's)
	// replicaSets are the caller's, read for related ReplicaSets only.
	replicaSets []*model.ReplicaSet
	sel         model.Matcher
	active      []*model.Pod // claimed active pods, in input order
	plan        Plan
	// err is the error the sync ends with (the first failed create or
	// delete), or nil.
	err *SyncError
	// names maps the name of every pod of pods (of rs's namespace) to its
	// index, from validate; create takes it over as the taken names.
	names map[string]int
}

func (s *syncer) note(r Reason) { s.plan.Notes = append(s.plan.Notes, r) }

// event records an event about the action planned last: upstream records it
// once that write has returned.
func (s *syncer) event(typ, reason, msg string) {
	s.plan.Events = append(s.plan.Events, Event{Type: typ, Reason: reason, Message: msg, Object: "ReplicaSet/" + s.rs.Name, AfterWrites: len(s.plan.Actions)})
}

// claim adopts orphan active pods the selector matches and releases active
// pods rs controls that it no longer matches (upstream ClaimPods); a ReplicaSet being
// deleted does neither. The patches are planned in pod-name order (upstream
// follows its cache's order).
func (s *syncer) claim() {
	rs := s.rs
	deleting := rs.DeletionTimestamp != nil
	var claims []Action
	for _, p := range s.pods {
		if !model.IsPodActive(p) {
			continue
		}
		ref := p.ControllerRef()
		if ref != nil && !listedFor(ref, rs) {
			continue // another controller's pod: its labels do not matter
		}
		matches := s.sel.Matches(p.Labels)
		if ref != nil {
			if matches {
				s.active = append(s.active, p)
				continue
			}
			if deleting {
				continue
			}
			removed := *ref
			claims = append(claims, Action{
				Kind: ReleasePod, Namespace: p.Namespace, Name: p.Name, UID: p.UID,
				Patch: releasePatch(rs.UID, p.UID), OwnerReference: &removed,
				Reason: Reason{Code: ReasonReleasePod,
					Message: fmt.Sprintf("release pod %s: %s controls it but its labels no longer match the selector", p.Name, rs.Name)},
			})
			continue
		}
		if deleting || !matches {
			continue
		}
		own := controllerRef(rs)
		claims = append(claims, Action{
			Kind: AdoptPod, Namespace: p.Namespace, Name: p.Name, UID: p.UID,
			Patch: adoptPatch(own, p.UID), OwnerReference: &own,
			Reason: Reason{Code: ReasonAdoptPod,
				Message: fmt.Sprintf("adopt pod %s: it has no controller and its labels match the selector of %s", p.Name, rs.Name)},
		})
		s.active = append(s.active, p)
	}
	slices.SortFunc(claims, func(a, b Action) int { return strings.Compare(a.Name, b.Name) })
	s.plan.Actions = append(s.plan.Actions, claims...)
}

// manage is upstream's manageReplicas.
func (s *syncer) manage() error {
	diff := len(s.active) - s.spec
	switch {
	case diff < 0:
		return s.create(-diff)
	case diff > 0:
		s.delete(diff)
	default:
		s.note(Reason{Code: NoteInSync, Message: fmt.Sprintf("%d active pods = %d desired", len(s.active), s.spec),
			Values: []Value{val("active", int64(len(s.active))), val("desired", int64(s.spec))}})
	}
	return nil
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}

func (s *syncer) burstNote(want int, verb string) {
	if want > BurstReplicas {
		s.note(Reason{Code: NoteBurstLimit,
			Message: fmt.Sprintf("%d pods to %s, capped at the burst limit of %d per sync", want, verb, BurstReplicas),
			Values:  []Value{val("want", int64(want)), val("burst", BurstReplicas)}})
	}
}

// create plans the slow-start creation of want pods (capped at the burst).
func (s *syncer) create(want int) error {
	rs := s.rs
	n := min(want, BurstReplicas)
	batches := SlowStartBatches(n)
	active := len(s.active)
	s.note(Reason{Code: NoteScaleUp,
		Message: fmt.Sprintf("create %d pods in batches %s: %d active < %d desired", n, joinInts(batches), active, s.spec),
		Values:  []Value{val("create", int64(n)), val("batches", int64(len(batches))), val("active", int64(active)), val("desired", int64(s.spec))}})
	s.burstNote(want, "create")
	// The names of the pods of the namespace, indexed by validate once.
	names := newNamer(rs, s.names, n, s.cfg.namer)
	prefix := GenerateName(rs.Name)
	noLabels := len(rs.Spec.Template.Labels) == 0
	attempt, created := 0, 0
	for b, size := range batches {
		failed := 0
		for range size {
			name, err := names.name()
			if err != nil {
				return err
			}
			pod := newPod(rs, name)
			a := Action{Kind: CreatePod, Namespace: rs.Namespace, Name: name, GenerateName: prefix, Pod: pod,
				Reason: Reason{Code: ReasonTooFewPods,
					Message: fmt.Sprintf("create pod %d of %d (batch %d of %d, size %d): %d active < %d desired", attempt+1, n, b+1, len(batches), size, active, s.spec),
					Values: []Value{val("pod", int64(attempt+1)), val("of", int64(n)), val("batch", int64(b+1)), val("batches", int64(len(batches))),
						val("batchSize", int64(size)), val("active", int64(active)), val("desired", int64(s.spec))}}}
			var rejected error
			switch {
			case noLabels:
				// Upstream refuses before calling the API: no event.
				rejected = errors.New("unable to create pods, no labels")
			case s.cfg.createFault != nil:
				rejected = s.cfg.createFault(attempt, pod.DeepCopy())
			}
			ignored := !noLabels && errors.Is(rejected, ErrNamespaceTerminating)
			if rejected != nil {
				a.Error = rejected.Error()
			}
			s.plan.Actions = append(s.plan.Actions, a)
			switch {
			case rejected == nil:
				created++
				s.event(model.EventTypeNormal, EventSuccessfulCreate, "Created pod: "+name)
			case ignored:
				// Upstream counts it as a success: no error, no event.
			default:
				failed++
				if !noLabels {
					s.event(model.EventTypeWarning, EventFailedCreate, "Error creating: "+a.Error)
				}
				if s.err == nil {
					s.err = &SyncError{Kind: ErrKindFailedCreate, Message: a.Error}
				}
			}
			attempt++
		}
		if failed > 0 {
			s.note(Reason{Code: NoteCreateStopped,
				Message: fmt.Sprintf("%d of %d creates in batch %d of %d failed: %d created, %d skipped (%d never attempted): %s",
					failed, size, b+1, len(batches), created, n-created, n-attempt, s.err.Message),
				Values: []Value{val("failed", int64(failed)), val("batchSize", int64(size)), val("batch", int64(b+1)), val("batches", int64(len(batches))),
					val("created", int64(created)), val("skipped", int64(n-created)), val("notAttempted", int64(n-attempt))}})
			break
		}
	}
	return nil
}

// delete plans the deletion of the surplus (capped at the burst), ranking
// the active pods against the pods related to rs.
func (s *syncer) delete(surplus int) {
	rs := s.rs
	n := min(surplus, BurstReplicas)
	active := len(s.active)
	s.note(Reason{Code: NoteScaleDown,
		Message: fmt.Sprintf("delete %d of %d active pods: %d active > %d desired", n, active, active, s.spec),
		Values:  []Value{val("delete", int64(n)), val("active", int64(active)), val("desired", int64(s.spec))}})
	s.burstNote(surplus, "delete")

	mask := relatedMask(rs, s.pods, s.replicaSets)
	related := make([]*model.Pod, 0, len(s.pods))
	for i, p := range s.pods {
		if mask[i] {
			related = append(related, p)
		}
	}
	ranks := CoLocationRanks(s.active, related)
	var keys []*podKey
	logScale := !s.now.IsZero()
	if s.cfg.upstreamTies && n >= active {
		keys = make([]*podKey, active)
		for i, p := range s.active {
			k := makeKey(p, i, ranks[i], s.now, s.cfg)
			keys[i] = &k
		}
	} else {
		// Only the n deleted pods and the first pod kept (for the
		// explanations) need their places.
		keys = selectKeys(s.active, ranks, s.now, s.cfg, n+1)
	}
	var kept *podKey
	if n < len(keys) {
		kept = keys[n]
	}
	var firstErr *SyncError
	failed := 0
	for i, k := range keys[:n] {
		p := k.pod
		rule, detail, values := explain(k, kept, logScale, s.now)
		a := Action{Kind: DeletePod, Namespace: p.Namespace, Name: p.Name, UID: p.UID, Rule: rule,
			Reason: Reason{Code: ReasonTooManyPods,
				Message: fmt.Sprintf("delete pod %s, %d of %d in deletion order (%d active > %d desired): %s", p.Name, i+1, n, active, s.spec, detail),
				Values: append([]Value{val("position", int64(i+1)), val("of", int64(n)), val("active", int64(active)), val("desired", int64(s.spec))},
					values...)}}
		var err error
		if s.cfg.deleteFault != nil {
			err = s.cfg.deleteFault(p.DeepCopy())
		}
		if err != nil {
			a.Error = err.Error()
		}
		s.plan.Actions = append(s.plan.Actions, a)
		switch {
		case err == nil:
			s.event(model.EventTypeNormal, EventSuccessfulDelete, "Deleted pod: "+p.Name)
		case errors.Is(err, ErrNotFound):
			// The pod is gone already: no error, no event.
		default:
			failed++
			s.event(model.EventTypeWarning, EventFailedDelete, "Error deleting: "+a.Error)
			if firstErr == nil {
				firstErr = &SyncError{Kind: ErrKindFailedDelete, Message: "unable to delete pods: " + a.Error}
			}
		}
	}
	if firstErr != nil {
		s.err = firstErr
		s.note(Reason{Code: NoteDeleteFailed,
			Message: fmt.Sprintf("%d of %d deletes failed: %s", failed, n, firstErr.Message),
			Values:  []Value{val("failed", int64(failed)), val("of", int64(n))}})
	}
}

func ordinalTime(now, t time.Time) string {
	if now.IsZero() {
		return t.UTC().Format(time.RFC3339Nano)
	}
	return now.Sub(t).String() + " ago"
}

// explain says why v is deleted before kept, the first pod kept, in upstream's
// terms: the rule at which upstream's comparator separates them, with the
// numbers it compared.
func explain(v, kept *podKey, logScale bool, now time.Time) (Rule, string, []Value) {
	if kept == nil {
		return RuleAllDeleted, "every active pod goes, so no ranking is needed", nil
	}
	c, rule := compareUpstream(v, kept, logScale)
	k := kept.name
	switch {
	case c > 0:
		return RuleCycle, fmt.Sprintf("upstream's comparator would keep it before %s (the first pod kept) by rule %s, but is cyclic on these pods; the planner's consistent order decided", k, rule), nil
	case c == 0:
		return RuleTie, fmt.Sprintf("no upstream rule separates it from %s (the first pod kept); UID order decides (%q before %q)", k, v.uid, kept.uid), nil
	}
	switch rule {
	case RuleUnassigned:
		return rule, fmt.Sprintf("not scheduled to a node, unlike %s (the first pod kept, on node %s)", k, kept.pod.Spec.NodeName), nil
	case RulePhase:
		return rule, fmt.Sprintf("phase %q ranks %d, before %q (%d) of %s (the first pod kept)", v.pod.Status.Phase, v.phase, kept.pod.Status.Phase, kept.phase, k),
			[]Value{val("phase", int64(v.phase)), val("keptPhase", int64(kept.phase))}
	case RuleNotReady:
		return rule, fmt.Sprintf("not ready, unlike %s (the first pod kept)", k), nil
	case RuleDeletionCost:
		return rule, fmt.Sprintf("deletion cost %d < %d of %s (the first pod kept)", v.cost, kept.cost, k),
			[]Value{val("cost", int64(v.cost)), val("keptCost", int64(kept.cost))}
	case RuleCoLocation:
		return rule, fmt.Sprintf("%d related active pods on its node %q > %d on node %q of %s (the first pod kept)", v.rank, v.pod.Spec.NodeName, kept.rank, kept.pod.Spec.NodeName, k),
			[]Value{val("coLocation", int64(v.rank)), val("keptCoLocation", int64(kept.rank))}
	case RuleReadyTime:
		if v.readyZero {
			return rule, fmt.Sprintf("ready without a transition time, unlike %s (the first pod kept)", k), nil
		}
		if !logScale {
			return rule, fmt.Sprintf("ready since %s, later than %s of %s (the first pod kept)", ordinalTime(now, v.readyTime), ordinalTime(now, kept.readyTime), k), nil
		}
		return rule, fmt.Sprintf("ready since %s (bucket %d), more recently than %s (the first pod kept, ready since %s, bucket %d)", ordinalTime(now, v.readyTime), v.readyBkt, k, ordinalTime(now, kept.readyTime), kept.readyBkt),
			[]Value{val("readyBucket", v.readyBkt), val("keptReadyBucket", kept.readyBkt)}
	case RuleReadyTimeUID:
		return rule, fmt.Sprintf("ready in the same bucket %d as %s (the first pod kept) at a different time; UID %q < %q", v.readyBkt, k, v.uid, kept.uid),
			[]Value{val("readyBucket", v.readyBkt)}
	case RuleRestarts:
		return rule, fmt.Sprintf("%d container restarts > %d of %s (the first pod kept)", v.restarts, kept.restarts, k),
			[]Value{val("restarts", v.restarts), val("keptRestarts", kept.restarts)}
	case RuleCreationTime:
		if v.created.IsZero() {
			return rule, fmt.Sprintf("no creation time, unlike %s (the first pod kept)", k), nil
		}
		if !logScale {
			return rule, fmt.Sprintf("created at %s, later than %s (the first pod kept)", ordinalTime(now, v.created), k), nil
		}
		return rule, fmt.Sprintf("created %s (bucket %d), more recently than %s (the first pod kept, created %s, bucket %d)", ordinalTime(now, v.created), v.createdBkt, k, ordinalTime(now, kept.created), kept.createdBkt),
			[]Value{val("createdBucket", v.createdBkt), val("keptCreatedBucket", kept.createdBkt)}
	case RuleCreationTimeUID:
		return rule, fmt.Sprintf("created in the same bucket %d as %s (the first pod kept) at a different time; UID %q < %q", v.createdBkt, k, v.uid, kept.uid),
			[]Value{val("createdBucket", v.createdBkt)}
	}
	return rule, string(rule), nil
}

// nextAvailabilityCheck is how long until the first of pods that is ready
// but not yet available becomes available (upstream
// FindMinNextPodAvailabilityCheck, with the status and the check evaluated
// at the same now): the least LastTransitionTime + minReadySeconds − now
// that is positive. ok is false when no pod has one (no ready pod waits, or
// those that wait have no transition time); upstream then falls back to
// minReadySeconds.
func nextAvailabilityCheck(pods []*model.Pod, minReadySeconds int32, now time.Time) (time.Duration, bool) {
	var least time.Duration
	found := false
	for _, p := range pods {
		c := p.ReadyCondition()
		if c == nil || c.Status != model.ConditionTrue || c.LastTransitionTime.IsZero() {
			continue
		}
		next := c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second).Sub(now)
		if next > 0 && (!found || next < least) {
			least, found = next, true
		}
	}
	return least, found
}
