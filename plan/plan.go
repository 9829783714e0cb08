package plan

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Plan is the outcome of one Deployment sync.
//
// A Plan from [Sync] shares no memory with the State it was planned from
// (one from a [Planner] may: see there). The objects
// of its actions may share maps and slices with each other (a ReplicaSet
// written twice shares its labels and template) and, within one object,
// label maps of equal content (the labels, the selector's matchLabels and
// the template's labels may be one map), so treat them as read-only or
// DeepCopy one before changing it.
type Plan struct {
	// Actions are the writes upstream attempts, in its order.
	Actions []Action `json:"actions"`
	// ConflictAt is the index of the first action a real API server would
	// reject (see [Action.Rejected]): with a conflict ([Action.Conflict]) or
	// as invalid ([Action.Invalid]); -1 when it accepts them all. Upstream's
	// sync ends with that error; the actions after it are what upstream
	// computes and sends when the write is not rejected (as against a fake
	// client, which neither checks versions nor validates).
	ConflictAt int `json:"conflictAt"`
	// Events are the events upstream records, in order.
	Events []Event `json:"events,omitempty"`
	// Requeue says when upstream wants to sync again if nothing else happens.
	Requeue Requeue `json:"requeue"`
	// Err is the error the sync ends with, or nil. It does not count a
	// conflict flagged through ConflictAt; when the first rejected action
	// is invalid, Err is the server's error for it ([ErrKindInvalid]).
	Err *SyncError `json:"error,omitempty"`
	// Status is the Deployment status the sync computed last, whether or not
	// it differed from the stored one; nil when the sync never computed one.
	Status *model.DeploymentStatus `json:"status,omitempty"`
	// Notes explain the decisions that wrote nothing: a spent surge or
	// availability budget, old pods still terminating, a pause. An empty plan
	// always has at least one note saying why.
	Notes []Reason `json:"notes,omitempty"`
}

// Accepted returns the actions a real API server accepts: those before
// ConflictAt, the first it rejects (with a conflict or as invalid), or all
// of them.
func (p Plan) Accepted() []Action {
	if p.ConflictAt < 0 || p.ConflictAt > len(p.Actions) {
		return p.Actions
	}
	return p.Actions[:p.ConflictAt]
}

// AcceptedEvents returns the events a real API server lets upstream record:
// those that follow only accepted writes.
func (p Plan) AcceptedEvents() []Event {
	if p.ConflictAt < 0 {
		return p.Events
	}
	var out []Event
	for _, e := range p.Events {
		if e.AfterAction < p.ConflictAt {
			out = append(out, e)
		}
	}
	return out
}

// ActionKind names a write.
type ActionKind string

// The writes a Deployment sync can attempt.
const (
	// CreateReplicaSet creates Action.ReplicaSet.
	CreateReplicaSet ActionKind = "CreateReplicaSet"
	// UpdateReplicaSet replaces a ReplicaSet with Action.ReplicaSet; the
	// controller changes only spec.replicas, spec.minReadySeconds and
	// annotations.
	UpdateReplicaSet ActionKind = "UpdateReplicaSet"
	// DeleteReplicaSet deletes the ReplicaSet named in Action.Name (revision
	// history cleanup); a missing object is not an error.
	DeleteReplicaSet ActionKind = "DeleteReplicaSet"
	// AdoptReplicaSet adds a controller reference to the Deployment
	// (upstream sends a strategic-merge patch with a UID precondition).
	AdoptReplicaSet ActionKind = "AdoptReplicaSet"
	// ReleaseReplicaSet removes the Deployment's owner reference.
	ReleaseReplicaSet ActionKind = "ReleaseReplicaSet"
	// UpdateDeploymentStatus writes Action.Deployment through the status
	// subresource: the server applies its status and metadata.annotations
	// (this is how the revision annotation is written) and keeps the spec.
	UpdateDeploymentStatus ActionKind = "UpdateDeploymentStatus"
	// UpdateDeployment replaces the Deployment's spec and metadata (the
	// legacy rollback path only).
	UpdateDeployment ActionKind = "UpdateDeployment"
)

// Action is one write.
type Action struct {
	Kind ActionKind `json:"kind"`
	// Namespace and Name identify the object written.
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// UID is the UID of the ReplicaSet patched or deleted (adopt, release,
	// delete), the precondition upstream sends.
	UID string `json:"uid,omitempty"`
	// ReplicaSet is the full object sent by CreateReplicaSet and
	// UpdateReplicaSet.
	ReplicaSet *model.ReplicaSet `json:"replicaSet,omitempty"`
	// Deployment is the full object sent by UpdateDeploymentStatus and
	// UpdateDeployment.
	Deployment *model.Deployment `json:"deployment,omitempty"`
	// OwnerReference is the reference added by AdoptReplicaSet.
	OwnerReference *model.OwnerReference `json:"ownerReference,omitempty"`
	// Conflict reports that the write is derived from a version of the object
	// that an earlier write of the same sync already replaced, so a real API
	// server rejects it with 409 Conflict (upstream writes from its cached copy, so later writes conflict).
	Conflict bool `json:"conflict,omitempty"`
	// Invalid, when not empty, is the message with which a real API server
	// rejects the write as invalid (422): upstream's int32 arithmetic can
	// wrap to a negative size or status count, which apps/v1 validation
	// refuses. For example:
	//
	//	ReplicaSet.apps "web-5d7" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
	//
	// The server checks the version first, so a conflicting write is never
	// marked invalid.
	Invalid string `json:"invalid,omitempty"`
	// Reason says why the write is planned, with the numbers behind it.
	Reason Reason `json:"reason"`
}

// String renders the action on one line, e.g.
// "UpdateReplicaSet default/web-5d7: ScaleDownOldReplicaSet: ...".
func (a Action) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", a.Kind, a.Namespace, a.Name)
	if a.Conflict {
		b.WriteString(" (conflict)")
	}
	if a.Invalid != "" {
		b.WriteString(" (invalid)")
	}
	if a.Reason.Code != "" {
		fmt.Fprintf(&b, ": %s", a.Reason)
	}
	return b.String()
}

// Event is an event upstream records against the Deployment.
type Event struct {
	Type    string `json:"type"`   // Normal or Warning
	Reason  string `json:"reason"` // e.g. ScalingReplicaSet
	Message string `json:"message"`
	// Object is "Deployment/<name>".
	Object string `json:"object"`
	// AfterAction is the index of the last action recorded before the
	// event, or -1. Upstream records an event only after its write
	// succeeded, so on a real API server the events with AfterAction at or
	// past Plan.ConflictAt never happen ([Plan.AcceptedEvents]).
	AfterAction int `json:"afterAction"`
}

// RequeueKind says how the next sync is scheduled.
type RequeueKind string

// Requeue kinds. The zero value means no requeue beyond the watch events the
// writes cause.
const (
	RequeueNone RequeueKind = ""
	// RequeueAfter asks for a sync after Requeue.After (the progress deadline
	// check).
	RequeueAfter RequeueKind = "after"
	// RequeueRateLimited asks for a sync as soon as the rate limiter allows
	// (the deadline is less than a second away).
	RequeueRateLimited RequeueKind = "rateLimited"
)

// Requeue is the scheduling outcome of a sync.
type Requeue struct {
	Kind  RequeueKind   `json:"kind,omitempty"`
	After time.Duration `json:"after,omitempty"`
}

// ErrorKind classifies the error a sync ends with.
type ErrorKind string

// Kinds of sync errors.
const (
	// ErrKindAlreadyExists: the new ReplicaSet's name is taken by a
	// ReplicaSet that is not this template's (a hash collision); the plan
	// bumps status.collisionCount and the next sync hashes with it.
	ErrKindAlreadyExists ErrorKind = "AlreadyExists"
	// ErrKindInvalidScale: a scale-down computed from inconsistent status,
	// surfaced only with [SurfaceOldReplicaSetErrors].
	ErrKindInvalidScale ErrorKind = "InvalidScale"
	// ErrKindInvalidFencepost: maxSurge cannot be resolved. Validation, like
	// apps/v1's, accepts one such value: a percentage whose digits exceed
	// int64, on which upstream's sync ends with its intstr error.
	ErrKindInvalidFencepost ErrorKind = "InvalidFencepost"
)

// SyncError is the error a sync ends with: upstream's message, classified.
type SyncError struct {
	Kind    ErrorKind `json:"kind"`
	Message string    `json:"message"`
}

// Error returns upstream's message, e.g.
// `replicasets.apps "web-5d7" already exists`.
func (e *SyncError) Error() string { return e.Message }

// Is matches another *SyncError of the same Kind, so errors.Is(err,
// &plan.SyncError{Kind: plan.ErrKindAlreadyExists}) works.
func (e *SyncError) Is(target error) bool {
	t, ok := target.(*SyncError)
	return ok && t.Kind == e.Kind && (t.Message == "" || t.Message == e.Message)
}

// ReasonCode is the machine-readable part of a [Reason].
type ReasonCode string

// Reason says why something was (or was not) planned: a code, a sentence, and
// the numbers behind it in the order the sentence uses them.
type Reason struct {
	Code    ReasonCode `json:"code"`
	Message string     `json:"message"`
	Values  []Value    `json:"values,omitempty"`
}

// String renders "Code: message".
func (r Reason) String() string { return string(r.Code) + ": " + r.Message }

// Value is one named number of a [Reason].
type Value struct {
	Name  string `json:"name"`
	Value int64  `json:"value"`
}

// Value returns the number named name and whether the reason has it, e.g.
// r.Value("maxSurge").
func (r Reason) Value(name string) (int64, bool) {
	for _, v := range r.Values {
		if v.Name == name {
			return v.Value, true
		}
	}
	return 0, false
}

// MarshalJSON writes the duration as Go duration text ("31s").
func (r Requeue) MarshalJSON() ([]byte, error) {
	type wire struct {
		Kind  RequeueKind `json:"kind,omitempty"`
		After string      `json:"after,omitempty"`
	}
	w := wire{Kind: r.Kind}
	if r.After != 0 {
		w.After = r.After.String()
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Requeue) UnmarshalJSON(b []byte) error {
	var w struct {
		Kind  RequeueKind `json:"kind"`
		After string      `json:"after"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.Kind = w.Kind
	r.After = 0
	if w.After != "" {
		d, err := time.ParseDuration(w.After)
		if err != nil {
			return err
		}
		r.After = d
	}
	return nil
}
