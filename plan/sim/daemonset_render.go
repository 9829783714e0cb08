package sim

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// WriteTimeline writes the trace as text, one line per sync that did
// something: the sync number, the simulated time, the live pods of the
// current revision ("updated") and of older ones ("old"), neither counting
// pods being deleted, the pods that exist, terminating ones included
// ("pods"), the nodes that should run a daemon pod and have no available
// one over those that should run one ("unavail"), the node pool
// (DaemonSetStep.Nodes, with the revisions' letters listed above the
// table), and what changed and why: the user's and the cluster's actions,
// what the stand-in scheduler and kubelets did, each applied write with its
// reason, nodes that became ineligible, or the planner's note on why
// nothing moved. The summary follows.
func (t *DaemonSetTrace) WriteTimeline(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("updated, old: pods of the current revision and of older ones (not counting terminating ones);\n")
	ew.printf("pods: pods that exist, terminating ones included; unavail: nodes that should run a daemon pod\n")
	ew.printf("and have no available one / nodes that should run one;\n")
	ew.printf("nodes: the pool in name order, by the revision letter of each node's newest pod (upper case:\n")
	ew.printf("Running and Ready, lower case: not yet), \"-\" terminating, \"!\" failed, \".\" no pod, \"_\" no pod\n")
	ew.printf("and should run none\n")
	ew.printf("revisions: %s\n\n", t.legend())
	width := len("nodes")
	for _, s := range t.Steps {
		width = max(width, utf8.RuneCountInString(s.Nodes))
	}
	ew.printf("%5s %9s %7s %5s %5s %7s  %-*s  %s\n", "sync", "time", "updated", "old", "pods", "unavail", width, "nodes", "what happened")
	var start time.Time
	if len(t.Steps) > 0 {
		start = t.Steps[0].Time
	}
	var ineligible []string
	lastWait, shownAt := "", -1
	for i, s := range t.Steps {
		what, wait := s.describe()
		for _, why := range s.Ineligible {
			if !slices.Contains(ineligible, why) {
				what = join(what, why+" (no new daemon pod there)")
			}
		}
		ineligible = s.Ineligible
		if what == "" || what == wait && wait == lastWait && shownAt >= 0 && sameDaemonSetCounts(t.Steps[shownAt], s) {
			continue
		}
		lastWait, shownAt = wait, i
		var updated, old int32
		for _, r := range s.Revisions {
			if r.Current {
				updated += r.Active
			} else {
				old += r.Active
			}
		}
		pad := width - utf8.RuneCountInString(s.Nodes)
		ew.printf("%5d %9s %7d %5d %5d %7s  %s%s  %s\n", s.Sync, clock(s.Time.Sub(start)), updated, old, s.Pods.Pods,
			fmt.Sprintf("%d/%d", s.Pods.Unavailable, s.Desired), s.Nodes, strings.Repeat(" ", pad), what)
	}
	t.Summary.write(ew)
	return ew.err
}

// sameDaemonSetCounts reports whether two steps show the same pods and
// nodes.
func sameDaemonSetCounts(a, b DaemonSetStep) bool {
	return a.Pods == b.Pods && a.Desired == b.Desired && a.Surging == b.Surging && a.Nodes == b.Nodes && slices.Equal(a.Revisions, b.Revisions)
}

// legend lists the revisions the trace saw by letter.
func (t *DaemonSetTrace) legend() string {
	sts := StatefulSetTrace{Steps: make([]StatefulSetStep, len(t.Steps))}
	for i, s := range t.Steps {
		sts.Steps[i].Revisions = s.Revisions
	}
	return sts.legend()
}

// dsQuietNotes are the notes a step with nothing else to show does not
// print: they describe a DaemonSet at rest, or a wait the next line shows.
var dsQuietNotes = []daemonset.ReasonCode{daemonset.NoteStatusUnchanged, daemonset.NoteUpdated, daemonset.NoteRollingUpdateDeferred}

// describe says what happened in the step, or "" when nothing did, and
// the part of it that is the planner's note on why it waits.
func (s DaemonSetStep) describe() (what, wait string) {
	var parts []string
	for _, u := range s.User {
		parts = append(parts, "user: "+u)
	}
	if len(s.Kubelet) > 0 {
		parts = append(parts, "pods: "+strings.Join(groupPodEvents(s.Kubelet), ", "))
	}
	for i := 0; i < len(s.Writes); i++ {
		w := s.Writes[i]
		switch {
		case !w.Applied:
			parts = append(parts, "rejected: "+string(w.Kind)+" "+w.Name)
			continue
		case w.Kind == daemonset.UpdateDaemonSetStatus:
			continue
		}
		msg := w.Reason.Message
		if w.Kind == daemonset.CreatePod {
			msg += ": " + w.Name + " is created"
		}
		// The same write for the same reason on further nodes is named
		// by node: a pool of 100 nodes gives one line, not 100 messages.
		var likewise []string
		for w.Node != "" && i+1 < len(s.Writes) {
			n := s.Writes[i+1]
			if !n.Applied || n.Kind != w.Kind || n.Reason.Code != w.Reason.Code || n.Node == "" {
				break
			}
			likewise = append(likewise, n.Node)
			i++
		}
		if len(likewise) > 0 {
			msg += " (likewise on " + nodeNames(likewise) + ")"
		}
		parts = append(parts, msg)
	}
	if s.Err != "" {
		parts = append(parts, "error: "+s.Err)
	}
	for _, v := range s.Violations {
		parts = append(parts, "VIOLATION "+v.String())
	}
	if len(parts) == len(s.User)+min(len(s.Kubelet), 1) {
		for _, n := range s.Notes {
			if !slices.Contains(dsQuietNotes, n.Code) {
				wait = "waiting: " + n.Message
				parts = append(parts, wait)
				break
			}
		}
	}
	return strings.Join(parts, "; "), wait
}

// WriteSVG draws the trace as a chart against simulated time, as
// StatefulSetTrace.WriteSVG draws a StatefulSet's: for every revision its
// pods (thin dashed line) and those of them available (thick solid line,
// same colour), all pods that exist including terminating ones (grey
// dotted), the nodes that should run a daemon pod (red dash-dot) and those
// of them without an available one (black, dash-dot-dot), the user's and
// the cluster's actions as labelled vertical red lines and, when the
// rollout stalled, the stalled stretch shaded with the reason. Lines are
// drawn as steps: a value holds until the next sync.
func (t *DaemonSetTrace) WriteSVG(w io.Writer, title string) error {
	n := len(t.Steps)
	if n == 0 {
		return fmt.Errorf("sim: the trace has no steps to draw (Record is RecordSummary?)")
	}
	c := chart{title: title, n: n, stalled: t.Summary.Stalled, stallReason: t.Summary.StallReason,
		time:    func(i int) time.Time { return t.Steps[i].Time },
		user:    func(i int) []string { return t.Steps[i].User },
		changed: func(i int) bool { return !sameDaemonSetCounts(t.Steps[i-1], t.Steps[i]) },
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
		c.maxY = max(c.maxY, s.Pods.Pods, s.Desired)
	}
	for i, name := range names {
		color := palette[i%len(palette)]
		find := func(s DaemonSetStep) (RevisionAt, bool) {
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
			chartSeries{color, "", 3, short + " available", func(i int) (int32, bool) { r, ok := find(t.Steps[i]); return r.Available, ok }})
	}
	c.series = append(c.series,
		chartSeries{"#777", "1,3", 2, "pods (incl. terminating)", func(i int) (int32, bool) { return t.Steps[i].Pods.Pods, true }},
		chartSeries{"#c00", "8,3,2,3", 1.5, "nodes to run a pod", func(i int) (int32, bool) { return t.Steps[i].Desired, true }},
		chartSeries{"#000", "6,2,1,2,1,2", 2, "nodes without an available pod", func(i int) (int32, bool) { return t.Steps[i].Pods.Unavailable, true }})
	return c.write(w)
}

// nodeNames lists nodes: all of them up to ten, then how many more.
func nodeNames(names []string) string {
	const shown = 10
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}

// groupPodEvents shortens the kubelet's events: more than two pods with
// the same event ("fluentd-x Running and Ready") are counted ("3 pods
// Running and Ready"), in the order the events first occur.
func groupPodEvents(events []string) []string {
	var order []string
	pods := map[string][]string{}
	for _, e := range events {
		pod, what, ok := strings.Cut(e, " ")
		if !ok {
			pod, what = e, ""
		}
		if _, seen := pods[what]; !seen {
			order = append(order, what)
		}
		pods[what] = append(pods[what], pod)
	}
	var out []string
	for _, what := range order {
		if ps := pods[what]; len(ps) > 2 {
			out = append(out, fmt.Sprintf("%d pods %s", len(ps), what))
		} else {
			for _, p := range ps {
				out = append(out, strings.TrimSpace(p+" "+what))
			}
		}
	}
	return out
}
