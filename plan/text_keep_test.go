package plan_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

// TestPlansKeepTheirText: a plan's sentences are written to memory of its
// own (see the package's text memory), never reused by a later sync. The
// plans of every recorded conformance state and corpus scenario, kept
// while the same Planner (also from two goroutines at once) and Sync plan
// everything twice more, still marshal to exactly what a fresh Sync gives.
func TestPlansKeepTheirText(t *testing.T) {
	type job struct {
		name  string
		state plan.State
		opts  []plan.Option
	}
	var jobs []job
	for _, sc := range corpus() {
		jobs = append(jobs, job{sc.name, sc.state, sc.opts})
	}
	for i, s := range readConformanceStates(t) {
		jobs = append(jobs, job{fmt.Sprintf("conformance state %d", i), s, nil})
	}
	type kept struct {
		job  int
		how  string
		plan plan.Plan
	}
	planners := map[string]*plan.Planner{}
	planner := func(j job) *plan.Planner {
		key := fmt.Sprint(j.opts) // one Planner per option set
		if planners[key] == nil {
			planners[key] = plan.NewPlanner(j.opts...)
		}
		return planners[key]
	}
	var all []kept
	var mu sync.Mutex
	run := func(how string) {
		var out []kept
		for i, j := range jobs {
			p, err := planner(j).Sync(j.state)
			if err != nil {
				t.Errorf("%s: %v", j.name, err)
				return
			}
			out = append(out, kept{i, how + " Planner", p})
			if p, err = plan.Sync(j.state, j.opts...); err == nil {
				out = append(out, kept{i, how + " Sync", p})
			}
		}
		mu.Lock()
		all = append(all, out...)
		mu.Unlock()
	}
	run("first round")
	for _, j := range jobs {
		planner(j) // every Planner exists before the goroutines share them
	}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() { run(fmt.Sprintf("goroutine %d", g)) })
	}
	wg.Wait()
	run("last round")
	for _, k := range all {
		j := jobs[k.job]
		fresh, _ := plan.Sync(j.state, j.opts...)
		if got, want := mustJSON(t, k.plan), mustJSON(t, fresh); got != want {
			t.Fatalf("%s, %s: the kept plan changed after later syncs:\n%s\nfresh:\n%s", j.name, k.how, got, want)
		}
	}
}

// mustJSON is v as JSON.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
