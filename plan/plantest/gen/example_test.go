package gen_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
)

// In a property test, draw a state inside rapid.Check:
//
//	rapid.Check(t, func(t *rapid.T) {
//		s := gen.State(10, 4).Draw(t, "state")
//		p, err := plan.Sync(s)
//		...
//	})
//
// Outside a test, Generator.Example draws one value for a seed, the same
// value every time. Every drawn state is valid and every plan of it keeps
// the rollout invariants.
func ExampleState() {
	g := gen.State(10, 4)
	fmt.Println(g.Example(0)) // plan.State prints on one line
	for seed := range 5 {
		s := g.Example(seed)
		p, err := plan.Sync(s)
		fmt.Printf("seed %d: valid %v, sync error %v, violations %d\n",
			seed, s.Validate() == nil, err, len(plantest.Check(s, p)))
	}
	// Output:
	// State at 2026-01-01T00:01:49Z: Deployment default/web gen 1: replicas 7, RollingUpdate (maxSurge 2, maxUnavailable 3%); status observed 0, replicas 27, updated 15, ready 17, available 13, terminating 2; ReplicaSets [web-1(12) web-0(13)]; 0 pods
	// seed 0: valid true, sync error <nil>, violations 0
	// seed 1: valid true, sync error <nil>, violations 0
	// seed 2: valid true, sync error <nil>, violations 0
	// seed 3: valid true, sync error <nil>, violations 0
	// seed 4: valid true, sync error <nil>, violations 0
}
