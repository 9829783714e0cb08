package plan

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
	"github.com/rolloutplan/rolloutplan/revision"
)

// syncer carries one sync: a working copy of the Deployment, the plan being
// recorded, and enough version bookkeeping to tell which writes a real API
// server would reject.
//
// The working copy is a shallow copy of the input. The sync replaces its
// status and template whole, and copies its annotations and conditions
// before it changes them in place (ownAnnotations, ownStatus), so the input
// is never written. Actions record what a write changes relative to the
// input; they copy what they carry, so a plan shares nothing with the input.
type syncer struct {
	cfg  config
	now  time.Time
	in   *model.Deployment // the State's Deployment
	d    *model.Deployment // &wc, the working copy; like upstream's, it never picks up a server response
	wc   model.Deployment
	all  []*model.ReplicaSet
	pods []*model.Pod
	plan Plan
	err  *SyncError

	deploymentWrites int
	annotationsOwned bool // d's annotations are a copy of the input's
	statusChanged    bool // d's status differs from the input's
	templateReplaced bool // d's template is no longer the input's (a rollback)
	// serverVersion counts the writes each ReplicaSet (by name) has received
	// this sync; objVersion records which of those versions an object in
	// hand was derived from (absent: the State's object, version 0).
	serverVersion map[string]int
	objVersion    map[*model.ReplicaSet]int
	// created is the ReplicaSet this sync creates, the origin of later
	// updates of it.
	created *model.ReplicaSet
	found   foundReplicaSets
	// statusComputed is set by the status writers, for Plan.Status.
	statusComputed *model.DeploymentStatus
	// hasherErr is set when the WithHasher function returned an unusable
	// hash; Sync then returns it instead of a plan.
	hasherErr error
}

// start readies sy, a zero syncer, for a sync of s.
func (sy *syncer) start(s State, cfg config) {
	sy.wc = *s.Deployment
	sy.cfg, sy.now, sy.in, sy.d, sy.all, sy.pods = cfg, s.Now, s.Deployment, &sy.wc, s.ReplicaSets, s.Pods
}

func (s *syncer) podTemplateHash() string {
	return s.cfg.hasher(s.d.Spec.Template, s.d.Status.CollisionCount)
}

func (s *syncer) replicas() int32 { return s.d.DesiredReplicas() }

// record appends a to the plan, marked with the server's refusal when it
// is invalid. origin is the ReplicaSet a ReplicaSet update changes (the
// State's, or the one this sync creates); other writes pass nil.
func (s *syncer) record(a Action, origin *model.ReplicaSet) {
	if !a.Conflict {
		a.Invalid = invalidWrite(a, s.in, origin)
	}
	if s.plan.Actions == nil {
		s.plan.Actions = make([]Action, 0, 4) // a rollout step writes up to four times
	}
	s.plan.Actions = append(s.plan.Actions, a)
}

func (s *syncer) note(r Reason) {
	if s.plan.Notes == nil {
		s.plan.Notes = make([]Reason, 0, 3) // a steady sync notes up to three things
	}
	s.plan.Notes = append(s.plan.Notes, r)
}

func (s *syncer) event(typ, reason, format string, args ...any) {
	s.plan.Events = append(s.plan.Events, Event{
		Type: typ, Reason: reason, Message: fmt.Sprintf(format, args...),
		Object: model.DeploymentKind + "/" + s.d.Name, AfterWrites: len(s.plan.Actions),
	})
}

func (s *syncer) deploymentRef() ObjectRef {
	return ObjectRef{Namespace: s.in.Namespace, Name: s.in.Name, UID: s.in.UID, ResourceVersion: s.in.ResourceVersion}
}

// writeDeployment records a write of the working copy. Every Deployment
// write of a sync derives from the same cached version, so any write after
// the first is a conflict (upstream writes from its cached copy).
func (s *syncer) writeDeployment(kind ActionKind, r Reason) {
	u := &DeploymentUpdate{}
	u.Annotations, u.RemovedAnnotations = annotationChanges(s.in.Annotations, s.d.Annotations)
	if s.templateReplaced {
		t := s.d.Spec.Template.DeepCopy()
		u.Template = &t
	}
	if kind == UpdateDeploymentStatus || s.statusChanged {
		st := s.d.Status.DeepCopy()
		u.Status = &st
	}
	s.record(Action{Kind: kind, Object: s.deploymentRef(), Deployment: u, Conflict: s.deploymentWrites > 0, Reason: r}, nil)
	s.deploymentWrites++
}

// annotationChanges returns the annotations of to whose values differ from
// from's, and the keys of from that to lacks (sorted); nil when none.
func annotationChanges(from, to map[string]string) (set map[string]string, removed []string) {
	for k, v := range to {
		if old, ok := from[k]; !ok || old != v {
			if set == nil {
				set = map[string]string{}
			}
			set[k] = v
		}
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			removed = append(removed, k)
		}
	}
	slices.Sort(removed)
	return set, removed
}

// ownAnnotations gives the working copy its own annotation map before the
// sync changes it.
func (s *syncer) ownAnnotations() {
	if !s.annotationsOwned {
		s.annotationsOwned = true
		s.d.Annotations = maps.Clone(s.d.Annotations)
	}
}

// setStatus replaces the working copy's status with st, which the sync
// computed and shares with nothing else.
func (s *syncer) setStatus(st model.DeploymentStatus) {
	s.d.Status = st
	s.statusChanged = true
}

// setDeploymentRevision records rev in the working copy's revision
// annotation and reports whether it changed.
func (s *syncer) setDeploymentRevision(rev string) bool {
	if got, ok := s.d.Annotations[model.RevisionAnnotation]; ok && got == rev {
		return false
	}
	s.ownAnnotations()
	return revision.SetDeploymentRevision(s.d, rev)
}

func (s *syncer) updateStatus(r Reason) { s.writeDeployment(UpdateDeploymentStatus, r) }

// origin returns the object of the State named name, or the ReplicaSet
// this sync creates under that name, or nil.
func (s *syncer) origin(name string) *model.ReplicaSet {
	if s.created != nil && s.created.Name == name {
		return s.created
	}
	return s.replicaSetNamed(name)
}

// replicaSetNamed looks a name up among every ReplicaSet of the namespace
// (the syncer sees no other namespace), the way upstream's create fails on
// any object of that name.
func (s *syncer) replicaSetNamed(name string) *model.ReplicaSet {
	for _, rs := range s.all {
		if rs != nil && rs.Name == name {
			return rs
		}
	}
	return nil
}

// createReplicaSet records the create of rs, which the plan keeps: the
// caller hands it over and does not change it.
func (s *syncer) createReplicaSet(rs *model.ReplicaSet, r Reason) {
	s.created = rs
	s.bumpVersion(rs.Name)
	s.record(Action{Kind: CreateReplicaSet, Object: ObjectRef{Namespace: rs.Namespace, Name: rs.Name}, ReplicaSet: rs, Reason: r}, rs)
	s.setObjVersion(rs)
}

// updateReplicaSet records the write of sent, a changed copy of base (the
// State's object, or one this sync wrote), and returns sent, the object the
// sync goes on with. sent is not changed afterwards.
func (s *syncer) updateReplicaSet(sent, base *model.ReplicaSet, r Reason) *model.ReplicaSet {
	derivedFrom := s.objVersion[base]
	conflict := derivedFrom != s.serverVersion[sent.Name]
	origin := s.origin(sent.Name)
	u := &ReplicaSetUpdate{FromReplicas: base.SpecReplicas(), Replicas: sent.SpecReplicas()}
	if origin == nil || sent.Spec.MinReadySeconds != origin.Spec.MinReadySeconds {
		u.MinReadySeconds = model.Int32Ptr(sent.Spec.MinReadySeconds)
	}
	var from map[string]string
	if origin != nil {
		from = origin.Annotations
	}
	u.Annotations, _ = annotationChanges(from, sent.Annotations)
	kind := UpdateReplicaSet
	if u.Replicas != u.FromReplicas {
		kind = ScaleReplicaSet
	}
	ref := ObjectRef{Namespace: sent.Namespace, Name: sent.Name}
	if origin != nil {
		ref.UID, ref.ResourceVersion = origin.UID, origin.ResourceVersion
	}
	s.bumpVersion(sent.Name)
	s.record(Action{Kind: kind, Object: ref, Update: u, Conflict: conflict, Reason: r}, origin)
	s.setObjVersion(sent)
	return sent
}

func (s *syncer) setObjVersion(rs *model.ReplicaSet) {
	if s.objVersion == nil {
		s.objVersion = map[*model.ReplicaSet]int{}
	}
	s.objVersion[rs] = s.serverVersion[rs.Name]
}

// bumpVersion counts a write to the named ReplicaSet.
func (s *syncer) bumpVersion(name string) {
	if s.serverVersion == nil {
		s.serverVersion = map[string]int{}
	}
	s.serverVersion[name]++
}

// touchReplicaSet records a write (patch or delete) of rs that changes the
// stored ReplicaSet without giving the sync a new object.
func (s *syncer) touchReplicaSet(kind ActionKind, rs *model.ReplicaSet, owner *model.OwnerReference, r Reason) {
	s.bumpVersion(rs.Name)
	s.record(Action{
		Kind:           kind,
		Object:         ObjectRef{Namespace: rs.Namespace, Name: rs.Name, UID: rs.UID, ResourceVersion: rs.ResourceVersion},
		OwnerReference: owner, Reason: r,
	}, nil)
}

func (s *syncer) finish() (Plan, error) {
	p := s.plan
	// The computed status is the sync's own: its conditions and pointers
	// are shared only with the working copy, which every write copies.
	p.Status = s.statusComputed
	if len(p.Actions) == 0 && len(p.Notes) == 0 {
		p.Notes = append(p.Notes, reason(NoteStatusUnchanged, nil, "nothing to do: the stored status is current"))
	}
	err := s.err
	if i, ok := p.Rejected(); ok && p.Actions[i].Invalid != "" {
		err = &SyncError{Kind: ErrKindInvalid, Message: p.Actions[i].Invalid}
	}
	if err != nil {
		return p, err
	}
	return p, nil
}

func (s *syncer) fail(kind ErrorKind, format string, args ...any) {
	s.err = &SyncError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// reason makes a Reason: a code, the numbers behind it, and its sentence.
func reason(code ReasonCode, values []Value, format string, args ...any) Reason {
	return Reason{Code: code, Message: fmt.Sprintf(format, args...), Values: values}
}

// reasonAfter is reason with its sentence led by lead.
func reasonAfter(lead string, code ReasonCode, values []Value, format string, args ...any) Reason {
	return Reason{Code: code, Message: lead + fmt.Sprintf(format, args...), Values: values}
}

// vals lists a reason's values.
func vals(vs ...Value) []Value { return vs }

// appendRS returns a new list of rss followed by rs, when rs is not nil.
func appendRS(rss []*model.ReplicaSet, rs *model.ReplicaSet) []*model.ReplicaSet {
	out := make([]*model.ReplicaSet, 0, len(rss)+1)
	out = append(out, rss...)
	if rs != nil {
		out = append(out, rs)
	}
	return out
}

// activeOf returns the ReplicaSets of rss with spec.replicas > 0, in order
// (nil when none is).
func activeOf(rss []*model.ReplicaSet) []*model.ReplicaSet {
	out := proportion.FilterActiveReplicaSets(rss)
	if len(out) == 0 {
		return nil
	}
	return out
}

// sortedBy returns a sorted copy of rss (nil for nil).
func sortedBy(rss []*model.ReplicaSet, compare func(a, b *model.ReplicaSet) int) []*model.ReplicaSet {
	if rss == nil {
		return nil
	}
	out := slices.Clone(rss)
	slices.SortFunc(out, compare)
	return out
}
