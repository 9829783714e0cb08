package daemonset

import (
	"fmt"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// Plan is the outcome of one DaemonSet sync: the writes upstream attempts,
// as typed actions in its order, the events it records, when it wants to
// sync again, the status it computed, and why. The error the sync ends
// with is [Sync]'s error result. The zero Plan means "nothing to do".
//
// A Plan shares no memory with its [State] or with another Plan: a caller
// may change anything it holds.
type Plan struct {
	// Actions are the writes upstream attempts, in its order (see the
	// package documentation, "Order").
	Actions []Action `json:"actions,omitempty"`
	// Events are the events upstream records against the DaemonSet, in
	// order.
	Events []Event `json:"events,omitempty"`
	// Requeue says when upstream wants to sync again if nothing else
	// happens: after minReadySeconds while some ready pods are not yet
	// available, or after the failed-pod backoff.
	Requeue plan.Requeue `json:"requeue"`
	// Status is the status the sync computed, whether or not it differed
	// from the stored one; nil when the sync stopped before computing it
	// (a DaemonSet being deleted, a hash collision).
	Status *model.DaemonSetStatus `json:"status,omitempty"`
	// Hash is the current revision's hash (the controller-revision-hash
	// label of the pods it creates); empty when the sync stopped before
	// the history was built.
	Hash string `json:"hash,omitempty"`
	// Nodes says, for every node of the State in name order, whether it
	// should run a daemon pod and why not.
	Nodes []Placement `json:"nodes,omitempty"`
	// Notes explain decisions that wrote nothing: a node that keeps its
	// pods because the update budget is spent, a rolling update held back
	// until this sync's creates and deletes are observed, OnDelete, an
	// unchanged status.
	Notes []Reason `json:"notes,omitempty"`
}

// Count returns how many actions of kind k the plan holds, e.g.
// p.Count(CreatePod).
func (p Plan) Count(k ActionKind) int {
	n := 0
	for _, a := range p.Actions {
		if a.Kind == k {
			n++
		}
	}
	return n
}

// ActionKind names an action.
type ActionKind string

// The writes a DaemonSet sync can attempt. Each names the payload field of
// [Action] it fills.
const (
	// AdoptControllerRevision adds Action.OwnerReference, a controller
	// reference to the DaemonSet, to an orphan revision whose labels match
	// the selector (a strategic-merge patch with the revision's UID as
	// precondition).
	AdoptControllerRevision ActionKind = "AdoptControllerRevision"
	// ReleaseControllerRevision removes the DaemonSet's owner reference,
	// Action.OwnerReference, from a revision it no longer selects.
	ReleaseControllerRevision ActionKind = "ReleaseControllerRevision"
	// CreateControllerRevision creates Action.Revision, the record of the
	// current template.
	CreateControllerRevision ActionKind = "CreateControllerRevision"
	// UpdateControllerRevision writes Action.RevisionUpdate: the hash
	// label added to a revision that lacks it, or the current revision
	// renumbered after the newest old one.
	UpdateControllerRevision ActionKind = "UpdateControllerRevision"
	// DeleteControllerRevision deletes Action.Object: a duplicate of the
	// current revision, or an old one beyond revisionHistoryLimit.
	DeleteControllerRevision ActionKind = "DeleteControllerRevision"
	// AdoptPod adds Action.OwnerReference to an orphan pod whose labels
	// match the selector.
	AdoptPod ActionKind = "AdoptPod"
	// ReleasePod removes the DaemonSet's owner reference,
	// Action.OwnerReference, from a pod it no longer selects.
	ReleasePod ActionKind = "ReleasePod"
	// RelabelPod sets the controller-revision-hash label of a pod to
	// Action.Labels (a JSON merge patch), when duplicate current revisions
	// are merged.
	RelabelPod ActionKind = "RelabelPod"
	// CreatePod creates Action.Pod on Action.Node: sent with generateName
	// Action.GenerateName and pinned to the node by Action.Scheduling.
	CreatePod ActionKind = "CreatePod"
	// DeletePod deletes the pod Action.Object on Action.Node.
	DeletePod ActionKind = "DeletePod"
	// UpdateDaemonSetStatus writes Action.Status through the status
	// subresource: the counts, observedGeneration, or (hash collision)
	// the bumped collisionCount.
	UpdateDaemonSetStatus ActionKind = "UpdateDaemonSetStatus"
)

// Action is one write: what it changes and on which object. Exactly the
// payload fields its Kind names are set.
type Action struct {
	Kind ActionKind `json:"kind"`
	// Object is the object written; for CreatePod its Name is the planned
	// name (see the package documentation, "Names of created pods") and
	// UID and ResourceVersion are empty.
	Object plan.ObjectRef `json:"object"`
	// Node is the node of a CreatePod or DeletePod (for a delete, the
	// node the pod is meant for; "" for a pod without one).
	Node string `json:"node,omitempty"`
	// GenerateName is the generateName a CreatePod sends.
	GenerateName string `json:"generateName,omitempty"`
	// Pod is the pod a CreatePod sends: the template's labels (with the
	// controller-revision-hash and pod-template-generation labels) and
	// annotations, the controller reference, the namespace, the planned
	// name and the template's Spec as Body. spec.nodeName stays empty:
	// the pod reaches its node through Scheduling's node affinity.
	Pod *model.Pod `json:"pod,omitempty"`
	// Scheduling is the created pod's placement: the template's node
	// selector, its required node affinity replaced by metadata.name In
	// [Node], and its tolerations with the default daemon tolerations
	// added (model.DaemonPodTolerations).
	Scheduling *model.PodScheduling `json:"scheduling,omitempty"`
	// Revision is the ControllerRevision a CreateControllerRevision sends.
	Revision *model.ControllerRevision `json:"revision,omitempty"`
	// RevisionUpdate is what an UpdateControllerRevision changes.
	RevisionUpdate *RevisionUpdate `json:"revisionUpdate,omitempty"`
	// OwnerReference is the reference added (adoptions) or removed
	// (releases).
	OwnerReference *model.OwnerReference `json:"ownerReference,omitempty"`
	// Labels are the labels a RelabelPod sets.
	Labels map[string]string `json:"labels,omitempty"`
	// Status is the whole status an UpdateDaemonSetStatus writes.
	Status *model.DaemonSetStatus `json:"status,omitempty"`
	// Reason says why the write is planned, with the numbers behind it.
	Reason Reason `json:"reason"`
}

// RevisionUpdate is what an update of a ControllerRevision changes,
// relative to the revision as the State holds it (or as an earlier action
// of the same plan left it).
type RevisionUpdate struct {
	// Labels are labels added (the controller-revision-hash label, set to
	// the revision's name).
	Labels map[string]string `json:"labels,omitempty"`
	// FromRevision and Revision are the revision number before and after.
	FromRevision int64 `json:"fromRevision"`
	Revision     int64 `json:"revision"`
}

// String renders the action on one line, e.g.
// "CreatePod kube-system/fluentd-bcdfg on node-1: NodeNeedsDaemonPod: ...".
func (a Action) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", a.Kind, a.Object.Namespace, a.Object.Name)
	if a.Node != "" {
		fmt.Fprintf(&b, " on %s", a.Node)
	}
	if a.Reason.Code != "" {
		fmt.Fprintf(&b, ": %s", a.Reason)
	}
	return b.String()
}

// String renders the plan on one line: each action as kind and object,
// the number of events, the requeue and the first note of a plan without
// actions.
func (p Plan) String() string {
	var b strings.Builder
	b.WriteString("Plan [")
	for i, a := range p.Actions {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(a.Kind))
		b.WriteByte(' ')
		b.WriteString(a.Object.Name)
	}
	b.WriteByte(']')
	if n := len(p.Events); n > 0 {
		fmt.Fprintf(&b, "; %d events", n)
	}
	if p.Requeue.Kind == plan.RequeueAfter {
		fmt.Fprintf(&b, "; requeue after %s", p.Requeue.After)
	}
	if len(p.Actions) == 0 && len(p.Notes) > 0 {
		fmt.Fprintf(&b, "; note %s", p.Notes[0].Code)
	}
	return b.String()
}

// Placement is the node predicate's answer for one node (upstream
// NodeShouldRunDaemonPod), with the reason behind it.
type Placement struct {
	Node string `json:"node"`
	// ShouldRun: a daemon pod should be created on the node if it has
	// none.
	ShouldRun bool `json:"shouldRun"`
	// ShouldContinueRunning: a daemon pod already on the node may stay.
	// It differs from ShouldRun only for a node with a NoSchedule taint the
	// pod does not tolerate (and no such NoExecute taint): existing pods
	// stay, no new one comes.
	ShouldContinueRunning bool `json:"shouldContinueRunning"`
	// Reason is NodeEligible, or says what rules the node out, e.g.
	// "node n-3 has taint dedicated=gpu:NoSchedule that the pod does not
	// tolerate".
	Reason Reason `json:"reason"`
}

// Event is an event upstream records against the DaemonSet, the
// Deployment planner's type. Object is "DaemonSet/<name>"; AfterWrites
// counts the actions planned before it.
type Event = plan.Event

// Event reasons the DaemonSet controller records (the pod control's and
// its own).
const (
	EventSuccessfulCreate   = "SuccessfulCreate"
	EventSuccessfulDelete   = "SuccessfulDelete"
	EventFailedDaemonPod    = "FailedDaemonPod"
	EventSucceededDaemonPod = "SucceededDaemonPod"
)

// SyncError is the error a sync ends with, the Deployment planner's type:
// [Sync] returns it together with the Plan of what upstream did before.
type SyncError = plan.SyncError

// ErrorKind classifies a [SyncError]; the Deployment planner's type.
type ErrorKind = plan.ErrorKind

// Kinds of the errors a DaemonSet sync ends with.
const (
	// ErrKindAlreadyExists: the current revision's name is taken by a
	// revision of another template (a hash collision); the plan bumps
	// status.collisionCount and the next sync hashes with it.
	ErrKindAlreadyExists ErrorKind = plan.ErrKindAlreadyExists
	// ErrKindNodeNotFound: a surge rolling update met an old pod on a node
	// that no longer exists.
	ErrKindNodeNotFound ErrorKind = "NodeNotFound"
)

// ReasonCode is the machine-readable part of a [Reason]; the Deployment
// planner's type, with this package's codes below.
type ReasonCode = plan.ReasonCode

// Reason says why something was (or was not) planned; the Deployment
// planner's type.
type Reason = plan.Reason

// Value is one named number of a [Reason]; the Deployment planner's type.
type Value = plan.Value

// Reason codes of the node predicate ([Placement.Reason]).
const (
	// NodeEligible: the node satisfies the template's node name, node
	// selector and required node affinity, and the pod tolerates its
	// NoSchedule and NoExecute taints.
	NodeEligible ReasonCode = "NodeEligible"
	// NodeNameMismatch: the template names another node in
	// spec.nodeName.
	NodeNameMismatch ReasonCode = "NodeNameMismatch"
	// NodeSelectorMismatch: the node lacks a label of the template's
	// nodeSelector.
	NodeSelectorMismatch ReasonCode = "NodeSelectorMismatch"
	// NodeAffinityMismatch: no term of the template's required node
	// affinity matches the node.
	NodeAffinityMismatch ReasonCode = "NodeAffinityMismatch"
	// NodeTaintNoSchedule: the node has a NoSchedule taint the pod does not
	// tolerate; pods already there stay.
	NodeTaintNoSchedule ReasonCode = "UntoleratedNoScheduleTaint"
	// NodeTaintNoExecute: the node has a NoExecute taint the pod does not
	// tolerate; pods there are removed.
	NodeTaintNoExecute ReasonCode = "UntoleratedNoExecuteTaint"
)

// Reason codes of actions.
const (
	// ReasonAdoptRevision: an orphan revision matches the selector.
	ReasonAdoptRevision ReasonCode = "AdoptControllerRevision"
	// ReasonReleaseRevision: a revision the DaemonSet controls no longer
	// matches the selector.
	ReasonReleaseRevision ReasonCode = "ReleaseControllerRevision"
	// ReasonLabelRevision: a revision the DaemonSet controls lacks the
	// controller-revision-hash label; it gets its own name as the value.
	ReasonLabelRevision ReasonCode = "LabelControllerRevision"
	// ReasonCreateRevision: no revision records the current template.
	ReasonCreateRevision ReasonCode = "CreateControllerRevision"
	// ReasonRenumberRevision: the current revision's number is not above
	// every old revision's (a rollback to an earlier template).
	ReasonRenumberRevision ReasonCode = "RenumberControllerRevision"
	// ReasonDuplicateRevision: several revisions record the current
	// template; the highest-numbered stays.
	ReasonDuplicateRevision ReasonCode = "DuplicateControllerRevision"
	// ReasonHistoryLimit: an old revision beyond revisionHistoryLimit that
	// no pod uses.
	ReasonHistoryLimit ReasonCode = "RevisionHistoryLimit"
	// ReasonHashCollision: the current revision's name is taken by another
	// template's revision; collisionCount is bumped.
	ReasonHashCollision ReasonCode = "HashCollision"
	// ReasonAdoptPod: an orphan pod matches the selector.
	ReasonAdoptPod ReasonCode = "AdoptPod"
	// ReasonReleasePod: a pod the DaemonSet controls no longer matches the
	// selector.
	ReasonReleasePod ReasonCode = "ReleasePod"
	// ReasonRelabelPod: duplicate current revisions are merged; the pod
	// gets the kept revision's hash.
	ReasonRelabelPod ReasonCode = "RelabelPod"
	// ReasonNodeNeedsPod: the node should run a daemon pod and has none
	// (for a surge update: no pod that is not being deleted).
	ReasonNodeNeedsPod ReasonCode = "NodeNeedsDaemonPod"
	// ReasonFailedPod, ReasonSucceededPod: a daemon pod that has finished
	// is deleted so that a new one can take its place.
	ReasonFailedPod    ReasonCode = "FailedDaemonPod"
	ReasonSucceededPod ReasonCode = "SucceededDaemonPod"
	// ReasonExcessPod: the node runs more daemon pods than it may; all but
	// the oldest (for a surge update: the oldest new and oldest old) go.
	ReasonExcessPod ReasonCode = "ExcessDaemonPod"
	// ReasonNodeShouldNotRun: the node should no longer run a daemon pod.
	ReasonNodeShouldNotRun ReasonCode = "NodeShouldNotRunDaemonPod"
	// ReasonUnscheduledOnMissingNode: a pod not yet scheduled is meant for a
	// node that does not exist.
	ReasonUnscheduledOnMissingNode ReasonCode = "UnscheduledOnMissingNode"
	// ReasonReplaceUnavailable: maxUnavailable update; an old pod that is
	// not available is replaced at once.
	ReasonReplaceUnavailable ReasonCode = "ReplaceUnavailableOldPod"
	// ReasonReplaceWithinBudget: maxUnavailable update; an available old
	// pod is replaced within the budget.
	ReasonReplaceWithinBudget ReasonCode = "ReplaceOldPodWithinBudget"
	// ReasonSurgeUnavailable: maxSurge update; a new pod is created beside
	// an old pod that is not available.
	ReasonSurgeUnavailable ReasonCode = "SurgeBesideUnavailableOldPod"
	// ReasonSurgeWithinBudget: maxSurge update; a new pod is created beside
	// an available old pod within the budget.
	ReasonSurgeWithinBudget ReasonCode = "SurgeWithinBudget"
	// ReasonNewPodAvailable: maxSurge update; the new pod on the node is
	// available, so the old one goes.
	ReasonNewPodAvailable ReasonCode = "NewPodAvailable"
	// ReasonOldPodNotReady: a surged node whose old pod is not ready; the
	// old pod goes.
	ReasonOldPodNotReady ReasonCode = "OldPodNotReady"
	// ReasonSurgeMoved: maxSurge update; an old pod on a node that should
	// no longer run one goes once enough pods elsewhere are available.
	ReasonSurgeMoved ReasonCode = "ScheduleMovedAway"
	// ReasonStatus: the computed status differs from the stored one, or
	// the generation is not yet observed.
	ReasonStatus ReasonCode = "SyncStatus"
)

// Reason codes of notes.
const (
	// NoteDeleting: a DaemonSet being deleted is not synced at all.
	NoteDeleting ReasonCode = "Deleting"
	// NoteStatusUnchanged: the computed status equals the stored one.
	NoteStatusUnchanged ReasonCode = "StatusUnchanged"
	// NoteRollingUpdateDeferred: this sync created or deleted pods, so the
	// rolling update waits for the next sync (upstream's expectations).
	NoteRollingUpdateDeferred ReasonCode = "RollingUpdateDeferred"
	// NoteOnDelete: old pods are replaced only when deleted.
	NoteOnDelete ReasonCode = "OnDelete"
	// NoteBudgetSpent: the rolling update's budget (maxUnavailable or
	// maxSurge) leaves old pods in place this sync.
	NoteBudgetSpent ReasonCode = "UpdateBudgetSpent"
	// NoteUpdated: every node runs a pod of the current revision.
	NoteUpdated ReasonCode = "Updated"
	// NoteFailedPodBackoff: a second failed pod on one node waits for the
	// failed-pod backoff.
	NoteFailedPodBackoff ReasonCode = "FailedPodBackoff"
	// NoteNoTargetNode: a pod names no node (neither spec.nodeName nor a
	// metadata.name node affinity) and is ignored.
	NoteNoTargetNode ReasonCode = "NoTargetNode"
	// NoteBurstLimit: more than BurstReplicas pods to create or delete;
	// the rest waits for the next sync.
	NoteBurstLimit ReasonCode = "BurstLimit"
	// NoteExistingRevision: the current revision's name is taken by a
	// revision with the same template that the DaemonSet does not
	// control; upstream uses it as the current revision.
	NoteExistingRevision ReasonCode = "ExistingRevision"
	// NoteOtherNamespace: objects outside the DaemonSet's namespace are
	// ignored.
	NoteOtherNamespace ReasonCode = "OtherNamespace"
	// NoteRequeueMinReady: some ready pods are not yet available; upstream
	// syncs again after minReadySeconds.
	NoteRequeueMinReady ReasonCode = "RequeueMinReadySeconds"
)

func val(name string, x int64) Value { return Value{Name: name, Value: x} }

func reason(code ReasonCode, values []Value, format string, args ...any) Reason {
	return Reason{Code: code, Message: fmt.Sprintf(format, args...), Values: values}
}

// requeueAfter is the earliest of the delays upstream asked for, as a
// delaying queue keeps it.
func requeueAfter(delays []time.Duration) plan.Requeue {
	if len(delays) == 0 {
		return plan.Requeue{}
	}
	d := delays[0]
	for _, x := range delays[1:] {
		d = min(d, x)
	}
	return plan.Requeue{Kind: plan.RequeueAfter, After: d}
}
