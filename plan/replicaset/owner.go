package replicaset

import "github.com/rolloutplan/rolloutplan/model"

// listedFor reports whether upstream's pod index lists p for rs: the
// ReplicaSet controller looks pods up by their controller reference's kind,
// name and UID (FilterPodsByOwner), plus the orphans of the namespace. A pod
// whose controller reference has rs's UID but another kind or name is not
// listed, so rs neither counts nor releases it.
func listedFor(ref *model.OwnerReference, rs *model.ReplicaSet) bool {
	return ref.UID == rs.UID && ref.Kind == model.ReplicaSetKind && ref.Name == rs.Name
}
