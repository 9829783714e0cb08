package sim

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Node events: what happens to the node pool of a DaemonSet simulation
// (cluster operators and the node lifecycle, not the DaemonSet's user).
// Deployments and StatefulSets refuse them.
const (
	// AddNode registers the node Action.Node with Action.Labels and
	// Action.Taints (a new machine joins the pool).
	AddNode ActionKind = "AddNode"
	// RemoveNode deletes the node Action.Node (the machine is gone): the pod
	// garbage collector then deletes the pods bound to it.
	RemoveNode ActionKind = "RemoveNode"
	// CordonNode is kubectl cordon: spec.unschedulable, and the taint
	// node.kubernetes.io/unschedulable:NoSchedule the node lifecycle
	// controller adds for it, which every daemon pod tolerates.
	CordonNode ActionKind = "CordonNode"
	// UncordonNode is kubectl uncordon: both are removed.
	UncordonNode ActionKind = "UncordonNode"
	// TaintNode is kubectl taint nodes NODE key=value:Effect: Action.Taint
	// is added, replacing a taint with its key and effect.
	TaintNode ActionKind = "TaintNode"
	// UntaintNode is kubectl taint nodes NODE key:Effect-: the taint with
	// Action.Taint's key and effect is removed.
	UntaintNode ActionKind = "UntaintNode"
)

// nodeEventString describes a node event as kubectl would be typed, and
// any other unknown kind by its name.
func (a Action) nodeEventString() string {
	switch a.Kind {
	case AddNode:
		s := "add node " + a.Node
		if len(a.Taints) > 0 {
			for _, t := range a.Taints {
				s += " " + t.String()
			}
		}
		return s
	case RemoveNode:
		return "remove node " + a.Node
	case CordonNode:
		return "kubectl cordon " + a.Node
	case UncordonNode:
		return "kubectl uncordon " + a.Node
	case TaintNode:
		return "kubectl taint nodes " + a.Node + " " + a.Taint.String()
	case UntaintNode:
		return "kubectl taint nodes " + a.Node + " " + a.Taint.Key + ":" + string(a.Taint.Effect) + "-"
	}
	return string(a.Kind)
}

// applyToDaemonSet carries out the action on the namespace as the user's
// client (or the cluster operator) would: a spec change through the API
// server (defaulted and validated, generation bumped, and the template
// generation annotation bumped when the template changes, as the API
// server's DaemonSet strategy does), a pod deletion as kubectl delete pod,
// a node event on the node pool.
func (a Action) applyToDaemonSet(ns *dsNamespace, now time.Time) error {
	ds := ns.ds
	spec := ds.Spec
	spec.Template = ds.Spec.Template.DeepCopy()
	switch a.Kind {
	case SetTemplateSpec:
		spec.Template.Spec = a.Spec
	case SetStrategy:
		switch t := model.DaemonSetUpdateStrategyType(a.UpdateStrategy); t {
		case model.DaemonSetOnDelete:
			spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: t}
		case "", model.DaemonSetRollingUpdate:
			spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate,
				RollingUpdate: &model.RollingUpdateDaemonSet{MaxSurge: a.MaxSurge, MaxUnavailable: a.MaxUnavailable}}
		default:
			return fmt.Errorf("%s: a DaemonSet's SetStrategy needs UpdateStrategy RollingUpdate or OnDelete, not %q", a, a.UpdateStrategy)
		}
	case UndoRollout:
		t, err := a.undoTemplate(func(to int64) (*model.PodTemplate, error) { return daemonSetUndo(ns, to) })
		if t == nil {
			return err // nil: the template already matches, kubectl skips it
		}
		spec.Template = *t
	case DeletePod:
		return ns.userDeletePod(a, now)
	case AddNode, RemoveNode, CordonNode, UncordonNode, TaintNode, UntaintNode:
		return ns.nodeEvent(a, now)
	case PauseRollout, ResumeRollout:
		// kubectl's objectpauser and objectresumer refuse anything but a
		// Deployment.
		verb := "pausing"
		if a.Kind == ResumeRollout {
			verb = "resuming"
		}
		return fmt.Errorf("%w: %s: daemonsets %q: %s is not supported", errRefused, a, ds.Name, verb)
	case ScaleTo:
		return fmt.Errorf("%w: %s: a DaemonSet has no replicas: it runs one pod per eligible node", errRefused, a)
	default:
		return fmt.Errorf("unknown action %q for a DaemonSet", a.Kind)
	}
	next := ds.DeepCopy()
	next.Spec = spec
	next = model.DefaultDaemonSet(next)
	if err := model.ValidateDaemonSet(next); err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	if sameJSON(ds.Spec, next.Spec) {
		return nil
	}
	next.Generation++
	if !sameJSON(ds.Spec.Template, next.Spec.Template) {
		g, _ := ds.TemplateGeneration()
		n := int64(1)
		if g != nil {
			n = *g + 1
		}
		next.Annotations = maps.Clone(next.Annotations)
		if next.Annotations == nil {
			next.Annotations = map[string]string{}
		}
		next.Annotations[model.DaemonSetTemplateGenerationAnnotation] = strconv.FormatInt(n, 10)
	}
	ns.replaceDaemonSet(next)
	return nil
}

// daemonSetUndo is kubectl rollout undo for a DaemonSet: the template of
// the DaemonSet's ControllerRevision numbered toRevision, or of the one
// before the latest when toRevision is 0; nil when the DaemonSet's
// template already matches it. The simulation knows the template of every
// revision it created (and of starting revisions that carry one).
func daemonSetUndo(ns *dsNamespace, toRevision int64) (*model.PodTemplate, error) {
	to, err := undoTarget(ns.revisions, ns.ds.UID, toRevision, model.CompareRevisions)
	if err != nil {
		return nil, err
	}
	if to.Template.Spec == "" && to.Template.Labels == nil {
		return nil, fmt.Errorf("the simulation does not know the template of revision %d", to.Revision)
	}
	if sameJSON(ns.ds.Spec.Template, to.Template) {
		return nil, nil
	}
	t := to.Template.DeepCopy()
	return &t, nil
}

// nodeEvent changes the node pool.
func (ns *dsNamespace) nodeEvent(a Action, now time.Time) error {
	if a.Node == "" {
		return fmt.Errorf("%s: Action.Node is empty", a)
	}
	i, exists := find(ns.nodes, a.Node)
	if a.Kind == AddNode {
		if exists {
			return fmt.Errorf("%w: %s: nodes %q already exists", errRefused, a, a.Node)
		}
		n := &model.Node{ObjectMeta: model.ObjectMeta{Name: a.Node, UID: "node-" + a.Node, Labels: maps.Clone(a.Labels), CreationTimestamp: now},
			Spec: model.NodeSpec{Taints: slices.Clone(a.Taints)}}
		if err := model.ValidateDaemonSetSnapshot(ns.ds, []*model.Node{n}, nil, nil); err != nil {
			return fmt.Errorf("%s: %w", a, err)
		}
		ns.putNode(n)
		return nil
	}
	if !exists {
		return fmt.Errorf("%w: %s: nodes %q not found", errRefused, a, a.Node)
	}
	if a.Kind == RemoveNode {
		ns.nodes = slices.Delete(slices.Clone(ns.nodes), i, i+1)
		ns.version++
		return nil
	}
	n := ns.nodes[i].DeepCopy()
	without := func(key string, effect model.TaintEffect) {
		n.Spec.Taints = slices.DeleteFunc(n.Spec.Taints, func(t model.Taint) bool { return t.Key == key && t.Effect == effect })
	}
	switch a.Kind {
	case CordonNode:
		n.Spec.Unschedulable = true
		without(model.TaintNodeUnschedulable, model.TaintEffectNoSchedule)
		n.Spec.Taints = append(n.Spec.Taints, model.Taint{Key: model.TaintNodeUnschedulable, Effect: model.TaintEffectNoSchedule, TimeAdded: model.TimePtr(now)})
	case UncordonNode:
		n.Spec.Unschedulable = false
		without(model.TaintNodeUnschedulable, model.TaintEffectNoSchedule)
	case TaintNode:
		t := a.Taint
		if t.Effect == model.TaintEffectNoExecute && t.TimeAdded == nil {
			t.TimeAdded = model.TimePtr(now)
		}
		without(t.Key, t.Effect)
		n.Spec.Taints = append(n.Spec.Taints, t)
	case UntaintNode:
		before := len(n.Spec.Taints)
		without(a.Taint.Key, a.Taint.Effect)
		if len(n.Spec.Taints) == before {
			return fmt.Errorf("%w: %s: taint %q not found", errRefused, a, a.Taint.Key+":"+string(a.Taint.Effect))
		}
	}
	if err := model.ValidateDaemonSetSnapshot(ns.ds, []*model.Node{n}, nil, nil); err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	ns.putNode(n)
	return nil
}
