package model

// UniqueAdded is [Unique] for lists whose entries, but for those at the
// indices addedRS (of replicaSets) and addedPods (of pods), are known to
// pass Unique among themselves: it compares only the added entries with
// every other entry of their list, so it costs len × added comparisons
// instead of a pass over every name and UID. A caller that checked a
// snapshot once and is handed it again with a few objects replaced or
// added owes only this. Nil entries are skipped, as Unique skips them;
// indices out of range are ignored.
func UniqueAdded(replicaSets []*ReplicaSet, addedRS []int, pods []*Pod, addedPods []int) bool {
	return uniqueAdded(replicaSets, addedRS, replicaSetMeta) &&
		uniqueAdded(pods, addedPods, podMeta)
}

func uniqueAdded[T comparable](items []T, added []int, meta func(T) *ObjectMeta) bool {
	var zero T
	for _, i := range added {
		if i < 0 || i >= len(items) || items[i] == zero {
			continue
		}
		m := meta(items[i])
		for j, y := range items {
			if j == i || y == zero {
				continue
			}
			if name, uid := duplicateOf(meta(y), m); name || uid {
				return false
			}
		}
	}
	return true
}

// duplicateOf reports whether b repeats a's name (in a's namespace) and
// whether it repeats a's UID (a non-empty one): the two ways two objects
// of a snapshot list are duplicates.
func duplicateOf(a, b *ObjectMeta) (name, uid bool) {
	return sameString(a.Name, b.Name) && a.Namespace == b.Namespace, b.UID != "" && sameString(a.UID, b.UID)
}
