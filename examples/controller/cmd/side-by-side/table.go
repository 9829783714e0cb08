package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/internal/kubecluster"
)

// result is one run of one scenario with one set of controllers.
type result struct {
	scenario    string
	controllers kubecluster.Controllers
	writes      writes
	// elapsed is from the update of the Deployments to their completion.
	elapsed time.Duration
	// cpu is the controller process's CPU from the update until its
	// writes stopped; processCPU over its whole life.
	cpu, processCPU time.Duration
	// sequences are the ReplicaSet sizes by Deployment.
	sequences map[string]string
}

// median of ints: the middle one, or the mean of the two middle ones.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// stat formats a median with the range of the runs when they differ:
// "14 (13-15)".
func stat(xs []float64, format func(float64) string) string {
	if len(xs) == 0 {
		return "-"
	}
	out := format(median(xs))
	lo, hi := slices.Min(xs), slices.Max(xs)
	if len(xs) > 1 && format(lo) != format(hi) {
		out += " (" + format(lo) + "-" + format(hi) + ")"
	}
	return out
}

func count(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}

func seconds(x float64) string { return fmt.Sprintf("%.2fs", x) }

// group is the results of one scenario with one set of controllers.
type group struct {
	scenario    string
	controllers kubecluster.Controllers
	runs        []result
}

// groups gathers results by scenario and controllers, in the order
// scenarios and controllers are given.
func groups(results []result, scenarioOrder []string, ctlOrder []kubecluster.Controllers) []group {
	var out []group
	for _, s := range scenarioOrder {
		for _, c := range ctlOrder {
			g := group{scenario: s, controllers: c}
			for _, r := range results {
				if r.scenario == s && r.controllers == c {
					g.runs = append(g.runs, r)
				}
			}
			if len(g.runs) > 0 {
				out = append(out, g)
			}
		}
	}
	return out
}

func (g group) values(f func(result) float64) []float64 {
	out := make([]float64, len(g.runs))
	for i, r := range g.runs {
		out[i] = f(r)
	}
	return out
}

// printTable writes the table: one line per scenario and controllers,
// medians of the runs (with their range), then the writes by verb and
// resource, then the ReplicaSet size sequences compared.
func printTable(w io.Writer, gs []group) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tcontrollers\truns\twrites\t409s\tother errors\treads\ttime to complete\tCPU (rollout)\tCPU (process)")
	for _, g := range gs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", g.scenario, g.controllers, len(g.runs),
			stat(g.values(func(r result) float64 { return float64(r.writes.Total) }), count),
			stat(g.values(func(r result) float64 { return float64(r.writes.Conflicts) }), count),
			stat(g.values(func(r result) float64 { return float64(r.writes.Failed) }), count),
			stat(g.values(func(r result) float64 { return float64(r.writes.Reads) }), count),
			stat(g.values(func(r result) float64 { return r.elapsed.Seconds() }), seconds),
			stat(g.values(func(r result) float64 { return r.cpu.Seconds() }), seconds),
			stat(g.values(func(r result) float64 { return r.processCPU.Seconds() }), seconds))
	}
	tw.Flush()
	fmt.Fprintln(w, `
writes: the creates, updates, patches and deletes the controller process sent, from the update of the
  Deployments until its writes stopped (2s without one), counted in the API server's audit log by
  User-Agent; 409s and other errors: how many of them were refused; reads: its gets and lists.
time to complete: from the update until every Deployment has observedGeneration current,
  updatedReplicas = availableReplicas = replicas, and its old ReplicaSets at 0.
CPU (rollout): the process's user+sys time over the writes' window; CPU (process): over its whole
  life (start, first rollout and informer sync included).`)

	fmt.Fprintln(w, "\nwrites by verb and resource (medians):")
	for _, g := range gs {
		var ws []writes
		for _, r := range g.runs {
			ws = append(ws, r.writes)
		}
		var parts []string
		for _, k := range keys(ws) {
			parts = append(parts, k+" "+count(median(g.values(func(r result) float64 { return float64(r.writes.By[k]) }))))
		}
		fmt.Fprintf(w, "  %s %s: %s\n", g.scenario, g.controllers, strings.Join(parts, ", "))
	}

	fmt.Fprintln(w, "\nReplicaSet sizes (new/old spec.replicas per Deployment, in watch order, over all runs):")
	var order []string
	for _, g := range gs {
		if !slices.Contains(order, g.scenario) {
			order = append(order, g.scenario)
		}
	}
	for _, s := range order {
		bySide := map[kubecluster.Controllers]map[string]int{}
		var sides []kubecluster.Controllers
		for _, g := range gs {
			if g.scenario == s {
				bySide[g.controllers] = tally(g.runs)
				sides = append(sides, g.controllers)
			}
		}
		fmt.Fprintf(w, "  %s: %s\n", s, compareSequences(bySide, sides))
		for _, line := range sequenceLines(bySide, sides, 8) {
			fmt.Fprintln(w, "    "+line)
		}
	}
}

// tally counts each distinct sequence over the Deployments of the runs.
func tally(runs []result) map[string]int {
	out := map[string]int{}
	for _, r := range runs {
		for _, s := range r.sequences {
			out[s]++
		}
	}
	return out
}

// compareSequences says whether the sides saw the same sequences (the
// same distinct ones; how often each came may differ with the number of
// runs).
func compareSequences(bySide map[kubecluster.Controllers]map[string]int, sides []kubecluster.Controllers) string {
	if len(sides) < 2 {
		return fmt.Sprintf("%d distinct (one set of controllers ran)", len(bySide[sides[0]]))
	}
	a, b := bySide[sides[0]], bySide[sides[1]]
	same := len(a) == len(b)
	for s := range a {
		if _, ok := b[s]; !ok {
			same = false
		}
	}
	switch {
	case same && len(a) == 1:
		return "the same on both sides"
	case same:
		return fmt.Sprintf("the same %d distinct sequences on both sides (they vary from run to run or Deployment to Deployment)", len(a))
	}
	only := func(x, y map[string]int) int {
		n := 0
		for s := range x {
			if _, ok := y[s]; !ok {
				n++
			}
		}
		return n
	}
	return fmt.Sprintf("DIFFER: %d distinct with %s (%d not seen with %s), %d with %s (%d not seen with %s)",
		len(a), sides[0], only(a, b), sides[1], len(b), sides[1], only(b, a), sides[0])
}

// sequenceLines lists the distinct sequences, most frequent first, with
// how often each side saw each, at most limit of them.
func sequenceLines(bySide map[kubecluster.Controllers]map[string]int, sides []kubecluster.Controllers, limit int) []string {
	total := map[string]int{}
	for _, c := range sides {
		for s, n := range bySide[c] {
			total[s] += n
		}
	}
	seqs := make([]string, 0, len(total))
	for s := range total {
		seqs = append(seqs, s)
	}
	sort.Slice(seqs, func(i, j int) bool {
		if total[seqs[i]] != total[seqs[j]] {
			return total[seqs[i]] > total[seqs[j]]
		}
		return seqs[i] < seqs[j]
	})
	var out []string
	for i, s := range seqs {
		if i == limit {
			out = append(out, fmt.Sprintf("... %d more", len(seqs)-limit))
			break
		}
		var counts []string
		for _, c := range sides {
			counts = append(counts, fmt.Sprintf("%s %d", c, bySide[c][s]))
		}
		out = append(out, fmt.Sprintf("[%s] %s", strings.Join(counts, ", "), s))
	}
	return out
}
