package plan

import (
	"maps"
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
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

// invalidWrite returns the message with which a real API server rejects the
// write as invalid, or "". It checks the rules of apps/v1 validation that
// the controller's int32 arithmetic can break: non-negative sizes and
// status counts, status counts consistent with status.replicas, and the
// total annotation size. Every other field of a written object comes from
// objects the server already accepted.
//
// in is the State's Deployment and rs the ReplicaSet of the action's name
// in the State (or the one the plan creates): the objects the write's
// changes apply to.
func invalidWrite(a Action, in *model.Deployment, rs *model.ReplicaSet) string {
	var errs fieldErrors
	switch a.Kind {
	case CreateReplicaSet:
		c := a.ReplicaSet
		errs.nonNegative("spec.replicas", int64(c.SpecReplicas()))
		errs.nonNegative("spec.minReadySeconds", int64(c.Spec.MinReadySeconds))
		errs.annotations(c.Annotations, nil)
		return errs.message("ReplicaSet.apps", c.Name)
	case ScaleReplicaSet, UpdateReplicaSet:
		u := a.Update
		minReady := int32(0)
		var annotations map[string]string
		if rs != nil {
			minReady, annotations = rs.Spec.MinReadySeconds, rs.Annotations
		}
		if u.MinReadySeconds != nil {
			minReady = *u.MinReadySeconds
		}
		errs.nonNegative("spec.replicas", int64(u.Replicas))
		errs.nonNegative("spec.minReadySeconds", int64(minReady))
		errs.annotations(annotations, u.Annotations)
		return errs.message("ReplicaSet.apps", a.Object.Name)
	case UpdateDeploymentStatus:
		u := a.Deployment
		errs.annotations(withoutKeys(in.Annotations, u.RemovedAnnotations), u.Annotations)
		st := u.Status
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
		return errs.message("Deployment.apps", a.Object.Name)
	case UpdateDeployment:
		u := a.Deployment
		errs.annotations(withoutKeys(in.Annotations, u.RemovedAnnotations), u.Annotations)
		return errs.message("Deployment.apps", a.Object.Name)
	}
	return ""
}

// withoutKeys returns m without the keys, or m itself when there are none.
func withoutKeys(m map[string]string, keys []string) map[string]string {
	if len(keys) == 0 {
		return m
	}
	out := maps.Clone(m)
	for _, k := range keys {
		delete(out, k)
	}
	return out
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

// annotations checks the total size of the annotations base would have
// with set written over it.
func (f *fieldErrors) annotations(base, set map[string]string) {
	size := 0
	for k, v := range base {
		if _, over := set[k]; !over {
			size += len(k) + len(v)
		}
	}
	for k, v := range set {
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
