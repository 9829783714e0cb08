package model

import (
	"slices"
	"strings"
	"time"
)

// ReplicaSet is an apps/v1 ReplicaSet, reduced to what the planners use.
type ReplicaSet struct {
	ObjectMeta `json:"metadata"`
	Spec       ReplicaSetSpec   `json:"spec"`
	Status     ReplicaSetStatus `json:"status"`
}

// ReplicaSetSpec mirrors apps/v1 ReplicaSetSpec.
type ReplicaSetSpec struct {
	// Replicas is the desired pod count; nil means 1 after [Default].
	Replicas        *int32         `json:"replicas,omitempty"`
	MinReadySeconds int32          `json:"minReadySeconds,omitempty"`
	Selector        *LabelSelector `json:"selector,omitempty"`
	Template        PodTemplate    `json:"template"`
}

// ReplicaSetStatus mirrors apps/v1 ReplicaSetStatus.
type ReplicaSetStatus struct {
	// Replicas counts active pods: neither terminating nor terminal.
	Replicas             int32 `json:"replicas"`
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32 `json:"readyReplicas,omitempty"`
	AvailableReplicas    int32 `json:"availableReplicas,omitempty"`
	// TerminatingReplicas is nil when the ReplicaSet controller does not
	// report it (gate off, or never synced).
	TerminatingReplicas *int32                `json:"terminatingReplicas,omitempty"`
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty"`
	Conditions          []ReplicaSetCondition `json:"conditions,omitempty"`
}

// ReplicaSetCondition mirrors apps/v1 ReplicaSetCondition.
type ReplicaSetCondition struct {
	Type               ReplicaSetConditionType `json:"type"`
	Status             ConditionStatus         `json:"status"`
	LastTransitionTime time.Time               `json:"lastTransitionTime"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
}

// SpecReplicas returns *spec.replicas, or 1 (the apps/v1 default) when nil.
func (rs *ReplicaSet) SpecReplicas() int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// DeepCopy returns a copy sharing nothing with rs.
func (rs *ReplicaSet) DeepCopy() *ReplicaSet {
	if rs == nil {
		return nil
	}
	// The copy, its selector and the values its pointers point to are one
	// allocation, each pointer still to its own variable.
	b := new(replicaSetBlock)
	out := &b.rs
	*out = ReplicaSet{ObjectMeta: rs.ObjectMeta.DeepCopy(), Spec: rs.Spec, Status: rs.Status}
	out.Spec.Replicas = copyInt32To(&b.ints[0], rs.Spec.Replicas)
	out.Status.TerminatingReplicas = copyInt32To(&b.ints[1], rs.Status.TerminatingReplicas)
	if rs.Spec.Selector != nil {
		rs.Spec.Selector.deepCopyInto(&b.selector)
		out.Spec.Selector = &b.selector
	}
	out.Spec.Template = rs.Spec.Template.DeepCopy()
	out.Status.Conditions = slices.Clone(rs.Status.Conditions)
	return out
}

// replicaSetBlock holds a copied ReplicaSet with its selector and the
// values its pointers point to.
type replicaSetBlock struct {
	rs       ReplicaSet
	ints     [2]int32
	selector LabelSelector
}

// CompareCreation orders two ReplicaSets oldest first and, at equal
// creation times, by name: upstream's ReplicaSetsByCreationTimestamp, the
// tie-break of most of its orders. Times compare as instants. Both must be
// non-nil. To sort a slice that may hold nil, use
// proportion.ByCreationTimestamp, which builds on it and puts nil last.
func CompareCreation(a, b *ReplicaSet) int {
	if c := a.CreationTimestamp.Compare(b.CreationTimestamp); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}
