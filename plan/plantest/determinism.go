package plantest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rolloutplan/rolloutplan/plan"
)

// CheckDeterminism is I5: it plans s three times, as given, with its
// slices reversed and with them rotated, and reports a violation when the
// plans differ, when planning changes the input, or when Sync fails on one
// ordering but not another.
func CheckDeterminism(s plan.State, opts ...plan.Option) []Violation {
	snapshot, err := json.Marshal(s)
	if err != nil {
		return []Violation{{Invariant: "I5", Message: "state does not serialise: " + err.Error()}}
	}
	first, err := plannedJSON(s, opts)
	var out []Violation
	for name, perm := range map[string]func(plan.State) plan.State{"reversed": reversed, "rotated": rotated} {
		got, err2 := plannedJSON(perm(s), opts)
		if (err == nil) != (err2 == nil) {
			out = append(out, Violation{Invariant: "I5", Message: fmt.Sprintf("Sync fails on one ordering only (%s): %v / %v", name, err, err2)})
			continue
		}
		if !bytes.Equal(first, got) {
			out = append(out, Violation{Invariant: "I5", Message: fmt.Sprintf("the %s input gives a different plan", name)})
		}
	}
	if after, _ := json.Marshal(s); !bytes.Equal(snapshot, after) {
		out = append(out, Violation{Invariant: "I5", Message: "Sync modified its input"})
	}
	slices.SortFunc(out, func(a, b Violation) int { return strings.Compare(a.Message, b.Message) })
	return out
}

func plannedJSON(s plan.State, opts []plan.Option) ([]byte, error) {
	p, err := plan.Sync(s, opts...)
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}

func reversed(s plan.State) plan.State {
	s.ReplicaSets = slices.Clone(s.ReplicaSets)
	slices.Reverse(s.ReplicaSets)
	s.Pods = slices.Clone(s.Pods)
	slices.Reverse(s.Pods)
	return s
}

func rotated(s plan.State) plan.State {
	if n := len(s.ReplicaSets); n > 1 {
		s.ReplicaSets = append(slices.Clone(s.ReplicaSets[n/2:]), s.ReplicaSets[:n/2]...)
	}
	if n := len(s.Pods); n > 1 {
		s.Pods = append(slices.Clone(s.Pods[n/2:]), s.Pods[:n/2]...)
	}
	return s
}
