package plan

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Plan is the outcome of one Deployment sync: the writes upstream attempts,
// as typed actions in its order, the events it records, when it wants to
// sync again, and why. The zero Plan means "nothing to do".
//
// A Plan shares no memory with the State it was planned from, nor with any
// other Plan: a caller may change anything it holds. Its actions describe
// changes, not whole objects; the render package
// ([github.com/rolloutplan/rolloutplan/plan/render]) turns a Plan and its
// State into upstream's exact write requests.
type Plan struct {
	// Actions are the writes upstream attempts, in its order.
	Actions []Action `json:"actions,omitempty"`
	// Events are the events upstream records, in order.
	Events []Event `json:"events,omitempty"`
	// Requeue says when upstream wants to sync again if nothing else happens.
	Requeue Requeue `json:"requeue"`
	// Status is the Deployment status the sync computed last, whether or not
	// it differed from the stored one; nil when the sync never computed one.
	Status *model.DeploymentStatus `json:"status,omitempty"`
	// Notes explain the decisions that wrote nothing: a spent surge or
	// availability budget, old pods still terminating, a pause. A plan of a
	// sync without actions has at least one note saying why.
	Notes []Reason `json:"notes,omitempty"`
}

// Rejected returns the index of the first action a real API server rejects
// (with a conflict or as invalid, see [Action.Rejected]) and true, or 0 and
// false when it accepts them all. Upstream's sync ends with that write's
// error; the actions after it are what upstream computes and sends when the
// write is not rejected (as against a fake client, which neither checks
// versions nor validates).
func (p Plan) Rejected() (int, bool) {
	for i, a := range p.Actions {
		if a.Rejected() {
			return i, true
		}
	}
	return 0, false
}

// Accepted returns the actions a real API server accepts: those before the
// first it rejects, or all of them.
func (p Plan) Accepted() []Action {
	if i, ok := p.Rejected(); ok {
		return p.Actions[:i]
	}
	return p.Actions
}

// AcceptedEvents returns the events a real API server lets upstream record:
// those that follow only accepted writes.
func (p Plan) AcceptedEvents() []Event {
	i, ok := p.Rejected()
	if !ok {
		return p.Events
	}
	var out []Event
	for _, e := range p.Events {
		if e.AfterWrites <= i {
			out = append(out, e)
		}
	}
	return out
}

// ActionKind names an action.
type ActionKind string

// The actions a Deployment sync can plan. Each names the payload field of
// [Action] it fills.
const (
	// CreateReplicaSet creates Action.ReplicaSet.
	CreateReplicaSet ActionKind = "CreateReplicaSet"
	// ScaleReplicaSet changes a ReplicaSet's spec.replicas, as described by
	// Action.Update (which also carries the replica annotations it sets).
	ScaleReplicaSet ActionKind = "ScaleReplicaSet"
	// UpdateReplicaSet changes a ReplicaSet's annotations or
	// spec.minReadySeconds but not its size, as described by Action.Update:
	// the new ReplicaSet catching up with the Deployment's annotations,
	// revision and minReadySeconds, or replica annotations refreshed.
	UpdateReplicaSet ActionKind = "UpdateReplicaSet"
	// DeleteReplicaSet deletes Action.Object (revision history cleanup),
	// with its UID as precondition; a missing object is not an error.
	DeleteReplicaSet ActionKind = "DeleteReplicaSet"
	// AdoptReplicaSet adds Action.OwnerReference, a controller reference to
	// the Deployment, to an orphan (upstream sends a strategic-merge patch
	// with a UID precondition).
	AdoptReplicaSet ActionKind = "AdoptReplicaSet"
	// ReleaseReplicaSet removes the Deployment's owner reference,
	// Action.OwnerReference, from a ReplicaSet it no longer selects.
	ReleaseReplicaSet ActionKind = "ReleaseReplicaSet"
	// UpdateDeploymentStatus writes the Deployment through the status
	// subresource, as described by Action.Deployment: its status, and
	// metadata.annotations (how the revision annotation is written).
	UpdateDeploymentStatus ActionKind = "UpdateDeploymentStatus"
	// UpdateDeployment replaces the Deployment's spec and metadata, as
	// described by Action.Deployment (the legacy rollback path only: the
	// template of the revision rolled back to, the rollback annotation
	// removed).
	UpdateDeployment ActionKind = "UpdateDeployment"
)

// ObjectRef identifies the object an action writes and the version it was
// planned from.
type ObjectRef struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// UID is the object's UID as the State holds it (empty for a
	// ReplicaSet the plan creates).
	UID string `json:"uid,omitempty"`
	// ResourceVersion is the resourceVersion of the object in the State
	// (empty for a ReplicaSet the plan creates). A write planned from an
	// earlier write of the same plan carries the State's version too: see
	// [Action.Conflict] for whether a server accepts it.
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// Action is one write: what it changes and on which object. Exactly the
// payload field its Kind names is set.
type Action struct {
	Kind   ActionKind `json:"kind"`
	Object ObjectRef  `json:"object"`
	// ReplicaSet is the new ReplicaSet (CreateReplicaSet).
	ReplicaSet *model.ReplicaSet `json:"replicaSet,omitempty"`
	// Update is what a ScaleReplicaSet or UpdateReplicaSet changes.
	Update *ReplicaSetUpdate `json:"update,omitempty"`
	// OwnerReference is the reference added (AdoptReplicaSet) or removed
	// (ReleaseReplicaSet).
	OwnerReference *model.OwnerReference `json:"ownerReference,omitempty"`
	// Deployment is what UpdateDeploymentStatus or UpdateDeployment changes.
	Deployment *DeploymentUpdate `json:"deployment,omitempty"`
	// Conflict reports that the write is derived from a version of the object
	// that an earlier write of the same sync already replaced, so a real API
	// server rejects it with 409 Conflict (upstream writes from its cached
	// copy, so later writes of the same object conflict).
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

// Rejected reports whether a real API server rejects the write: with a
// conflict ([Action.Conflict]) or as invalid ([Action.Invalid]).
func (a Action) Rejected() bool { return a.Conflict || a.Invalid != "" }

// ReplicaSetUpdate is what an update of a ReplicaSet changes, relative to
// the object in the State. Upstream changes nothing else of a ReplicaSet.
type ReplicaSetUpdate struct {
	// FromReplicas is spec.replicas of the object the write is planned
	// from; Replicas is the value written.
	FromReplicas int32 `json:"fromReplicas"`
	Replicas     int32 `json:"replicas"`
	// MinReadySeconds, when set, is the spec.minReadySeconds written (the
	// Deployment's), which differs from the State's.
	MinReadySeconds *int32 `json:"minReadySeconds,omitempty"`
	// Annotations are the annotations written whose values differ from the
	// State's (the desired- and max-replicas annotations of a scale, the
	// revision and copied Deployment annotations of the new ReplicaSet).
	Annotations map[string]string `json:"annotations,omitempty"`
}

// DeploymentUpdate is what a write of the Deployment changes, relative to
// the Deployment in the State.
type DeploymentUpdate struct {
	// Annotations are the annotations written whose values differ from the
	// State's; RemovedAnnotations (sorted) are those the write drops.
	Annotations        map[string]string `json:"annotations,omitempty"`
	RemovedAnnotations []string          `json:"removedAnnotations,omitempty"`
	// Template, when set, replaces spec.template (a rollback).
	Template *model.PodTemplate `json:"template,omitempty"`
	// Status, when set, is the whole status written. An UpdateDeployment
	// carries the status the sync had computed by then, which the server
	// ignores on that endpoint.
	Status *model.DeploymentStatus `json:"status,omitempty"`
}

// String renders the action on one line, e.g.
// "ScaleReplicaSet default/web-5d7 10→8: ScaleDownOldReplicaSet: ...".
func (a Action) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s/%s", a.Kind, a.Object.Namespace, a.Object.Name)
	if a.Kind == ScaleReplicaSet && a.Update != nil {
		fmt.Fprintf(&b, " %d→%d", a.Update.FromReplicas, a.Update.Replicas)
	}
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
	// AfterWrites is how many actions were planned before the event.
	// Upstream records an event only after its write succeeded, so on a
	// real API server an event that follows a rejected action never
	// happens ([Plan.AcceptedEvents]).
	AfterWrites int `json:"afterWrites"`
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
