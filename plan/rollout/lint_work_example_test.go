package rollout_test

import (
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// A Deployment of 2147483647 replicas rolled a pod at a time takes a sync
// per replica: LintOptions.MaxWork stops its simulation before memory runs
// out.
func ExampleLintOptions_maxWork() {
	d, _ := web()
	d.Spec.Replicas = model.Int32Ptr(1<<31 - 1)
	d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{
		MaxSurge: model.IntOrStringPtr(model.FromInt(0)), MaxUnavailable: model.IntOrStringPtr(model.FromInt(1))}}
	_, err := rollout.Lint(d, rollout.LintOptions{MaxWork: 10_000})
	fmt.Println(errors.Is(err, sim.ErrWorkBound))
	// Output:
	// true
}
