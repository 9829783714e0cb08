package gen

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/plan"
)

// The String methods of the snapshot, the plan and every object in them
// print one line without raw pointers for any drawn state, the extreme ones
// included, so a counterexample reads as a listing.
func TestStringsAreOneReadableLine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := EdgeState(4).Draw(t, "state")
		p, _ := plan.Sync(s)
		lines := []string{s.String(), fmt.Sprintf("%#v", s), p.String(), s.Deployment.String()}
		for _, rs := range s.ReplicaSets {
			lines = append(lines, rs.String())
		}
		for _, a := range p.Actions {
			if a.ReplicaSet != nil {
				lines = append(lines, a.ReplicaSet.String())
			}
			if a.Deployment != nil {
				lines = append(lines, a.Deployment.String())
			}
		}
		for _, l := range lines {
			if l == "" || strings.Contains(l, "\n") || strings.Contains(l, "0xc") {
				t.Fatalf("not one readable line: %q", l)
			}
		}
	})
}
