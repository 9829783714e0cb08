package sim

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// stsNamespace is the namespace of a simulated StatefulSet as an API
// server holds it: the set, and its pods, ControllerRevisions and claims in
// name order. Objects are never changed in place, only replaced, so a
// State handed to the planner stays as it was.
type stsNamespace struct {
	set *model.StatefulSet
	setObjects
	claims []*model.PersistentVolumeClaim
}

// named is an object with a name: the namespace's slices are kept sorted by
// it (the StatefulSet's and the DaemonSet's namespaces, and the DaemonSet
// simulation's nodes).
type named interface {
	*model.Pod | *model.ControllerRevision | *model.PersistentVolumeClaim | *model.Node
}

func nameOf[T named](o T) string {
	switch v := any(o).(type) {
	case *model.Pod:
		return v.Name
	case *model.ControllerRevision:
		return v.Name
	case *model.PersistentVolumeClaim:
		return v.Name
	case *model.Node:
		return v.Name
	}
	return ""
}

// find returns the index of the object named name in a sorted slice.
func find[T named](xs []T, name string) (int, bool) {
	return slices.BinarySearchFunc(xs, name, func(o T, n string) int { return strings.Compare(nameOf(o), n) })
}

// put inserts or replaces o in a sorted slice.
func put[T named](xs []T, o T) []T {
	i, ok := find(xs, nameOf(o))
	if ok {
		xs[i] = o
		return xs
	}
	return slices.Insert(xs, i, o)
}

// remove deletes the object named name from a sorted slice.
func remove[T named](xs []T, name string) []T {
	if i, ok := find(xs, name); ok {
		return slices.Delete(xs, i, i+1)
	}
	return xs
}

func (ns *stsNamespace) uid(kind string) string { return ns.newUID(ns.set.Name, kind) }

func (ns *stsNamespace) replaceSet(s *model.StatefulSet) {
	ns.write(&s.ObjectMeta)
	ns.set = s
}

// state is the snapshot one sync plans over. The slices are the
// namespace's own: the planner only reads them, and they are not changed
// until it is done.
func (ns *stsNamespace) state(now time.Time) statefulset.State {
	return statefulset.State{StatefulSet: ns.set, Pods: ns.pods, ControllerRevisions: ns.revisions, Claims: ns.claims, Now: now}
}

// errNotApplied marks a write the API server refuses.
type errNotApplied string

// Error returns the API server's message.
func (e errNotApplied) Error() string { return string(e) }

// apply carries out one accepted write of a plan, as the API server would.
func (ns *stsNamespace) apply(a statefulset.Action, now time.Time) error {
	name := a.Object.Name
	switch a.Kind {
	case statefulset.AdoptControllerRevision:
		i, ok := find(ns.revisions, name)
		if !ok {
			return errNotApplied("controllerrevisions " + strconv.Quote(name) + " not found")
		}
		r := ns.revisions[i].DeepCopy()
		r.OwnerReferences = append(r.OwnerReferences, *a.OwnerReference)
		ns.write(&r.ObjectMeta)
		ns.revisions[i] = r
	case statefulset.CreateControllerRevision:
		if _, ok := find(ns.revisions, name); ok {
			return errNotApplied("controllerrevisions " + strconv.Quote(name) + " already exists")
		}
		r := a.ControllerRevision.DeepCopy()
		r.Namespace, r.UID, r.CreationTimestamp = ns.set.Namespace, ns.uid("revision"), now
		ns.write(&r.ObjectMeta)
		ns.revisions = put(ns.revisions, r)
	case statefulset.UpdateControllerRevision:
		i, ok := find(ns.revisions, name)
		if !ok {
			return errNotApplied("controllerrevisions " + strconv.Quote(name) + " not found")
		}
		r := ns.revisions[i].DeepCopy()
		r.Revision = a.RevisionUpdate.To
		ns.write(&r.ObjectMeta)
		ns.revisions[i] = r
	case statefulset.DeleteControllerRevision:
		ns.revisions = remove(ns.revisions, name)
		ns.version++
	case statefulset.CreateClaim:
		if _, ok := find(ns.claims, name); ok {
			return errNotApplied("persistentvolumeclaims " + strconv.Quote(name) + " already exists")
		}
		c := a.Claim.DeepCopy()
		c.Namespace, c.UID, c.CreationTimestamp = ns.set.Namespace, ns.uid("claim"), now
		ns.write(&c.ObjectMeta)
		ns.claims = put(ns.claims, c)
	case statefulset.UpdateClaim:
		i, ok := find(ns.claims, name)
		if !ok {
			return errNotApplied("persistentvolumeclaims " + strconv.Quote(name) + " not found")
		}
		c := ns.claims[i].DeepCopy()
		c.OwnerReferences = slices.Clone(a.OwnerReferences)
		ns.write(&c.ObjectMeta)
		ns.claims[i] = c
	case statefulset.CreatePod:
		p, err := ns.createdPod(name, a.Pod, ns.set.Namespace, ns.set.Name, now)
		if err != nil {
			return err
		}
		ns.putPod(p)
	case statefulset.UpdatePod:
		target := name
		if a.PodUpdate.Name != "" {
			target = a.PodUpdate.Name
		}
		old := ns.pod(target)
		if old == nil {
			return errNotApplied("pods " + strconv.Quote(target) + " not found")
		}
		p := old.DeepCopy()
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		maps.Copy(p.Labels, a.PodUpdate.Labels)
		if a.PodUpdate.Volumes != nil {
			p.Spec.Volumes = slices.Clone(a.PodUpdate.Volumes)
		}
		ns.putPod(p)
	case statefulset.AdoptPod, statefulset.ReleasePod:
		old := ns.pod(name)
		if old == nil {
			return errNotApplied("pods " + strconv.Quote(name) + " not found")
		}
		p := old.DeepCopy()
		p.OwnerReferences = reowned(p.OwnerReferences, a.OwnerReference, a.Kind == statefulset.AdoptPod)
		ns.putPod(p)
	case statefulset.DeletePod:
		ns.deletePod(name, now)
	case statefulset.UpdateStatefulSetStatus:
		s := ns.set.DeepCopy()
		s.Status = a.Status.DeepCopy()
		ns.replaceSet(s)
	default:
		return fmt.Errorf("sim: unknown StatefulSet action %q", a.Kind)
	}
	return nil
}

// kubelet is the stand-in for the kubelets, the scheduler and the garbage
// collector of a simulated StatefulSet: it starts new pods ReadyAfter after
// their creation (Running and Ready, or Running and never Ready for a
// NeverReady template, once their claims exist), fails some (unready for a
// while, or evicted to phase Failed), removes deleted pods after their
// grace period, and deletes claims whose owners are all gone.
type kubelet struct{ podLife }

func newKubelet(w World, evict float64, rng *rand.Rand, ns *stsNamespace, now time.Time) *kubelet {
	k := &kubelet{newPodLife(w, evict, rng)}
	for _, p := range ns.pods {
		// A starting pod becomes ready ReadyAfter after its creation, not
		// before the start.
		if !model.IsPodReady(p) && !p.IsTerminal() && p.DeletionTimestamp == nil {
			at := k.startAt(p.CreationTimestamp)
			if at.Before(now) {
				at = now
			}
			k.readyAt[p.UID] = at
		}
	}
	return k
}

// template is the pod template a pod was made from, as World.NeverReady
// reads it.
func podTemplate(p *model.Pod) model.PodTemplate {
	return model.PodTemplate{Labels: p.Labels, Annotations: p.Annotations, Spec: p.Spec.Body}
}

// startAt is when a pod created (or turned unready) at t becomes ready.
func (k *kubelet) startAt(t time.Time) time.Time { return t.Add(k.w.ReadyAfter) }

// claimsBound reports whether every claim the pod mounts exists: a pod
// whose claim is missing stays Pending.
func claimsBound(ns *stsNamespace, p *model.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if v.ClaimName == "" {
			continue
		}
		if i, ok := find(ns.claims, v.ClaimName); !ok || ns.claims[i].DeletionTimestamp != nil {
			return false
		}
	}
	return true
}

// advance carries the namespace to now and reports whether anything
// changed; k.events says what, when k.log is set.
func (k *kubelet) advance(ns *stsNamespace, now time.Time) bool {
	changed := false
	k.events = k.events[:0:0]
	kept := ns.pods[:0:0]
	for _, p := range ns.pods {
		if p.DeletionTimestamp != nil {
			gone, ok := k.goneAt[p.UID]
			if !ok {
				gone = *p.DeletionTimestamp
				if !p.IsTerminal() {
					gone = gone.Add(k.w.TerminationGrace)
				}
				k.goneAt[p.UID] = gone
			}
			if !gone.After(now) {
				delete(k.goneAt, p.UID)
				delete(k.readyAt, p.UID)
				k.note("%s gone", p.Name)
				changed = true
				continue
			}
			kept = append(kept, p)
			continue
		}
		if p.IsTerminal() {
			kept = append(kept, p)
			continue
		}
		// A pod whose claims are missing stays Pending.
		p, moved := k.carry(p, now, ns.write, "%s evicted (Failed)", func() (time.Time, bool) {
			at, ok := k.readyAt[p.UID]
			if !ok {
				at = k.startAt(p.CreationTimestamp)
				k.readyAt[p.UID] = at
			}
			return at, claimsBound(ns, p)
		})
		changed = changed || moved
		kept = append(kept, p)
	}
	ns.pods = kept
	return k.collect(ns) || changed
}

// collect is the garbage collector: a claim with owner references whose
// owners (pods by UID, the set) are all gone is deleted.
func (k *kubelet) collect(ns *stsNamespace) bool {
	uids := map[string]bool{ns.set.UID: true}
	for _, p := range ns.pods {
		uids[p.UID] = true
	}
	n := len(ns.claims)
	ns.claims = slices.DeleteFunc(slices.Clone(ns.claims), func(c *model.PersistentVolumeClaim) bool {
		if len(c.OwnerReferences) == 0 {
			return false
		}
		for _, r := range c.OwnerReferences {
			if (r.Kind != "Pod" && r.Kind != model.StatefulSetKind) || uids[r.UID] {
				return false
			}
		}
		k.note("claim %s garbage-collected", c.Name)
		return true
	})
	if len(ns.claims) != n {
		ns.version++
		return true
	}
	return false
}

// next is when a pod changes by itself after now: one becomes ready or
// available, or one is done terminating; zero when none will.
func (k *kubelet) next(ns *stsNamespace, now time.Time) time.Time {
	next := soonest{now: now}
	minReady := time.Duration(ns.set.Spec.MinReadySeconds) * time.Second
	for _, p := range ns.pods {
		switch {
		case p.DeletionTimestamp != nil:
			if gone, ok := k.goneAt[p.UID]; ok {
				next.consider(gone)
			} else {
				next.consider(p.DeletionTimestamp.Add(k.w.TerminationGrace))
			}
		case p.IsTerminal():
		case model.IsPodReady(p):
			if minReady > 0 {
				next.consider(p.ReadyCondition().LastTransitionTime.Add(minReady))
			}
		default:
			at, ok := k.readyAt[p.UID]
			if !ok {
				at = k.startAt(p.CreationTimestamp)
			}
			if !at.IsZero() {
				next.consider(at)
			}
		}
	}
	return next.next
}
