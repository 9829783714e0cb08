package model

// PersistentVolumeClaim is a v1 PersistentVolumeClaim as the StatefulSet
// controller reads it: metadata (name, labels, owner references, deletion
// timestamp) and, as an opaque document, the rest. It is used both for the
// claims of a namespace and for a StatefulSet's volumeClaimTemplates.
type PersistentVolumeClaim struct {
	ObjectMeta `json:"metadata"`
	// Spec is everything else of the claim (its spec, and for a template any
	// metadata other than name, labels and annotations) as an opaque
	// document the planners copy without reading, as [PodTemplate.Spec].
	Spec string `json:"spec,omitempty"`
}

// DeepCopy returns a copy of c sharing no maps or slices with it.
func (c *PersistentVolumeClaim) DeepCopy() *PersistentVolumeClaim {
	if c == nil {
		return nil
	}
	return &PersistentVolumeClaim{ObjectMeta: c.ObjectMeta.DeepCopy(), Spec: c.Spec}
}
