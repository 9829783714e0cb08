package model

// ControllerRevision is an apps/v1 ControllerRevision as the StatefulSet and
// DaemonSet controllers use it: an immutable record of one pod template of
// a workload, numbered in the order the templates were rolled out.
type ControllerRevision struct {
	ObjectMeta `json:"metadata"`
	// Template is the pod template the revision records: for a
	// StatefulSet, the spec.template its data restores. Planners that read
	// only Data may leave it empty.
	Template PodTemplate `json:"template"`
	// Data is the revision's data exactly as stored (apps/v1 data.raw, for
	// a StatefulSet the strategic-merge patch that restores its template).
	// The controller compares revisions by these bytes and hashes them into
	// revision names. Empty means "the encoding of Template": a planner
	// then encodes Template itself, with the encoder it was given.
	Data string `json:"data,omitempty"`
	// Revision is the revision number; a rollback gives an old revision the
	// next number instead of creating a new one.
	Revision int64 `json:"revision"`
}

// ControllerRevisionHashLabel is the label that carries a ControllerRevision's
// hash (upstream ControllerRevisionHashLabel).
const ControllerRevisionHashLabel = "controller.kubernetes.io/hash"

// DeepCopy returns a copy of r sharing no maps or slices with it.
func (r *ControllerRevision) DeepCopy() *ControllerRevision {
	if r == nil {
		return nil
	}
	out := *r
	out.ObjectMeta = r.ObjectMeta.DeepCopy()
	out.Template = r.Template.DeepCopy()
	return &out
}

// CompareRevisions orders two revisions as upstream's history does: by
// revision number, then creation time (oldest first), then name. Both must
// be non-nil.
func CompareRevisions(a, b *ControllerRevision) int {
	switch {
	case a.Revision < b.Revision:
		return -1
	case a.Revision > b.Revision:
		return 1
	}
	if c := a.CreationTimestamp.Compare(b.CreationTimestamp); c != 0 {
		return c
	}
	switch {
	case a.Name < b.Name:
		return -1
	case a.Name > b.Name:
		return 1
	}
	return 0
}
