package replicaset

import (
	"fmt"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// Plan is the outcome of one ReplicaSet sync: the writes upstream attempts, the
// events it records, the status it writes and when it wants to sync again.
// The error the sync ends with is [Sync]'s error result, a *[SyncError]
// returned with the Plan. A Plan shares nothing with the inputs of [Sync]; it
// marshals to JSON and compares with cmp.Diff without options. The zero Plan
// (what Sync returns with invalid input) has no action: nothing to do.
type Plan struct {
	// Actions are the writes attempted, in order: adoptions and releases (by
	// pod name), then creates (in slow-start order) or deletes (in deletion
	// order), then the status update. Upstream sends the creates of one batch,
	// and all deletes, in parallel; the order here is the planner's, chosen to
	// be deterministic. An action whose Error is set was rejected; see
	// [Plan.Accepted].
	Actions []Action `json:"actions"`
	// Events are the events upstream records against the ReplicaSet
	// (SuccessfulCreate, FailedCreate, SuccessfulDelete, FailedDelete).
	Events []Event `json:"events,omitempty"`
	// Status is the status the sync computes, with observedGeneration set to
	// the ReplicaSet's generation. It is written only when StatusChanged.
	Status model.ReplicaSetStatus `json:"status"`
	// StatusChanged reports that Status differs from the stored status in a
	// field upstream compares (counts, terminatingReplicas, conditions) or that
	// the generation has not been observed yet, so an UpdateReplicaSetStatus
	// action is planned.
	StatusChanged bool `json:"statusChanged"`
	// RequeueAfter is non-zero when upstream asks for another sync because
	// ready pods are not yet available (minReadySeconds > 0): when the
	// first of them has been ready for minReadySeconds, or after
	// minReadySeconds when none has a transition time. Zero means no timed
	// requeue; when Sync returns a
	// *SyncError upstream requeues with rate limiting instead.
	RequeueAfter time.Duration `json:"requeueAfter,omitempty"`
	// Notes say what the sync decided about the pod count and why, including
	// when it decided to do nothing; there is always at least one.
	Notes []Reason `json:"notes"`
}

// Accepted returns the actions that took effect: all actions but those with
// an Error. Without fault options every action is accepted.
func (p Plan) Accepted() []Action {
	out := make([]Action, 0, len(p.Actions))
	for _, a := range p.Actions {
		if a.Error == "" {
			out = append(out, a)
		}
	}
	return out
}

// Count returns how many accepted actions of kind k the plan holds, e.g.
// p.Count(DeletePod).
func (p Plan) Count(k ActionKind) int {
	n := 0
	for _, a := range p.Actions {
		if a.Kind == k && a.Error == "" {
			n++
		}
	}
	return n
}

// ActionKind names a write.
type ActionKind string

// The writes a ReplicaSet sync can attempt.
const (
	// AdoptPod adds the ReplicaSet as controller of an orphan pod whose labels
	// match the selector: a strategic-merge patch carrying the owner reference
	// and the pod's UID as precondition ([Action.Patch]).
	AdoptPod ActionKind = "AdoptPod"
	// ReleasePod removes the ReplicaSet's owner reference from a pod it
	// controls whose labels no longer match the selector.
	ReleasePod ActionKind = "ReleasePod"
	// CreatePod creates [Action.Pod] (upstream sends it with generateName
	// [Action.GenerateName] and lets the API server pick the name).
	CreatePod ActionKind = "CreatePod"
	// DeletePod deletes the pod named in [Action.Name].
	DeletePod ActionKind = "DeletePod"
	// UpdateReplicaSetStatus writes [Action.Status] through the status
	// subresource.
	UpdateReplicaSetStatus ActionKind = "UpdateReplicaSetStatus"
)

// Action is one write.
type Action struct {
	Kind ActionKind `json:"kind"`
	// Namespace and Name identify the object written: the pod, or for
	// UpdateReplicaSetStatus the ReplicaSet. For CreatePod, Name is the
	// planned name (see the package documentation, "Names of created pods").
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// UID is the UID of the object written; adoption and release patches send
	// it as a precondition. Empty for CreatePod.
	UID string `json:"uid,omitempty"`
	// Patch is the strategic-merge patch body of AdoptPod and ReleasePod,
	// byte for byte as upstream sends it, e.g.
	//	{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"rs-1"}],"uid":"pod-1"}}
	Patch string `json:"patch,omitempty"`
	// OwnerReference is the controller reference AdoptPod adds, or the one
	// ReleasePod removes (a copy of the pod's), for appliers that do not
	// speak strategic merge: remove every owner reference with its UID, then
	// (AdoptPod) append it.
	OwnerReference *model.OwnerReference `json:"ownerReference,omitempty"`
	// GenerateName is the generateName CreatePod sends: "<rs.name>-", or the
	// bare name when the dash would make it invalid.
	GenerateName string `json:"generateName,omitempty"`
	// Pod is the pod CreatePod sends: the template's labels, annotations and
	// spec, the controller reference, the namespace and the planned name. The
	// API server fills in uid, creationTimestamp and status (phase Pending).
	Pod *model.Pod `json:"pod,omitempty"`
	// Status is the status UpdateReplicaSetStatus writes.
	Status *model.ReplicaSetStatus `json:"status,omitempty"`
	// ResourceVersion is the version of the ReplicaSet the status update is
	// derived from, for optimistic concurrency.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Error is set when the write was rejected (only under a fault option, or
	// for a template without labels, which upstream refuses before sending).
	// A rejected write changes nothing.
	Error string `json:"error,omitempty"`
	// Reason says why the write is planned, with the numbers behind it.
	Reason Reason `json:"reason"`
	// Rule, for DeletePod, is the ranking rule that put the pod before the
	// pods kept (RuleAllDeleted when every active pod goes); empty for the
	// other kinds.
	Rule Rule `json:"rule,omitempty"`
}

// String renders the action on one line, e.g.
// "DeletePod default/web-1: TooManyPods: delete 1 of 2 ...".
func (a Action) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", a.Kind, a.Namespace, a.Name)
	if a.Error != "" {
		fmt.Fprintf(&b, " (rejected: %s)", a.Error)
	}
	if a.Reason.Code != "" {
		fmt.Fprintf(&b, ": %s", a.Reason)
	}
	return b.String()
}

// Event is an event upstream records against the ReplicaSet: the Deployment
// planner's type. Object is "ReplicaSet/<name>"; AfterWrites counts the
// actions planned before it, so the action an event reports is
// Actions[AfterWrites-1].
type Event = plan.Event

// Event reasons the ReplicaSet controller records.
const (
	EventSuccessfulCreate = "SuccessfulCreate"
	EventFailedCreate     = "FailedCreate"
	EventSuccessfulDelete = "SuccessfulDelete"
	EventFailedDelete     = "FailedDelete"
)

// SyncError is the error a sync ends with, the Deployment planner's type:
// [Sync] returns it together with the Plan. Kind is the ReplicaFailure reason
// the status records ([ErrKindFailedCreate] or [ErrKindFailedDelete]);
// Message is upstream's error text, which is also the condition's message.
// errors.Is(err, &replicaset.SyncError{Kind: replicaset.ErrKindFailedCreate})
// matches any failed create.
type SyncError = plan.SyncError

// ErrorKind classifies a [SyncError]; the Deployment planner's type.
type ErrorKind = plan.ErrorKind

// Kinds of the errors a ReplicaSet sync ends with: the reasons of the
// ReplicaFailure condition it records.
const (
	// ErrKindFailedCreate: a pod create failed (the first failure of the
	// batch, by attempt index); the later batches were skipped.
	ErrKindFailedCreate ErrorKind = model.ReasonFailedCreate
	// ErrKindFailedDelete: a pod delete failed (the first failure in
	// deletion order); upstream wraps it as "unable to delete pods: ...".
	ErrKindFailedDelete ErrorKind = model.ReasonFailedDelete
)

// ReasonCode is the machine-readable part of a [Reason]; the Deployment
// planner's type, with this package's codes below.
type ReasonCode = plan.ReasonCode

// Reason codes of actions.
const (
	// ReasonAdoptPod: an orphan active pod matches the selector.
	ReasonAdoptPod ReasonCode = "AdoptPod"
	// ReasonReleasePod: a pod the ReplicaSet controls no longer matches the
	// selector.
	ReasonReleasePod ReasonCode = "ReleasePod"
	// ReasonTooFewPods: fewer active pods than spec.replicas; a create.
	ReasonTooFewPods ReasonCode = "TooFewPods"
	// ReasonTooManyPods: more active pods than spec.replicas; a delete.
	// [Action.Rule] says which ranking rule put the victim before the pods
	// kept.
	ReasonTooManyPods ReasonCode = "TooManyPods"
	// ReasonStatusChanged: the computed status differs from the stored one.
	ReasonStatusChanged ReasonCode = "StatusChanged"
)

// Reason codes of notes.
const (
	// NoteInSync: as many active pods as desired.
	NoteInSync ReasonCode = "InSync"
	// NoteScaleUp: pods are created in slow-start batches.
	NoteScaleUp ReasonCode = "ScaleUp"
	// NoteScaleDown: pods are deleted in ranking order.
	NoteScaleDown ReasonCode = "ScaleDown"
	// NoteBurstLimit: more pods are missing or surplus than one sync may
	// create or delete (500); the rest waits for the next sync.
	NoteBurstLimit ReasonCode = "BurstLimit"
	// NoteCreateStopped: a batch had a failed create, so the later batches
	// were skipped.
	NoteCreateStopped ReasonCode = "CreateStopped"
	// NoteDeleteFailed: at least one delete failed.
	NoteDeleteFailed ReasonCode = "DeleteFailed"
	// NoteDeleting: the ReplicaSet is being deleted, so pods are neither
	// created nor deleted (the status is still written).
	NoteDeleting ReasonCode = "ReplicaSetDeleting"
	// NoteExpectationsPending: the controller is still waiting to observe
	// its own last creates and deletes ([WithExpectationsPending]), so
	// pods are neither created nor deleted (the status is still written).
	NoteExpectationsPending ReasonCode = "ExpectationsPending"
	// NoteStatusUnchanged: the computed status equals the stored one.
	NoteStatusUnchanged ReasonCode = "StatusUnchanged"
	// NoteRequeueMinReady: some ready pods are not yet available; upstream
	// syncs again when the first of them has been ready for minReadySeconds.
	NoteRequeueMinReady ReasonCode = "RequeueMinReadySeconds"
)

// Reason says why something was (or was not) planned: a code, a sentence,
// and the numbers behind it in the order the sentence uses them. It is the
// Deployment planner's type; a delete's ranking rule is [Action.Rule].
type Reason = plan.Reason

// Value is one named number of a [Reason], the Deployment planner's type.
type Value = plan.Value

func val(name string, x int64) Value { return Value{Name: name, Value: x} }
