package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
)

// statefulSetLivenessBound is S5, the number of syncs after a template
// change within which a RollingUpdate set whose pods become ready completes:
// 2u when pods start, stop and become available at once, else 5u, or 7u
// with minReadySeconds, for u = replicas − partition pods to replace (see
// the package documentation).
func statefulSetLivenessBound(set *model.StatefulSet, instant bool) int {
	u := max(0, int(set.SpecReplicas())-partitionIndex(set))
	switch {
	case instant:
		return 2 * u
	case set.Spec.MinReadySeconds > 0:
		return 7 * u
	}
	return 5 * u
}

// drawStatefulSet draws a RollingUpdate set of up to max replicas with any
// management policy, partition (possibly above replicas), maxUnavailable,
// minReadySeconds, claim template and retention policy, and whether the
// MaxUnavailableStatefulSet gate is on.
func drawStatefulSet(t *rapid.T, maxReplicas int) (*model.StatefulSet, bool) {
	opts := []stsOpt{partitioned(int32(rapid.IntRange(0, maxReplicas+1).Draw(t, "partition")))}
	if rapid.Bool().Draw(t, "parallel") {
		opts = append(opts, parallelSet)
	}
	if rapid.Bool().Draw(t, "claims") {
		opts = append(opts, www)
		if rapid.Bool().Draw(t, "scaledDelete") {
			opts = append(opts, scaledDelete)
		}
	}
	set := stsSet(int32(rapid.IntRange(0, maxReplicas).Draw(t, "replicas")), opts...)
	if mu := rapid.SampledFrom([]string{"", "1", "2", "3", "50%", "100%"}).Draw(t, "maxUnavailable"); mu != "" {
		set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.ParseIntOrString(mu))
	}
	set.Spec.MinReadySeconds = int32(rapid.SampledFrom([]int{0, 0, 3, 10}).Draw(t, "minReadySeconds"))
	return set, rapid.Bool().Draw(t, "maxUnavailableGate")
}

// S5 over random sets and timings: a template change to a complete set
// whose pods become ready completes within statefulSetLivenessBound, and
// every sync satisfies S1–S4 and S7.
func TestStatefulSetLivenessBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set, gate := drawStatefulSet(t, 10)
		world := World{
			ReadyAfter:       time.Duration(rapid.IntRange(0, 20).Draw(t, "readyAfter")) * time.Second,
			TerminationGrace: time.Duration(rapid.IntRange(0, 30).Draw(t, "grace")) * time.Second,
		}
		interval := time.Duration(rapid.SampledFrom([]int{250, 1000, 1000, 5000}).Draw(t, "intervalMillis")) * time.Millisecond
		tr, err := RunStatefulSet(StatefulSetConfig{StatefulSet: set, MaxUnavailable: gate, World: world, SyncInterval: interval,
			Check: true, Record: RecordSummary,
			Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}}}})
		if err != nil {
			t.Fatal(err)
		}
		s := tr.Summary
		if !s.Completed || s.Violations > 0 || s.Unfired > 0 {
			t.Fatalf("summary %+v", s)
		}
		instant := world.ReadyAfter == 0 && world.TerminationGrace == 0 && set.Spec.MinReadySeconds == 0
		if bound := statefulSetLivenessBound(set, instant); s.CompletedSyncs > bound {
			t.Fatalf("completed after %d syncs, bound %d", s.CompletedSyncs, bound)
		}
	})
}

// S5, exhaustively over small sets: every replicas 0–6 and partition,
// both policies, the gate on and off, three timings (instant; slow pods;
// slow pods with minReadySeconds). The bound holds everywhere and is
// reached: for each timing and each u ≥ 1 some set takes exactly the bound
// (OrderedReady with the gate off replaces one pod at a time and takes it).
func TestStatefulSetLivenessSweep(t *testing.T) {
	type timing struct {
		name     string
		world    World
		minReady int32
	}
	timings := []timing{
		{"instant", World{}, 0},
		{"slow", World{ReadyAfter: 3 * time.Second, TerminationGrace: 2 * time.Second}, 0},
		{"slow, minReadySeconds", World{ReadyAfter: 3 * time.Second, TerminationGrace: 2 * time.Second}, 5},
	}
	for _, tm := range timings {
		reached := map[int]bool{}
		for n := int32(0); n <= 6; n++ {
			for p := int32(0); p <= n+1; p++ {
				for _, par := range []bool{false, true} {
					for _, gate := range []bool{false, true} {
						opts := []stsOpt{partitioned(p), www}
						if par {
							opts = append(opts, parallelSet)
						}
						set := stsSet(n, opts...)
						set.Spec.MinReadySeconds = tm.minReady
						set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromInt(2))
						tr, err := RunStatefulSet(StatefulSetConfig{StatefulSet: set, MaxUnavailable: gate, World: tm.world, Check: true, Record: RecordSummary,
							Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}}}})
						if err != nil {
							t.Fatal(err)
						}
						s := tr.Summary
						name := fmt.Sprintf("%s: replicas %d partition %d parallel %v gate %v", tm.name, n, p, par, gate)
						if !s.Completed || s.Violations > 0 {
							t.Fatalf("%s: summary %+v", name, s)
						}
						bound := statefulSetLivenessBound(set, tm.name == "instant")
						if s.CompletedSyncs > bound {
							t.Errorf("%s: completed after %d syncs, bound %d", name, s.CompletedSyncs, bound)
						}
						if s.CompletedSyncs == bound {
							reached[max(0, int(n-p))] = true
						}
					}
				}
			}
		}
		for u := 1; u <= 6; u++ {
			if !reached[u] {
				t.Errorf("%s: no set with %d pods to replace reaches the bound", tm.name, u)
			}
		}
	}
}

// stsScript draws up to six user actions on the set "web": template
// changes (possibly to a template whose pods never become Ready), scaling,
// partition and strategy changes, pod deletions and undos, at increasing
// times or on the rollout's conditions. It reports whether the set ends as
// a RollingUpdate and whether a broken template was used.
func stsScript(t *rapid.T, set *model.StatefulSet, allowBroken bool) (events []Event, rolling, broken bool) {
	rolling = set.Spec.UpdateStrategy.Type == model.RollingUpdateStatefulSetStrategyType
	at := 0
	for i := range rapid.IntRange(0, 6).Draw(t, "actions") {
		var a Action
		switch rapid.IntRange(0, 6).Draw(t, "kind") {
		case 0:
			img := drawTag(t, allowBroken)
			broken = broken || img == "broken"
			a = Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:" + img)}
		case 1:
			a = Action{Kind: ScaleTo, Replicas: int32(rapid.IntRange(0, 6).Draw(t, "scale"))}
		case 2:
			if !rolling {
				continue
			}
			a = Action{Kind: SetPartition, Partition: int32(rapid.IntRange(0, 7).Draw(t, "partition"))}
		case 3:
			if rolling {
				a = Action{Kind: SetStrategy, UpdateStrategy: model.OnDeleteStatefulSetStrategyType}
			} else {
				a = Action{Kind: SetStrategy, UpdateStrategy: model.RollingUpdateStatefulSetStrategyType}
				if rapid.Bool().Draw(t, "withMaxUnavailable") {
					a.MaxUnavailable = model.IntOrStringPtr(model.FromInt(int32(rapid.IntRange(1, 3).Draw(t, "maxUnavailable"))))
				}
			}
			rolling = !rolling
		case 4:
			a = Action{Kind: DeletePod, Pod: fmt.Sprintf("web-%d", rapid.IntRange(0, 6).Draw(t, "pod"))}
		case 5:
			a = Action{Kind: UndoRollout, Revision: int64(rapid.IntRange(0, 3).Draw(t, "toRevision"))}
		case 6:
			a = Action{Kind: ScaleTo, Replicas: int32(rapid.IntRange(0, 6).Draw(t, "scale"))}
		}
		events = append(events, drawWhen(t, a, i, &at))
	}
	return events, rolling, broken
}

// Generated sets, worlds and scripts: every sync of every simulation
// satisfies the invariants S1–S4 and S7 (pods failing, being evicted,
// never becoming ready; users scaling, changing templates, partitions and
// strategies, deleting pods and undoing). When nothing fails, the script
// has run and the set ends as a RollingUpdate, the rollout completes within
// 8 syncs per pod (the most that existed at once) and 8 more, from the
// last user action on, whatever state that action left behind: one more
// per pod than after a template change to a complete set (7u), because
// from such a state a deletion can leave a status to recount.
func TestStatefulSetScriptsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set, gate := drawStatefulSet(t, 6)
		if rapid.IntRange(0, 3).Draw(t, "onDelete") == 0 {
			onDeleteSet(set)
		}
		failures := rapid.Bool().Draw(t, "failures")
		world := World{
			ReadyAfter:       time.Duration(rapid.IntRange(0, 15).Draw(t, "readyAfter")) * time.Second,
			TerminationGrace: time.Duration(rapid.IntRange(0, 20).Draw(t, "grace")) * time.Second,
			NeverReady:       NeverReadyImage("broken"),
			Seed:             rapid.Uint64().Draw(t, "seed"),
		}
		cfg := StatefulSetConfig{StatefulSet: set, MaxUnavailable: gate, World: world, Check: true, Record: RecordSummary, MaxSyncs: 5000}
		if failures {
			cfg.World.FailureRate = rapid.SampledFrom([]float64{0, 0.02, 0.1}).Draw(t, "failureRate")
			cfg.EvictionRate = rapid.SampledFrom([]float64{0, 0.02, 0.1}).Draw(t, "evictionRate")
		}
		script, rolling, broken := stsScript(t, set, failures)
		cfg.Script = script
		tr, err := RunStatefulSet(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := tr.Summary
		if s.Violations > 0 {
			t.Fatalf("summary %+v", s)
		}
		// Liveness is for scripts that break nothing: no failures, no
		// broken template, a RollingUpdate in the end, and none of the
		// upstream livelock of plantest.QuirkNilRollingUpdateLoop (the only
		// quirk a run without failures meets).
		if failures || broken || !rolling || s.Unfired > 0 || s.Quirks > 0 {
			return
		}
		if !s.Completed {
			t.Fatalf("not completed: %+v", s)
		}
		if bound := 8*int(s.PeakPods) + 8; s.CompletedSyncs > bound {
			t.Fatalf("completed after %d syncs, bound %d (peak pods %d)", s.CompletedSyncs, bound, s.PeakPods)
		}
	})
}

// The same generated simulations recording every step: the timeline and
// the chart render, and a violation would be shown in the timeline.
func TestStatefulSetRenderProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		set, gate := drawStatefulSet(t, 5)
		script, _, _ := stsScript(t, set, true)
		tr, err := RunStatefulSet(StatefulSetConfig{StatefulSet: set, MaxUnavailable: gate, Check: true, MaxSyncs: 2000, Script: script,
			World: World{ReadyAfter: 2 * time.Second, TerminationGrace: 3 * time.Second, NeverReady: NeverReadyImage("broken"), FailureRate: 0.02}})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := tr.WriteTimeline(&b); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "VIOLATION") {
			t.Fatalf("timeline shows a violation:\n%s", b.String())
		}
		b.Reset()
		if err := tr.WriteSVG(&b, "web"); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(b.String(), "</svg>\n") {
			t.Fatal("the chart is cut short")
		}
	})
}
