package sim

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// dsNamespace is a simulated DaemonSet's cluster as an API server holds it:
// the DaemonSet, the node pool, and the namespace's pods and
// ControllerRevisions in name order. Objects are never changed in place,
// only replaced, so a State handed to the planner stays as it was; the
// affinity map is the exception, written only between syncs.
type dsNamespace struct {
	ds    *model.DaemonSet
	nodes []*model.Node
	setObjects
	// affinity holds the required node affinity of the pods by name
	// (State.PodNodeAffinity); tolerations the tolerations of the pods by
	// UID, which the scheduler and the taint manager read.
	affinity    map[string]*model.NodeSelector
	tolerations map[string][]model.Toleration
}

func (ns *dsNamespace) uid(kind string) string { return ns.newUID(ns.ds.Name, kind) }

func (ns *dsNamespace) replaceDaemonSet(ds *model.DaemonSet) {
	ns.write(&ds.ObjectMeta)
	ns.ds = ds
}

func (ns *dsNamespace) node(name string) *model.Node {
	if i, ok := find(ns.nodes, name); ok {
		return ns.nodes[i]
	}
	return nil
}

// putNode writes a node; the slice is copied so that a State planned before
// keeps its nodes.
func (ns *dsNamespace) putNode(n *model.Node) {
	ns.write(&n.ObjectMeta)
	ns.nodes = put(slices.Clone(ns.nodes), n)
}

// state is the snapshot one sync plans over.
func (ns *dsNamespace) state(now time.Time) daemonset.State {
	return daemonset.State{DaemonSet: ns.ds, Nodes: ns.nodes, Pods: ns.pods, ControllerRevisions: ns.revisions, PodNodeAffinity: ns.affinity, Now: now}
}

// ours reports whether p is one of the DaemonSet's pods, or an orphan its
// selector matches: the stand-in kubelet moves only those, so that the
// other pods of a live namespace stay as they were read.
func (ns *dsNamespace) ours(p *model.Pod) bool {
	if p.IsControlledBy(ns.ds.UID) {
		return true
	}
	if p.ControllerRef() != nil {
		return false
	}
	ok, err := ns.ds.Spec.Selector.Matches(p.Labels)
	return err == nil && ok
}

// podTolerations are the tolerations of a pod: those it was created with,
// or for a starting pod those the DaemonSet's template gives its pods.
func (ns *dsNamespace) podTolerations(p *model.Pod) []model.Toleration {
	if t, ok := ns.tolerations[p.UID]; ok {
		return t
	}
	s := ns.ds.Spec.Scheduling
	return model.DaemonPodTolerations(s.Tolerations, s.HostNetwork)
}

// apply carries out one write of a plan, as the API server would.
func (ns *dsNamespace) apply(a daemonset.Action, now time.Time) error {
	name := a.Object.Name
	notFound := func(kind string) error { return errNotApplied(kind + " " + strconv.Quote(name) + " not found") }
	switch a.Kind {
	case daemonset.AdoptControllerRevision, daemonset.ReleaseControllerRevision:
		i, ok := find(ns.revisions, name)
		if !ok {
			return notFound("controllerrevisions")
		}
		r := ns.revisions[i].DeepCopy()
		if a.Kind == daemonset.AdoptControllerRevision {
			r.OwnerReferences = append(r.OwnerReferences, *a.OwnerReference)
		} else {
			r.OwnerReferences = slices.DeleteFunc(r.OwnerReferences, func(o model.OwnerReference) bool { return o.UID == a.OwnerReference.UID })
		}
		ns.write(&r.ObjectMeta)
		ns.revisions = slices.Clone(ns.revisions)
		ns.revisions[i] = r
	case daemonset.CreateControllerRevision:
		if _, ok := find(ns.revisions, name); ok {
			return errNotApplied("controllerrevisions " + strconv.Quote(name) + " already exists")
		}
		r := a.Revision.DeepCopy()
		r.Namespace, r.UID, r.CreationTimestamp = ns.ds.Namespace, ns.uid("revision"), now
		// The revision records the DaemonSet's template: kept so that an
		// undo can restore it.
		r.Template = ns.ds.Spec.Template.DeepCopy()
		ns.write(&r.ObjectMeta)
		ns.revisions = put(slices.Clone(ns.revisions), r)
	case daemonset.UpdateControllerRevision:
		i, ok := find(ns.revisions, name)
		if !ok {
			return notFound("controllerrevisions")
		}
		r := ns.revisions[i].DeepCopy()
		if len(a.RevisionUpdate.Labels) > 0 {
			if r.Labels == nil {
				r.Labels = map[string]string{}
			}
			maps.Copy(r.Labels, a.RevisionUpdate.Labels)
		}
		r.Revision = a.RevisionUpdate.Revision
		ns.write(&r.ObjectMeta)
		ns.revisions = slices.Clone(ns.revisions)
		ns.revisions[i] = r
	case daemonset.DeleteControllerRevision:
		ns.revisions = remove(slices.Clone(ns.revisions), name)
		ns.version++
	case daemonset.CreatePod:
		// The scheduler (the stand-in kubelet) binds the new pod.
		p, err := ns.createdPod(name, a.Pod, ns.ds.Namespace, ns.ds.Name, now)
		if err != nil {
			return err
		}
		if a.Scheduling != nil {
			ns.affinity[name] = a.Scheduling.RequiredNodeAffinity.DeepCopy()
			ns.tolerations[p.UID] = slices.Clone(a.Scheduling.Tolerations)
		}
		// The scheduler binds a pod it can place at once; one it cannot
		// waits (dsKubelet.advance binds it when the node allows).
		if n := ns.node(a.Node); p.Spec.NodeName == "" && bindable(ns, p, n) {
			p.Spec.NodeName = n.Name
		}
		ns.putPod(p)
	case daemonset.DeletePod:
		ns.deletePod(name, now)
	case daemonset.AdoptPod, daemonset.ReleasePod, daemonset.RelabelPod:
		old := ns.pod(name)
		if old == nil {
			return notFound("pods")
		}
		p := old.DeepCopy()
		switch a.Kind {
		case daemonset.AdoptPod, daemonset.ReleasePod:
			p.OwnerReferences = reowned(p.OwnerReferences, a.OwnerReference, a.Kind == daemonset.AdoptPod)
		default:
			if p.Labels == nil {
				p.Labels = map[string]string{}
			}
			maps.Copy(p.Labels, a.Labels)
		}
		ns.putPod(p)
	case daemonset.UpdateDaemonSetStatus:
		ds := ns.ds.DeepCopy()
		ds.Status = a.Status.DeepCopy()
		ns.replaceDaemonSet(ds)
	default:
		return fmt.Errorf("sim: unknown DaemonSet action %q", a.Kind)
	}
	return nil
}

// dsKubelet is the stand-in for the scheduler, the kubelets, the taint
// manager and the pod garbage collector of a simulated DaemonSet's node
// pool, for the DaemonSet's pods (and orphans it selects). It binds each
// new pod to the node its node affinity names, at its creation or, when
// the node does not exist yet or has a NoSchedule or NoExecute taint the
// pod does not tolerate, once that changes; starts bound pods
// World.ReadyAfter after their creation (after their binding when the
// scheduler had to wait), Running and Ready or, for a NeverReady template,
// Running and never Ready; fails some (unready for a while, or evicted to
// phase Failed); evicts pods that do not tolerate a NoExecute taint of
// their node (the taint manager: they terminate); deletes pods bound to a
// node that no longer exists at once (the pod garbage collector); and
// removes deleted pods after their grace period.
type dsKubelet struct {
	// podLife.readyAt holds only bound pods: the scheduler binds the
	// others first.
	podLife
}

func newDSKubelet(w World, evict float64, rng *rand.Rand, ns *dsNamespace, now time.Time) *dsKubelet {
	k := &dsKubelet{newPodLife(w, evict, rng)}
	for _, p := range ns.pods {
		if !model.IsPodReady(p) && !p.IsTerminal() && p.DeletionTimestamp == nil && p.Spec.NodeName != "" {
			k.readyAt[p.UID] = later(p.CreationTimestamp.Add(w.ReadyAfter), now)
		}
	}
	return k
}

// readyTime is when a bound pod that is not ready becomes ready: set when
// it was bound late or turned unready, else World.ReadyAfter after its
// creation; zero for never.
func (k *dsKubelet) readyTime(p *model.Pod) time.Time {
	if at, ok := k.readyAt[p.UID]; ok {
		return at
	}
	return p.CreationTimestamp.Add(k.w.ReadyAfter)
}

func later(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}

// bindable reports whether the scheduler can bind p to node: the node
// exists, and p tolerates its NoSchedule and NoExecute taints (and its
// cordon).
func bindable(ns *dsNamespace, p *model.Pod, node *model.Node) bool {
	if node == nil {
		return false
	}
	tol := ns.podTolerations(p)
	if node.Spec.Unschedulable && !model.TolerationsTolerateTaint(tol, model.Taint{Key: model.TaintNodeUnschedulable, Effect: model.TaintEffectNoSchedule}) {
		return false
	}
	_, untolerated := model.FindUntoleratedTaint(node.Spec.Taints, tol, model.TaintEffectNoSchedule, model.TaintEffectNoExecute)
	return !untolerated
}

// advance carries the cluster to now and reports whether anything
// changed; k.events says what, when k.log is set.
func (k *dsKubelet) advance(ns *dsNamespace, now time.Time) bool {
	changed := false
	k.events = k.events[:0:0]
	kept := make([]*model.Pod, 0, len(ns.pods))
	gone := func(p *model.Pod, why string) {
		delete(k.goneAt, p.UID)
		delete(k.readyAt, p.UID)
		delete(ns.tolerations, p.UID)
		delete(ns.affinity, p.Name)
		k.note("%s gone%s", p.Name, why)
		ns.version++
		changed = true
	}
	for _, p := range ns.pods {
		if !ns.ours(p) {
			kept = append(kept, p)
			continue
		}
		var node *model.Node
		if p.Spec.NodeName != "" {
			node = ns.node(p.Spec.NodeName)
			if node == nil {
				gone(p, " (its node "+p.Spec.NodeName+" was removed)")
				continue
			}
		}
		if p.DeletionTimestamp != nil {
			at, ok := k.goneAt[p.UID]
			if !ok {
				at = *p.DeletionTimestamp
				if !p.IsTerminal() && p.Spec.NodeName != "" {
					at = at.Add(k.w.TerminationGrace)
				}
				k.goneAt[p.UID] = at
			}
			if !at.After(now) {
				gone(p, "")
				continue
			}
			kept = append(kept, p)
			continue
		}
		if p.IsTerminal() {
			kept = append(kept, p)
			continue
		}
		if node == nil {
			target, err := model.TargetNodeName(p, ns.affinity[p.Name])
			n := ns.node(target)
			if err != nil || !bindable(ns, p, n) {
				kept = append(kept, p)
				continue
			}
			p = p.DeepCopy()
			p.Spec.NodeName = target
			ns.write(&p.ObjectMeta)
			changed = true
			k.note("%s scheduled to %s", p.Name, target)
			k.readyAt[p.UID] = now.Add(k.w.ReadyAfter)
			node = n
		}
		if t, ok := model.FindUntoleratedTaint(node.Spec.Taints, ns.podTolerations(p), model.TaintEffectNoExecute); ok {
			p = p.DeepCopy()
			p.DeletionTimestamp = model.TimePtr(now)
			ns.write(&p.ObjectMeta)
			k.note("%s evicted from %s (taint %s)", p.Name, node.Name, t)
			changed = true
			at := now
			if !p.IsTerminal() {
				at = at.Add(k.w.TerminationGrace)
			}
			if !at.After(now) {
				gone(p, "")
				continue
			}
			k.goneAt[p.UID] = at
			kept = append(kept, p)
			continue
		}
		p, moved := k.carry(p, now, ns.write, "%s failed", func() (time.Time, bool) { return k.readyTime(p), true })
		changed = changed || moved
		kept = append(kept, p)
	}
	ns.pods = kept
	return changed
}

// next is when a pod changes by itself after now: one becomes ready or
// available, or one is done terminating; zero when none will. Pods the
// scheduler cannot bind wait for a node event, which is the script's.
func (k *dsKubelet) next(ns *dsNamespace, now time.Time) time.Time {
	next := soonest{now: now}
	minReady := time.Duration(ns.ds.Spec.MinReadySeconds) * time.Second
	for _, p := range ns.pods {
		if !ns.ours(p) {
			continue
		}
		switch {
		case p.DeletionTimestamp != nil:
			if at, ok := k.goneAt[p.UID]; ok {
				next.consider(at)
			}
		case p.IsTerminal(), p.Spec.NodeName == "":
		case model.IsPodReady(p):
			if minReady > 0 {
				next.consider(p.ReadyCondition().LastTransitionTime.Add(minReady))
			}
		default:
			if at := k.readyTime(p); !at.IsZero() {
				next.consider(at)
			}
		}
	}
	return next.next
}
