package model

// StatefulSet is an apps/v1 StatefulSet reduced to what the config-change
// restart planner (package plan/restart) reads: its metadata (name,
// namespace, resourceVersion, annotations) and its pod template. The
// Deployment planner never looks at StatefulSets.
type StatefulSet struct {
	ObjectMeta `json:"metadata"`
	Spec       StatefulSetSpec `json:"spec"`
}

// StatefulSetSpec mirrors the pod template of apps/v1 StatefulSetSpec; the
// rest of the spec is not modelled.
type StatefulSetSpec struct {
	Template PodTemplate `json:"template"`
}

// DeepCopy returns a copy of s sharing no maps or slices with it.
func (s *StatefulSet) DeepCopy() *StatefulSet {
	if s == nil {
		return nil
	}
	return &StatefulSet{ObjectMeta: s.ObjectMeta.DeepCopy(), Spec: StatefulSetSpec{Template: s.Spec.Template.DeepCopy()}}
}
