package sim

import (
	"fmt"
	"maps"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// write turns p.Actions[i], planned from s, into the request the cluster
// stores, as render.Writes would but without copying what the action does
// not change: the objects of s belong to the cluster, which never modifies
// them, so a written ReplicaSet or Deployment shares their unchanged maps
// and slices (the cluster's own rule for successive versions of an object).
// A long simulation writes a ReplicaSet and the Deployment at nearly every
// sync, and copying every label, selector and template map each time was
// most of the simulator's own work. The result carries the same objects as
// render.Writes (a test compares whole traces both ways).
func write(s plan.State, p plan.Plan, i int) (render.Write, error) {
	a := p.Actions[i]
	w := render.Write{
		Namespace: a.Object.Namespace, Name: a.Object.Name,
		Conflict: a.Conflict, Invalid: a.Invalid, Reason: a.Reason,
	}
	switch a.Kind {
	case plan.CreateReplicaSet:
		if a.ReplicaSet == nil {
			return w, actionError(i, a, "has no replicaSet")
		}
		// The plan's own object: the caller owns it and never changes it.
		w.Kind, w.ReplicaSet = render.CreateReplicaSet, a.ReplicaSet
	case plan.ScaleReplicaSet, plan.UpdateReplicaSet:
		base := replicaSetBase(s, p, i)
		if a.Update == nil || base == nil {
			return w, actionError(i, a, "has no update or names a ReplicaSet the State does not hold")
		}
		rs := *base
		u := a.Update
		if rs.Spec.Replicas == nil || *rs.Spec.Replicas != u.Replicas {
			rs.Spec.Replicas = model.Int32Ptr(u.Replicas)
		}
		if u.MinReadySeconds != nil {
			rs.Spec.MinReadySeconds = *u.MinReadySeconds
		}
		if len(u.Annotations) > 0 {
			rs.Annotations = maps.Clone(base.Annotations)
			if rs.Annotations == nil {
				rs.Annotations = make(map[string]string, len(u.Annotations))
			}
			maps.Copy(rs.Annotations, u.Annotations)
		}
		w.Kind, w.ReplicaSet = render.UpdateReplicaSet, &rs
	case plan.DeleteReplicaSet:
		w.Kind, w.UID = render.DeleteReplicaSet, a.Object.UID
	case plan.AdoptReplicaSet, plan.ReleaseReplicaSet:
		if a.OwnerReference == nil {
			return w, actionError(i, a, "has no ownerReference")
		}
		w.Kind, w.UID, w.OwnerReference = render.AdoptReplicaSet, a.Object.UID, a.OwnerReference
		if a.Kind == plan.ReleaseReplicaSet {
			w.Kind = render.ReleaseReplicaSet
		}
	case plan.UpdateDeploymentStatus:
		u := a.Deployment
		if u == nil || u.Status == nil || s.Deployment == nil || s.Deployment.Name != a.Object.Name {
			return w, actionError(i, a, "has no status or names a Deployment other than the State's")
		}
		d := *s.Deployment
		d.Status = *u.Status
		if len(u.Annotations) > 0 || len(u.RemovedAnnotations) > 0 {
			d.Annotations = maps.Clone(d.Annotations)
			if d.Annotations == nil {
				d.Annotations = make(map[string]string, len(u.Annotations))
			}
			for _, k := range u.RemovedAnnotations {
				delete(d.Annotations, k)
			}
			maps.Copy(d.Annotations, u.Annotations)
		}
		w.Kind, w.Deployment = render.UpdateDeploymentStatus, &d
	default:
		// The legacy rollback's full update is rare: render it whole.
		ws, err := render.Writes(s, plan.Plan{Actions: p.Actions[i : i+1]})
		if err != nil {
			return w, err
		}
		return ws[0], nil
	}
	return w, nil
}

// replicaSetBase is the object the update p.Actions[i] applies to: the
// ReplicaSet an earlier action of p creates under that name, or the State's.
// Upstream writes from its cached copy, so a second write of the same
// ReplicaSet in one sync starts from the State's object too.
func replicaSetBase(s plan.State, p plan.Plan, i int) *model.ReplicaSet {
	a := p.Actions[i]
	for _, prev := range p.Actions[:i] {
		if prev.Kind == plan.CreateReplicaSet && prev.ReplicaSet != nil && prev.ReplicaSet.Name == a.Object.Name {
			return prev.ReplicaSet
		}
	}
	for _, rs := range s.ReplicaSets {
		if rs != nil && rs.Namespace == a.Object.Namespace && rs.Name == a.Object.Name {
			return rs
		}
	}
	return nil
}

func actionError(i int, a plan.Action, what string) error {
	return fmt.Errorf("action %d (%s %s/%s) %s", i, a.Kind, a.Object.Namespace, a.Object.Name, what)
}
