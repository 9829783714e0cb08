package model_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// A selector checked once (here by Check, in a planner by State.Validate)
// is matched without being checked again.
func ExampleNewPreValidatedMatcher() {
	sel := &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	if err := sel.Check(); err != nil {
		fmt.Println(err)
		return
	}
	m := model.NewPreValidatedMatcher(sel)
	fmt.Println(m.Matches(map[string]string{"app": "web", "tier": "front"}), m.Matches(map[string]string{"app": "db"}))
	// Output: true false
}
