package gen

import (
	"errors"
	"os"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// edgeStates is how many states TestEdgeStates plans: 2 000 by default, and
// the value of ROLLOUTPLAN_EDGE_STATES when set (the full audit runs 20 000).
func edgeStates(t *testing.T) int {
	n := 2000
	if s := os.Getenv("ROLLOUTPLAN_EDGE_STATES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("ROLLOUTPLAN_EDGE_STATES=%q: want a positive integer", s)
		}
		n = v
	}
	if testing.Short() {
		n = min(n, 200)
	}
	return n
}

// At the int32 edges (sizes from [0, 20] ∪ [2147483647 − 1000, 2147483647],
// fenceposts up to 2147483647, up to 200 ReplicaSets, revisions at the int64
// limit) no write a real API server rejects is in a plan's accepted view,
// every rejected write is marked with the server's message and ends the
// sync with it, and every invariant violation is attributed to a named
// upstream quirk.
func TestEdgeStates(t *testing.T) {
	n := edgeStates(t)
	var invalidMarked, acceptedWrites, negativeAnnotations int
	quirks := map[string]int{}
	for i := range n {
		s := EdgeState(200).Example(i)
		p, err := plan.Sync(s)
		var serr *plan.SyncError
		if err != nil && !errors.As(err, &serr) {
			t.Fatalf("state %d: generated state rejected: %v", i, err)
		}
		first, rejected := p.Rejected()
		for j, a := range p.Actions {
			if a.Invalid != "" {
				invalidMarked++
				if !rejected || j < first {
					t.Fatalf("state %d: invalid write %d (%s) before the first rejected write %d", i, j, a, first)
				}
			}
		}
		if rejected && p.Actions[first].Invalid != "" &&
			(serr == nil || serr.Kind != plan.ErrKindInvalid || serr.Message != p.Actions[first].Invalid) {
			t.Fatalf("state %d: first rejected write is invalid but Sync returned %v", i, err)
		}
		writes, err := render.Writes(s, p)
		if err != nil {
			t.Fatalf("state %d: %v", i, err)
		}
		for _, w := range render.Accepted(writes) {
			acceptedWrites++
			if msg := serverRejects(w); msg != "" {
				t.Fatalf("state %d: accepted write %s %s is one a server rejects: %s", i, w.Kind, w.Name, msg)
			}
			if w.ReplicaSet != nil && negativeAnnotation(w.ReplicaSet) {
				negativeAnnotations++
			}
		}
		// The accepted view, applied, leaves a namespace that validates.
		c := &inmemory.Cluster{Deployment: s.Deployment, ReplicaSets: slices.Clone(s.ReplicaSets)}
		if errs := c.ApplyPlan(p, inmemory.ApplyAccepted, s.Now); len(errs) > 0 {
			t.Fatalf("state %d: applying the accepted writes: %v", i, errs)
		}
		if err := c.State(s.Now).Validate(); err != nil {
			t.Fatalf("state %d: the accepted view leaves an invalid namespace: %v", i, err)
		}
		for _, v := range plantest.Check(s, p) {
			if v.Quirk == "" {
				t.Fatalf("state %d: unattributed violation %s\nplan: %v", i, v, p.Actions)
			}
			quirks[v.Quirk]++
		}
	}
	names := make([]string, 0, len(quirks))
	for q := range quirks {
		names = append(names, q)
	}
	sort.Strings(names)
	t.Logf("%d states: %d accepted writes, 0 invalid among them; %d writes marked invalid; %d accepted writes with a negative replica annotation (a server accepts them)", n, acceptedWrites, invalidMarked, negativeAnnotations)
	for _, q := range names {
		t.Logf("  %6d violations attributed to %q", quirks[q], q)
	}
}

// serverRejects restates, independently of the planner, the apps/v1
// validation rules a controller write can break through int32 arithmetic:
// model validation of the ReplicaSet sent, and non-negative, consistent
// status counts for a status write.
func serverRejects(w render.Write) string {
	switch {
	case w.ReplicaSet != nil:
		if w.ReplicaSet.SpecReplicas() < 0 {
			return "negative spec.replicas"
		}
	case w.Deployment != nil && w.Kind == render.UpdateDeploymentStatus:
		st := w.Deployment.Status
		if err := model.ValidateDeployment(w.Deployment); err != nil {
			return err.Error()
		}
		if st.UpdatedReplicas > st.Replicas || st.ReadyReplicas > st.Replicas || st.AvailableReplicas > st.Replicas || st.AvailableReplicas > st.ReadyReplicas {
			return "status counts above status.replicas"
		}
	}
	return ""
}

func negativeAnnotation(rs *model.ReplicaSet) bool {
	for _, k := range []string{model.DesiredReplicasAnnotation, model.MaxReplicasAnnotation} {
		if n, err := strconv.ParseInt(rs.Annotations[k], 10, 64); err == nil && n < 0 {
			return true
		}
	}
	return false
}

// A proportional scale's reason adds up at the edges too, with and without
// plan.ExactProportions: to = from + proportion + leftover in int32, plus
// what the clamp at 0 added back.
func TestEdgeProportionalReasonsAddUp(t *testing.T) {
	seen := 0
	for i := range edgeStates(t) / 4 {
		s := EdgeState(20).Example(i)
		for _, opts := range [][]plan.Option{nil, {plan.ExactProportions()}} {
			p, err := plan.Sync(s, opts...)
			if serr := (*plan.SyncError)(nil); err != nil && !errors.As(err, &serr) {
				t.Fatalf("state %d: generated state rejected: %v", i, err)
			}
			for _, a := range p.Actions {
				if a.Reason.Code != plan.ReasonProportional {
					continue
				}
				seen++
				r := a.Reason
				from, _ := r.Value("from")
				to, _ := r.Value("to")
				prop, _ := r.Value("proportion")
				left, _ := r.Value("leftover")
				clamped, _ := r.Value("clamped")
				if int64(int32(from+prop+left))+clamped != to || to != int64(a.Update.Replicas) {
					t.Fatalf("state %d: %s writes %d", i, r, a.Update.Replicas)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no proportional scale drawn")
	}
}
