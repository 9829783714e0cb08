// Package render turns a Deployment plan into the write requests the
// upstream controller sends: whole ReplicaSets and Deployments as the API
// server receives them, and the owner-reference patches and deletes with
// their UID preconditions.
//
// A [plan.Plan] describes each write as a change to an object of the
// [plan.State] it was planned from. An adapter that talks to a real API
// server can apply those changes itself (a scale through the scale
// subresource, say); one that wants upstream's exact requests, or a
// fake server that stores whole objects, renders them here:
//
//	p, err := plan.Sync(s)
//	...
//	writes, err := render.Writes(s, p)
//
// Rendering is deterministic and shares nothing with the State or the Plan.
package render

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// Kind names a write request.
type Kind string

// The write requests of a Deployment sync.
const (
	// CreateReplicaSet creates Write.ReplicaSet.
	CreateReplicaSet Kind = "CreateReplicaSet"
	// UpdateReplicaSet replaces a ReplicaSet with Write.ReplicaSet (a
	// [plan.ScaleReplicaSet] or [plan.UpdateReplicaSet] action).
	UpdateReplicaSet Kind = "UpdateReplicaSet"
	// DeleteReplicaSet deletes the ReplicaSet named, with Write.UID as
	// precondition.
	DeleteReplicaSet Kind = "DeleteReplicaSet"
	// AdoptReplicaSet patches Write.OwnerReference into the ReplicaSet's
	// owner references, with Write.UID as precondition.
	AdoptReplicaSet Kind = "AdoptReplicaSet"
	// ReleaseReplicaSet patches the owner reference of Write.OwnerReference's
	// UID out of the ReplicaSet, with Write.UID as precondition.
	ReleaseReplicaSet Kind = "ReleaseReplicaSet"
	// UpdateDeploymentStatus sends Write.Deployment to the status
	// subresource: the server takes its status and metadata.annotations.
	UpdateDeploymentStatus Kind = "UpdateDeploymentStatus"
	// UpdateDeployment replaces the Deployment with Write.Deployment (its
	// spec and metadata).
	UpdateDeployment Kind = "UpdateDeployment"
)

// Write is one write request, rendered from one action of a plan.
type Write struct {
	Kind Kind `json:"kind"`
	// Namespace and Name identify the object written.
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// UID is the precondition of a delete, adopt or release.
	UID string `json:"uid,omitempty"`
	// ReplicaSet is the whole object a create or update sends.
	ReplicaSet *model.ReplicaSet `json:"replicaSet,omitempty"`
	// Deployment is the whole object a Deployment write sends.
	Deployment *model.Deployment `json:"deployment,omitempty"`
	// OwnerReference is the reference an adopt adds or a release removes.
	OwnerReference *model.OwnerReference `json:"ownerReference,omitempty"`
	// Conflict and Invalid are the action's: see [plan.Action].
	Conflict bool   `json:"conflict,omitempty"`
	Invalid  string `json:"invalid,omitempty"`
	// Reason is the action's reason.
	Reason plan.Reason `json:"reason"`
}

// Rejected reports whether a real API server rejects the write.
func (w Write) Rejected() bool { return w.Conflict || w.Invalid != "" }

// Writes renders every action of p, planned from s, as the request upstream
// sends, one write per action and in the same order. A ReplicaSet update
// applies the action's changes to the State's ReplicaSet of that name (or
// to the one an earlier action of p creates), a Deployment write to the
// State's Deployment. It fails when an update names an object s does not
// hold (the plan was made from another State) or an action lacks the
// payload its kind needs; deletes and owner-reference patches render from
// the action's name and UID alone.
func Writes(s plan.State, p plan.Plan) ([]Write, error) {
	if len(p.Actions) == 0 {
		return nil, nil
	}
	out := make([]Write, 0, len(p.Actions))
	var created map[string]*model.ReplicaSet
	for i, a := range p.Actions {
		w := Write{Namespace: a.Object.Namespace, Name: a.Object.Name, Conflict: a.Conflict, Invalid: a.Invalid, Reason: copyReason(a.Reason)}
		switch a.Kind {
		case plan.CreateReplicaSet:
			if a.ReplicaSet == nil {
				return nil, actionError(i, a, "has no replicaSet")
			}
			w.Kind, w.ReplicaSet = CreateReplicaSet, a.ReplicaSet.DeepCopy()
			if created == nil {
				created = map[string]*model.ReplicaSet{}
			}
			created[a.ReplicaSet.Name] = a.ReplicaSet
		case plan.ScaleReplicaSet, plan.UpdateReplicaSet:
			if a.Update == nil {
				return nil, actionError(i, a, "has no update")
			}
			base := created[a.Object.Name]
			if base == nil {
				base = replicaSetNamed(s, a.Object.Namespace, a.Object.Name)
			}
			if base == nil {
				return nil, actionError(i, a, "names a ReplicaSet the State does not hold")
			}
			w.Kind, w.ReplicaSet = UpdateReplicaSet, updatedReplicaSet(base, a.Update)
		case plan.DeleteReplicaSet:
			w.Kind, w.UID = DeleteReplicaSet, a.Object.UID
		case plan.AdoptReplicaSet, plan.ReleaseReplicaSet:
			if a.OwnerReference == nil {
				return nil, actionError(i, a, "has no ownerReference")
			}
			w.Kind, w.UID = AdoptReplicaSet, a.Object.UID
			if a.Kind == plan.ReleaseReplicaSet {
				w.Kind = ReleaseReplicaSet
			}
			ref := *a.OwnerReference
			w.OwnerReference = &ref
		case plan.UpdateDeploymentStatus, plan.UpdateDeployment:
			if a.Deployment == nil {
				return nil, actionError(i, a, "has no deployment")
			}
			if s.Deployment == nil || s.Deployment.Name != a.Object.Name || s.Deployment.Namespace != a.Object.Namespace {
				return nil, actionError(i, a, "names a Deployment other than the State's")
			}
			w.Kind, w.Deployment = UpdateDeploymentStatus, updatedDeployment(s.Deployment, a.Deployment)
			if a.Kind == plan.UpdateDeployment {
				w.Kind = UpdateDeployment
			}
		default:
			return nil, actionError(i, a, "has an unknown kind")
		}
		out = append(out, w)
	}
	return out, nil
}

// Accepted returns the writes a real API server accepts: those before the
// first it rejects, or all of them.
func Accepted(ws []Write) []Write {
	if i := slices.IndexFunc(ws, Write.Rejected); i >= 0 {
		return ws[:i]
	}
	return ws
}

func actionError(i int, a plan.Action, what string) error {
	return fmt.Errorf("render: action %d (%s %s/%s) %s", i, a.Kind, a.Object.Namespace, a.Object.Name, what)
}

// replicaSetNamed returns the ReplicaSet of s with that namespace and name.
func replicaSetNamed(s plan.State, ns, name string) *model.ReplicaSet {
	for _, rs := range s.ReplicaSets {
		if rs != nil && rs.Namespace == ns && rs.Name == name {
			return rs
		}
	}
	return nil
}

// updatedReplicaSet returns a copy of base with u applied.
func updatedReplicaSet(base *model.ReplicaSet, u *plan.ReplicaSetUpdate) *model.ReplicaSet {
	rs := base.DeepCopy()
	rs.Spec.Replicas = model.Int32Ptr(u.Replicas)
	if u.MinReadySeconds != nil {
		rs.Spec.MinReadySeconds = *u.MinReadySeconds
	}
	if len(u.Annotations) > 0 {
		if rs.Annotations == nil {
			rs.Annotations = make(map[string]string, len(u.Annotations))
		}
		maps.Copy(rs.Annotations, u.Annotations)
	}
	return rs
}

// updatedDeployment returns a copy of base with u applied.
func updatedDeployment(base *model.Deployment, u *plan.DeploymentUpdate) *model.Deployment {
	d := base.DeepCopy()
	if len(u.Annotations) > 0 || len(u.RemovedAnnotations) > 0 {
		if d.Annotations == nil {
			d.Annotations = make(map[string]string, len(u.Annotations))
		}
		for _, k := range u.RemovedAnnotations {
			delete(d.Annotations, k)
		}
		maps.Copy(d.Annotations, u.Annotations)
	}
	if u.Template != nil {
		d.Spec.Template = u.Template.DeepCopy()
	}
	if u.Status != nil {
		d.Status = u.Status.DeepCopy()
	}
	return d
}

func copyReason(r plan.Reason) plan.Reason {
	r.Values = slices.Clone(r.Values)
	return r
}
