package sim

import (
	"errors"
	"fmt"
	"maps"
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
)

// Action is one user action. Only the fields of its Kind are read.
type Action struct {
	Kind           ActionKind
	Spec           string             // SetTemplateSpec
	Replicas       int32              // ScaleTo
	Revision       int64              // UndoRollout, AnnotateRollback
	MaxSurge       *model.IntOrString // SetStrategy
	MaxUnavailable *model.IntOrString // SetStrategy
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
		return fmt.Sprintf("set maxSurge=%s maxUnavailable=%s", str(a.MaxSurge), str(a.MaxUnavailable))
	case AnnotateRollback:
		return fmt.Sprintf("annotate %s=%d", model.RollbackToAnnotation, a.Revision)
	}
	return string(a.Kind)
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
