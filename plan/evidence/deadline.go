package evidence

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Deadline is where a Deployment stands against its progress deadline.
type Deadline struct {
	// Seconds is spec.progressDeadlineSeconds.
	Seconds int32 `json:"seconds"`
	// At is when the deadline passes: the last progress (the Progressing
	// condition's lastUpdateTime) plus Seconds; for an exceeded deadline,
	// when the controller recorded it.
	At time.Time `json:"at"`
	// Exceeded is set when the Progressing condition already says
	// ProgressDeadlineExceeded.
	Exceeded bool `json:"exceeded,omitempty"`
}

// ProgressDeadline says when d's progress deadline passes, as the
// Deployment controller decides it (upstream DeploymentTimedOut: the
// Progressing condition's lastUpdateTime plus progressDeadlineSeconds,
// strictly after). It reports false when there is nothing to fire: no
// deadline (unset or [model.NoLimit]), no Progressing condition yet, or a
// rollout complete (NewReplicaSetAvailable).
func ProgressDeadline(d *model.Deployment) (Deadline, bool) {
	if d == nil || d.Spec.ProgressDeadlineSeconds == nil || *d.Spec.ProgressDeadlineSeconds == model.NoLimit {
		return Deadline{}, false
	}
	c := d.Status.Condition(model.DeploymentProgressing)
	if c == nil || c.Reason == model.ReasonNewReplicaSetAvailable {
		return Deadline{}, false
	}
	secs := *d.Spec.ProgressDeadlineSeconds
	if c.Reason == model.ReasonProgressDeadlineExceeded {
		return Deadline{Seconds: secs, At: c.LastUpdateTime, Exceeded: true}, true
	}
	return Deadline{Seconds: secs, At: c.LastUpdateTime.Add(time.Duration(secs) * time.Second)}, true
}

// Line says it at now: "the progress deadline (600s) fires at
// 2026-03-01T10:32:05Z", "… passed at …: the controller marks the rollout
// ProgressDeadlineExceeded at its next sync", or "the progress deadline
// (600s) was exceeded at …".
func (d Deadline) Line(now time.Time) string {
	at := d.At.UTC().Format(time.RFC3339)
	switch {
	case d.Exceeded:
		return fmt.Sprintf("the progress deadline (%ds) was exceeded at %s", d.Seconds, at)
	case d.At.Before(now):
		return fmt.Sprintf("the progress deadline (%ds) passed at %s: the controller marks the rollout %s at its next sync",
			d.Seconds, at, model.ReasonProgressDeadlineExceeded)
	}
	return fmt.Sprintf("the progress deadline (%ds) fires at %s", d.Seconds, at)
}
