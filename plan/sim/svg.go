package sim

import (
	"fmt"
	"html"
	"io"
	"slices"
	"strings"
	"time"
)

var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"}

// chart geometry, in SVG pixels.
const (
	chartWidth, chartHeight = 1000, 460
	chartLeft, chartRight   = 70, 250
	chartTop, chartBottom   = 44, 60
)

// WriteSVG draws the trace as a chart against simulated time: for every
// ReplicaSet its spec.replicas (thin dashed line) and its available pods
// (thick solid line, same colour), all pods that exist including
// terminating ones (grey dotted), the desired replicas (red dash-dot), the
// user's actions as labelled vertical red lines and, when the rollout
// stalled, the stalled stretch shaded with the reason. The quantities are
// those of the timeline and the summary, under the same names. Lines are
// drawn as steps: a value holds until the next sync.
func (t *Trace) WriteSVG(w io.Writer, title string) error {
	c, err := stepChart(title, t.Steps, t.Summary, func(s Step) time.Time { return s.Time }, func(s Step) []string { return s.User }, sameCounts)
	if err != nil {
		return err
	}
	var names []string
	seen := map[string]bool{}
	for _, s := range t.Steps {
		for _, rs := range s.Sets {
			if !seen[rs.Name] {
				seen[rs.Name] = true
				names = append(names, rs.Name)
			}
			c.maxY = max(c.maxY, rs.Spec, rs.Active+rs.Terminating)
		}
		c.maxY = max(c.maxY, s.Pods.Pods, s.Replicas)
	}
	for i, name := range names {
		color := palette[i%len(palette)]
		find := func(s Step) (ReplicaSetAt, bool) {
			for _, rs := range s.Sets {
				if rs.Name == name {
					return rs, true
				}
			}
			return ReplicaSetAt{}, false
		}
		short := shorten(name, 24)
		c.series = append(c.series,
			chartSeries{color, "6,4", 1.5, short + " spec", func(i int) (int32, bool) { rs, ok := find(t.Steps[i]); return rs.Spec, ok }},
			chartSeries{color, "", 3, short + " available", func(i int) (int32, bool) { rs, ok := find(t.Steps[i]); return rs.Available, ok }})
	}
	c.series = append(c.series,
		chartSeries{"#777", "1,3", 2, "pods (incl. terminating)", func(i int) (int32, bool) { return t.Steps[i].Pods.Pods, true }},
		chartSeries{"#c00", "8,3,2,3", 1.5, "replicas (desired)", func(i int) (int32, bool) { return t.Steps[i].Replicas, true }})
	return c.write(w)
}

// chart is a chart of pod counts against simulated time, one point per
// sync: the Deployment, StatefulSet and DaemonSet traces draw theirs with it.
type chart struct {
	title string
	n     int // syncs
	// maxY is the highest count the chart must show.
	maxY int32
	// time, user and changed read sync i: its clock, its user actions,
	// and (for i > 0) whether a count differs from sync i-1.
	time    func(i int) time.Time
	user    func(i int) []string
	changed func(i int) bool
	// series are drawn in order, each with a legend entry.
	series      []chartSeries
	stalled     bool
	stallReason string
}

// chartSeries is one line of a chart, drawn as steps: a value holds until
// the next sync; a sync without a value leaves a gap.
type chartSeries struct {
	color, dash string
	width       float64
	label       string
	value       func(i int) (int32, bool)
}

// write draws the chart: title, the stalled stretch, axes and grid, the
// user's actions as labelled vertical red lines, then the series.
func (c *chart) write(w io.Writer) error {
	n := c.n
	start := c.time(0)
	span := c.time(n - 1).Sub(start)
	if span <= 0 {
		span = time.Second
	}
	maxY := c.maxY
	yTicks := ticks(maxY + maxY/10 + 1) // headroom above the highest line
	maxY = max(maxY, yTicks[len(yTicks)-1])
	plotW, plotH := float64(chartWidth-chartLeft-chartRight), float64(chartHeight-chartTop-chartBottom)
	x := func(at time.Time) float64 { return chartLeft + plotW*float64(at.Sub(start))/float64(span) }
	y := func(v int32) float64 { return chartTop + plotH*(1-float64(v)/float64(maxY)) }
	right, bottom := float64(chartWidth-chartRight), float64(chartHeight-chartBottom)

	ew := &errWriter{w: w}
	ew.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`+"\n",
		chartWidth, chartHeight, chartWidth, chartHeight)
	ew.printf(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	ew.printf(`<text x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", chartLeft, html.EscapeString(c.title))

	// The stalled stretch: from the last sync that changed a size or a pod
	// count to the end.
	if c.stalled {
		from := start
		for i := 1; i < n; i++ {
			if c.changed(i) {
				from = c.time(i)
			}
		}
		x0 := x(from)
		ew.printf(`<rect x="%.1f" y="%d" width="%.1f" height="%.1f" fill="#fbe3e3"/>`+"\n", x0, chartTop, max(right-x0, 2), plotH)
		ew.printf(`<text x="%.1f" y="%d" fill="#a00" font-weight="bold" text-anchor="middle">STALLED: no change since %s</text>`+"\n",
			(x0+right)/2, chartTop+16, clock(from.Sub(start)))
		ew.printf(`<text x="%d" y="%d" fill="#a00" font-size="11">stalled: %s</text>`+"\n", chartLeft, chartHeight-8, html.EscapeString(shorten(c.stallReason, 150)))
	}

	// Axes, grid and labels.
	for _, v := range yTicks {
		ew.printf(`<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#e4e4e4"/><text x="%d" y="%.1f" text-anchor="end">%d</text>`+"\n",
			chartLeft, right, y(v), y(v), chartLeft-6, y(v)+4, v)
	}
	unit, unitName := timeUnit(span)
	for _, tk := range timeTicks(span, unit) {
		px := x(start.Add(tk))
		ew.printf(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="#e4e4e4"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n",
			px, px, chartTop, bottom, px, bottom+16, formatTick(tk, unit))
	}
	ew.printf(`<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="black"/><line x1="%d" x2="%d" y1="%d" y2="%.1f" stroke="black"/>`+"\n",
		chartLeft, right, bottom, bottom, chartLeft, chartLeft, chartTop, bottom)
	ew.printf(`<text x="%.1f" y="%.1f" text-anchor="middle">time since the first sync (%s)</text>`+"\n", chartLeft+plotW/2, bottom+34, unitName)
	ew.printf(`<text transform="translate(18 %.1f) rotate(-90)" text-anchor="middle">pods</text>`+"\n", chartTop+plotH/2)

	// User actions.
	marks := 0
	for i := range n {
		user := c.user(i)
		if len(user) == 0 {
			continue
		}
		px := x(c.time(i))
		ew.printf(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="#c00" stroke-width="1.5" stroke-dasharray="3,3"/>`+"\n", px, px, chartTop, bottom)
		ew.printf(`<text x="%.1f" y="%d" fill="#c00" font-size="11">▼ %s</text>`+"\n", px+3, chartTop-4-12*(marks%2), html.EscapeString(shorten(strings.Join(user, ", "), 70)))
		marks++
	}

	// Series, drawn as steps.
	for legend, sr := range c.series {
		var pts []string
		polyline := func() { // draws the points so far, if any
			if len(pts) > 0 {
				ew.printf(`<polyline fill="none" stroke="%s" stroke-width="%g" stroke-dasharray="%s" points="%s"/>`+"\n", sr.color, sr.width, sr.dash, strings.Join(pts, " "))
				pts = nil
			}
		}
		var last float64
		have := false
		for i := range n {
			v, ok := sr.value(i)
			if !ok {
				have = false
				continue
			}
			px, py := x(c.time(i)), y(v)
			if have {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, last))
			} else {
				polyline() // a gap: the line starts anew
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, py))
			last, have = py, true
		}
		polyline()
		ly := chartTop + 8 + 18*legend
		lx := chartWidth - chartRight + 14
		ew.printf(`<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="%g" stroke-dasharray="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			lx, lx+26, ly, ly, sr.color, sr.width, sr.dash, lx+32, ly+4, html.EscapeString(sr.label))
	}
	ew.printf("</svg>\n")
	return ew.err
}

// sameCounts reports whether two steps show the same sizes and pod counts.
func sameCounts(a, b Step) bool {
	return a.Pods == b.Pods && a.Replicas == b.Replicas && slices.Equal(a.Sets, b.Sets)
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// timeUnit picks the unit of the time axis for a span.
func timeUnit(span time.Duration) (time.Duration, string) {
	switch {
	case span <= 2*time.Minute:
		return time.Second, "seconds"
	case span <= 2*time.Hour:
		return time.Minute, "minutes"
	}
	return time.Hour, "hours"
}

// timeTicks returns about six round times from 0 to span.
func timeTicks(span, unit time.Duration) []time.Duration {
	units := int32(span / unit)
	step := time.Duration(tickStep(max(units, 1))) * unit
	if span/step > 8 {
		step *= 2
	}
	var out []time.Duration
	for tk := time.Duration(0); tk <= span; tk += step {
		out = append(out, tk)
	}
	return out
}

func formatTick(d, unit time.Duration) string {
	switch unit {
	case time.Second:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case time.Minute:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%dh", int(d/time.Hour))
}

// ticks returns about five round values from 0 to at least maxY.
func ticks(maxY int32) []int32 {
	step := tickStep(maxY)
	var out []int32
	for v := int32(0); ; v += step {
		out = append(out, v)
		if v >= maxY || v > (1<<31-1)-step {
			break
		}
	}
	return out
}

// tickStep is the smallest of 1, 2, 5, 10, 20, 50 ... that cuts 0..maxY into
// at most five parts.
func tickStep(maxY int32) int32 {
	for mag := int32(1); mag <= maxY; mag *= 10 {
		for _, m := range [...]int32{1, 2, 5} {
			if maxY/(m*mag) <= 5 {
				return m * mag
			}
		}
		if mag > (1<<31-1)/10 {
			break
		}
	}
	return max(1, maxY)
}
