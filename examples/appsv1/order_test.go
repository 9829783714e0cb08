package appsv1_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// TestInputOrderAndImmutability plans every public case a second time with
// the ReplicaSets and Pods in reverse order: the output must not change
// (upstream's decisions have total tie-breaks, except where the case is
// marked order-nondeterministic, compared as multisets). It also checks that
// planning leaves the input objects as they were.
func TestInputOrderAndImmutability(t *testing.T) {
	for _, l := range readSeeds(t) {
		var c appsv1.Case
		if err := json.Unmarshal(l.Case, &c); err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(c)
		out, _, err := appsv1.Sync(c.State())
		if planningFailed(err) {
			continue // reported by TestConformanceSeed
		}
		if after, _ := json.Marshal(c); string(after) != string(before) {
			t.Errorf("%s: Sync modified its input", l.Meta.ID)
		}
		rev := c
		rev.ReplicaSets = slices.Clone(c.ReplicaSets)
		slices.Reverse(rev.ReplicaSets)
		rev.Pods = slices.Clone(c.Pods)
		slices.Reverse(rev.Pods)
		out2, _, err := appsv1.Sync(rev.State())
		if planningFailed(err) {
			t.Errorf("%s: reversed input: %v", l.Meta.ID, err)
			continue
		}
		a, err := generic(out)
		if err != nil {
			t.Fatal(err)
		}
		b, err := generic(out2)
		if err != nil {
			t.Fatal(err)
		}
		if l.Meta.OrderNondeterministic {
			for _, k := range []string{"actions", "events"} {
				x, _ := a[k].([]any)
				y, _ := b[k].([]any)
				a[k], b[k] = sortedByJSON(x), sortedByJSON(y)
			}
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s: reversing the input order changes the output (-given +reversed):\n%s", l.Meta.ID, diff)
		}
	}
}
