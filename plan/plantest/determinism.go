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
	s.ReplicaSets = reversedCopy(s.ReplicaSets)
	s.Pods = reversedCopy(s.Pods)
	return s
}

func rotated(s plan.State) plan.State {
	s.ReplicaSets = rotate(s.ReplicaSets)
	s.Pods = rotate(s.Pods)
	return s
}

// checkSetDeterminism is the StatefulSet's and the DaemonSet's
// determinism rule (S6, D5), named invariant: it plans s with sync three
// times, as given, reversed and rotated, and reports plans that differ,
// Sync failing differently, or Sync changing its input. A sync that ends
// with a SyncError still has a plan, which is compared.
func checkSetDeterminism[S, P, O any](invariant string, s S, sync func(S, ...O) (P, error), opts []O, reversed, rotated func(S) S) []Violation {
	snapshot, err := json.Marshal(s)
	if err != nil {
		return []Violation{{Invariant: invariant, Message: "state does not serialise: " + err.Error()}}
	}
	planned := func(s S) ([]byte, error) {
		p, err := sync(s, opts...)
		out, jerr := json.Marshal(p)
		if jerr != nil {
			return nil, jerr
		}
		return out, err
	}
	first, err := planned(s)
	var out []Violation
	for _, perm := range []struct {
		name string
		f    func(S) S
	}{{"reversed", reversed}, {"rotated", rotated}} {
		got, err2 := planned(perm.f(s))
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			out = append(out, Violation{Invariant: invariant, Message: fmt.Sprintf("Sync fails differently on the %s input: %v / %v", perm.name, err, err2)})
			continue
		}
		if !bytes.Equal(first, got) {
			out = append(out, Violation{Invariant: invariant, Message: fmt.Sprintf("the %s input gives a different plan", perm.name)})
		}
	}
	if after, _ := json.Marshal(s); !bytes.Equal(snapshot, after) {
		out = append(out, Violation{Invariant: invariant, Message: "Sync modified its input"})
	}
	slices.SortFunc(out, func(a, b Violation) int { return strings.Compare(a.Message, b.Message) })
	return out
}

// reversedCopy returns xs reversed, leaving xs as it is.
func reversedCopy[T any](xs []T) []T {
	xs = slices.Clone(xs)
	slices.Reverse(xs)
	return xs
}

// rotate returns xs with its second half first, leaving xs as it is.
func rotate[T any](xs []T) []T {
	if n := len(xs); n > 1 {
		return append(slices.Clone(xs[n/2:]), xs[:n/2]...)
	}
	return xs
}
