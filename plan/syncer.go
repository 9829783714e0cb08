package plan

import (
	"maps"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// syncer carries one sync: the working copy of the Deployment, the plan being
// recorded, and enough version bookkeeping to tell which writes a real API
// server would reject.
type syncer struct {
	cfg  config
	now  time.Time
	d    *model.Deployment // working copy; like upstream's, it never picks up a server response
	all  []*model.ReplicaSet
	pods []*model.Pod
	plan Plan

	deploymentWrites int
	owned            bool // the working copy shares nothing with the input but (maybe) its annotations
	annotationsOwned bool // the working copy's annotations are its own, in no recorded write
	annotationsSent  bool // the working copy's annotations are a recorded write's (not the input's)
	// serverVersion counts the writes each ReplicaSet (by name) has received
	// this sync; objVersion records which of those versions an object in
	// hand was derived from (absent: the cached input, version 0).
	serverVersion smallMap[string]
	objVersion    smallMap[*model.ReplicaSet]
	found         foundReplicaSets
	// statusComputed is set by the status writers, for Plan.Status.
	statusComputed *model.DeploymentStatus
	// hasherErr is set when the WithHasher function returned an unusable
	// hash; Sync then returns it instead of a plan.
	hasherErr error
	// memory is the Planner planning this sync, or nil; input is the
	// Deployment of the State, the key of its memory.
	memory *Planner
	input  *model.Deployment
	// lists is what the Planner remembers of the State's lists.
	lists remembered
	// templateReplaced is set when the working copy's template is no
	// longer the input's (a rollback).
	templateReplaced bool
	// statusOwned is set when the working copy's status is one the sync
	// computed (fresh, shared with no input), so owning the working copy
	// need not copy it again.
	statusOwned bool
	// mem is the sync's one allocation for the plan's usual parts and the
	// working lists (see planMemory); d, the working copy, and spec, room
	// for what its spec points to once it owns it, come with it (see
	// newMemory).
	mem  *planMemory
	spec *specCopy
	// work holds the working copy (d) and the working lists' scratch.
	work *workArea
}

// podTemplateHash is the hasher's value for the working copy's template
// and collision count, remembered by the Planner when the template is the
// input's.
func (s *syncer) podTemplateHash() string {
	d := s.d
	if s.memory == nil || s.templateReplaced || !sameCollisionCount(d.Status.CollisionCount, s.input.Status.CollisionCount) {
		return s.cfg.hasher(d.Spec.Template, d.Status.CollisionCount)
	}
	return s.memory.podTemplateHash(s.cfg.hasher, s.input)
}

func sameCollisionCount(a, b *int32) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// start readies sy, a zero syncer, for a sync of s.
func (sy *syncer) start(s State, cfg config) {
	// The working copy shares the input's maps and slices. A sync changes
	// only the annotations in place, and copies them first
	// (ownAnnotations); everything else it changes is replaced whole
	// (conditions, status, template).
	sy.cfg, sy.now, sy.all, sy.pods = cfg, s.Now, s.ReplicaSets, s.Pods
	sy.mem, sy.work, sy.spec = newMemory(cfg.workingCopies, s.Deployment)
	sy.d = &sy.work.wc
	sy.plan = Plan{ConflictAt: -1, Actions: []Action{}} // in writeMemory from the first write
}

func (s *syncer) replicas() int32 { return s.d.DesiredReplicas() }

func (s *syncer) record(a Action) {
	a.Namespace = s.d.Namespace
	markInvalid(&a)
	if a.Rejected() && s.plan.ConflictAt < 0 {
		s.plan.ConflictAt = len(s.plan.Actions)
	}
	switch {
	case cap(s.plan.Actions) == 0:
		s.plan.Actions = s.mem.writeMem().actions[:0]
	case len(s.plan.Actions) == cap(s.plan.Actions):
		s.plan.Actions = s.mem.growActions(s.plan.Actions)
	}
	s.plan.Actions = append(s.plan.Actions, a)
}

func (s *syncer) note(r Reason) {
	if s.plan.Notes == nil {
		s.plan.Notes = s.mem.notes[:0]
	}
	s.plan.Notes = append(s.plan.Notes, r)
}

func (s *syncer) event(typ, reason, format string, args ...any) {
	if s.plan.Events == nil {
		s.plan.Events = s.mem.writeMem().events[:0]
	}
	// The object and the message are one string, cut in two.
	var buf [sentenceSize]byte
	b := append(append(append(buf[:0], model.DeploymentKind...), '/'), s.d.Name...)
	cut := len(b)
	both := s.mem.text(appendf(b, format, args...))
	s.plan.Events = append(s.plan.Events, Event{
		Type: typ, Reason: reason, Message: both[cut:], Object: both[:cut],
		AfterAction: len(s.plan.Actions) - 1,
	})
}

// writeDeployment records a write of the working copy. Every Deployment
// write of a sync derives from the same cached version, so any write after
// the first is a conflict (upstream writes from its cached copy, so later writes conflict).
//
// The annotations are copied on write: the recorded Deployment shares the
// working copy's map, which the sync copies before it changes it again
// (ownAnnotations).
func (s *syncer) writeDeployment(kind ActionKind, r Reason) {
	s.ownWorkingCopy()
	if !s.annotationsOwned && !s.annotationsSent && !s.cfg.shareInput {
		s.d.Annotations = maps.Clone(s.d.Annotations) // still the input's
	}
	s.annotationsOwned, s.annotationsSent = false, true
	sent := s.mem.sentDeployment()
	*sent = *s.d
	s.record(Action{Kind: kind, Name: s.d.Name, Deployment: sent, Conflict: s.deploymentWrites > 0, Reason: r})
	s.deploymentWrites++
}

// ownWorkingCopy makes the working copy share nothing with the input but its
// annotations (which ownAnnotations copies before any change, and every
// recorded write copies anyway), once, before its first write: the recorded
// Deployments then share the working copy's parts, never the input's.
func (s *syncer) ownWorkingCopy() {
	if s.owned {
		return
	}
	s.owned = true
	if s.cfg.shareInput {
		// The working copy changes its annotations (copied first) and its
		// status and template only by replacing them: it may go on sharing
		// the rest with the input.
		return
	}
	d := s.d
	// The annotations are copied separately, and only when changed.
	if s.spec == nil {
		s.spec = new(specCopy)
	}
	ownMetaAndSpec(d, s.spec)
	if !s.statusOwned {
		d.Status = d.Status.DeepCopy()
	}
}

// ownAnnotations gives the working copy its own annotation map before the
// sync changes it: one shared with neither the input nor a recorded write.
func (s *syncer) ownAnnotations() {
	if !s.annotationsOwned {
		s.annotationsOwned, s.annotationsSent = true, false
		s.d.Annotations = maps.Clone(s.d.Annotations)
	}
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

// writeReplicaSet records a create or update of rs, derived from base, and
// returns the object the server would answer with. rs must share nothing
// with the input and is not modified afterwards: the plan keeps it.
//
// objVersion also tells which objects the plan owns: those it wrote.
func (s *syncer) writeReplicaSet(kind ActionKind, rs, base *model.ReplicaSet, r Reason) *model.ReplicaSet {
	conflict := false
	if kind == UpdateReplicaSet {
		derivedFrom, _ := s.objVersion.get(base)
		server, _ := s.serverVersion.get(rs.Name)
		conflict = derivedFrom != server
	}
	s.bumpVersion(rs.Name)
	s.record(Action{Kind: kind, Name: rs.Name, ReplicaSet: rs, Conflict: conflict, Reason: r})
	server, _ := s.serverVersion.get(rs.Name)
	s.objVersion.set(rs, server)
	return rs
}

// bumpVersion counts a write to the named ReplicaSet.
func (s *syncer) bumpVersion(name string) {
	n, _ := s.serverVersion.get(name)
	s.serverVersion.set(name, n+1)
}

// touchReplicaSet records a write (patch or delete) that changes the stored
// ReplicaSet without giving the caller a new object.
func (s *syncer) touchReplicaSet(a Action) {
	s.bumpVersion(a.Name)
	s.record(a)
}

func (s *syncer) finish() Plan {
	p := s.plan
	invalidOutcome(&p)
	p.Status = s.statusComputed
	if len(p.Actions) == 0 && len(p.Notes) == 0 {
		s.note(s.mem.reason(NoteStatusUnchanged, nil, "nothing to do: the stored status is current"))
		p.Notes = s.plan.Notes
	}
	releaseWork(s.cfg.workingCopies, s.mem, s.work)
	return p
}

func (s *syncer) fail(kind ErrorKind, format string, args ...any) {
	s.plan.Err = &SyncError{Kind: kind, Message: s.mem.sprintf(format, args...)}
}
