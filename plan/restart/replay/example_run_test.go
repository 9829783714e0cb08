package replay_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

// A script built or decoded elsewhere is checked as ParseScript checks
// its own: here the second event goes back in time.
func ExampleScript_Validate() {
	s := replay.Script{Events: []replay.Event{{At: 2, Op: "tick"}, {At: 1, Op: "tick"}}}
	fmt.Println(s.Validate())
	s.Events[1].At = 3
	fmt.Println(s.Validate())
	// Output:
	// bad restart script: events[1].at 1: want non-decreasing times from 0 to 1e9
	// <nil>
}

// A long script's trace is printed step by step rather than kept.
func ExampleRunFunc() {
	s, err := replay.ParseScript([]byte(`{"events": [{"at": 0, "op": "tick"}, {"at": 1, "op": "kill"}, {"at": 2, "op": "start"}]}`))
	if err != nil {
		panic(err)
	}
	final, err := replay.RunFunc(s, replay.Options{}, func(st replay.Step) error {
		fmt.Printf("step %d at %vs: %s\n", st.I, st.At, st.Op)
		return nil
	})
	fmt.Println(final != nil, err)
	// Output:
	// step 0 at 0s: tick
	// step 1 at 1s: kill
	// step 2 at 2s: start
	// true <nil>
}
