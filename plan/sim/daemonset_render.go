package sim

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

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
	rows := make([]tableRow, len(t.Steps))
	var ineligible []string
	for i, s := range t.Steps {
		what, wait := s.describe()
		for _, why := range s.Ineligible {
			if !slices.Contains(ineligible, why) {
				what = join(what, why+" (no new daemon pod there)")
			}
		}
		ineligible = s.Ineligible
		updated, old := activeSplit(s.Revisions, func(r RevisionAt) bool { return r.Current })
		rows[i] = tableRow{sync: s.Sync, time: s.Time, updated: updated, old: old, pods: s.Pods.Pods,
			ratio: fmt.Sprintf("%d/%d", s.Pods.Unavailable, s.Desired), glyphs: s.Nodes, what: what, wait: wait}
	}
	writeSetTable(ew, rows, "unavail", "nodes", func(i, j int) bool { return sameDaemonSetCounts(t.Steps[i], t.Steps[j]) })
	t.Summary.write(ew)
	return ew.err
}

// sameDaemonSetCounts reports whether two steps show the same pods and
// nodes.
func sameDaemonSetCounts(a, b DaemonSetStep) bool {
	return a.Pods == b.Pods && a.Desired == b.Desired && a.Surging == b.Surging && a.Nodes == b.Nodes && slices.Equal(a.Revisions, b.Revisions)
}

// legend lists the revisions the trace saw by letter (see revisionLegend).
func (t *DaemonSetTrace) legend() string {
	return revisionLegend(t.Steps, func(s DaemonSetStep) []RevisionAt { return s.Revisions })
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
	return endDescription(parts, len(s.User)+min(len(s.Kubelet), 1), s.Err, s.Violations, s.Notes, dsQuietNotes)
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
	c, err := stepChart(title, t.Steps, t.Summary, func(s DaemonSetStep) time.Time { return s.Time }, func(s DaemonSetStep) []string { return s.User }, sameDaemonSetCounts)
	if err != nil {
		return err
	}
	revisions := func(s DaemonSetStep) []RevisionAt { return s.Revisions }
	addRevisionSeries(&c, t.Steps, revisions, "available", func(r RevisionAt) int32 { return r.Available })
	for _, s := range t.Steps {
		c.maxY = max(c.maxY, s.Pods.Pods, s.Desired)
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
