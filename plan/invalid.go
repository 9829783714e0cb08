package plan

import (
	"strconv"
	"strings"
)

// ErrKindInvalid: a write of the sync is one a real API server rejects as
// invalid (422), and upstream's sync ends with the server's error. The
// message is the server's, e.g.
//
//	ReplicaSet.apps "web-5d7" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
const ErrKindInvalid ErrorKind = "Invalid"

// totalAnnotationSizeLimit is the API server's limit, in bytes, on the sum of
// the lengths of an object's annotation keys and values (256 KiB).
const totalAnnotationSizeLimit = 256 << 10

// Rejected reports whether a real API server rejects the write: with a
// conflict ([Action.Conflict]) or as invalid ([Action.Invalid]).
func (a Action) Rejected() bool { return a.Conflict || a.Invalid != "" }

// invalidWrite returns the message with which a real API server rejects the
// write as invalid, or "". It checks the rules of apps/v1 validation that
// the controller's int32 arithmetic can break: non-negative sizes and
// status counts, status counts consistent with status.replicas, and the
// total annotation size. Every other field of a written object comes from
// objects the server already accepted.
func invalidWrite(a Action) string {
	var errs fieldErrors
	switch {
	case a.ReplicaSet != nil && (a.Kind == CreateReplicaSet || a.Kind == UpdateReplicaSet):
		rs := a.ReplicaSet
		errs.nonNegative("spec.replicas", int64(rs.SpecReplicas()))
		errs.nonNegative("spec.minReadySeconds", int64(rs.Spec.MinReadySeconds))
		errs.annotations(rs.Annotations)
		return errs.message("ReplicaSet.apps", rs.Name)
	case a.Deployment != nil && a.Kind == UpdateDeploymentStatus:
		d := a.Deployment
		errs.annotations(d.Annotations)
		st := &d.Status
		errs.nonNegative("status.observedGeneration", st.ObservedGeneration)
		errs.nonNegative("status.replicas", int64(st.Replicas))
		errs.nonNegative("status.updatedReplicas", int64(st.UpdatedReplicas))
		errs.nonNegative("status.readyReplicas", int64(st.ReadyReplicas))
		errs.nonNegative("status.availableReplicas", int64(st.AvailableReplicas))
		errs.nonNegative("status.unavailableReplicas", int64(st.UnavailableReplicas))
		if st.TerminatingReplicas != nil {
			errs.nonNegative("status.terminatingReplicas", int64(*st.TerminatingReplicas))
		}
		if st.CollisionCount != nil {
			errs.nonNegative("status.collisionCount", int64(*st.CollisionCount))
		}
		const msg = "cannot be greater than status.replicas"
		errs.check(st.UpdatedReplicas > st.Replicas, "status.updatedReplicas", int64(st.UpdatedReplicas), msg)
		errs.check(st.ReadyReplicas > st.Replicas, "status.readyReplicas", int64(st.ReadyReplicas), msg)
		errs.check(st.AvailableReplicas > st.Replicas, "status.availableReplicas", int64(st.AvailableReplicas), msg)
		errs.check(st.AvailableReplicas > st.ReadyReplicas, "status.availableReplicas", int64(st.AvailableReplicas), "cannot be greater than readyReplicas")
		return errs.message("Deployment.apps", d.Name)
	case a.Deployment != nil && a.Kind == UpdateDeployment:
		errs.annotations(a.Deployment.Annotations)
		return errs.message("Deployment.apps", a.Deployment.Name)
	}
	return ""
}

// fieldErrors collects field errors rendered as the API server renders
// them: "spec.replicas: Invalid value: -1: must be greater than or equal to 0".
type fieldErrors []string

func (f *fieldErrors) check(bad bool, field string, value int64, detail string) {
	if bad {
		*f = append(*f, field+": Invalid value: "+strconv.FormatInt(value, 10)+": "+detail)
	}
}

func (f *fieldErrors) nonNegative(field string, value int64) {
	f.check(value < 0, field, value, "must be greater than or equal to 0")
}

func (f *fieldErrors) annotations(annotations map[string]string) {
	size := 0
	for k, v := range annotations {
		size += len(k) + len(v)
	}
	if size > totalAnnotationSizeLimit {
		*f = append(*f, "metadata.annotations: Too long: may not be more than "+strconv.Itoa(totalAnnotationSizeLimit)+" bytes")
	}
}

// message renders the errors as the API server's 422 message for the named
// object of the qualified kind, or "" when there are none.
func (f fieldErrors) message(kind, name string) string {
	switch len(f) {
	case 0:
		return ""
	case 1:
		return kind + " " + strconv.Quote(name) + " is invalid: " + f[0]
	}
	return kind + " " + strconv.Quote(name) + " is invalid: [" + strings.Join(f, ", ") + "]"
}

// markInvalid records, on the syncer's last action, whether the server
// rejects it as invalid; a conflict is reported first by the server, so an
// action that conflicts is not checked.
func markInvalid(a *Action) {
	if !a.Conflict {
		a.Invalid = invalidWrite(*a)
	}
}

// invalidOutcome makes a plan whose first rejected write is invalid end
// with the server's error, as upstream's sync does.
func invalidOutcome(p *Plan) {
	if p.ConflictAt < 0 || p.ConflictAt >= len(p.Actions) {
		return
	}
	if a := p.Actions[p.ConflictAt]; a.Invalid != "" {
		p.Err = &SyncError{Kind: ErrKindInvalid, Message: a.Invalid}
	}
}
