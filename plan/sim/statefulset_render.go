package sim

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

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
	width := len("ordinals")
	for _, s := range t.Steps {
		width = max(width, utf8.RuneCountInString(s.Ordinals))
	}
	ew.printf("%5s %9s %7s %5s %5s %7s  %-*s  %s\n", "sync", "time", "updated", "old", "pods", "ready", width, "ordinals", "what happened")
	var start time.Time
	if len(t.Steps) > 0 {
		start = t.Steps[0].Time
	}
	current, lastWait, shownAt := "", "", -1
	for i, s := range t.Steps {
		what, wait := s.describe()
		if s.CurrentRevision != current && i > 0 && s.CurrentRevision != "" {
			what = join(what, "currentRevision → "+s.CurrentRevision+" ("+s.letterOf(s.CurrentRevision)+")")
		}
		current = s.CurrentRevision
		// The wait of the line before, over the same pods, says nothing
		// new.
		if what == "" || what == wait && wait == lastWait && shownAt >= 0 && sameStatefulSetCounts(t.Steps[shownAt], s) {
			continue
		}
		lastWait, shownAt = wait, i
		var updated, old int32
		for _, r := range s.Revisions {
			if r.Update {
				updated += r.Active
			} else {
				old += r.Active
			}
		}
		pad := width - utf8.RuneCountInString(s.Ordinals)
		ew.printf("%5d %9s %7d %5d %5d %7s  %s%s  %s\n", s.Sync, clock(s.Time.Sub(start)), updated, old, s.Pods.Pods,
			fmt.Sprintf("%d/%d", s.Pods.Ready, s.Replicas), s.Ordinals, strings.Repeat(" ", pad), what)
	}
	t.Summary.write(ew)
	return ew.err
}

// sameStatefulSetCounts reports whether two steps show the same pods.
func sameStatefulSetCounts(a, b StatefulSetStep) bool {
	return a.Pods == b.Pods && a.Replicas == b.Replicas && a.Ordinals == b.Ordinals && slices.Equal(a.Revisions, b.Revisions)
}

// legend lists the revisions the trace saw by letter: "A web-6d4b9f7c8
// (revision 1), B ...", with each one's last revision number.
func (t *StatefulSetTrace) legend() string {
	type entry struct {
		letter, name string
		number       int64
	}
	var entries []entry
	index := map[string]int{}
	for _, s := range t.Steps {
		for _, r := range s.Revisions {
			i, ok := index[r.Name]
			if !ok {
				i = len(entries)
				index[r.Name] = i
				entries = append(entries, entry{letter: r.Letter, name: r.Name})
			}
			entries[i].number = r.Revision
		}
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.letter, b.letter) })
	var parts []string
	for _, e := range entries {
		name := e.name
		if name == "" {
			name = "(no revision label)"
		}
		if e.number > 0 {
			parts = append(parts, fmt.Sprintf("%s %s (revision %d)", e.letter, name, e.number))
		} else {
			parts = append(parts, fmt.Sprintf("%s %s", e.letter, name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
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
	if s.Err != "" {
		parts = append(parts, "error: "+s.Err)
	}
	for _, v := range s.Violations {
		parts = append(parts, "VIOLATION "+v.String())
	}
	if len(parts) == len(s.User)+min(len(s.Kubelet), 1) {
		for _, n := range s.Notes {
			if !slices.Contains(quietNotes, n.Code) {
				wait = "waiting: " + n.Message
				parts = append(parts, wait)
				break
			}
		}
	}
	return strings.Join(parts, "; "), wait
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
	n := len(t.Steps)
	if n == 0 {
		return fmt.Errorf("sim: the trace has no steps to draw (Record is RecordSummary?)")
	}
	c := chart{title: title, n: n, stalled: t.Summary.Stalled, stallReason: t.Summary.StallReason,
		time:    func(i int) time.Time { return t.Steps[i].Time },
		user:    func(i int) []string { return t.Steps[i].User },
		changed: func(i int) bool { return !sameStatefulSetCounts(t.Steps[i-1], t.Steps[i]) },
	}
	var names []string
	letters := map[string]string{}
	c.maxY = 1
	for _, s := range t.Steps {
		for _, r := range s.Revisions {
			if _, ok := letters[r.Name]; !ok {
				letters[r.Name] = r.Letter
				names = append(names, r.Name)
			}
			c.maxY = max(c.maxY, r.Active+r.Terminating)
		}
		c.maxY = max(c.maxY, s.Pods.Pods, s.Replicas)
	}
	for i, name := range names {
		color := palette[i%len(palette)]
		find := func(s StatefulSetStep) (RevisionAt, bool) {
			for _, r := range s.Revisions {
				if r.Name == name {
					return r, true
				}
			}
			return RevisionAt{}, false
		}
		short := letters[name] + " " + shorten(name, 22)
		c.series = append(c.series,
			chartSeries{color, "6,4", 1.5, short + " pods", func(i int) (int32, bool) { r, ok := find(t.Steps[i]); return r.Active, ok }},
			chartSeries{color, "", 3, short + " ready", func(i int) (int32, bool) { r, ok := find(t.Steps[i]); return r.Ready, ok }})
	}
	c.series = append(c.series,
		chartSeries{"#777", "1,3", 2, "pods (incl. terminating)", func(i int) (int32, bool) { return t.Steps[i].Pods.Pods, true }},
		chartSeries{"#c00", "8,3,2,3", 1.5, "replicas (desired)", func(i int) (int32, bool) { return t.Steps[i].Replicas, true }})
	return c.write(w)
}
