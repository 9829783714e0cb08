package statefulset

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// State is the snapshot one sync plans over: the StatefulSet, and the pods,
// ControllerRevisions and claims of its namespace, as the controller's
// informer caches hold them, and the controller's clock.
type State struct {
	// StatefulSet is the set to sync, as read from the API server
	// (defaulted; apply model.DefaultStatefulSet to hand-written objects).
	StatefulSet *model.StatefulSet
	// Pods are the pods of the set's namespace. The set claims those it
	// controls and orphans whose labels its selector matches and whose name
	// is "<set name>-<ordinal>"; any pod of the namespace makes a create of
	// the same name fail. Pods of other namespaces are ignored.
	Pods []*model.Pod
	// ControllerRevisions are the ControllerRevisions of the namespace; the
	// set's history is those its selector matches that it controls or that
	// have no controller. Any of them makes a create of the same name fail.
	ControllerRevisions []*model.ControllerRevision
	// Claims are the PersistentVolumeClaims of the namespace.
	Claims []*model.PersistentVolumeClaim
	// Now is the controller's clock (availability after minReadySeconds,
	// the requeue delay). It must be set: a zero Now is rejected.
	Now time.Time
}

// Validate checks the snapshot with model.ValidateStatefulSetSnapshot and
// rejects a zero Now (field "now").
func (s State) Validate() error {
	return s.validate(false)
}

// validate is Validate; podSpecsValidated leaves out the pod spec rules
// (see PodSpecsValidated).
func (s State) validate(podSpecsValidated bool) error {
	var opts []model.ValidateOption
	if podSpecsValidated {
		opts = []model.ValidateOption{model.PodSpecsValidated}
	}
	err := model.ValidateStatefulSetSnapshot(s.StatefulSet, s.Pods, s.ControllerRevisions, s.Claims, opts...)
	if !s.Now.IsZero() {
		return err
	}
	now := &model.FieldError{Field: "now", Detail: "must be set: the planner reads no clock (pass the time of the sync)"}
	var verr *model.ValidationError
	if errors.As(err, &verr) {
		return &model.ValidationError{Errors: append([]*model.FieldError{now}, verr.Errors...)}
	}
	return &model.ValidationError{Errors: []*model.FieldError{now}}
}

// Plan is the outcome of one StatefulSet sync: the writes upstream attempts,
// in its order, the events it records, when it wants to sync again, the
// status it computed and why nothing more happened. The zero Plan means
// "nothing to do". A Plan shares no memory with its State: a caller may
// change anything it holds.
type Plan struct {
	// Actions are the writes upstream attempts, in its order. An action
	// whose Error is set is one the API server rejects (upstream attempts
	// it, and the sync ends with its error or retries under another name).
	Actions []Action `json:"actions,omitempty"`
	// Events are the events upstream records against the StatefulSet.
	Events []Event `json:"events,omitempty"`
	// Requeue is upstream's timed requeue: minReadySeconds after the sync,
	// or sooner when a ready pod becomes available sooner.
	Requeue plan.Requeue `json:"requeue"`
	// Status is the status the sync computed, written or not; nil when the
	// sync stopped before computing one.
	Status *model.StatefulSetStatus `json:"status,omitempty"`
	// Notes explain the decisions that wrote nothing: OrderedReady waiting
	// for a pod, a terminating pod, the partition, OnDelete, an exhausted
	// maxUnavailable. A plan without actions has at least one note.
	Notes []Reason `json:"notes,omitempty"`
}

// Accepted returns the actions a real API server accepts: all but those
// with an Error or Invalid set.
func (p Plan) Accepted() []Action {
	out := make([]Action, 0, len(p.Actions))
	for _, a := range p.Actions {
		if !a.Rejected() {
			out = append(out, a)
		}
	}
	return out
}

// Rejected reports whether a real API server rejects the write.
func (a Action) Rejected() bool { return a.Error != "" || a.Invalid != "" }

// Count returns how many accepted actions of kind k the plan holds.
func (p Plan) Count(k ActionKind) int {
	n := 0
	for _, a := range p.Actions {
		if a.Kind == k && !a.Rejected() {
			n++
		}
	}
	return n
}

// String renders the plan on one line, e.g.
// "Plan [CreatePod web-2 UpdateStatefulSetStatus web]; 1 event".
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
		if a.Rejected() {
			b.WriteString("(rejected)")
		}
	}
	b.WriteByte(']')
	if n := len(p.Events); n == 1 {
		b.WriteString("; 1 event")
	} else if n > 1 {
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

// ActionKind names a write.
type ActionKind string

// The writes a StatefulSet sync can attempt, in the order upstream's sync
// reaches them.
const (
	// AdoptControllerRevision gives an orphan revision the set's selector
	// matches a controller reference to the set, Action.OwnerReference (a
	// strategic-merge patch with the revision's UID as precondition).
	AdoptControllerRevision ActionKind = "AdoptControllerRevision"
	// AdoptPod gives an orphan pod (selected, named "<set>-<ordinal>", not
	// being deleted) the controller reference Action.OwnerReference.
	AdoptPod ActionKind = "AdoptPod"
	// ReleasePod removes the set's controller reference,
	// Action.OwnerReference, from a pod the set no longer selects.
	ReleasePod ActionKind = "ReleasePod"
	// CreateControllerRevision creates Action.ControllerRevision, the
	// revision of the set's current template.
	CreateControllerRevision ActionKind = "CreateControllerRevision"
	// UpdateControllerRevision gives an existing revision the next revision
	// number (a rollback to its template), Action.RevisionUpdate.
	UpdateControllerRevision ActionKind = "UpdateControllerRevision"
	// CreateClaim creates Action.Claim, a pod's claim from a
	// volumeClaimTemplate.
	CreateClaim ActionKind = "CreateClaim"
	// UpdateClaim replaces a claim's owner references with
	// Action.OwnerReferences, for the retention policy.
	UpdateClaim ActionKind = "UpdateClaim"
	// CreatePod creates Action.Pod at ordinal Action.Ordinal, from revision
	// Action.Revision, mounting Action.Claims.
	CreatePod ActionKind = "CreatePod"
	// UpdatePod writes a pod back with its identity (name label, index
	// label) or its claim volumes restored, Action.PodUpdate. Upstream also
	// writes a pod back unchanged when only its claims' owner references
	// needed fixing.
	UpdatePod ActionKind = "UpdatePod"
	// DeletePod deletes a pod: a failed or succeeded one, one above the
	// replicas (scale-down), or one of an old revision (rolling update).
	DeletePod ActionKind = "DeletePod"
	// UpdateStatefulSetStatus writes Action.Status through the status
	// subresource.
	UpdateStatefulSetStatus ActionKind = "UpdateStatefulSetStatus"
	// DeleteControllerRevision deletes a revision no pod uses beyond
	// revisionHistoryLimit.
	DeleteControllerRevision ActionKind = "DeleteControllerRevision"
)

// Action is one write: what it changes and on which object. The payload
// fields its Kind names are set; the others are zero.
type Action struct {
	Kind ActionKind `json:"kind"`
	// Object is the object written: for CreatePod, CreateClaim and
	// CreateControllerRevision the name it is created under (no UID or
	// resourceVersion), otherwise the object of the State written.
	Object plan.ObjectRef `json:"object"`
	// Ordinal is the ordinal of the pod a pod or claim action is for.
	Ordinal int `json:"ordinal,omitempty"`
	// Pod is the pod CreatePod sends: the revision's template labels and
	// annotations with the pod-name, pod-index and controller-revision-hash
	// labels, the controller reference, hostname and subdomain; its
	// Spec.Volumes are the claim volumes (which come first in the pod sent)
	// and Spec.Body is the template's Spec, which holds the template's own
	// volumes. When upstream re-creates a pod that exists without a phase,
	// Pod is that pod.
	Pod *model.Pod `json:"pod,omitempty"`
	// Revision is the name of the revision CreatePod's pod is at.
	Revision string `json:"revision,omitempty"`
	// Claims are the names of the claims CreatePod's pod mounts, in
	// template-name order.
	Claims []string `json:"claims,omitempty"`
	// PodUpdate is what UpdatePod changes.
	PodUpdate *PodUpdate `json:"podUpdate,omitempty"`
	// Claim is the claim CreateClaim sends.
	Claim *model.PersistentVolumeClaim `json:"claim,omitempty"`
	// OwnerReferences are the owner references UpdateClaim writes (the
	// whole list, which may be empty).
	OwnerReferences []model.OwnerReference `json:"ownerReferences,omitempty"`
	// OwnerReference is the reference AdoptControllerRevision or AdoptPod
	// adds, or ReleasePod removes.
	OwnerReference *model.OwnerReference `json:"ownerReference,omitempty"`
	// ControllerRevision is the revision CreateControllerRevision sends.
	ControllerRevision *model.ControllerRevision `json:"controllerRevision,omitempty"`
	// RevisionUpdate is the renumbering UpdateControllerRevision writes.
	RevisionUpdate *RevisionUpdate `json:"revisionUpdate,omitempty"`
	// Status is the status UpdateStatefulSetStatus writes. Upstream builds
	// it afresh, so it carries no conditions.
	Status *model.StatefulSetStatus `json:"status,omitempty"`
	// Error, when set, is the message with which the API server rejects
	// the write: a create whose name is taken.
	Error string `json:"error,omitempty"`
	// Invalid, when set, is the message with which a real API server
	// rejects the write as invalid (422): upstream lowers
	// status.currentReplicas once per pod the rolling update deletes, also
	// when that pod was not counted (it was at a third revision), and can
	// write a negative count. The recordings' fake API server accepts it;
	// on a real one the sync ends with this error.
	Invalid string `json:"invalid,omitempty"`
	// Reason says why the write is planned, with the numbers behind it.
	Reason Reason `json:"reason"`
}

// String renders the action on one line, e.g.
// "DeletePod default/web-2: ScaleDown: ...".
func (a Action) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", a.Kind, a.Object.Namespace, a.Object.Name)
	if a.Error != "" {
		fmt.Fprintf(&b, " (rejected: %s)", a.Error)
	}
	if a.Invalid != "" {
		fmt.Fprintf(&b, " (invalid: %s)", a.Invalid)
	}
	if a.Reason.Code != "" {
		fmt.Fprintf(&b, ": %s", a.Reason)
	}
	return b.String()
}

// PodUpdate is what an UpdatePod changes, relative to the pod of the State
// (or, for a pod created earlier in the same sync, to Action.Pod of that
// CreatePod).
type PodUpdate struct {
	// Name, when set, is the name the pod is written under: its ordinal
	// written without leading zeros ("web-01" becomes "web-1").
	Name string `json:"name,omitempty"`
	// Labels are the labels set (pod-name and pod-index) whose values
	// differ from the pod's.
	Labels map[string]string `json:"labels,omitempty"`
	// Volumes, when set, is the pod's new volume list: the claim volumes,
	// in template-name order, then its other volumes.
	Volumes []model.Volume `json:"volumes,omitempty"`
}

// RevisionUpdate is the renumbering of a ControllerRevision.
type RevisionUpdate struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// Event is an event upstream records against the StatefulSet, the
// Deployment planner's type. Object is "StatefulSet/<name>"; AfterWrites
// counts the actions planned before it.
type Event = plan.Event

// Event reasons the StatefulSet controller records.
const (
	EventSuccessfulCreate      = "SuccessfulCreate"
	EventFailedCreate          = "FailedCreate"
	EventSuccessfulUpdate      = "SuccessfulUpdate"
	EventFailedUpdate          = "FailedUpdate"
	EventSuccessfulDelete      = "SuccessfulDelete"
	EventConflictingController = "ConflictingController"
)

// SyncError is the error a sync ends with, the Deployment planner's type:
// [Sync] returns it with the Plan of the writes upstream attempted. Message
// is upstream's text (several errors are joined as upstream's aggregate
// joins them, "[a, b]"); Kind is the kind of the first.
type SyncError = plan.SyncError

// ErrorKind classifies a [SyncError]; the Deployment planner's type.
type ErrorKind = plan.ErrorKind

// Kinds of the errors a StatefulSet sync ends with.
const (
	// ErrKindAlreadyExists: a pod (or claim) is created under a name the
	// namespace already holds, for example a released pod's.
	ErrKindAlreadyExists ErrorKind = plan.ErrKindAlreadyExists
	// ErrKindClaimDeleting: a pod needs a claim that is being deleted.
	ErrKindClaimDeleting ErrorKind = "ClaimDeleting"
	// ErrKindNotFound: a pod written back under its corrected name does
	// not exist.
	ErrKindNotFound ErrorKind = "NotFound"
	// ErrKindSetDeleted: orphan revisions cannot be adopted because the
	// set is being deleted.
	ErrKindSetDeleted ErrorKind = "SetDeleted"
)

// ReasonCode is the machine-readable part of a [Reason]; the Deployment
// planner's type, with this package's codes below.
type ReasonCode = plan.ReasonCode

// Reason says why something was (or was not) planned; the Deployment
// planner's type.
type Reason = plan.Reason

// Value is one named number of a [Reason].
type Value = plan.Value

// Reason codes of actions.
const (
	// ReasonAdoptRevision: an orphan revision the selector matches.
	ReasonAdoptRevision ReasonCode = "AdoptRevision"
	// ReasonAdoptPod: an orphan pod the selector matches, named for the set.
	ReasonAdoptPod ReasonCode = "AdoptPod"
	// ReasonReleasePod: a pod the set controls that it no longer selects.
	ReasonReleasePod ReasonCode = "ReleasePod"
	// ReasonNewRevision: no revision records the set's template.
	ReasonNewRevision ReasonCode = "NewRevision"
	// ReasonRevisionCollision: the new revision's name is taken by another
	// template's revision; the collision count is bumped.
	ReasonRevisionCollision ReasonCode = "RevisionCollision"
	// ReasonRollback: an older revision records the set's template; it gets
	// the next revision number.
	ReasonRollback ReasonCode = "Rollback"
	// ReasonMissingPod: an ordinal below replicas has no pod.
	ReasonMissingPod ReasonCode = "MissingPod"
	// ReasonMissingClaim: a pod's claim does not exist.
	ReasonMissingClaim ReasonCode = "MissingClaim"
	// ReasonClaimRetention: a claim's owner references disagree with the
	// retention policy.
	ReasonClaimRetention ReasonCode = "ClaimRetention"
	// ReasonPodIdentity: a pod lacks its pod-name label (or its name has
	// leading zeros).
	ReasonPodIdentity ReasonCode = "PodIdentity"
	// ReasonPodStorage: a pod does not mount its claims.
	ReasonPodStorage ReasonCode = "PodStorage"
	// ReasonPodClaimsOwners: a pod is written back because its claims'
	// owner references were fixed.
	ReasonPodClaimsOwners ReasonCode = "PodClaimsOwners"
	// ReasonFailedPod: a pod failed or succeeded; it is deleted so that it
	// can be re-created.
	ReasonFailedPod ReasonCode = "FailedPod"
	// ReasonScaleDown: a pod's ordinal is outside [start, start+replicas).
	ReasonScaleDown ReasonCode = "ScaleDown"
	// ReasonRollingUpdate: a pod at or above the partition is not at the
	// update revision.
	ReasonRollingUpdate ReasonCode = "RollingUpdate"
	// ReasonStatus: the computed status differs from the stored one.
	ReasonStatus ReasonCode = "SyncStatus"
	// ReasonHistoryLimit: a revision no pod uses exceeds
	// revisionHistoryLimit.
	ReasonHistoryLimit ReasonCode = "RevisionHistoryLimit"
)

// Reason codes of notes.
const (
	// NoteDeleting: the set is being deleted; only its status is synced.
	NoteDeleting ReasonCode = "SetDeleting"
	// NoteWaitingForReady: OrderedReady waits for a pod to be Running and
	// Ready before going past it.
	NoteWaitingForReady ReasonCode = "WaitingForReady"
	// NoteWaitingForAvailable: OrderedReady waits for a ready pod to be
	// available (minReadySeconds).
	NoteWaitingForAvailable ReasonCode = "WaitingForAvailable"
	// NoteWaitingForTermination: a pod is terminating; OrderedReady waits
	// for it to be gone.
	NoteWaitingForTermination ReasonCode = "WaitingForTermination"
	// NoteWaitingForCreated: OrderedReady created a pod and waits for it
	// before the next one.
	NoteWaitingForCreated ReasonCode = "WaitingForCreated"
	// NoteWaitingForFailedPod: a failed pod was deleted; it is re-created
	// once it is gone.
	NoteWaitingForFailedPod ReasonCode = "WaitingForFailedPod"
	// NoteStaleClaim: a claim still has an owner reference to an earlier pod
	// of the same name; the pod is not created until the garbage collector
	// removes the claim.
	NoteStaleClaim ReasonCode = "StaleClaim"
	// NoteScaleDownWaiting: a scale-down waits for a pod to terminate or for
	// the first unhealthy pod to recover.
	NoteScaleDownWaiting ReasonCode = "ScaleDownWaiting"
	// NoteOnDelete: the OnDelete strategy replaces pods only when they are
	// deleted.
	NoteOnDelete ReasonCode = "OnDelete"
	// NotePartition: pods below the partition keep their revision.
	NotePartition ReasonCode = "Partition"
	// NoteUpdateWaiting: the rolling update waits for an updated pod to be
	// available before replacing the next.
	NoteUpdateWaiting ReasonCode = "UpdateWaiting"
	// NoteMaxUnavailable: with the MaxUnavailableStatefulSet gate, as many
	// pods as maxUnavailable allows are already unavailable.
	NoteMaxUnavailable ReasonCode = "MaxUnavailable"
	// NoteUpdated: every pod from the partition up is at the update
	// revision.
	NoteUpdated ReasonCode = "Updated"
	// NoteStatusUnchanged: the computed status equals the stored one.
	NoteStatusUnchanged ReasonCode = "StatusUnchanged"
	// NoteRequeueMinReady: some ready pods are not available yet; upstream
	// syncs again when the first becomes available.
	NoteRequeueMinReady ReasonCode = "RequeueMinReadySeconds"
	// NoteSyncFailed: a write failed, so the sync stopped (the rest is
	// retried with rate limiting).
	NoteSyncFailed ReasonCode = "SyncFailed"
)

func val(name string, x int64) Value { return Value{Name: name, Value: x} }

func reason(code ReasonCode, values []Value, format string, args ...any) Reason {
	return Reason{Code: code, Message: fmt.Sprintf(format, args...), Values: values}
}
