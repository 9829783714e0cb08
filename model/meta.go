package model

import (
	"maps"
	"slices"
	"time"
)

// ObjectMeta is the part of Kubernetes object metadata the planners read or
// write.
type ObjectMeta struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	UID       string `json:"uid,omitempty"`
	// ResourceVersion is carried through to writes so an adapter can use
	// optimistic concurrency; the planners never interpret it.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Generation is bumped by the API server on every spec (and, for
	// Deployments, annotation) change.
	Generation        int64             `json:"generation,omitempty"`
	CreationTimestamp time.Time         `json:"creationTimestamp"`
	DeletionTimestamp *time.Time        `json:"deletionTimestamp,omitempty"`
	Labels            map[string]string `json:"labels,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
	OwnerReferences   []OwnerReference  `json:"ownerReferences,omitempty"`
}

// OwnerReference points from a ReplicaSet to its Deployment or from a Pod to
// its ReplicaSet.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         bool   `json:"controller,omitempty"`
	BlockOwnerDeletion bool   `json:"blockOwnerDeletion,omitempty"`
}

// ControllerRef returns the owner reference marked as controller, or nil.
// Like upstream it returns the first one when (invalidly) several are marked.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if m.OwnerReferences[i].Controller {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}

// IsControlledBy reports whether the controller reference points at uid.
func (m *ObjectMeta) IsControlledBy(uid string) bool {
	ref := m.ControllerRef()
	return ref != nil && ref.UID == uid
}

// NewControllerRef returns the controller owner reference the controllers
// write: controller and blockOwnerDeletion both true.
func NewControllerRef(apiVersion, kind, name, uid string) OwnerReference {
	return OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: true, BlockOwnerDeletion: true}
}

// DeepCopy returns a copy that shares no maps, slices or pointers with m.
func (m ObjectMeta) DeepCopy() ObjectMeta {
	out := m
	if m.DeletionTimestamp != nil {
		t := *m.DeletionTimestamp
		out.DeletionTimestamp = &t
	}
	out.Labels = maps.Clone(m.Labels)
	out.Annotations = maps.Clone(m.Annotations)
	out.OwnerReferences = slices.Clone(m.OwnerReferences)
	return out
}

// Int32Ptr returns a pointer to a copy of v, for spec fields such as
// Replicas.
func Int32Ptr(v int32) *int32 { return &v }

// TimePtr returns a pointer to a copy of t, for DeletionTimestamp.
func TimePtr(t time.Time) *time.Time { return &t }
