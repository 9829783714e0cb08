package model

import (
	"slices"
	"time"
)

// StrategyType is RollingUpdate or Recreate.
type StrategyType string

// The two Deployment strategies upstream knows.
const (
	RollingUpdateStrategy StrategyType = "RollingUpdate"
	RecreateStrategy      StrategyType = "Recreate"
)

// Deployment is an apps/v1 Deployment, reduced to what the planner uses.
type Deployment struct {
	ObjectMeta `json:"metadata"`
	Spec       DeploymentSpec   `json:"spec"`
	Status     DeploymentStatus `json:"status"`
}

// DeploymentSpec mirrors apps/v1 DeploymentSpec.
type DeploymentSpec struct {
	// Replicas is D, the desired number of pods. nil means 1 after [Default].
	Replicas *int32         `json:"replicas,omitempty"`
	Selector *LabelSelector `json:"selector,omitempty"`
	Template PodTemplate    `json:"template"`
	Strategy Strategy       `json:"strategy"`
	// MinReadySeconds is how long a pod must be ready to count as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many old ReplicaSets to keep; nil or
	// [NoLimit] keeps all of them.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	Paused               bool   `json:"paused,omitempty"`
	// ProgressDeadlineSeconds bounds a rollout without progress; nil or
	// [NoLimit] means no deadline.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// Strategy mirrors apps/v1 DeploymentStrategy.
type Strategy struct {
	Type          StrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingUpdate `json:"rollingUpdate,omitempty"`
}

// RollingUpdate holds the two fenceposts of a rolling update. Percentages
// resolve against spec.replicas: maxSurge rounds up, maxUnavailable down.
type RollingUpdate struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus mirrors apps/v1 DeploymentStatus.
type DeploymentStatus struct {
	ObservedGeneration  int64 `json:"observedGeneration,omitempty"`
	Replicas            int32 `json:"replicas,omitempty"`
	UpdatedReplicas     int32 `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32 `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32 `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32 `json:"unavailableReplicas,omitempty"`
	// TerminatingReplicas is nil when unknown (some ReplicaSet does not report
	// it) or when the DeploymentReplicaSetTerminatingReplicas gate is off.
	TerminatingReplicas *int32                `json:"terminatingReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty"`
	// CollisionCount is bumped on every pod-template-hash collision and mixed
	// into the hash; nil and 0 hash differently.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
}

// DeploymentCondition mirrors apps/v1 DeploymentCondition.
type DeploymentCondition struct {
	Type               DeploymentConditionType `json:"type"`
	Status             ConditionStatus         `json:"status"`
	LastUpdateTime     time.Time               `json:"lastUpdateTime"`
	LastTransitionTime time.Time               `json:"lastTransitionTime"`
	Reason             string                  `json:"reason,omitempty"`
	Message            string                  `json:"message,omitempty"`
}

// Condition returns a pointer to the condition of type t in s, or nil. The
// pointer aliases s.Conditions.
func (s *DeploymentStatus) Condition(t DeploymentConditionType) *DeploymentCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// DeepCopy returns a copy sharing nothing with d.
func (d *Deployment) DeepCopy() *Deployment {
	if d == nil {
		return nil
	}
	out := &Deployment{ObjectMeta: d.ObjectMeta.DeepCopy(), Spec: d.Spec.DeepCopy(), Status: d.Status.DeepCopy()}
	return out
}

// DeepCopy returns a copy sharing nothing with s.
func (s DeploymentSpec) DeepCopy() DeploymentSpec {
	out := s
	out.Template = s.Template.DeepCopy()
	if s.Selector == nil && s.Replicas == nil && s.RevisionHistoryLimit == nil && s.ProgressDeadlineSeconds == nil && s.Strategy.RollingUpdate == nil {
		return out
	}
	// The selector and the pointed-to values are copied into one block: one
	// allocation instead of up to seven, each pointer still to its own
	// variable.
	b := new(specPointees)
	if s.Selector != nil {
		s.Selector.deepCopyInto(&b.selector)
		out.Selector = &b.selector
	}
	out.Replicas = copyInt32To(&b.ints[0], s.Replicas)
	out.RevisionHistoryLimit = copyInt32To(&b.ints[1], s.RevisionHistoryLimit)
	out.ProgressDeadlineSeconds = copyInt32To(&b.ints[2], s.ProgressDeadlineSeconds)
	if ru := s.Strategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			b.maxSurge = *ru.MaxSurge
			b.rollingUpdate.MaxSurge = &b.maxSurge
		}
		if ru.MaxUnavailable != nil {
			b.maxUnavailable = *ru.MaxUnavailable
			b.rollingUpdate.MaxUnavailable = &b.maxUnavailable
		}
		out.Strategy.RollingUpdate = &b.rollingUpdate
	}
	return out
}

// specPointees holds the values a copied DeploymentSpec points to.
type specPointees struct {
	selector                 LabelSelector
	ints                     [3]int32
	rollingUpdate            RollingUpdate
	maxSurge, maxUnavailable IntOrString
}

// copyInt32To returns nil for a nil p, else dst holding *p.
func copyInt32To(dst, p *int32) *int32 {
	if p == nil {
		return nil
	}
	*dst = *p
	return dst
}

// DeepCopy returns a copy sharing nothing with s.
func (s DeploymentStatus) DeepCopy() DeploymentStatus {
	out := s
	if s.TerminatingReplicas != nil || s.CollisionCount != nil {
		ints := new([2]int32) // one allocation for both
		out.TerminatingReplicas = copyInt32To(&ints[0], s.TerminatingReplicas)
		out.CollisionCount = copyInt32To(&ints[1], s.CollisionCount)
	}
	out.Conditions = slices.Clone(s.Conditions)
	return out
}

// DesiredReplicas returns D: *spec.replicas, or 1 (the apps/v1 default) when
// it is nil.
func (d *Deployment) DesiredReplicas() int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}
