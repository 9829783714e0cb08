// Package inmemory keeps one namespace's Deployment, ReplicaSets and Pods
// the way the API server stores them, and applies a Deployment plan's
// writes the way the server answers them: a fake API server for
// simulations, what-if tools and tests, without a cluster.
//
// It takes a plan's typed actions directly ([Cluster.ApplyPlan],
// [Cluster.ApplyAction]), or upstream's exact requests rendered by
// plan/render ([Cluster.Apply]); both store the same objects.
package inmemory

import (
	"errors"
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
// ReplicaSets and Pods. ApplyPlan, ApplyAction and Apply change it the way
// the server answers the planner's writes: they assign UIDs, creation
// times, generations and resource versions, keep status on main-resource
// updates and spec on status updates. Objects are replaced, never modified
// in place, so a [plan.State] taken earlier stays a valid snapshot (its
// slices are copies; the Cluster's own slices change in place). Successive
// versions of an object share the maps and slices that did not change, so
// objects read from a Cluster must not be modified: DeepCopy one to change
// it.
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

// ErrInvalidPlan is wrapped by the errors of a plan that does not fit the
// State it is applied with: an action lacks the payload its kind needs, or
// names an object the State does not hold (the plan was made from another
// State). The server's own answers (AlreadyExists, NotFound) do not wrap it.
var ErrInvalidPlan = errors.New("inmemory: invalid plan")

// ApplyPlan applies the actions of p chosen by mode at now and returns the
// errors the server would answer, one per failed write (the others still
// apply). p must have been planned from the Cluster as it is
// ([Cluster.State]); a plan that does not fit it is answered with one error
// wrapping [ErrInvalidPlan] and changes nothing.
//
// ApplyAccepted and ApplyAll apply each action as [Cluster.ApplyAction]
// does. ApplyCoalesced needs whole objects to merge: it renders p with
// render.Writes and applies render.Coalesced's writes with [Cluster.Apply].
// The cluster keeps no map or slice of p: p stays the caller's.
func (c *Cluster) ApplyPlan(p plan.Plan, mode ApplyMode, now time.Time) []error {
	if len(p.Actions) == 0 {
		return nil
	}
	// The objects p was planned from. Upstream writes from its cached
	// copies, so a second write of an object in one sync starts from them
	// too, not from what the first write stored.
	s := plan.State{Deployment: c.Deployment, ReplicaSets: slices.Clone(c.ReplicaSets), Now: now}
	var errs []error
	if mode == ApplyCoalesced {
		writes, err := render.Writes(s, p)
		if err != nil {
			return []error{fmt.Errorf("%w: %w", ErrInvalidPlan, err)}
		}
		for _, w := range render.Coalesced(writes) {
			if err := c.Apply(w, now); err != nil {
				errs = append(errs, err)
			}
		}
		return errs
	}
	for i := range p.Actions {
		if _, _, err := checkAction(s, p, i); err != nil {
			return []error{err}
		}
	}
	n := len(p.Actions)
	if mode == ApplyAccepted {
		n = len(p.Accepted())
	}
	for i := range n {
		if err := c.ApplyAction(s, p, i, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// ApplyAction carries out p.Actions[i] at now as the API server answers the
// request upstream sends for it, without rendering that request: a scale or
// update stores a new version of the ReplicaSet with the new replicas,
// minReadySeconds and annotations; a status write stores the Deployment with
// the new status and annotations; and so on. The stored objects are those
// [Cluster.Apply] stores for the writes render.Writes(s, p) renders, each
// written in one copy that shares the maps and slices the action does not
// change with the version it replaces.
//
// s is the State p was planned from, taken from the Cluster before p's
// first action was applied (its statuses may lag: the server keeps its
// own). Its objects are what upstream writes from: an update of a
// ReplicaSet applies the action's changes to the State's ReplicaSet (or to
// the one an earlier action of p creates), not to what an earlier write of
// the same sync stored. A real server rejects such a second write (the
// action's Conflict); applied anyway, as by a client without version
// checks, it undoes the first write's changes.
//
// It fails like the API server (a create of a taken name is AlreadyExists,
// a write to a missing object NotFound) or, wrapping [ErrInvalidPlan], when
// the action does not fit s. The cluster keeps no map or slice of p.
func (c *Cluster) ApplyAction(s plan.State, p plan.Plan, i int, now time.Time) error {
	base, created, err := checkAction(s, p, i)
	if err != nil {
		return err
	}
	a := p.Actions[i]
	switch a.Kind {
	case plan.CreateReplicaSet:
		return c.create(a.ReplicaSet.DeepCopy(), now)
	case plan.ScaleReplicaSet, plan.UpdateReplicaSet:
		var rs *model.ReplicaSet
		if created {
			// The plan's own object, created earlier in p: copy its maps,
			// or the cluster would share them with the caller's plan.
			rs = base.DeepCopy()
		} else {
			rs = new(model.ReplicaSet)
			*rs = *base
		}
		u := a.Update
		if rs.Spec.Replicas == nil || *rs.Spec.Replicas != u.Replicas {
			rs.Spec.Replicas = model.Int32Ptr(u.Replicas)
		}
		if u.MinReadySeconds != nil {
			rs.Spec.MinReadySeconds = *u.MinReadySeconds
		}
		if len(u.Annotations) > 0 {
			annotations := maps.Clone(rs.Annotations)
			if annotations == nil {
				annotations = make(map[string]string, len(u.Annotations))
			}
			maps.Copy(annotations, u.Annotations)
			rs.Annotations = annotations
		}
		return c.update(rs)
	case plan.DeleteReplicaSet:
		c.delete(a.Object.Name, now)
		return nil
	case plan.AdoptReplicaSet, plan.ReleaseReplicaSet:
		return c.patchOwner(a.Object.Name, a.OwnerReference, a.Kind == plan.AdoptReplicaSet)
	case plan.UpdateDeploymentStatus:
		u := a.Deployment
		status := s.Deployment.Status
		if u.Status != nil {
			status = u.Status.DeepCopy()
		}
		return c.writeStatus(a.Object.Name, status, updatedAnnotations(s.Deployment.Annotations, u))
	default: // plan.UpdateDeployment, the legacy rollback's full update
		u := a.Deployment
		d := new(model.Deployment)
		*d = *s.Deployment
		d.Annotations = updatedAnnotations(s.Deployment.Annotations, u)
		if u.Template != nil {
			d.Spec.Template = u.Template.DeepCopy()
		}
		return c.updateDeployment(d)
	}
}

// checkAction returns the error render.Writes returns for p.Actions[i],
// planned from s, wrapping ErrInvalidPlan, and for a ReplicaSet update the
// object it applies to: the ReplicaSet an earlier action of p creates under
// that name (created is then true), or the State's.
func checkAction(s plan.State, p plan.Plan, i int) (base *model.ReplicaSet, created bool, err error) {
	a := p.Actions[i]
	invalid := func(what string) error {
		return fmt.Errorf("%w: action %d (%s %s/%s) %s", ErrInvalidPlan, i, a.Kind, a.Object.Namespace, a.Object.Name, what)
	}
	switch a.Kind {
	case plan.CreateReplicaSet:
		if a.ReplicaSet == nil {
			return nil, false, invalid("has no replicaSet")
		}
	case plan.ScaleReplicaSet, plan.UpdateReplicaSet:
		if a.Update == nil {
			return nil, false, invalid("has no update")
		}
		for _, prev := range p.Actions[:i] {
			if prev.Kind == plan.CreateReplicaSet && prev.ReplicaSet != nil && prev.ReplicaSet.Name == a.Object.Name {
				base, created = prev.ReplicaSet, true
			}
		}
		if base == nil {
			for _, rs := range s.ReplicaSets {
				if rs != nil && rs.Namespace == a.Object.Namespace && rs.Name == a.Object.Name {
					base = rs
					break
				}
			}
		}
		if base == nil {
			return nil, false, invalid("names a ReplicaSet the State does not hold")
		}
		return base, created, nil
	case plan.DeleteReplicaSet:
	case plan.AdoptReplicaSet, plan.ReleaseReplicaSet:
		if a.OwnerReference == nil {
			return nil, false, invalid("has no ownerReference")
		}
	case plan.UpdateDeploymentStatus, plan.UpdateDeployment:
		if a.Deployment == nil {
			return nil, false, invalid("has no deployment")
		}
		if s.Deployment == nil || s.Deployment.Name != a.Object.Name || s.Deployment.Namespace != a.Object.Namespace {
			return nil, false, invalid("names a Deployment other than the State's")
		}
	default:
		return nil, false, invalid("has an unknown kind")
	}
	return nil, false, nil
}

// updatedAnnotations returns base with u's annotation changes, or base
// itself when u changes none (the stored maps are never modified).
func updatedAnnotations(base map[string]string, u *plan.DeploymentUpdate) map[string]string {
	if len(u.Annotations) == 0 && len(u.RemovedAnnotations) == 0 {
		return base
	}
	out := maps.Clone(base)
	if out == nil {
		out = make(map[string]string, len(u.Annotations))
	}
	for _, k := range u.RemovedAnnotations {
		delete(out, k)
	}
	maps.Copy(out, u.Annotations)
	return out
}

// Apply carries out one rendered write at now, for callers that hold
// upstream's exact requests (render.Writes). It fails like the API server: a
// create of a taken name is AlreadyExists, a write to a missing object
// NotFound. The cluster keeps the maps and slices of the written objects, so
// a write must not be changed once applied.
func (c *Cluster) Apply(w render.Write, now time.Time) error {
	switch w.Kind {
	case render.CreateReplicaSet:
		rs := new(model.ReplicaSet)
		*rs = *w.ReplicaSet
		return c.create(rs, now)
	case render.UpdateReplicaSet:
		rs := new(model.ReplicaSet)
		*rs = *w.ReplicaSet
		return c.update(rs)
	case render.DeleteReplicaSet:
		c.delete(w.Name, now)
		return nil
	case render.AdoptReplicaSet, render.ReleaseReplicaSet:
		return c.patchOwner(w.Name, w.OwnerReference, w.Kind == render.AdoptReplicaSet)
	case render.UpdateDeploymentStatus:
		return c.writeStatus(w.Name, w.Deployment.Status, w.Deployment.Annotations)
	case render.UpdateDeployment:
		return c.updateDeployment(w.Deployment.DeepCopy()) // full updates are rare: keep it simple
	default:
		return fmt.Errorf("unknown action kind %q", w.Kind)
	}
}

// The server's answers to each request, shared by Apply and ApplyAction.
// Each takes a new version of the object it stores, which the cluster owns
// from then on.

// create stores rs, a new ReplicaSet, with what the server assigns.
func (c *Cluster) create(rs *model.ReplicaSet, now time.Time) error {
	if c.replicaSet(rs.Name) >= 0 {
		return fmt.Errorf("replicasets.apps %q already exists", rs.Name)
	}
	rs.UID = c.NextUID("rs")
	rs.CreationTimestamp = now
	rs.Generation = 1
	rs.ResourceVersion = c.NextResourceVersion()
	rs.Status = model.ReplicaSetStatus{}
	c.ReplicaSets = append(c.ReplicaSets, rs)
	return nil
}

// update replaces the ReplicaSet of rs's name with rs, keeping what the
// server keeps on a main-resource update (UID, creation time, status) and
// bumping the generation when the spec changed.
func (c *Cluster) update(rs *model.ReplicaSet) error {
	i := c.replicaSet(rs.Name)
	if i < 0 {
		return notFound("replicasets", rs.Name)
	}
	old := c.ReplicaSets[i]
	rs.UID, rs.CreationTimestamp, rs.Status, rs.Generation = old.UID, old.CreationTimestamp, old.Status, old.Generation
	if !replicaSetSpecEqual(&old.Spec, &rs.Spec) {
		rs.Generation++
	}
	rs.ResourceVersion = c.NextResourceVersion()
	c.setReplicaSet(i, rs)
	return nil
}

// delete removes the named ReplicaSet and lets the garbage collector delete
// its pods. Upstream ignores NotFound on cleanup deletes.
func (c *Cluster) delete(name string, now time.Time) {
	i := c.replicaSet(name)
	if i < 0 {
		return
	}
	uid := c.ReplicaSets[i].UID
	c.ReplicaSets = slices.Delete(c.ReplicaSets, i, i+1)
	c.collectOrphans(uid, now)
}

// patchOwner applies an adoption (adopt) or release patch: the owner
// reference of ref's UID is removed, and a copy of ref added when adopting.
// A nil ref changes no reference but is still a write.
func (c *Cluster) patchOwner(name string, ref *model.OwnerReference, adopt bool) error {
	i := c.replicaSet(name)
	if i < 0 {
		return notFound("replicasets", name)
	}
	rs := new(model.ReplicaSet)
	*rs = *c.ReplicaSets[i]
	if ref != nil {
		refs := slices.DeleteFunc(slices.Clone(rs.OwnerReferences), func(o model.OwnerReference) bool { return o.UID == ref.UID })
		if adopt {
			refs = append(refs, *ref)
		}
		rs.OwnerReferences = refs
	}
	rs.ResourceVersion = c.NextResourceVersion()
	c.setReplicaSet(i, rs)
	return nil
}

// writeStatus answers a write to the Deployment's status subresource: the
// server takes the status and the annotations and keeps the rest.
func (c *Cluster) writeStatus(name string, status model.DeploymentStatus, annotations map[string]string) error {
	if c.Deployment == nil || c.Deployment.Name != name {
		return notFound("deployments", name)
	}
	d := new(model.Deployment)
	*d = *c.Deployment
	d.Status = status
	d.Annotations = annotations
	d.ResourceVersion = c.NextResourceVersion()
	c.Deployment = d
	return nil
}

// updateDeployment answers a full update of the Deployment with d: the
// server keeps UID, creation time and status, and bumps the generation when
// the spec or the annotations changed.
func (c *Cluster) updateDeployment(d *model.Deployment) error {
	if c.Deployment == nil || c.Deployment.Name != d.Name {
		return notFound("deployments", d.Name)
	}
	old := c.Deployment
	d.UID, d.CreationTimestamp, d.Generation = old.UID, old.CreationTimestamp, old.Generation
	d.Status = old.Status
	if !deploymentSpecEqual(&old.Spec, &d.Spec) || !maps.Equal(old.Annotations, d.Annotations) {
		d.Generation++
	}
	d.ResourceVersion = c.NextResourceVersion()
	c.Deployment = d
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
