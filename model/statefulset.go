package model

import (
	"slices"
	"time"
)

// StatefulSet is an apps/v1 StatefulSet, reduced to what the StatefulSet
// planner (package plan/statefulset) and the config-change restart planner
// (package plan/restart) read. The Deployment planner never looks at
// StatefulSets.
type StatefulSet struct {
	ObjectMeta `json:"metadata"`
	Spec       StatefulSetSpec   `json:"spec"`
	Status     StatefulSetStatus `json:"status"`
}

// PodManagementPolicyType is OrderedReady or Parallel.
type PodManagementPolicyType string

// The two pod management policies.
const (
	// OrderedReadyPodManagement creates pods in ordinal order, each only
	// once its predecessors are Running and Ready, and removes them in
	// reverse order, each only once its successors are gone.
	OrderedReadyPodManagement PodManagementPolicyType = "OrderedReady"
	// ParallelPodManagement creates and deletes pods without waiting.
	ParallelPodManagement PodManagementPolicyType = "Parallel"
)

// StatefulSetUpdateStrategyType is RollingUpdate or OnDelete.
type StatefulSetUpdateStrategyType string

// The two StatefulSet update strategies.
const (
	// RollingUpdateStatefulSetStrategyType replaces pods of an old revision
	// from the highest ordinal down to the partition.
	RollingUpdateStatefulSetStrategyType StatefulSetUpdateStrategyType = "RollingUpdate"
	// OnDeleteStatefulSetStrategyType replaces a pod only when someone else
	// deletes it.
	OnDeleteStatefulSetStrategyType StatefulSetUpdateStrategyType = "OnDelete"
)

// PersistentVolumeClaimRetentionPolicyType is Retain or Delete.
type PersistentVolumeClaimRetentionPolicyType string

// The claim retention policies.
const (
	// RetainPersistentVolumeClaimRetentionPolicyType keeps claims: the
	// controller gives them no owner reference.
	RetainPersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Retain"
	// DeletePersistentVolumeClaimRetentionPolicyType lets the garbage collector
	// delete claims with their owner (the set, or the scaled-down pod).
	DeletePersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Delete"
)

// StatefulSetSpec mirrors apps/v1 StatefulSetSpec.
type StatefulSetSpec struct {
	// Replicas is the desired number of pods; nil means 1 after
	// [DefaultStatefulSet].
	Replicas *int32         `json:"replicas,omitempty"`
	Selector *LabelSelector `json:"selector,omitempty"`
	Template PodTemplate    `json:"template"`
	// VolumeClaimTemplates are the claims every pod gets, one of each per
	// ordinal, named "<template name>-<set name>-<ordinal>".
	VolumeClaimTemplates []PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
	// ServiceName is the headless Service that gives pods their DNS names;
	// it becomes the pods' spec.subdomain.
	ServiceName         string                    `json:"serviceName,omitempty"`
	PodManagementPolicy PodManagementPolicyType   `json:"podManagementPolicy,omitempty"`
	UpdateStrategy      StatefulSetUpdateStrategy `json:"updateStrategy"`
	// RevisionHistoryLimit is how many ControllerRevisions no pod uses the
	// controller keeps; nil means 10 after [DefaultStatefulSet], a negative
	// value keeps all of them.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// MinReadySeconds is how long a pod must be ready to count as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// PersistentVolumeClaimRetentionPolicy says whether claims outlive the
	// set and scaled-down pods; nil retains them in both cases.
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty"`
	// Ordinals, when set, moves the first ordinal from 0 to Ordinals.Start.
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty"`
}

// StatefulSetUpdateStrategy mirrors apps/v1 StatefulSetUpdateStrategy.
type StatefulSetUpdateStrategy struct {
	Type StatefulSetUpdateStrategyType `json:"type,omitempty"`
	// RollingUpdate may be nil for type RollingUpdate too (apps/v1 fills it
	// in only when the type itself was defaulted); the controller then
	// keeps the first status.currentReplicas ordinals at the current
	// revision when it re-creates them.
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy mirrors apps/v1
// RollingUpdateStatefulSetStrategy.
type RollingUpdateStatefulSetStrategy struct {
	// Partition is the lowest ordinal the rolling update replaces: pods
	// below it stay at (or are re-created at) the current revision. nil
	// means 0 after [DefaultStatefulSet].
	Partition *int32 `json:"partition,omitempty"`
	// MaxUnavailable bounds the pods a rolling update takes down at once
	// (an integer or a percentage of replicas rounded down, at least 1;
	// nil means 1). Only read when the MaxUnavailableStatefulSet feature
	// gate is on, which it is not by default in v1.36.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
}

// StatefulSetPersistentVolumeClaimRetentionPolicy mirrors the apps/v1 type
// of the same name. An empty value means Retain.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	WhenDeleted PersistentVolumeClaimRetentionPolicyType `json:"whenDeleted,omitempty"`
	WhenScaled  PersistentVolumeClaimRetentionPolicyType `json:"whenScaled,omitempty"`
}

// StatefulSetOrdinals mirrors apps/v1 StatefulSetOrdinals.
type StatefulSetOrdinals struct {
	Start int32 `json:"start"`
}

// StatefulSetConditionType names a StatefulSet condition.
type StatefulSetConditionType string

// StatefulSetStatus mirrors apps/v1 StatefulSetStatus.
type StatefulSetStatus struct {
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Replicas counts the pods that exist (have a phase), terminating ones
	// included.
	Replicas      int32 `json:"replicas"`
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// CurrentReplicas and UpdatedReplicas count the pods, not terminating,
	// at CurrentRevision and at UpdateRevision.
	CurrentReplicas int32  `json:"currentReplicas,omitempty"`
	UpdatedReplicas int32  `json:"updatedReplicas,omitempty"`
	CurrentRevision string `json:"currentRevision,omitempty"`
	UpdateRevision  string `json:"updateRevision,omitempty"`
	// CollisionCount is bumped on every ControllerRevision name collision
	// and mixed into the revision hash.
	CollisionCount    *int32                 `json:"collisionCount,omitempty"`
	Conditions        []StatefulSetCondition `json:"conditions,omitempty"`
	AvailableReplicas int32                  `json:"availableReplicas"`
}

// StatefulSetCondition mirrors apps/v1 StatefulSetCondition.
type StatefulSetCondition struct {
	Type               StatefulSetConditionType `json:"type"`
	Status             ConditionStatus          `json:"status"`
	LastTransitionTime time.Time                `json:"lastTransitionTime"`
	Reason             string                   `json:"reason,omitempty"`
	Message            string                   `json:"message,omitempty"`
}

// Labels the StatefulSet controller puts on its pods, and the kind in their
// owner references.
const (
	// StatefulSetPodNameLabel holds the pod's own name.
	StatefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name"
	// PodIndexLabel holds the pod's ordinal, in decimal.
	PodIndexLabel = "apps.kubernetes.io/pod-index"
	// StatefulSetRevisionLabel names the ControllerRevision a pod was
	// created from.
	StatefulSetRevisionLabel = "controller-revision-hash"
	// StatefulSetKind is the kind in owner references to a StatefulSet.
	StatefulSetKind = "StatefulSet"
)

// SpecReplicas returns *spec.replicas, or 1 (the apps/v1 default) when nil.
func (s *StatefulSet) SpecReplicas() int32 {
	if s.Spec.Replicas == nil {
		return 1
	}
	return *s.Spec.Replicas
}

// StartOrdinal returns spec.ordinals.start, or 0 when spec.ordinals is nil.
func (s *StatefulSet) StartOrdinal() int32 {
	if s.Spec.Ordinals == nil {
		return 0
	}
	return s.Spec.Ordinals.Start
}

// RetentionPolicy returns the claim retention policy with unset parts read
// as Retain, as the controller reads it.
func (s *StatefulSet) RetentionPolicy() StatefulSetPersistentVolumeClaimRetentionPolicy {
	out := StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: RetainPersistentVolumeClaimRetentionPolicyType,
		WhenScaled:  RetainPersistentVolumeClaimRetentionPolicyType,
	}
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		out = *p
	}
	return out
}

// DeepCopy returns a copy of s sharing no maps, slices or pointers with it.
func (s *StatefulSet) DeepCopy() *StatefulSet {
	if s == nil {
		return nil
	}
	return &StatefulSet{ObjectMeta: s.ObjectMeta.DeepCopy(), Spec: s.Spec.DeepCopy(), Status: s.Status.DeepCopy()}
}

// DeepCopy returns a copy of s sharing no maps, slices or pointers with it.
func (s StatefulSetSpec) DeepCopy() StatefulSetSpec {
	out := s
	out.Replicas = clonePtr(s.Replicas)
	out.Selector = s.Selector.DeepCopy()
	out.Template = s.Template.DeepCopy()
	if s.VolumeClaimTemplates != nil {
		out.VolumeClaimTemplates = make([]PersistentVolumeClaim, len(s.VolumeClaimTemplates))
		for i := range s.VolumeClaimTemplates {
			out.VolumeClaimTemplates[i] = *s.VolumeClaimTemplates[i].DeepCopy()
		}
	}
	if ru := s.UpdateStrategy.RollingUpdate; ru != nil {
		out.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{
			Partition:      clonePtr(ru.Partition),
			MaxUnavailable: clonePtr(ru.MaxUnavailable),
		}
	}
	out.RevisionHistoryLimit = clonePtr(s.RevisionHistoryLimit)
	out.PersistentVolumeClaimRetentionPolicy = clonePtr(s.PersistentVolumeClaimRetentionPolicy)
	out.Ordinals = clonePtr(s.Ordinals)
	return out
}

// DeepCopy returns a copy of s sharing no slices or pointers with it.
func (s StatefulSetStatus) DeepCopy() StatefulSetStatus {
	out := s
	out.CollisionCount = clonePtr(s.CollisionCount)
	out.Conditions = slices.Clone(s.Conditions)
	return out
}

// clonePtr returns nil for nil, else a pointer to a copy of *p.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
