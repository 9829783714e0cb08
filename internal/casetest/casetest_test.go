package casetest

import (
	"fmt"
	"testing"
)

type recorder struct{ msgs []string }

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func TestCheckRefusesUnexplainedCases(t *testing.T) {
	id := func(c Case) Case { return c }
	for _, tc := range []struct {
		cases []Case
		ok    bool
	}{
		{[]Case{{"a", "because"}}, true},
		{[]Case{{"a", "because"}, {"b", "also"}}, true},
		{[]Case{{"a", ""}}, false},
		{[]Case{{"a", " \t"}}, false},
		{[]Case{{"", "because"}}, false},
		{[]Case{{"a", "x"}, {"a", "y"}}, false},
	} {
		rec := &recorder{}
		Check(rec, tc.cases, id)
		if got := len(rec.msgs) == 0; got != tc.ok {
			t.Errorf("Check(%v): accepted = %v, want %v (%q)", tc.cases, got, tc.ok, rec.msgs)
		}
		rec = &recorder{}
		Require(rec, tc.cases[0].Name, tc.cases[0].Why)
		single := tc.cases[0].Name != "" && len(tc.cases[0].Why) > 0 && tc.cases[0].Why != " \t"
		if got := len(rec.msgs) == 0; got != single {
			t.Errorf("Require(%v): accepted = %v, want %v", tc.cases[0], got, single)
		}
	}
}
