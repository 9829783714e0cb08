package enqueue

import (
	"maps"

	"github.com/rolloutplan/rolloutplan/model"
)

// AddReplicaSet returns the Deployments to sync when a ReplicaSet appears
// (upstream addReplicaSet):
//
//   - a ReplicaSet already being deleted (seen so on a controller restart)
//     is handled as a deletion ([DeleteReplicaSet]);
//   - with a controller reference, only the Deployment it resolves to, if
//     any;
//   - an orphan: every Deployment whose selector matches its labels, so that
//     one can adopt it.
func AddReplicaSet(rs *model.ReplicaSet, c Cache) []string {
	if rs == nil {
		return nil
	}
	if rs.DeletionTimestamp != nil {
		return deleteReplicaSet(rs, &c)
	}
	if ref := rs.ControllerRef(); ref != nil {
		return keys(resolveControllerRef(&c, rs.Namespace, ref))
	}
	return keys(DeploymentsForReplicaSet(rs, c)...)
}

// UpdateReplicaSet returns the Deployments to sync when a ReplicaSet changes
// from old to cur (upstream updateReplicaSet):
//
//   - equal resource versions mean a periodic resync, not a change: nothing;
//   - a changed controller reference wakes the Deployment the old one
//     resolves to (it lost a ReplicaSet);
//   - with a controller reference now, only the Deployment it resolves to;
//   - an orphan whose labels or controller reference changed: every
//     Deployment whose selector matches its new labels.
//
// Two references differ when any field differs, as upstream compares them
// with reflect.DeepEqual (the model has no unset/false distinction for
// controller and blockOwnerDeletion); labels differ when their entries do or
// when one map is nil and the other is not.
func UpdateReplicaSet(old, cur *model.ReplicaSet, c Cache) []string {
	if old == nil || cur == nil || cur.ResourceVersion == old.ResourceVersion {
		return nil
	}
	var out []*model.Deployment
	curRef, oldRef := cur.ControllerRef(), old.ControllerRef()
	refChanged := !sameRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		out = append(out, resolveControllerRef(&c, old.Namespace, oldRef))
	}
	if curRef != nil {
		out = append(out, resolveControllerRef(&c, cur.Namespace, curRef))
		return keys(out...)
	}
	if refChanged || !sameLabels(cur.Labels, old.Labels) {
		out = append(out, DeploymentsForReplicaSet(cur, c)...)
	}
	return keys(out...)
}

// DeleteReplicaSet returns the Deployment to sync when a ReplicaSet is
// deleted; obj is a *model.ReplicaSet or a [Tombstone] holding one
// (upstream deleteReplicaSet). Only a controller reference counts: no
// Deployment cares about an orphan going away.
func DeleteReplicaSet(obj any, c Cache) ([]string, error) {
	rs, err := unwrap[*model.ReplicaSet](obj, "ReplicaSet")
	if err != nil {
		return nil, err
	}
	return deleteReplicaSet(rs, &c), nil
}

func deleteReplicaSet(rs *model.ReplicaSet, c *Cache) []string {
	return keys(resolveControllerRef(c, rs.Namespace, rs.ControllerRef()))
}

func sameRef(a, b *model.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameLabels(a, b map[string]string) bool {
	return (a == nil) == (b == nil) && maps.Equal(a, b)
}
