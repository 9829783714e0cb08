package model

// Unique reports whether the snapshot lists pass Validate's cross-object
// rules: no two ReplicaSets share a name (in a namespace) or a non-empty
// UID, and no two Pods do. Nil entries are skipped (Validate reports them
// on their own). It is the check a caller that has validated each object
// on its own (with ValidateReplicaSet and ValidatePod) still owes the list.
func Unique(replicaSets []*ReplicaSet, pods []*Pod) bool {
	rsNames, rsUIDs := duplicates(replicaSets, replicaSetMeta)
	if len(rsNames) > 0 || len(rsUIDs) > 0 {
		return false
	}
	podNames, podUIDs := duplicates(pods, podMeta)
	return len(podNames) == 0 && len(podUIDs) == 0
}

// replicaSetMeta and podMeta give the duplicate checks an object's
// metadata.
func replicaSetMeta(rs *ReplicaSet) *ObjectMeta { return &rs.ObjectMeta }

func podMeta(p *Pod) *ObjectMeta { return &p.ObjectMeta }
