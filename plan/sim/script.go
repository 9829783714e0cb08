package sim

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
	"github.com/rolloutplan/rolloutplan/revision"
)

// Event is a user action and when it fires. Events fire in the order of
// Config.Script, each only after the one before it: "change the image once
// the first rollout is complete, then scale once that one is complete" is
// two events with When set to WhenComplete.
type Event struct {
	// At is when the action fires, as simulated time since Config.Start:
	// just before the first sync at or after Start + At. When the cluster
	// reaches a fixed point earlier, the clock jumps to Start + At. It is
	// read only when When is AtTime.
	At time.Duration
	// When fires the action on a condition of the rollout instead of at a
	// time.
	When Trigger
	// Action is what the user does.
	Action Action
}

// Trigger is the condition that fires an [Event].
type Trigger int

const (
	// AtTime fires at Event.At.
	AtTime Trigger = iota
	// WhenComplete fires at the sync after the rollout is complete: the
	// Deployment's status is complete by plan.DeploymentComplete's
	// definition, it is not paused, and no ReplicaSet without the current
	// template has replicas or pods.
	WhenComplete
	// WhenStalled fires at the sync after the simulation reached a fixed
	// point short of completion: nothing changed, no pod transition and no
	// requeue is pending, and the rollout is not complete.
	WhenStalled
	// WhenSettled fires at the sync after the rollout is complete or has
	// stalled, whichever comes first.
	WhenSettled
)

// String names the trigger as the timeline shows it.
func (t Trigger) String() string {
	switch t {
	case WhenComplete:
		return "when complete"
	case WhenStalled:
		return "when stalled"
	case WhenSettled:
		return "when settled"
	}
	return "at time"
}

// ActionKind names a user action.
type ActionKind string

// The user actions a script can hold.
const (
	// SetTemplateSpec replaces the pod template's Spec (an image change).
	SetTemplateSpec ActionKind = "SetTemplateSpec"
	// ScaleTo sets spec.replicas.
	ScaleTo ActionKind = "ScaleTo"
	// PauseRollout sets spec.paused.
	PauseRollout ActionKind = "Pause"
	// ResumeRollout clears spec.paused.
	ResumeRollout ActionKind = "Resume"
	// UndoRollout is kubectl rollout undo --to-revision=Revision (0: the
	// previous revision).
	UndoRollout ActionKind = "Undo"
	// SetStrategy replaces maxSurge and maxUnavailable.
	SetStrategy ActionKind = "SetStrategy"
	// AnnotateRollback sets the legacy rollback annotation to Revision.
	AnnotateRollback ActionKind = "AnnotateRollback"
	// SetPartition sets a StatefulSet's
	// spec.updateStrategy.rollingUpdate.partition to Partition.
	SetPartition ActionKind = "SetPartition"
	// DeletePod deletes the pod named Pod, as kubectl delete pod does: the
	// StatefulSet controller re-creates it (OnDelete updates a pod this way;
	// a pod stuck in a broken OrderedReady rollout is freed this way).
	DeletePod ActionKind = "DeletePod"
)

// Action is one user action. Only the fields of its Kind are read. A
// Deployment takes every kind but SetPartition, DeletePod and the node
// events; a StatefulSet every kind but PauseRollout, ResumeRollout (kubectl
// refuses them), AnnotateRollback and the node events; a DaemonSet the
// kinds [DaemonSetConfig.Script] lists.
type Action struct {
	Kind           ActionKind
	Spec           string             // SetTemplateSpec
	Replicas       int32              // ScaleTo
	Revision       int64              // UndoRollout, AnnotateRollback
	MaxSurge       *model.IntOrString // SetStrategy (Deployments)
	MaxUnavailable *model.IntOrString // SetStrategy
	// UpdateStrategy, when set, is the StatefulSet update strategy type
	// SetStrategy writes (RollingUpdate or OnDelete).
	UpdateStrategy model.StatefulSetUpdateStrategyType
	Partition      int32  // SetPartition
	Pod            string // DeletePod: the pod's name
	// Node names the node of a node event (AddNode, RemoveNode,
	// CordonNode, UncordonNode, TaintNode, UntaintNode; DaemonSets only).
	Node string
	// Taint is the taint TaintNode adds (or replaces, by key and effect) and
	// UntaintNode removes (by key and effect); AddNode gives the new node
	// Taints and Labels.
	Taint  model.Taint
	Taints []model.Taint
	Labels map[string]string
	// Description, when set, is how the trace shows the action, e.g.
	// "image nginx:1.16.1" for a SetTemplateSpec.
	Description string
}

// String describes the action as a user would type it.
func (a Action) String() string {
	if a.Description != "" {
		return a.Description
	}
	switch a.Kind {
	case SetTemplateSpec:
		return "set template " + a.Spec
	case ScaleTo:
		return fmt.Sprintf("scale to %d", a.Replicas)
	case PauseRollout:
		return "rollout pause"
	case ResumeRollout:
		return "rollout resume"
	case UndoRollout:
		return fmt.Sprintf("rollout undo --to-revision=%d", a.Revision)
	case SetStrategy:
		if a.UpdateStrategy != "" {
			if a.UpdateStrategy != model.RollingUpdateStatefulSetStrategyType {
				return "set updateStrategy " + string(a.UpdateStrategy)
			}
			return fmt.Sprintf("set updateStrategy RollingUpdate maxUnavailable=%s", str(a.MaxUnavailable))
		}
		return fmt.Sprintf("set maxSurge=%s maxUnavailable=%s", str(a.MaxSurge), str(a.MaxUnavailable))
	case AnnotateRollback:
		return fmt.Sprintf("annotate %s=%d", model.RollbackToAnnotation, a.Revision)
	case SetPartition:
		return fmt.Sprintf("set partition %d", a.Partition)
	case DeletePod:
		return "delete pod " + a.Pod
	}
	return a.nodeEventString()
}

func str(v *model.IntOrString) string {
	if v == nil {
		return "<unset>"
	}
	return v.String()
}

// errRefused marks an action the user's client refuses (kubectl rollout
// undo without history, for example): the trace records it and the
// simulation goes on, as a user would after reading the error.
var errRefused = errors.New("refused")

// apply carries out the action on the cluster as the user's client would.
func (a Action) apply(c *inmemory.Cluster) error {
	d := c.Deployment
	spec := d.Spec.DeepCopy()
	var annotations map[string]string
	switch a.Kind {
	case SetTemplateSpec:
		spec.Template.Spec = a.Spec
	case ScaleTo:
		if a.Replicas < 0 {
			return fmt.Errorf("scale to %d: replicas must not be negative", a.Replicas)
		}
		spec.Replicas = model.Int32Ptr(a.Replicas)
	case PauseRollout:
		spec.Paused = true
	case ResumeRollout:
		spec.Paused = false
	case SetStrategy:
		if spec.Strategy.Type != model.RollingUpdateStrategy {
			return errors.New("set strategy: the Deployment is not RollingUpdate")
		}
		spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxSurge: a.MaxSurge, MaxUnavailable: a.MaxUnavailable}
	case UndoRollout:
		patch, err := revision.Undo(d, c.ReplicaSets, a.Revision)
		var current *revision.AlreadyCurrentError
		if errors.As(err, &current) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", errRefused, a, err)
		}
		spec.Template = patch.Template
		annotations = patch.Annotations
	case AnnotateRollback:
		annotations = maps.Clone(d.Annotations)
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[model.RollbackToAnnotation] = fmt.Sprint(a.Revision)
	default:
		return fmt.Errorf("unknown action %q", a.Kind)
	}
	next := d.DeepCopy()
	next.Spec = spec
	if err := model.ValidateDeployment(next); err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	c.UpdateDeploymentSpec(spec, annotations)
	return nil
}

// scheduler fires a script's events in order, at their times or on the
// rollout's conditions, and remembers the last user action; the
// Deployment, StatefulSet and DaemonSet runners share it.
type scheduler struct {
	start       time.Time // the clock at the first sync
	script      []Event   // the events not fired yet
	wasComplete bool      // the rollout was complete after the previous sync
	wasStalled  bool      // the previous sync reached a fixed point short of completion
	userAt      int       // sync of the last user action that took effect, -1 if none
	userTime    time.Time // the clock at that sync
}

// newScheduler checks a script and returns its scheduler.
func newScheduler(start time.Time, script []Event) (scheduler, error) {
	s := scheduler{start: start, script: slices.Clone(script), userAt: -1}
	for i, ev := range s.script {
		if ev.When < AtTime || ev.When > WhenSettled {
			return s, fmt.Errorf("sim: Config.Script[%d].When: unknown trigger %d", i, ev.When)
		}
		if ev.When == AtTime && ev.At < 0 {
			return s, fmt.Errorf("sim: Config.Script[%d].At: %s is before the start", i, ev.At)
		}
	}
	return s, nil
}

// due reports whether ev fires at a sync at now.
func (s *scheduler) due(ev Event, now time.Time) bool {
	switch ev.When {
	case WhenComplete:
		return s.wasComplete
	case WhenStalled:
		return s.wasStalled
	case WhenSettled:
		return s.wasComplete || s.wasStalled
	}
	return !now.Before(s.start.Add(ev.At))
}

// fire applies the events due at now, in order, with apply, and returns
// how the trace shows them and whether one took effect. An action the
// user's client refuses (apply returns an error wrapping errRefused) is
// shown with its error and the script goes on; any other error ends it.
func (s *scheduler) fire(now time.Time, apply func(Action) error) (done []string, applied bool, err error) {
	for len(s.script) > 0 && s.due(s.script[0], now) {
		ev := s.script[0]
		s.script = s.script[1:]
		// Conditions hold for the first event only: the next one waits for
		// the rollout this one starts.
		s.wasComplete, s.wasStalled = false, false
		if err := apply(ev.Action); errors.Is(err, errRefused) {
			done = append(done, err.Error())
			continue
		} else if err != nil {
			return nil, false, err
		}
		done = append(done, ev.Action.String())
		applied = true
	}
	return done, applied, nil
}

// wake returns when to sync after a sync at now that changed nothing:
// world is when something happens by itself (zero: never), next is the
// sync after now; an event of the script that is due by then, or that fires
// at a time before world, comes first. Zero means a fixed point.
func (s *scheduler) wake(world, next time.Time) time.Time {
	if len(s.script) == 0 {
		return world
	}
	switch ev := s.script[0]; {
	case s.due(ev, next):
		return next
	case ev.When == AtTime:
		if at := s.start.Add(ev.At); world.IsZero() || at.Before(world) {
			return at
		}
	}
	return world
}
