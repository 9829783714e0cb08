package gen

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// The String methods of the snapshot, the plan, its actions and every
// object in them and in the rendered writes print one line without raw
// pointers for any drawn state, the extreme ones included, so a
// counterexample reads as a listing.
func TestStringsAreOneReadableLine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := EdgeState(4).Draw(t, "state")
		p, _ := plan.Sync(s)
		lines := []string{s.String(), fmt.Sprintf("%#v", s), p.String(), s.Deployment.String()}
		for _, rs := range s.ReplicaSets {
			lines = append(lines, rs.String())
		}
		for _, a := range p.Actions {
			lines = append(lines, a.String())
			if a.ReplicaSet != nil {
				lines = append(lines, a.ReplicaSet.String())
			}
		}
		writes, err := render.Writes(s, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range writes {
			if w.ReplicaSet != nil {
				lines = append(lines, w.ReplicaSet.String())
			}
			if w.Deployment != nil {
				lines = append(lines, w.Deployment.String())
			}
		}
		for _, l := range lines {
			if l == "" || strings.Contains(l, "\n") || strings.Contains(l, "0xc") {
				t.Fatalf("not one readable line: %q", l)
			}
		}
	})
}
