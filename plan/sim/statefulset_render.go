package sim

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// WriteTimeline writes the trace as text, one line per sync that did
// something: the sync number, the simulated time, the pods at the update
// revision ("updated") and at other revisions ("old"), neither counting
// pods being deleted, the pods that exist, terminating ones included
// ("pods"), the ready pods over the desired replicas ("ready"), the pods by
// ordinal (StatefulSetStep.Ordinals, with the revisions' letters listed
// above the table), and what changed and why (the user's actions, then each
// applied write with its reason, or the planner's note on why nothing
// moved). The summary follows.
func (t *StatefulSetTrace) WriteTimeline(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("updated, old: pods at the update revision and at other revisions (not counting terminating ones);\n")
	ew.printf("pods: pods that exist, terminating ones included; ready: Running and Ready pods / replicas;\n")
	ew.printf("ordinals: the pods from the first ordinal on, by revision letter (upper case: Running and Ready,\n")
	ew.printf("lower case: not yet), \"-\" terminating, \"!\" failed, \".\" no pod\n")
	ew.printf("revisions: %s\n\n", t.legend())
	rows := make([]tableRow, len(t.Steps))
	current := ""
	for i, s := range t.Steps {
		what, wait := s.describe()
		if s.CurrentRevision != current && i > 0 && s.CurrentRevision != "" {
			what = join(what, "currentRevision → "+s.CurrentRevision+" ("+s.letterOf(s.CurrentRevision)+")")
		}
		current = s.CurrentRevision
		updated, old := activeSplit(s.Revisions, func(r RevisionAt) bool { return r.Update })
		rows[i] = tableRow{sync: s.Sync, time: s.Time, updated: updated, old: old, pods: s.Pods.Pods,
			ratio: fmt.Sprintf("%d/%d", s.Pods.Ready, s.Replicas), glyphs: s.Ordinals, what: what, wait: wait}
	}
	writeSetTable(ew, rows, "ready", "ordinals", func(i, j int) bool { return sameStatefulSetCounts(t.Steps[i], t.Steps[j]) })
	t.Summary.write(ew)
	return ew.err
}

// sameStatefulSetCounts reports whether two steps show the same pods.
func sameStatefulSetCounts(a, b StatefulSetStep) bool {
	return a.Pods == b.Pods && a.Replicas == b.Replicas && a.Ordinals == b.Ordinals && slices.Equal(a.Revisions, b.Revisions)
}

// legend lists the revisions the trace saw by letter (see revisionLegend).
func (t *StatefulSetTrace) legend() string {
	return revisionLegend(t.Steps, func(s StatefulSetStep) []RevisionAt { return s.Revisions })
}

// letterOf returns the letter of a revision of the step, or "?".
func (s StatefulSetStep) letterOf(name string) string {
	for _, r := range s.Revisions {
		if r.Name == name {
			return r.Letter
		}
	}
	return "?"
}

// quietNotes are the notes a step with nothing else to show does not
// print: they describe a rollout at rest.
var quietNotes = []statefulset.ReasonCode{statefulset.NoteStatusUnchanged, statefulset.NoteUpdated, statefulset.NotePartition}

// describe says what happened in the step, or "" when nothing did, and
// the part of it that is the planner's note on why it waits ("" when none).
func (s StatefulSetStep) describe() (what, wait string) {
	var parts []string
	for _, u := range s.User {
		parts = append(parts, "user: "+u)
	}
	if len(s.Kubelet) > 0 {
		parts = append(parts, "pods: "+strings.Join(s.Kubelet, ", "))
	}
	for _, w := range s.Writes {
		switch {
		case w.Conflict:
			parts = append(parts, "rejected: "+string(w.Kind)+" "+w.Name)
		case !w.Applied:
		case w.Kind == statefulset.UpdateStatefulSetStatus:
		default:
			parts = append(parts, w.Reason.Message)
		}
	}
	return endDescription(parts, len(s.User)+min(len(s.Kubelet), 1), s.Err, s.Violations, s.Notes, quietNotes)
}

// WriteSVG draws the trace as a chart against simulated time, as
// Trace.WriteSVG draws a Deployment's: for every revision the set's pods at
// it (thin dashed line) and those of them Running and Ready (thick solid
// line, same colour), all pods that exist including terminating ones (grey
// dotted), the desired replicas (red dash-dot), the user's actions as
// labelled vertical red lines and, when the rollout stalled, the stalled
// stretch shaded with the reason. Lines are drawn as steps: a value holds
// until the next sync.
func (t *StatefulSetTrace) WriteSVG(w io.Writer, title string) error {
	c, err := stepChart(title, t.Steps, t.Summary, func(s StatefulSetStep) time.Time { return s.Time }, func(s StatefulSetStep) []string { return s.User }, sameStatefulSetCounts)
	if err != nil {
		return err
	}
	revisions := func(s StatefulSetStep) []RevisionAt { return s.Revisions }
	addRevisionSeries(&c, t.Steps, revisions, "ready", func(r RevisionAt) int32 { return r.Ready })
	for _, s := range t.Steps {
		c.maxY = max(c.maxY, s.Pods.Pods, s.Replicas)
	}
	c.series = append(c.series,
		chartSeries{"#777", "1,3", 2, "pods (incl. terminating)", func(i int) (int32, bool) { return t.Steps[i].Pods.Pods, true }},
		chartSeries{"#c00", "8,3,2,3", 1.5, "replicas (desired)", func(i int) (int32, bool) { return t.Steps[i].Replicas, true }})
	return c.write(w)
}
