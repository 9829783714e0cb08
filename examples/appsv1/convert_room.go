package appsv1

import (
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// objectRoom is how a conversion from the model builds an apps/v1 object
// that is part of an [Output]: the numbers, flags, owner reference and
// selector the object points to live in the room, allocated with the
// object, and its maps and string slices are the model object's, shared
// with the plan (see [Action]). A nil *objectRoom is the conversion of the
// FromModel functions: each pointer allocated on its own, maps and slices
// copied.
type objectRoom struct {
	replicas, terminating int32Slot
	// owner and its flags hold the first owner reference, the only one of
	// the ReplicaSets the planner creates.
	owner                          [1]metav1.OwnerReference
	controller, blockOwnerDeletion bool
	selector                       metav1.LabelSelector
}

// mapOf is m shared, or a copy without a room.
func (r *objectRoom) mapOf(m map[string]string) map[string]string {
	if r == nil {
		return maps.Clone(m)
	}
	return m
}

// sliceOf is v shared, or a copy without a room.
func (r *objectRoom) sliceOf(v []string) []string {
	if r == nil {
		return slices.Clone(v)
	}
	return v
}

// replicasOf and terminatingOf point to a copy of *p, or are nil.
func (r *objectRoom) replicasOf(p *int32) *int32 {
	if r == nil {
		return clonePtr(p)
	}
	return r.replicas.set(p)
}

func (r *objectRoom) terminatingOf(p *int32) *int32 {
	if r == nil {
		return clonePtr(p)
	}
	return r.terminating.set(p)
}

// ownerReferences is an empty list with room for n references.
func (r *objectRoom) ownerReferences(n int) []metav1.OwnerReference {
	if r != nil && n <= len(r.owner) {
		return r.owner[:0:n]
	}
	return make([]metav1.OwnerReference, 0, n)
}

// ownerFlags is where the controller and blockOwnerDeletion flags of owner
// reference i go (nil: new ones).
func (r *objectRoom) ownerFlags(i int) (controller, block *bool) {
	if r == nil || i >= len(r.owner) {
		return nil, nil
	}
	return &r.controller, &r.blockOwnerDeletion
}

// selectorOf is an empty selector.
func (r *objectRoom) selectorOf() *metav1.LabelSelector {
	if r == nil {
		return new(metav1.LabelSelector)
	}
	return &r.selector
}
