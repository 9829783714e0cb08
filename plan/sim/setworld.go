package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// What the simulated namespaces and stand-in kubelets of the StatefulSet
// and DaemonSet simulators share.

// setObjects are the objects of a set's simulated namespace besides the
// set (and the nodes): its pods and ControllerRevisions in name order, as
// an API server holds them. Objects are never changed in place, only
// replaced.
type setObjects struct {
	pods      []*model.Pod
	revisions []*model.ControllerRevision
	// version is the namespace's resourceVersion: it grows on every write.
	version int64
	uids    int
}

// write stamps an object written now with the next resourceVersion.
func (o *setObjects) write(m *model.ObjectMeta) {
	o.version++
	m.ResourceVersion = strconv.FormatInt(o.version, 10)
}

// newUID returns a UID for a new object of the kind, unique in the
// simulation: "web-pod-3" for the set "web"'s third object.
func (o *setObjects) newUID(set, kind string) string {
	o.uids++
	return fmt.Sprintf("%s-%s-%d", set, kind, o.uids)
}

func (o *setObjects) pod(name string) *model.Pod {
	if i, ok := find(o.pods, name); ok {
		return o.pods[i]
	}
	return nil
}

func (o *setObjects) putPod(p *model.Pod) {
	o.write(&p.ObjectMeta)
	o.pods = put(o.pods, p)
}

// createdPod is the pod the API server stores for a create of the pod
// named name at now in the set's namespace: a new UID, phase Pending. A pod
// of that name must not exist yet.
func (o *setObjects) createdPod(name string, pod *model.Pod, namespace, set string, now time.Time) (*model.Pod, error) {
	if o.pod(name) != nil {
		return nil, errNotApplied("pods " + strconv.Quote(name) + " already exists")
	}
	p := pod.DeepCopy()
	p.Namespace, p.UID, p.CreationTimestamp = namespace, o.newUID(set, "pod"), now
	p.Status = model.PodStatus{Phase: model.PodPending}
	return p, nil
}

// startTerminating marks a pod deleted at now, as the API server does for a
// pod with a grace period; one already terminating keeps its timestamp.
func (o *setObjects) startTerminating(old *model.Pod, now time.Time) {
	if old.DeletionTimestamp == nil {
		p := old.DeepCopy()
		p.DeletionTimestamp = model.TimePtr(now)
		o.putPod(p)
	}
}

// deletePod is the controller's delete of the pod named name: it starts
// terminating; one already gone counts as deleted, as upstream counts it.
func (o *setObjects) deletePod(name string, now time.Time) {
	if old := o.pod(name); old != nil {
		o.startTerminating(old, now)
	}
}

// reowned returns a copied pod's owner references with ref added (adopt)
// or with the reference to ref's owner removed (release).
func reowned(refs []model.OwnerReference, ref *model.OwnerReference, adopt bool) []model.OwnerReference {
	if adopt {
		return append(refs, *ref)
	}
	return slices.DeleteFunc(refs, func(r model.OwnerReference) bool { return r.UID == ref.UID })
}

// userDeletePod is kubectl delete pod: the pod starts terminating; deleting
// a pod that does not exist is refused, one already terminating is a
// no-op.
func (o *setObjects) userDeletePod(a Action, now time.Time) error {
	old := o.pod(a.Pod)
	if old == nil {
		return fmt.Errorf("%w: %s: pods %q not found", errRefused, a, a.Pod)
	}
	o.startTerminating(old, now)
	return nil
}

// podLife is what the stand-in kubelets of the set simulators share: when
// pods become ready and when terminating ones are gone, the random draws
// that fail ready pods, and the log of what happened to pods.
type podLife struct {
	w     World
	evict float64
	rng   *rand.Rand
	// log, when set, collects what advance did, for the trace.
	log     bool
	events  []string
	readyAt map[string]time.Time // by pod UID, for pods not ready; zero: never
	goneAt  map[string]time.Time // by pod UID, for terminating pods
}

func newPodLife(w World, evict float64, rng *rand.Rand) podLife {
	return podLife{w: w, evict: evict, rng: rng, readyAt: map[string]time.Time{}, goneAt: map[string]time.Time{}}
}

// note records a pod transition when the trace keeps steps.
func (k *podLife) note(format string, args ...any) {
	if k.log {
		k.events = append(k.events, fmt.Sprintf(format, args...))
	}
}

// carry carries a live pod (neither terminating nor failed) to now: a
// ready pod may fail (see mayFail); one that is not starts (see start) at
// the time readyAt gives, once that is not after now (zero: never), if
// readyAt also says it can. It returns the pod as it is after and whether
// it changed.
func (k *podLife) carry(p *model.Pod, now time.Time, write func(*model.ObjectMeta), evicted string, readyAt func() (time.Time, bool)) (*model.Pod, bool) {
	if model.IsPodReady(p) {
		return k.mayFail(p, now, write, evicted)
	}
	at, can := readyAt()
	if at.IsZero() || at.After(now) || !can {
		return p, false
	}
	return k.start(p, at, write), true
}

// mayFail draws whether a ready pod fails at now: evicted to phase Failed
// (noted as evicted, e.g. "%s failed"), or unready until ReadyAfter from
// now. It returns the pod as it is after, written with write when it
// changed, and whether it did.
func (k *podLife) mayFail(p *model.Pod, now time.Time, write func(*model.ObjectMeta), evicted string) (*model.Pod, bool) {
	switch {
	case k.evict > 0 && k.rng.Float64() < k.evict:
		p = p.DeepCopy()
		p.Status.Phase = model.PodFailed
		setReady(p, model.ConditionFalse, now)
		write(&p.ObjectMeta)
		delete(k.readyAt, p.UID)
		k.note(evicted, p.Name)
		return p, true
	case k.w.FailureRate > 0 && k.rng.Float64() < k.w.FailureRate:
		p = p.DeepCopy()
		setReady(p, model.ConditionFalse, now)
		write(&p.ObjectMeta)
		k.readyAt[p.UID] = now.Add(k.w.ReadyAfter)
		k.note("%s not Ready", p.Name)
		return p, true
	}
	return p, false
}

// start starts a pod at: Running and Ready or, for a NeverReady template
// (a broken binary or configuration: the container runs and crashes),
// Running and never Ready. It returns the pod, written with write.
func (k *podLife) start(p *model.Pod, at time.Time, write func(*model.ObjectMeta)) *model.Pod {
	p = p.DeepCopy()
	p.Status.Phase = model.PodRunning
	if k.w.NeverReady != nil && k.w.NeverReady(podTemplate(p)) {
		setReady(p, model.ConditionFalse, at)
		k.readyAt[p.UID] = time.Time{}
		k.note("%s Running, never Ready", p.Name)
	} else {
		setReady(p, model.ConditionTrue, at)
		delete(k.readyAt, p.UID)
		k.note("%s Running and Ready", p.Name)
	}
	write(&p.ObjectMeta)
	return p
}

// soonest keeps the earliest of the times it considers that is after now;
// zero when none is.
type soonest struct{ now, next time.Time }

func (s *soonest) consider(t time.Time) {
	if t.After(s.now) && (s.next.IsZero() || t.Before(s.next)) {
		s.next = t
	}
}

// sameJSON reports whether a and b encode to the same JSON: how the
// simulators tell a spec or template the user's change left alone.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// undoTarget is kubectl rollout undo's choice among the ControllerRevisions
// the set with UID owner controls: the one numbered toRevision, or, when
// toRevision is 0, the one before the latest in compare's order.
func undoTarget(revisions []*model.ControllerRevision, owner string, toRevision int64, compare func(a, b *model.ControllerRevision) int) (*model.ControllerRevision, error) {
	var history []*model.ControllerRevision
	for _, r := range revisions {
		if r.IsControlledBy(owner) {
			history = append(history, r)
		}
	}
	if toRevision == 0 && len(history) <= 1 {
		return nil, errors.New("no last revision to roll back to")
	}
	var to *model.ControllerRevision
	if toRevision == 0 {
		slices.SortStableFunc(history, compare)
		to = history[len(history)-2]
	} else {
		for _, r := range history {
			if r.Revision == toRevision {
				to = r
			}
		}
	}
	if to == nil {
		return nil, fmt.Errorf("unable to find specified revision %d in history", toRevision)
	}
	return to, nil
}

// undoTemplate is the template kubectl rollout undo (a) sets, found by
// target from a.Revision: nil when the template already matches (kubectl
// skips it); an error the client refuses with when there is none.
func (a Action) undoTemplate(target func(toRevision int64) (*model.PodTemplate, error)) (*model.PodTemplate, error) {
	t, err := target(a.Revision)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errRefused, a, err)
	}
	return t, nil
}
