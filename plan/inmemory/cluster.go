// Package inmemory keeps one namespace's Deployment, ReplicaSets and Pods
// the way the API server stores them, and applies a Deployment plan's
// writes the way the server answers them: a fake API server for
// simulations, what-if tools and tests, without a cluster.
package inmemory

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// ApplyMode chooses which writes of a plan reach the cluster.
type ApplyMode int

const (
	// ApplyAccepted applies the writes a real API server accepts: those
	// before the plan's first conflict.
	ApplyAccepted ApplyMode = iota
	// ApplyAll applies every write upstream attempts, as a fake client
	// without version checks does (how the conformance data was recorded).
	ApplyAll
	// ApplyCoalesced applies render.Coalesced: one write per object.
	ApplyCoalesced
)

// String names the mode.
func (m ApplyMode) String() string {
	switch m {
	case ApplyAccepted:
		return "accepted"
	case ApplyAll:
		return "all"
	case ApplyCoalesced:
		return "coalesced"
	}
	return "ApplyMode(" + strconv.Itoa(int(m)) + ")"
}

// Cluster is one namespace as the API server keeps it: a Deployment, its
// ReplicaSets and Pods. Apply changes it the way the server answers the
// planner's writes: it assigns UIDs, creation times, generations and
// resource versions, keeps status on main-resource updates and spec on
// status updates. Objects are replaced, never modified in place, so a
// [plan.State] taken earlier stays a valid snapshot (its slices are copies;
// the Cluster's own slices change in place). Successive versions of an
// object share the maps and slices that did not change, so objects read from
// a Cluster must not be modified: DeepCopy one to change it.
//
// The zero Cluster is empty and usable.
type Cluster struct {
	Deployment  *model.Deployment
	ReplicaSets []*model.ReplicaSet
	Pods        []*model.Pod

	version int64 // last resourceVersion handed out
	uids    int64 // last UID suffix handed out
}

// State returns the snapshot the planner sees at now. The slices are fresh;
// the objects are shared and must not be modified.
func (c *Cluster) State(now time.Time) plan.State {
	return plan.State{Deployment: c.Deployment, ReplicaSets: slices.Clone(c.ReplicaSets), Pods: slices.Clone(c.Pods), Now: now}
}

// NextResourceVersion returns a fresh resourceVersion, for objects a test
// adds to the cluster itself.
func (c *Cluster) NextResourceVersion() string {
	c.version++
	return strconv.FormatInt(c.version, 10)
}

// NextUID returns a fresh UID with the given prefix, e.g. "rs-7".
func (c *Cluster) NextUID(prefix string) string {
	c.uids++
	return prefix + "-" + strconv.FormatInt(c.uids, 10)
}

// ApplyPlan renders p, which must have been planned from the Cluster as it
// is ([Cluster.State]), applies the writes chosen by mode at now and
// returns the errors the server would answer, one per failed write (the
// others still apply).
func (c *Cluster) ApplyPlan(p plan.Plan, mode ApplyMode, now time.Time) []error {
	writes, err := render.Writes(c.State(now), p)
	if err != nil {
		return []error{err}
	}
	switch mode {
	case ApplyAccepted:
		writes = render.Accepted(writes)
	case ApplyCoalesced:
		writes = render.Coalesced(writes)
	}
	var errs []error
	for _, a := range writes {
		if err := c.Apply(a, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// Apply carries out one write at now. It fails like the API server: a create
// of a taken name is AlreadyExists, a write to a missing object NotFound.
// The cluster keeps the maps and slices of the written objects, so a write
// must not be changed once applied.
func (c *Cluster) Apply(a render.Write, now time.Time) error {
	switch a.Kind {
	case render.CreateReplicaSet:
		if c.replicaSet(a.Name) >= 0 {
			return fmt.Errorf("replicasets.apps %q already exists", a.Name)
		}
		rs := new(model.ReplicaSet)
		*rs = *a.ReplicaSet
		rs.UID = c.NextUID("rs")
		rs.CreationTimestamp = now
		rs.Generation = 1
		rs.ResourceVersion = c.NextResourceVersion()
		rs.Status = model.ReplicaSetStatus{}
		c.ReplicaSets = append(c.ReplicaSets, rs)
	case render.UpdateReplicaSet:
		i := c.replicaSet(a.Name)
		if i < 0 {
			return notFound("replicasets", a.Name)
		}
		old := c.ReplicaSets[i]
		rs := new(model.ReplicaSet)
		*rs = *a.ReplicaSet
		rs.UID, rs.CreationTimestamp, rs.Status, rs.Generation = old.UID, old.CreationTimestamp, old.Status, old.Generation
		if !replicaSetSpecEqual(&old.Spec, &rs.Spec) {
			rs.Generation++
		}
		rs.ResourceVersion = c.NextResourceVersion()
		c.setReplicaSet(i, rs)
	case render.DeleteReplicaSet:
		i := c.replicaSet(a.Name)
		if i < 0 {
			return nil // upstream ignores NotFound on cleanup deletes
		}
		uid := c.ReplicaSets[i].UID
		c.ReplicaSets = slices.Delete(c.ReplicaSets, i, i+1)
		c.collectOrphans(uid, now)
	case render.AdoptReplicaSet, render.ReleaseReplicaSet:
		i := c.replicaSet(a.Name)
		if i < 0 {
			return notFound("replicasets", a.Name)
		}
		rs := c.ReplicaSets[i].DeepCopy()
		if a.OwnerReference != nil {
			ref := *a.OwnerReference
			rs.OwnerReferences = slices.DeleteFunc(rs.OwnerReferences, func(o model.OwnerReference) bool { return o.UID == ref.UID })
			if a.Kind == render.AdoptReplicaSet {
				rs.OwnerReferences = append(rs.OwnerReferences, ref)
			}
		}
		rs.ResourceVersion = c.NextResourceVersion()
		c.setReplicaSet(i, rs)
	case render.UpdateDeploymentStatus:
		if c.Deployment == nil || c.Deployment.Name != a.Name {
			return notFound("deployments", a.Name)
		}
		d := new(model.Deployment)
		*d = *c.Deployment
		d.Status = a.Deployment.Status // kept like the plan's other maps and slices
		d.Annotations = a.Deployment.Annotations
		d.ResourceVersion = c.NextResourceVersion()
		c.Deployment = d
	case render.UpdateDeployment:
		if c.Deployment == nil || c.Deployment.Name != a.Name {
			return notFound("deployments", a.Name)
		}
		old := c.Deployment
		d := a.Deployment.DeepCopy() // full updates are rare: keep it simple
		d.UID, d.CreationTimestamp, d.Generation = old.UID, old.CreationTimestamp, old.Generation
		d.Status = old.Status.DeepCopy()
		if !deploymentSpecEqual(&old.Spec, &d.Spec) || !maps.Equal(old.Annotations, d.Annotations) {
			d.Generation++
		}
		d.ResourceVersion = c.NextResourceVersion()
		c.Deployment = d
	default:
		return fmt.Errorf("unknown action kind %q", a.Kind)
	}
	return nil
}

// UpdateDeploymentSpec replaces the Deployment's spec (and annotations, when
// non-nil) as a user's edit would, bumping the generation when either
// changed.
func (c *Cluster) UpdateDeploymentSpec(spec model.DeploymentSpec, annotations map[string]string) {
	d := c.Deployment.DeepCopy()
	d.Spec = spec.DeepCopy()
	if annotations != nil {
		d.Annotations = model.ObjectMeta{Annotations: annotations}.DeepCopy().Annotations
	}
	if !deploymentSpecEqual(&c.Deployment.Spec, &d.Spec) || !maps.Equal(c.Deployment.Annotations, d.Annotations) {
		d.Generation++
	}
	d.ResourceVersion = c.NextResourceVersion()
	c.Deployment = d
}

// SetReplicaSetStatus replaces a ReplicaSet's status, as the ReplicaSet
// controller's status update does.
func (c *Cluster) SetReplicaSetStatus(name string, st model.ReplicaSetStatus) error {
	i := c.replicaSet(name)
	if i < 0 {
		return notFound("replicasets", name)
	}
	old := c.ReplicaSets[i]
	rs := new(model.ReplicaSet)
	*rs = *old
	rs.Status = st
	// The caller keeps st's slice and pointer: store copies, or the stored
	// ones when they are equal (they are never changed in place).
	if !slices.Equal(old.Status.Conditions, st.Conditions) || (old.Status.Conditions == nil) != (st.Conditions == nil) {
		rs.Status.Conditions = slices.Clone(st.Conditions)
	} else {
		rs.Status.Conditions = old.Status.Conditions
	}
	if t, o := st.TerminatingReplicas, old.Status.TerminatingReplicas; t != nil && o != nil && *t == *o {
		rs.Status.TerminatingReplicas = o
	} else {
		rs.Status.TerminatingReplicas = cloneInt32(t)
	}
	rs.ResourceVersion = c.NextResourceVersion()
	c.setReplicaSet(i, rs)
	return nil
}

func (c *Cluster) replicaSet(name string) int {
	return slices.IndexFunc(c.ReplicaSets, func(rs *model.ReplicaSet) bool { return rs.Name == name })
}

func (c *Cluster) setReplicaSet(i int, rs *model.ReplicaSet) {
	c.ReplicaSets[i] = rs
}

// collectOrphans plays the garbage collector's background deletion of the
// pods a deleted ReplicaSet controlled: they start terminating.
func (c *Cluster) collectOrphans(ownerUID string, now time.Time) {
	var pods []*model.Pod
	for _, p := range c.Pods {
		if p.IsControlledBy(ownerUID) && p.DeletionTimestamp == nil {
			p = p.DeepCopy()
			p.DeletionTimestamp = model.TimePtr(now)
		}
		pods = append(pods, p)
	}
	c.Pods = pods
}

func notFound(resource, name string) error {
	return fmt.Errorf("%s.apps %q not found", resource, name)
}

// ResourceVersion returns the last resourceVersion handed out: it changes
// with every write, so comparing it tells whether anything was written.
func (c *Cluster) ResourceVersion() int64 { return c.version }

// ReplicaSet returns the stored ReplicaSet with the given name, or nil.
func (c *Cluster) ReplicaSet(name string) *model.ReplicaSet {
	if i := c.replicaSet(name); i >= 0 {
		return c.ReplicaSets[i]
	}
	return nil
}

func cloneInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
