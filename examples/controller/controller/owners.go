package controller

import (
	"reflect"

	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// wakeOwnersOfUpdate routes an update of an object a controller owns (a
// pod, a ControllerRevision) as upstream's StatefulSet and DaemonSet update
// handlers do: after a change of controller reference it wakes the owner
// the object had, then the owner it has now; an orphan whose labels or
// controller reference changed wakes, through wakeSelecting, every owner
// whose selector matches it (one may adopt it). resolve returns the cached
// owner a reference names, or nil. The current owner is returned (nil for
// an orphan or an owner not in the cache) for what a handler does beyond
// waking it.
func wakeOwnersOfUpdate[T any](old, cur metav1.Object, resolve func(ns string, ref *metav1.OwnerReference) *T, wake func(*T), wakeSelecting func()) *T {
	curRef, oldRef := metav1.GetControllerOf(cur), metav1.GetControllerOf(old)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		if owner := resolve(old.GetNamespace(), oldRef); owner != nil {
			wake(owner)
		}
	}
	if curRef != nil {
		owner := resolve(cur.GetNamespace(), curRef)
		if owner != nil {
			wake(owner)
		}
		return owner
	}
	if refChanged || !reflect.DeepEqual(cur.GetLabels(), old.GetLabels()) {
		wakeSelecting()
	}
	return nil
}

// podReady reports the pod's Ready condition.
func podReady(p *core.Pod) bool {
	for _, cond := range p.Status.Conditions {
		if cond.Type == core.PodReady {
			return cond.Status == core.ConditionTrue
		}
	}
	return false
}
