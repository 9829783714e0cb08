package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
)

// spec is one spec of a run as Ginkgo's JSON report has it.
type spec struct {
	Name    string        // container texts and the leaf's, space-separated
	State   string        // passed, failed, skipped, pending, panicked, interrupted, aborted, timedout
	RunTime time.Duration // as Ginkgo measured it
	Failure string        // the failure's message, first line
}

// ginkgoReport is the part of Ginkgo v2's JSON report (--ginkgo.json-report)
// that is read: one report per suite.
type ginkgoReport struct {
	SuiteSucceeded bool
	SpecReports    []struct {
		ContainerHierarchyTexts []string
		LeafNodeType            string
		LeafNodeText            string
		LeafNodeLabels          []string
		State                   string
		RunTime                 time.Duration
		Failure                 struct{ Message string }
	}
}

// selector says which specs of the binary a run asked for: those whose
// full name focus matches and skip (when not nil) does not, and with
// conformance only those labelled Conformance.
type selector struct {
	focus, skip *regexp.Regexp
	conformance bool
}

func (s selector) selects(name string, labels []string) bool {
	return s.focus.MatchString(name) && (s.skip == nil || !s.skip.MatchString(name)) &&
		(!s.conformance || slices.Contains(labels, "Conformance"))
}

// readReport reads Ginkgo's JSON report: the specs (It nodes) in the order
// they ran, and the failures of suite-level nodes (a failed BeforeSuite
// fails every spec) as specs named by their node type. The report lists
// every spec of the binary; those the run did not select (the
// environmental ones are listed apart) are not returned.
func readReport(r io.Reader, sel selector) ([]spec, error) {
	var reports []ginkgoReport
	if err := json.NewDecoder(r).Decode(&reports); err != nil {
		return nil, fmt.Errorf("ginkgo JSON report: %w", err)
	}
	if len(reports) == 0 {
		return nil, fmt.Errorf("ginkgo JSON report: no suite")
	}
	var specs []spec
	for _, rep := range reports {
		for _, sr := range rep.SpecReports {
			name := strings.Join(append(slices.Clone(sr.ContainerHierarchyTexts), sr.LeafNodeText), " ")
			if sr.LeafNodeType == "It" && !sel.selects(name, sr.LeafNodeLabels) {
				continue
			}
			if sr.LeafNodeType != "It" {
				if sr.State == "passed" || sr.State == "skipped" {
					continue
				}
				name = strings.TrimSpace(sr.LeafNodeType + " " + name)
			}
			msg, _, _ := strings.Cut(strings.TrimSpace(sr.Failure.Message), "\n")
			specs = append(specs, spec{Name: name, State: sr.State, RunTime: sr.RunTime, Failure: msg})
		}
	}
	return specs, nil
}

// counts tallies a run: passed, failed (any state but passed and
// skipped), skipped.
func counts(specs []spec) (passed, failed, skipped int) {
	for _, s := range specs {
		switch s.State {
		case "passed":
			passed++
		case "skipped", "pending":
			skipped++
		default:
			failed++
		}
	}
	return
}

// difference lists the specs whose state differs between two runs, and
// those only one run has, sorted by name.
func difference(aName string, a []spec, bName string, b []spec) []string {
	state := func(specs []spec) map[string]string {
		m := map[string]string{}
		for _, s := range specs {
			m[s.Name] = s.State
		}
		return m
	}
	sa, sb := state(a), state(b)
	var names []string
	for n := range sa {
		names = append(names, n)
	}
	for n := range sb {
		if _, ok := sa[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []string
	for _, n := range names {
		x, okA := sa[n]
		y, okB := sb[n]
		switch {
		case !okA:
			out = append(out, fmt.Sprintf("%s: not run with %s, %s with %s", n, aName, y, bName))
		case !okB:
			out = append(out, fmt.Sprintf("%s: %s with %s, not run with %s", n, x, aName, bName))
		case x != y:
			out = append(out, fmt.Sprintf("%s: %s with %s, %s with %s", n, x, aName, y, bName))
		}
	}
	return out
}

// printRun writes a run's result list, one spec a line.
func printRun(w io.Writer, title string, specs []spec, elapsed time.Duration) {
	p, f, s := counts(specs)
	fmt.Fprintf(w, "%s: %d passed, %d failed, %d skipped (run %s)\n", title, p, f, s, elapsed.Round(time.Second))
	for _, sp := range specs {
		line := fmt.Sprintf("  %-8s %s (%s)", sp.State, sp.Name, sp.RunTime.Round(100*time.Millisecond))
		if sp.Failure != "" { // a skipped spec's is the reason it gave
			line += ": " + sp.Failure
		}
		fmt.Fprintln(w, line)
	}
}
