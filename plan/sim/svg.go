package sim

import (
	"fmt"
	"html"
	"io"
	"strings"
)

var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"}

// WriteSVG draws the trace as a chart against the sync number: pods per
// ReplicaSet (solid lines), available pods (dashed black), all pods
// including terminating ones (dotted grey) and the desired replicas (red
// dash-dot), with the user's actions marked.
func (t *Trace) WriteSVG(w io.Writer, title string) error {
	const width, height, left, right, top, bottom = 960, 420, 60, 180, 40, 50
	plotW, plotH := float64(width-left-right), float64(height-top-bottom)
	n := len(t.Steps)
	if n == 0 {
		return fmt.Errorf("sim: the trace has no steps to draw (Record is RecordSummary?)")
	}
	var names []string
	seen := map[string]bool{}
	var maxY int32 = 1
	for _, s := range t.Steps {
		for _, rs := range s.Sets {
			if !seen[rs.Name] {
				seen[rs.Name] = true
				names = append(names, rs.Name)
			}
			maxY = max(maxY, rs.Active+rs.Terminating, rs.Spec)
		}
		maxY = max(maxY, s.Pods.Pods, s.Replicas)
	}
	x := func(i int) float64 {
		if n == 1 {
			return float64(left)
		}
		return float64(left) + plotW*float64(i)/float64(n-1)
	}
	y := func(v int32) float64 { return float64(top) + plotH*(1-float64(v)/float64(maxY)) }

	ew := &errWriter{w: w}
	ew.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	ew.printf(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	ew.printf(`<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", left, html.EscapeString(title))
	for _, v := range ticks(maxY) {
		ew.printf(`<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%d</text>`+"\n",
			left, width-right, y(v), y(v), left-6, y(v)+4, v)
	}
	ew.printf(`<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>`+"\n", left, width-right, height-bottom, height-bottom)
	ew.printf(`<text x="%.1f" y="%d" text-anchor="middle">sync</text>`+"\n", float64(left)+plotW/2, height-12)
	marks := 0
	for i, s := range t.Steps {
		if len(s.User) > 0 {
			ew.printf(`<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#c00" stroke-dasharray="2,3"/><text x="%.1f" y="%d" fill="#c00" font-size="10">%s</text>`+"\n",
				x(i), x(i), top, height-bottom, x(i)+3, top+10+12*(marks%3), html.EscapeString(strings.Join(s.User, ", ")))
			marks++
		}
		if i%max(1, n/10) == 0 {
			ew.printf(`<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(i), height-bottom+16, s.Sync)
		}
	}
	series := func(color, dash, label string, legend int, value func(Step) (int32, bool)) {
		var pts []string
		for i, s := range t.Steps {
			if v, ok := value(s); ok {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
			}
		}
		ew.printf(`<polyline fill="none" stroke="%s" stroke-width="2" stroke-dasharray="%s" points="%s"/>`+"\n", color, dash, strings.Join(pts, " "))
		ly := top + 16*legend
		ew.printf(`<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2" stroke-dasharray="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			width-right+10, width-right+30, ly, ly, color, dash, width-right+36, ly+4, html.EscapeString(label))
	}
	for i, name := range names {
		series(palette[i%len(palette)], "", name, i, func(s Step) (int32, bool) {
			for _, rs := range s.Sets {
				if rs.Name == name {
					return rs.Active, true
				}
			}
			return 0, false
		})
	}
	series("black", "6,4", "available", len(names), func(s Step) (int32, bool) { return s.Pods.Available, true })
	series("#888", "1,3", "pods incl. terminating", len(names)+1, func(s Step) (int32, bool) { return s.Pods.Pods, true })
	series("#c00", "8,3,2,3", "replicas (desired)", len(names)+2, func(s Step) (int32, bool) { return s.Replicas, true })
	ew.printf("</svg>\n")
	return ew.err
}

// ticks returns about five round values from 0 to maxY.
func ticks(maxY int32) []int32 {
	step := tickStep(maxY)
	var out []int32
	for v := int32(0); v <= maxY; v += step {
		out = append(out, v)
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
	}
	return max(1, maxY)
}
