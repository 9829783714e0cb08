package plan_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/rolloutplan/rolloutplan/internal/cputime"
	"github.com/rolloutplan/rolloutplan/plan"
)

// plannerBenchState is the Recreate wait of the corpus (a Deployment, two
// ReplicaSets, old pods still running) with pods in all: the extra ones
// are copies of its first pod under their own names and UIDs.
func plannerBenchState(tb testing.TB, pods int) plan.State {
	tb.Helper()
	s := corpus()[2].state
	s.Pods = slices.Clone(s.Pods)
	for i := len(s.Pods); i < pods; i++ {
		pod := s.Pods[0].DeepCopy()
		pod.Name, pod.UID = "extra-"+strconv.Itoa(i), "uid-extra-"+strconv.Itoa(i)
		s.Pods = append(s.Pods, pod)
	}
	if _, err := plan.Sync(s); err != nil {
		tb.Fatalf("fixture: %v", err)
	}
	return s
}

// BenchmarkPlannerValidation times one Planner.Sync per op of the same
// Deployment (4, 16 or 1 024 pods) in the ways a controller sees it again:
//
//   - same: the same lists (the same objects in the same order);
//   - reordered: the same objects, in one of two orders (a lister
//     returns its cache in map order);
//   - podChanged: one pod replaced by a new object each op (its status
//     changed), so the snapshot is one the Planner has not seen;
//   - newDeployment: a Deployment object not seen before (same UID)
//     each op, with the same lists;
//   - firstSync: a new Planner each op, so every object is new to it (the
//     cost of NewPlanner included).
//
// The last three are the Planner's miss paths; each op of podChanged and
// newDeployment allocates one object in the loop (the same in every
// version of the Planner).
func BenchmarkPlannerValidation(b *testing.B) {
	benchPlannerValidation(b, (*plan.Planner).Sync)
}

// BenchmarkPlannerValidationOnly is BenchmarkPlannerValidation timing the
// Planner's validation alone, without the plan.
func BenchmarkPlannerValidationOnly(b *testing.B) {
	benchPlannerValidation(b, func(p *plan.Planner, s plan.State) (plan.Plan, error) {
		return plan.Plan{}, plan.PlannerValidate(p, s)
	})
}

func benchPlannerValidation(b *testing.B, sync func(*plan.Planner, plan.State) (plan.Plan, error)) {
	for _, pods := range []int{4, 16, 1024} {
		s := plannerBenchState(b, pods)
		reversed := s
		reversed.Pods = slices.Clone(s.Pods)
		slices.Reverse(reversed.Pods)
		reversed.ReplicaSets = slices.Clone(s.ReplicaSets)
		slices.Reverse(reversed.ReplicaSets)
		run := func(name string, next func(i int) plan.State) {
			b.Run(fmt.Sprintf("%s/%dpods", name, pods), func(b *testing.B) {
				p := plan.NewPlanner()
				for range 2 { // a Planner remembers lists from the second sync on
					if _, err := p.Sync(s); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				start := cputime.Process()
				i := 0
				for b.Loop() {
					in := s
					if next == nil {
						p = plan.NewPlanner()
					} else {
						in = next(i)
					}
					if _, err := sync(p, in); err != nil {
						b.Fatal(err)
					}
					i++
				}
				// CPU time is steadier than wall time on a shared machine.
				b.ReportMetric(float64((cputime.Process()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
		run("same", func(int) plan.State { return s })
		run("reordered", func(i int) plan.State {
			if i%2 == 0 {
				return reversed
			}
			return s
		})
		changed := s
		changed.Pods = slices.Clone(s.Pods)
		run("podChanged", func(i int) plan.State {
			pod := *s.Pods[1]
			changed.Pods[1] = &pod
			return changed
		})
		renewed := s
		run("newDeployment", func(i int) plan.State {
			d := *s.Deployment
			renewed.Deployment = &d
			return renewed
		})
		run("firstSync", nil)
	}
}
