// Package casetest checks the tables of hand-checked test cases that every
// package of rolloutplan keeps: each case has a name and a one-line reason
// saying where its expected values come from (an upstream function or unit
// test, a worked example, recorded data, an apps/v1 rule), because an unexplained number cannot
// be reviewed.
//
// To start: give each table case a [Case] (name and reason) and run the table
// with [Run]; [Check] only validates a table, [Require] a single case.
package casetest

import (
	"fmt"
	"strings"
	"testing"
)

// Case is what a table case says about itself.
type Case struct {
	Name string // the subtest name
	Why  string // one line: where the expected values come from
}

// Problem returns why cases do not make a valid table: a case without a
// name or without a reason (blank counts as none), or a name used twice
// (t.Run would silently rename the second); nil when the table is sound.
func Problem[C any](cases []C, info func(C) Case) error {
	seen := make(map[string]bool, len(cases))
	for i, c := range cases {
		ci := info(c)
		switch {
		case ci.Name == "":
			return fmt.Errorf("case %d has no name", i)
		case strings.TrimSpace(ci.Why) == "":
			return fmt.Errorf("case %d (%q) has no reason: say which spec rule, example or upstream test backs its values", i, ci.Name)
		case seen[ci.Name]:
			return fmt.Errorf("case %d: duplicate name %q", i, ci.Name)
		}
		seen[ci.Name] = true
	}
	return nil
}

// TB is the part of testing.TB the checks need, so that a test can hand
// them a recorder and watch them refuse.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Check stops the test when [Problem] finds one.
func Check[C any](tb TB, cases []C, info func(C) Case) {
	tb.Helper()
	if err := Problem(cases, info); err != nil {
		tb.Fatalf("%v", err)
	}
}

// Require stops the test when a single case has no name or no reason.
func Require(tb TB, name, why string) {
	tb.Helper()
	Check(tb, []Case{{Name: name, Why: why}}, func(c Case) Case { return c })
}

// Run checks the table and runs fn for every case as a subtest, logging the
// case's reason when it fails.
func Run[C any](t *testing.T, cases []C, info func(C) Case, fn func(*testing.T, C)) {
	t.Helper()
	Check(t, cases, info)
	for _, c := range cases {
		ci := info(c)
		t.Run(ci.Name, func(t *testing.T) {
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("case reason: %s", ci.Why)
				}
			})
			fn(t, c)
		})
	}
}
