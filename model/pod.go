package model

import (
	"slices"
	"time"
)

// PodPhase is the lifecycle phase of a pod.
type PodPhase string

// Pod phases. An empty phase is treated like Pending by the ranking and as
// active by every predicate.
const (
	PodPending   PodPhase = "Pending"
	PodRunning   PodPhase = "Running"
	PodSucceeded PodPhase = "Succeeded"
	PodFailed    PodPhase = "Failed"
	PodUnknown   PodPhase = "Unknown"
)

// PodConditionType names a pod condition; the controllers read only Ready.
type PodConditionType string

// Pod condition types: Ready is the one the controllers read; PodScheduled
// (False with reason Unschedulable and the scheduler's message when no node
// fits) is read by the explanations of why a pod is not ready.
const (
	PodReady     PodConditionType = "Ready"
	PodScheduled PodConditionType = "PodScheduled"
)

// Pod is a v1 Pod, reduced to what the ReplicaSet planner and the Recreate
// strategy use.
type Pod struct {
	ObjectMeta `json:"metadata"`
	Spec       PodSpec   `json:"spec"`
	Status     PodStatus `json:"status"`
}

// PodSpec holds the node a pod is bound to and, as an opaque document, the
// rest of its spec (for pods the ReplicaSet planner creates, the template's
// [PodTemplate.Spec]).
type PodSpec struct {
	NodeName string `json:"nodeName,omitempty"`
	Body     string `json:"body,omitempty"`
	// Hostname and Subdomain are the pod's spec.hostname and spec.subdomain;
	// the StatefulSet controller sets them to the pod's name and the set's
	// serviceName when it creates a pod.
	Hostname  string `json:"hostname,omitempty"`
	Subdomain string `json:"subdomain,omitempty"`
	// Volumes names the pod's volumes and the claim each mounts, in the
	// pod's order: what the StatefulSet controller reads to check that a
	// pod mounts the claims of its volumeClaimTemplates. The volumes' full
	// definitions, when a caller keeps them, stay in Body.
	Volumes []Volume `json:"volumes,omitempty"`
}

// Volume is a pod volume as the StatefulSet controller reads it: its name
// and, for a persistentVolumeClaim volume, the claim's name.
type Volume struct {
	Name string `json:"name"`
	// ClaimName is the claim of a persistentVolumeClaim volume; "" for
	// any other kind of volume.
	ClaimName string `json:"claimName,omitempty"`
}

// PodStatus holds the phase, conditions and container statuses.
type PodStatus struct {
	Phase             PodPhase          `json:"phase,omitempty"`
	Conditions        []PodCondition    `json:"conditions,omitempty"`
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
	// InitContainerStatuses are the init containers' statuses: a pod
	// whose init container cannot start (Init:ImagePullBackOff) waits
	// there. Only the explanations of a wait read them.
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty"`
}

// PodCondition mirrors v1 PodCondition. The planners read Type, Status
// and LastTransitionTime; Reason and Message are what the kubelet or the
// scheduler wrote (PodScheduled False, Unschedulable, "0/3 nodes are
// available: 3 Insufficient cpu."), read only to explain a wait.
type PodCondition struct {
	Type               PodConditionType `json:"type"`
	Status             ConditionStatus  `json:"status"`
	LastTransitionTime time.Time        `json:"lastTransitionTime"`
	Reason             string           `json:"reason,omitempty"`
	Message            string           `json:"message,omitempty"`
}

// ContainerStatus carries what the deletion ranking reads of a container
// (its restart count) and what explains why it is not ready: its
// readiness, the reason it waits and how it last ended.
type ContainerStatus struct {
	Name         string `json:"name"`
	RestartCount int32  `json:"restartCount"`
	Ready        bool   `json:"ready,omitempty"`
	// State is the container's current state as far as a wait is
	// concerned; LastTerminationState how it ended last (what a
	// CrashLoopBackOff repeats).
	State                ContainerState `json:"state,omitzero"`
	LastTerminationState ContainerState `json:"lastState,omitzero"`
}

// ContainerState is a v1 ContainerState reduced to its waiting and
// terminated details. A v1 state that is running, or waiting or terminated
// without any detail, is the zero value: a running container is one that
// neither waits nor has terminated.
type ContainerState struct {
	Waiting    ContainerStateWaiting    `json:"waiting,omitzero"`
	Terminated ContainerStateTerminated `json:"terminated,omitzero"`
}

// ContainerStateWaiting is why a container is not running yet: the
// kubelet's reason (ContainerCreating, ImagePullBackOff, ErrImagePull,
// CrashLoopBackOff, CreateContainerConfigError, …) and its message.
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateTerminated is how a container ended: its exit code and the
// reason (Error, OOMKilled, Completed, …) and message.
type ContainerStateTerminated struct {
	ExitCode int32  `json:"exitCode,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Message  string `json:"message,omitempty"`
}

// DeepCopy returns a copy sharing nothing with p.
func (p *Pod) DeepCopy() *Pod {
	if p == nil {
		return nil
	}
	out := &Pod{ObjectMeta: p.ObjectMeta.DeepCopy(), Spec: p.Spec, Status: p.Status}
	out.Spec.Volumes = slices.Clone(p.Spec.Volumes)
	out.Status.Conditions = slices.Clone(p.Status.Conditions)
	out.Status.ContainerStatuses = slices.Clone(p.Status.ContainerStatuses)
	out.Status.InitContainerStatuses = slices.Clone(p.Status.InitContainerStatuses)
	return out
}

// IsTerminal reports whether the pod has finished: Succeeded or Failed.
func (p *Pod) IsTerminal() bool {
	return p.Status.Phase == PodSucceeded || p.Status.Phase == PodFailed
}

// IsPodActive reports whether p counts towards a ReplicaSet's replicas: not
// terminal and not being deleted (upstream controller.IsPodActive).
func IsPodActive(p *Pod) bool {
	return !p.IsTerminal() && p.DeletionTimestamp == nil
}

// IsPodTerminating reports whether p is being deleted but has not finished:
// it has a deletion timestamp and is not terminal.
func IsPodTerminating(p *Pod) bool {
	return !p.IsTerminal() && p.DeletionTimestamp != nil
}

// ReadyCondition returns the pod's Ready condition, or nil.
func (p *Pod) ReadyCondition() *PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == PodReady {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether p has a Ready condition with status True.
func IsPodReady(p *Pod) bool {
	c := p.ReadyCondition()
	return c != nil && c.Status == ConditionTrue
}

// IsPodAvailable reports whether p is ready and has been ready for at least
// minReadySeconds at now, as v1.36's podutil.IsPodAvailable decides. With
// minReadySeconds 0 ready means available; a ready pod without a transition
// time is never available otherwise. For example a pod ready since 10:00:00
// with minReadySeconds 5 is available at 10:00:05 but not at
// 10:00:04.999999999 (releases before v1.35 wanted a moment more).
func IsPodAvailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	c := p.ReadyCondition()
	if c == nil || c.Status != ConditionTrue {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	if c.LastTransitionTime.IsZero() {
		return false
	}
	return !c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second).After(now)
}
