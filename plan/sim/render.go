package sim

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// WriteTimeline writes the trace as text, one line per sync that did
// something: the sync number, the simulated time, the new and old
// ReplicaSets' spec.replicas ("new", "old"), the pods that exist,
// terminating ones included ("pods"), the available pods over the desired
// replicas ("available"), and what changed and why (the user's actions, then
// each applied write with its reason, or the planner's note on why nothing
// moved). The pod counts are those of the modelled pods, the quantities the
// chart ([Trace.WriteSVG]) and the summary use under the same names. The
// summary follows.
func (t *Trace) WriteTimeline(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("new, old: spec.replicas of the new and old ReplicaSets; pods: pods that exist, terminating ones included;\n")
	ew.printf("available: available pods / replicas\n\n")
	ew.printf("%5s %9s %5s %5s %5s %9s  %s\n", "sync", "time", "new", "old", "pods", "available", "what happened")
	var start time.Time
	var progressing string
	if len(t.Steps) > 0 {
		start = t.Steps[0].Time
	}
	for _, s := range t.Steps {
		var newSpec, oldSpec int32
		for _, rs := range s.Sets {
			if rs.New {
				newSpec += rs.Spec
			} else {
				oldSpec += rs.Spec
			}
		}
		what := s.describe()
		if s.Progressing != progressing && progressing != "" {
			what = join(what, "Progressing → "+s.Progressing)
		}
		progressing = s.Progressing
		if what == "" {
			continue
		}
		ew.printf("%5d %9s %5d %5d %5d %9s  %s\n", s.Sync, clock(s.Time.Sub(start)), newSpec, oldSpec, s.Pods.Pods,
			fmt.Sprintf("%d/%d", s.Pods.Available, s.Replicas), what)
	}
	t.Summary.write(ew)
	return ew.err
}

// describe says what happened in the step, or "" when nothing did.
func (s Step) describe() string {
	var parts []string
	for _, u := range s.User {
		parts = append(parts, "user: "+u)
	}
	for _, w := range s.Writes {
		if !w.Applied {
			continue
		}
		switch w.Kind {
		case render.UpdateDeploymentStatus:
			if w.Reason.Code != plan.ReasonStatus && w.Reason.Code != plan.ReasonSyncRevision {
				parts = append(parts, w.Reason.Message)
			}
		default:
			parts = append(parts, w.Reason.Message)
		}
	}
	if s.Err != "" {
		parts = append(parts, "error: "+s.Err)
	}
	for _, v := range s.Violations {
		parts = append(parts, "VIOLATION "+v.String())
	}
	if len(parts) == 0 {
		for _, n := range s.Notes {
			if n.Code != plan.NoteStatusUnchanged && n.Code != plan.NoteComplete && n.Code != plan.NoteReplicasReached {
				return "waiting: " + n.Message
			}
		}
		return ""
	}
	return strings.Join(parts, "; ")
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func (s Summary) write(ew *errWriter) {
	ew.printf("\nsummary: %d syncs over %s", s.Syncs, clock(s.Elapsed))
	since := "the start"
	if s.From > 0 {
		since = "the last user action at " + clock(s.From)
	}
	switch {
	case s.Completed:
		ew.printf("; since %s: completed after %d syncs (%s)", since, s.CompletedSyncs, clock(s.CompletedAfter))
	default:
		ew.printf("; since %s: not completed", since)
	}
	ew.printf("\n  peak pods %d (%d active), minimum available %d; %d writes (%d conflicts), %d invariant violations",
		s.PeakPods, s.PeakActive, s.MinAvailable, s.Writes, s.Conflicts, s.Violations)
	if s.Quirks > 0 {
		ew.printf(" (+%d from documented upstream quirks)", s.Quirks)
	}
	ew.printf("\n")
	if s.Unfired > 0 {
		ew.printf("  %d scripted user actions never fired\n", s.Unfired)
	}
	if s.Stalled {
		ew.printf("  STALLED: %s\n", s.StallReason)
	}
}

func clock(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, sec := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	if h > 0 {
		return fmt.Sprintf("+%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("+%d:%02d", m, sec)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
