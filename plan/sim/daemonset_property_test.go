package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// budgets are the rolling updates the liveness tests draw from:
// maxUnavailable alone, then maxSurge alone (apps/v1 allows one of them
// non-zero).
var budgets = [][2]string{{"1", "0"}, {"2", "0"}, {"3", "0"}, {"50%", "0"}, {"100%", "0"}, {"0", "1"}, {"0", "2"}, {"0", "50%"}, {"0", "100%"}}

// D6, exhaustively over small pools: 1–8 nodes, every budget above, five
// timings (instant; slow pods with a short and a long grace period, with
// and without minReadySeconds). The update completes within
// DaemonSetLivenessBound everywhere, every sync satisfies D1–D4, and the
// bound is tight: without a surge some pool reaches it for every number of
// waves 1–8 and every timing (one node at a time takes it); with a surge
// instant pools reach it, and without minReadySeconds pools whose old pods
// terminate longer than the new ones take to start come within one sync of
// it (a surge overlaps the next wave with the old pods' termination, and
// the last one's costs its syncs at the end).
func TestDaemonSetLivenessSweep(t *testing.T) {
	timings := []struct {
		name     string
		world    World
		minReady int32
	}{
		{"instant", World{}, 0},
		{"slow", World{ReadyAfter: 3 * time.Second, TerminationGrace: 2 * time.Second}, 0},
		{"slow, long grace", World{ReadyAfter: 3 * time.Second, TerminationGrace: 30 * time.Second}, 0},
		{"slow, minReadySeconds", World{ReadyAfter: 3 * time.Second, TerminationGrace: 2 * time.Second}, 5},
		{"slow, long grace, minReadySeconds", World{ReadyAfter: 3 * time.Second, TerminationGrace: 30 * time.Second}, 5},
	}
	runs, worst := 0, 0
	for _, tm := range timings {
		// closest[surge][waves] is the most syncs any pool took minus its
		// bound.
		closest := map[bool]map[int]int{false: {}, true: {}}
		for n := 1; n <= 8; n++ {
			for _, b := range budgets {
				ds := dsSet(rolling(b[0], b[1]), minReady(tm.minReady))
				tr := mustRunDS(t, DaemonSetConfig{DaemonSet: ds, Nodes: pool(n), World: tm.world, Check: true, Record: RecordSummary,
					Script: []Event{updateTo("fluentd:v2")}})
				runs++
				s := tr.Summary
				name := fmt.Sprintf("%s: %d nodes, maxUnavailable %s maxSurge %s", tm.name, n, b[0], b[1])
				require.True(t, s.Completed, "%s: %+v", name, s)
				require.Zero(t, s.Violations, name)
				instant := tm.name == "instant"
				bound := DaemonSetLivenessBound(ds, n, instant)
				assert.LessOrEqual(t, s.CompletedSyncs, bound, name)
				worst = max(worst, s.CompletedSyncs)
				surge, waves := b[1] != "0", bound/DaemonSetLivenessBound(ds, 1, instant)
				if d, ok := closest[surge][waves]; !ok || s.CompletedSyncs-bound > d {
					closest[surge][waves] = s.CompletedSyncs - bound
				}
			}
		}
		for w := 1; w <= 8; w++ {
			assert.Zero(t, closest[false][w], "%s: %d waves without a surge", tm.name, w)
			switch {
			case tm.name == "instant":
				assert.Zero(t, closest[true][w], "%s: %d waves with a surge", tm.name, w)
			case tm.name == "slow, long grace":
				assert.Equal(t, -1, closest[true][w], "%s: %d waves with a surge", tm.name, w)
			}
		}
	}
	t.Logf("%d runs, at most %d syncs", runs, worst)
}

// D6 over random pools, budgets and timings: a template change to a
// complete RollingUpdate DaemonSet whose pods become ready completes within
// DaemonSetLivenessBound of the nodes that should run a pod (nodes outside
// the node selector, and tainted ones, do not count), and every sync
// satisfies D1–D4.
func TestDaemonSetLivenessBound(t *testing.T) {
	most := 0
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SampledFrom(budgets).Draw(t, "budget")
		ds := dsSet(rolling(b[0], b[1]), minReady(int32(rapid.SampledFrom([]int{0, 0, 3, 10}).Draw(t, "minReadySeconds"))),
			func(ds *model.DaemonSet) { ds.Spec.Scheduling.NodeSelector = map[string]string{"pool": "general"} })
		var nodes []*model.Node
		desired := 0
		for i := range rapid.IntRange(0, 14).Draw(t, "nodes") {
			n := &model.Node{ObjectMeta: model.ObjectMeta{Name: fmt.Sprintf("n-%02d", i), Labels: map[string]string{"pool": "general"}}}
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0:
				n.Labels["pool"] = "gpu"
			case 1:
				n.Spec.Taints = []model.Taint{{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}}
			case 2:
				n.Spec.Unschedulable = true
				n.Spec.Taints = []model.Taint{{Key: model.TaintNodeUnschedulable, Effect: model.TaintEffectNoSchedule}}
				desired++
			default:
				desired++
			}
			nodes = append(nodes, n)
		}
		world := World{
			ReadyAfter:       time.Duration(rapid.IntRange(0, 20).Draw(t, "readyAfter")) * time.Second,
			TerminationGrace: time.Duration(rapid.IntRange(0, 30).Draw(t, "grace")) * time.Second,
		}
		interval := time.Duration(rapid.SampledFrom([]int{250, 1000, 1000, 5000}).Draw(t, "intervalMillis")) * time.Millisecond
		tr, err := RunDaemonSet(DaemonSetConfig{DaemonSet: ds, Nodes: nodes, World: world, SyncInterval: interval, Check: true, Record: RecordSummary,
			Script: []Event{updateTo("fluentd:v2")}})
		if err != nil {
			t.Fatal(err)
		}
		s := tr.Summary
		if !s.Completed || s.Violations > 0 || s.Quirks > 0 || s.Unfired > 0 {
			t.Fatalf("summary %+v", s)
		}
		instant := world.ReadyAfter == 0 && world.TerminationGrace == 0 && ds.Spec.MinReadySeconds == 0
		if bound := DaemonSetLivenessBound(ds, desired, instant); s.CompletedSyncs > bound {
			t.Fatalf("%d desired nodes: completed after %d syncs, bound %d", desired, s.CompletedSyncs, bound)
		}
		most = max(most, s.CompletedSyncs)
	})
	t.Logf("at most %d syncs", most)
}

// dsScript draws up to eight actions on the DaemonSet "fluentd" and its
// pool: template changes (possibly to a template whose pods never become
// Ready), undos, strategy changes, pod deletions, and nodes added,
// removed, cordoned, uncordoned, tainted NoSchedule or NoExecute and
// untainted, at increasing times or on the rollout's conditions. It
// reports whether a broken template was used.
func dsScript(t *rapid.T, allowBroken bool) (events []Event, broken bool) {
	at := 0
	added := 0
	nodeName := func() string { return fmt.Sprintf("n-%d", rapid.IntRange(1, 6).Draw(t, "node")) }
	taints := []model.Taint{
		{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule},
		{Key: "dedicated", Value: "infra", Effect: model.TaintEffectNoExecute},
		{Key: model.TaintNodeNotReady, Effect: model.TaintEffectNoExecute},
	}
	for i := range rapid.IntRange(0, 8).Draw(t, "actions") {
		var a Action
		switch rapid.IntRange(0, 9).Draw(t, "kind") {
		case 0, 1:
			img := drawTag(t, allowBroken)
			broken = broken || img == "broken"
			a = Action{Kind: SetTemplateSpec, Spec: dsImage("fluentd:" + img)}
		case 2:
			a = Action{Kind: UndoRollout, Revision: int64(rapid.IntRange(0, 3).Draw(t, "toRevision"))}
		case 3:
			b := rapid.SampledFrom(budgets).Draw(t, "budget")
			a = Action{Kind: SetStrategy, MaxUnavailable: model.IntOrStringPtr(model.ParseIntOrString(b[0])), MaxSurge: model.IntOrStringPtr(model.ParseIntOrString(b[1]))}
			if rapid.IntRange(0, 4).Draw(t, "onDelete") == 0 {
				a = Action{Kind: SetStrategy, UpdateStrategy: model.OnDeleteStatefulSetStrategyType}
			}
		case 4:
			a = Action{Kind: AddNode, Node: fmt.Sprintf("m-%d", added), Labels: map[string]string{"pool": "general"}}
			added++
		case 5:
			a = Action{Kind: RemoveNode, Node: nodeName()}
		case 6:
			a = Action{Kind: CordonNode, Node: nodeName()}
		case 7:
			a = Action{Kind: UncordonNode, Node: nodeName()}
		case 8:
			a = Action{Kind: TaintNode, Node: nodeName(), Taint: rapid.SampledFrom(taints).Draw(t, "taint")}
		case 9:
			a = Action{Kind: UntaintNode, Node: nodeName(), Taint: rapid.SampledFrom(taints).Draw(t, "untaint")}
		}
		events = append(events, drawWhen(t, a, i, &at))
	}
	return events, broken
}

// Generated pools, worlds and scripts: every sync of every simulation
// satisfies D1–D4 (violations upstream itself makes are tagged with
// QuirkExcessKeepsOldest), pods failing, being evicted and never becoming
// ready, users changing templates and strategies, undoing, deleting pods,
// and nodes coming, going, cordoned and tainted. When nothing fails and
// every template works, the simulation ends complete, or stalled under
// OnDelete, with old pods only OnDelete keeps, or with pods the scheduler
// cannot bind (a node tainted after its pod was created, which upstream
// leaves pending too), or, with no node left that should run a pod, with
// old pods on tainted nodes that a budget resolved against zero nodes
// (maxUnavailable 50% of 0) never lets go, as upstream: never a livelock.
func TestDaemonSetScripts(t *testing.T) {
	quirks := 0
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SampledFrom(budgets).Draw(t, "budget")
		ds := dsSet(rolling(b[0], b[1]), minReady(int32(rapid.SampledFrom([]int{0, 0, 5}).Draw(t, "minReadySeconds"))))
		faults := rapid.Bool().Draw(t, "faults")
		events, broken := dsScript(t, faults)
		world := World{
			ReadyAfter:       time.Duration(rapid.IntRange(0, 10).Draw(t, "readyAfter")) * time.Second,
			TerminationGrace: time.Duration(rapid.IntRange(0, 10).Draw(t, "grace")) * time.Second,
			NeverReady:       NeverReadyImage("broken"),
			Seed:             rapid.Uint64().Draw(t, "seed"),
		}
		cfg := DaemonSetConfig{DaemonSet: ds, Nodes: pool(rapid.IntRange(0, 6).Draw(t, "nodes")), World: world, Script: events, Check: true, MaxSyncs: 3000}
		if faults {
			cfg.World.FailureRate = 0.05
			cfg.EvictionRate = 0.02
		}
		tr, err := RunDaemonSet(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tr.Steps {
			for _, v := range s.Violations {
				if v.Quirk == "" {
					t.Fatalf("sync %d: %s\n%s", s.Sync, v, what(tr, 0))
				}
				quirks++
			}
		}
		s := tr.Summary
		if faults || broken {
			return
		}
		last := lastDSStep(tr)
		switch {
		case s.Completed:
		case s.Stalled && s.StallReason == fmt.Sprintf("no fixed point within %d syncs", cfg.MaxSyncs):
			t.Fatalf("no fixed point: %+v", s)
		case slices.ContainsFunc(last.Notes, func(r plan.Reason) bool { return r.Code == daemonset.NoteOnDelete }):
		case strings.Contains(s.StallReason, "cannot bind"):
		case last.Desired == 0 && s.StallReason != "":
		default:
			t.Fatalf("stalled: %s\n%s", s.StallReason, what(tr, 0))
		}
	})
	t.Logf("%d violations tagged as upstream quirks", quirks)
}

// D5 along generated simulations: every state a simulation plans (nodes
// coming, going and tainted, pods starting, failing and terminating, the
// template changing) gives the same plan in any slice order, and planning
// leaves it alone (plantest.CheckDaemonSetDeterminism).
func TestDaemonSetDeterminismAlongScripts(t *testing.T) {
	states := 0
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SampledFrom(budgets).Draw(t, "budget")
		events, _ := dsScript(t, true)
		r, err := newDaemonSetRunner(DaemonSetConfig{DaemonSet: dsSet(rolling(b[0], b[1])), Nodes: pool(rapid.IntRange(0, 5).Draw(t, "nodes")),
			World: World{ReadyAfter: 2 * time.Second, TerminationGrace: time.Second, FailureRate: 0.05, NeverReady: NeverReadyImage("broken"),
				Seed: rapid.Uint64().Draw(t, "seed")},
			EvictionRate: 0.02, Script: events, Record: RecordSummary, MaxSyncs: 300})
		if err != nil {
			t.Fatal(err)
		}
		r.planned = func(s daemonset.State, _ daemonset.Plan) {
			states++
			if vs := plantest.CheckDaemonSetDeterminism(s, r.opts...); len(vs) > 0 {
				t.Fatalf("%v", vs)
			}
		}
		if _, err := r.run(); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%d states checked", states)
}
