package sim

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// What the timelines and charts of the three traces share; S is a trace's
// step type.

// stepChart starts the chart of a trace's steps: their times, the user's
// actions, the stall, and where a step's counts differ from the step
// before's (same reports that they do not).
func stepChart[S any](title string, steps []S, sum Summary, at func(S) time.Time, user func(S) []string, same func(a, b S) bool) (chart, error) {
	if len(steps) == 0 {
		return chart{}, fmt.Errorf("sim: the trace has no steps to draw (Record is RecordSummary?)")
	}
	return chart{title: title, n: len(steps), stalled: sum.Stalled, stallReason: sum.StallReason, maxY: 1,
		time:    func(i int) time.Time { return at(steps[i]) },
		user:    func(i int) []string { return user(steps[i]) },
		changed: func(i int) bool { return !same(steps[i-1], steps[i]) },
	}, nil
}

// addRevisionSeries adds two series for every revision the steps show, in
// the order first seen, in one colour: its pods (thin dashed line) and, as
// label, the part of them value counts (thick solid line). The chart's
// height makes room for each revision's pods, terminating ones included.
func addRevisionSeries[S any](c *chart, steps []S, revisions func(S) []RevisionAt, label string, value func(RevisionAt) int32) {
	var names []string
	letters := map[string]string{}
	for _, s := range steps {
		for _, r := range revisions(s) {
			if _, ok := letters[r.Name]; !ok {
				letters[r.Name] = r.Letter
				names = append(names, r.Name)
			}
			c.maxY = max(c.maxY, r.Active+r.Terminating)
		}
	}
	for i, name := range names {
		color := palette[i%len(palette)]
		find := func(s S) (RevisionAt, bool) {
			for _, r := range revisions(s) {
				if r.Name == name {
					return r, true
				}
			}
			return RevisionAt{}, false
		}
		short := letters[name] + " " + shorten(name, 22)
		c.series = append(c.series,
			chartSeries{color, "6,4", 1.5, short + " pods", func(i int) (int32, bool) { r, ok := find(steps[i]); return r.Active, ok }},
			chartSeries{color, "", 3, short + " " + label, func(i int) (int32, bool) { r, ok := find(steps[i]); return value(r), ok }})
	}
}

// revisionLegend lists the revisions the steps saw by letter: "A
// web-6d4b9f7c8 (revision 1), B ...", with each one's last revision
// number.
func revisionLegend[S any](steps []S, revisions func(S) []RevisionAt) string {
	type entry struct {
		letter, name string
		number       int64
	}
	var entries []entry
	index := map[string]int{}
	for _, s := range steps {
		for _, r := range revisions(s) {
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

// activeSplit sums the active pods of the revisions that are the one the
// set updates to (updated) and of the others (old).
func activeSplit(revisions []RevisionAt, target func(RevisionAt) bool) (updated, old int32) {
	for _, r := range revisions {
		if target(r) {
			updated += r.Active
		} else {
			old += r.Active
		}
	}
	return updated, old
}

// endDescription ends a set step's description, parts so far, with the
// sync's error and violations. When nothing happened but the first shown
// parts (the user's actions and the kubelet's events), the planner's first
// note not among quiet says why the set waits: it is returned as wait too.
func endDescription(parts []string, shown int, errMsg string, violations []plantest.Violation, notes []plan.Reason, quiet []plan.ReasonCode) (what, wait string) {
	if errMsg != "" {
		parts = append(parts, "error: "+errMsg)
	}
	for _, v := range violations {
		parts = append(parts, "VIOLATION "+v.String())
	}
	if len(parts) == shown {
		for _, n := range notes {
			if !slices.Contains(quiet, n.Code) {
				wait = "waiting: " + n.Message
				parts = append(parts, wait)
				break
			}
		}
	}
	return strings.Join(parts, "; "), wait
}

// tableRow is a set's step as the table of its timeline shows it.
type tableRow struct {
	sync               int
	time               time.Time
	updated, old, pods int32
	ratio              string // "ready/replicas", "unavailable/desired"
	glyphs             string // the pods by ordinal, the node pool
	what, wait         string // what happened; the part of it that is the planner's note on why it waits
}

// writeSetTable writes the table of a set's timeline, one line per step
// that did something, under the headers of its ratio and glyph columns;
// same reports whether steps i and j show the same pods.
func writeSetTable(ew *errWriter, rows []tableRow, ratioHeader, glyphsHeader string, same func(i, j int) bool) {
	width := len(glyphsHeader)
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r.glyphs))
	}
	ew.printf("%5s %9s %7s %5s %5s %7s  %-*s  %s\n", "sync", "time", "updated", "old", "pods", ratioHeader, width, glyphsHeader, "what happened")
	var start time.Time
	if len(rows) > 0 {
		start = rows[0].time
	}
	lastWait, shownAt := "", -1
	for i, r := range rows {
		// The wait of the line before, over the same pods, says nothing
		// new.
		if r.what == "" || r.what == r.wait && r.wait == lastWait && shownAt >= 0 && same(shownAt, i) {
			continue
		}
		lastWait, shownAt = r.wait, i
		pad := width - utf8.RuneCountInString(r.glyphs)
		ew.printf("%5d %9s %7d %5d %5d %7s  %s%s  %s\n", r.sync, clock(r.time.Sub(start)), r.updated, r.old, r.pods,
			r.ratio, r.glyphs, strings.Repeat(" ", pad), r.what)
	}
}
