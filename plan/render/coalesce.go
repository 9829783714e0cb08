package render

import (
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// Coalesced returns writes merged into one per object and
// subresource, each carrying the final state, in the order the objects were
// first written: the view of an adapter that prefers fewer round trips and
// would rather behave as if every write built on the previous one
// (upstream writes from its cached copy, so its later writes to the same object
// conflict; "coalesced mode").
//
// Merging rules for a ReplicaSet: a delete wins; a create followed by
// updates becomes one create of the last object; updates keep the last
// object, with the owner references of any adopt or release applied to it;
// patches alone stay patches. For the Deployment the last status write and
// the last full update are kept. No coalesced write is a conflict.
func Coalesced(ws []Write) []Write {
	out := make([]Write, 0, len(ws))
	at := map[string]int{}
	for _, a := range ws {
		a.Conflict = false
		key := coalesceKey(a)
		i, seen := at[key]
		if !seen {
			at[key] = len(out)
			out = append(out, a)
			continue
		}
		out[i] = mergeWrites(out[i], a)
	}
	return out
}

func coalesceKey(a Write) string {
	switch a.Kind {
	case UpdateDeploymentStatus:
		return "deployment/status/" + a.Name
	case UpdateDeployment:
		return "deployment/" + a.Name
	}
	return "replicaset/" + a.Name
}

// mergeWrites folds next into prev, both writes of the same ReplicaSet (or
// the same Deployment subresource).
func mergeWrites(prev, next Write) Write {
	switch {
	case next.Kind == DeleteReplicaSet, prev.Kind == DeleteReplicaSet && next.Kind != CreateReplicaSet:
		if prev.Kind == DeleteReplicaSet {
			return prev
		}
		return next
	case next.Kind == UpdateDeploymentStatus || next.Kind == UpdateDeployment:
		return next
	case next.Kind == AdoptReplicaSet || next.Kind == ReleaseReplicaSet:
		if prev.ReplicaSet == nil {
			return next
		}
		prev.ReplicaSet = withOwnerChange(prev.ReplicaSet, next)
		return prev
	}
	// next is an update (or, impossibly, a second create) carrying an object.
	merged := next
	merged.ReplicaSet = next.ReplicaSet.DeepCopy()
	switch prev.Kind {
	case CreateReplicaSet:
		merged.Kind = CreateReplicaSet
		merged.ReplicaSet.OwnerReferences = slices.Clone(prev.ReplicaSet.OwnerReferences)
	case UpdateReplicaSet:
		merged.ReplicaSet.OwnerReferences = slices.Clone(prev.ReplicaSet.OwnerReferences)
	case AdoptReplicaSet, ReleaseReplicaSet:
		merged.ReplicaSet = withOwnerChange(merged.ReplicaSet, prev)
	}
	return merged
}

// withOwnerChange returns a copy of rs with an adopt or release applied.
func withOwnerChange(rs *model.ReplicaSet, patch Write) *model.ReplicaSet {
	out := rs.DeepCopy()
	ref := patch.OwnerReference
	if ref == nil {
		return out
	}
	out.OwnerReferences = slices.DeleteFunc(out.OwnerReferences, func(o model.OwnerReference) bool { return o.UID == ref.UID })
	if patch.Kind == AdoptReplicaSet {
		out.OwnerReferences = append(out.OwnerReferences, *ref)
	}
	return out
}
