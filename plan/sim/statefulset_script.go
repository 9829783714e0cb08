package sim

import (
	"cmp"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// applyToStatefulSet carries out the action on the namespace as the user's
// client would: a spec change through the API server (defaulted and
// validated, generation bumped), a pod deletion as kubectl delete pod.
func (a Action) applyToStatefulSet(ns *stsNamespace, now time.Time) error {
	set := ns.set
	spec := set.Spec.DeepCopy()
	switch a.Kind {
	case SetTemplateSpec:
		spec.Template.Spec = a.Spec
	case ScaleTo:
		if a.Replicas < 0 {
			return fmt.Errorf("scale to %d: replicas must not be negative", a.Replicas)
		}
		spec.Replicas = model.Int32Ptr(a.Replicas)
	case SetPartition:
		if spec.UpdateStrategy.Type != model.RollingUpdateStatefulSetStrategyType {
			return fmt.Errorf("%s: the StatefulSet's updateStrategy is %s, not RollingUpdate", a, spec.UpdateStrategy.Type)
		}
		if a.Partition < 0 {
			return fmt.Errorf("%s: the partition must not be negative", a)
		}
		ru := spec.UpdateStrategy.RollingUpdate
		if ru == nil {
			ru = &model.RollingUpdateStatefulSetStrategy{}
			spec.UpdateStrategy.RollingUpdate = ru
		}
		ru.Partition = model.Int32Ptr(a.Partition)
	case SetStrategy:
		switch a.UpdateStrategy {
		case model.OnDeleteStatefulSetStrategyType:
			spec.UpdateStrategy = model.StatefulSetUpdateStrategy{Type: a.UpdateStrategy}
		case model.RollingUpdateStatefulSetStrategyType:
			// A patch of the type alone leaves rollingUpdate unset, as
			// apps/v1 does: the controller then keeps the first
			// status.currentReplicas pods at the current revision.
			spec.UpdateStrategy.Type = a.UpdateStrategy
			if a.MaxUnavailable != nil {
				ru := spec.UpdateStrategy.RollingUpdate
				if ru == nil {
					ru = &model.RollingUpdateStatefulSetStrategy{}
					spec.UpdateStrategy.RollingUpdate = ru
				}
				ru.MaxUnavailable = a.MaxUnavailable
			}
		default:
			return fmt.Errorf("%s: a StatefulSet's SetStrategy needs UpdateStrategy RollingUpdate or OnDelete, not %q", a, a.UpdateStrategy)
		}
		if a.MaxSurge != nil {
			return fmt.Errorf("%s: a StatefulSet has no maxSurge", a)
		}
	case UndoRollout:
		t, err := a.undoTemplate(func(to int64) (*model.PodTemplate, error) { return statefulSetUndo(ns, to) })
		if t == nil {
			return err // nil: the template already matches, kubectl skips it
		}
		spec.Template = *t
	case DeletePod:
		return ns.userDeletePod(a, now)
	case PauseRollout, ResumeRollout:
		// kubectl's objectpauser and objectresumer refuse anything but a
		// Deployment.
		return fmt.Errorf("%w: %s: statefulsets %q: pausing is not supported", errRefused, a, set.Name)
	default:
		return fmt.Errorf("unknown action %q for a StatefulSet", a.Kind)
	}
	next := set.DeepCopy()
	next.Spec = spec
	next = model.DefaultStatefulSet(next)
	if err := model.ValidateStatefulSet(next); err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	if !sameJSON(set.Spec, next.Spec) {
		next.Generation++
		ns.replaceSet(next)
	}
	return nil
}

// statefulSetUndo is kubectl rollout undo for a StatefulSet: the template
// of the set's ControllerRevision numbered toRevision, or of the one before
// the latest when toRevision is 0; nil when the set's template already
// matches it.
func statefulSetUndo(ns *stsNamespace, toRevision int64) (*model.PodTemplate, error) {
	to, err := undoTarget(ns.revisions, ns.set.UID, toRevision, func(a, b *model.ControllerRevision) int { return cmp.Compare(a.Revision, b.Revision) })
	if err != nil {
		return nil, err
	}
	cur, err := statefulset.EncodeTemplate(ns.set.Spec.Template)
	if err != nil {
		return nil, err
	}
	if old, err := statefulset.EncodeTemplate(to.Template); err == nil && old == cur {
		return nil, nil
	}
	t := to.Template.DeepCopy()
	return &t, nil
}
