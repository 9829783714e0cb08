package statefulset

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// The group-version and kinds owner references to sets and pods carry.
const podAPIVersion = "v1"

// owner is what the retention rules read of a set or a pod: the fields an
// owner reference is matched against.
type owner struct {
	apiVersion, kind, name, uid string
}

func setOwner(set *model.StatefulSet) owner {
	return owner{model.AppsV1APIVersion, model.StatefulSetKind, set.Name, set.UID}
}

func podOwner(p *model.Pod) owner { return owner{podAPIVersion, "Pod", p.Name, p.UID} }

// matches reports whether ref points at o by group-version, kind and name
// (upstream matchesRef; the UID is not compared).
func (o owner) matches(ref model.OwnerReference) bool {
	return ref.APIVersion == o.apiVersion && ref.Kind == o.kind && ref.Name == o.name
}

// controllerRef is the controller reference to o.
func (o owner) controllerRef() model.OwnerReference {
	return model.NewControllerRef(o.apiVersion, o.kind, o.name, o.uid)
}

// hasOwnerRef reports whether any reference of c has o's UID.
func hasOwnerRef(c *model.PersistentVolumeClaim, o owner) bool {
	for _, r := range c.OwnerReferences {
		if r.UID == o.uid {
			return true
		}
	}
	return false
}

// hasStaleOwnerRef reports whether the first reference of c that matches o
// has another UID: a reference to an earlier object of the same name.
func hasStaleOwnerRef(c *model.PersistentVolumeClaim, o owner) bool {
	for _, r := range c.OwnerReferences {
		if o.matches(r) {
			return r.UID != o.uid
		}
	}
	return false
}

// retention is the set's retention policy, both halves read. Validation
// admits only Retain and Delete, and a nil policy reads as Retain.
type retention struct {
	scaledDelete, deletedDelete bool
}

func retentionOf(set *model.StatefulSet) retention {
	p := set.RetentionPolicy()
	const del = model.DeletePersistentVolumeClaimRetentionPolicyType
	return retention{scaledDelete: p.WhenScaled == del, deletedDelete: p.WhenDeleted == del}
}

// retainAll reports whether both halves are Retain.
func (r retention) retainAll() bool { return !r.scaledDelete && !r.deletedDelete }

// hasUnexpectedController reports whether, under a policy that is not Retain
// on both counts, c has a controller other than the set and the pod, or a
// reference to them with the wrong UID.
func hasUnexpectedController(c *model.PersistentVolumeClaim, set *model.StatefulSet, so, po owner) bool {
	if retentionOf(set).retainAll() {
		return false
	}
	for _, r := range c.OwnerReferences {
		if so.matches(r) {
			if r.UID != so.uid {
				return true
			}
			continue
		}
		if po.matches(r) {
			if r.UID != po.uid {
				return true
			}
			continue
		}
		if r.Controller {
			return true
		}
	}
	return false
}

// hasNonControllerOwner reports whether the set or the pod owns c without
// being its controller.
func hasNonControllerOwner(c *model.PersistentVolumeClaim, so, po owner) bool {
	for _, r := range c.OwnerReferences {
		if (r.UID == so.uid || r.UID == po.uid) && !r.Controller {
			return true
		}
	}
	return false
}

// claimOwnerUpToDate is upstream's isClaimOwnerUpToDate: whether c's owner
// references agree with the retention policy for the pod (a claim with
// stale references, or with a foreign controller and no reference to the
// set or pod, is left alone and counts as up to date).
func claimOwnerUpToDate(c *model.PersistentVolumeClaim, set *model.StatefulSet, p *model.Pod) bool {
	so, po := setOwner(set), podOwner(p)
	if hasStaleOwnerRef(c, so) || hasStaleOwnerRef(c, po) {
		return true
	}
	if hasUnexpectedController(c, set, so, po) {
		return !(hasOwnerRef(c, so) || hasOwnerRef(c, po))
	}
	if hasNonControllerOwner(c, so, po) {
		return false
	}
	r := retentionOf(set)
	scaledDown := !inOrdinalRange(set, p.Name)
	switch {
	case !r.scaledDelete && !r.deletedDelete:
		return !hasOwnerRef(c, so) && !hasOwnerRef(c, po)
	case !r.scaledDelete && r.deletedDelete:
		return hasOwnerRef(c, so) && !hasOwnerRef(c, po)
	case r.scaledDelete && !r.deletedDelete:
		return !hasOwnerRef(c, so) && scaledDown == hasOwnerRef(c, po)
	default:
		return scaledDown != hasOwnerRef(c, so) && scaledDown == hasOwnerRef(c, po)
	}
}

// claimOwnerRefs is upstream's updateClaimOwnerRefForSetAndPod: c's owner
// references with those to the set and pod replaced as the policy wants.
func claimOwnerRefs(c *model.PersistentVolumeClaim, set *model.StatefulSet, p *model.Pod) []model.OwnerReference {
	so, po := setOwner(set), podOwner(p)
	unexpected := hasUnexpectedController(c, set, so, po)
	refs := make([]model.OwnerReference, 0, len(c.OwnerReferences)+1)
	for _, r := range c.OwnerReferences {
		if !so.matches(r) && !po.matches(r) {
			refs = append(refs, r)
		}
	}
	if unexpected {
		return refs
	}
	r := retentionOf(set)
	scaledDown := !inOrdinalRange(set, p.Name)
	switch {
	case !r.scaledDelete && !r.deletedDelete:
	case !r.scaledDelete && r.deletedDelete:
		refs = addControllerRef(refs, so)
	case r.scaledDelete && !r.deletedDelete:
		if scaledDown {
			refs = addControllerRef(refs, po)
		}
	default:
		if scaledDown {
			refs = addControllerRef(refs, po)
		} else {
			refs = addControllerRef(refs, so)
		}
	}
	return refs
}

// addControllerRef appends a controller reference to o unless a reference
// with o's UID is there.
func addControllerRef(refs []model.OwnerReference, o owner) []model.OwnerReference {
	for _, r := range refs {
		if r.UID == o.uid {
			return refs
		}
	}
	return append(refs, o.controllerRef())
}
