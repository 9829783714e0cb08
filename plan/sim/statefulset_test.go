package sim

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// seed004 is the seed document the StatefulSet guarantees come from.
const seed004 = "seed 004_18a35e468e06e7a4.txt"

// The seed's worked examples of a StatefulSet, simulated: each case names
// the seed's section and line, the set and script, and the sequence of
// pod events the seed describes (see happenings for the notation).
func TestStatefulSetSeedExamples(t *testing.T) {
	slow := World{ReadyAfter: 10 * time.Second, TerminationGrace: 10 * time.Second}
	for _, tc := range []struct {
		name, source, why string
		cfg               StatefulSetConfig
		from              int      // the user action from which to compare; -1: from the start
		keep              []string // happening prefixes compared
		want              []string
		completed         bool
	}{
		{
			name: "ordered creation", source: seed004 + ":1381,1388 (Deployment and Scaling Guarantees)",
			why:  "web-0, web-1, web-2 are created in order, web-1 only once web-0 is Running and Ready, web-2 only once web-1 is",
			cfg:  StatefulSetConfig{StatefulSet: stsSet(3, www), World: slow},
			from: -1, keep: []string{"create", "ready"}, completed: true,
			want: []string{"create web-0@A", "ready web-0", "create web-1@A", "ready web-1", "create web-2@A", "ready web-2"},
		},
		{
			name: "ordered scale-down", source: seed004 + ":1384,1390 (Deployment and Scaling Guarantees)",
			why: "replicas=1 terminates web-2 first; web-1 is not terminated until web-2 is fully shut down and deleted",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3, www), World: slow,
				Script: []Event{{When: WhenComplete, Action: Action{Kind: ScaleTo, Replicas: 1}}}},
			from: 0, keep: []string{"delete", "gone", "create"}, completed: true,
			want: []string{"delete web-2 ScaleDown", "gone web-2", "delete web-1 ScaleDown", "gone web-1"},
		},
		{
			name: "a predecessor fails before the next launch", source: seed004 + ":1388 (Deployment and Scaling Guarantees)",
			why: "web-0 fails after web-0 and web-1 are Running and Ready, before web-2 is launched: web-2 waits until web-0 is relaunched and Running and Ready",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3), World: slow,
				// web-1 becomes ready at +0:20, when web-2 would be created.
				Script: []Event{{At: 20 * time.Second, Action: Action{Kind: DeletePod, Pod: "web-0"}}}},
			from: -1, keep: []string{"user", "create", "ready", "gone"}, completed: true,
			want: []string{"create web-0@A", "ready web-0", "create web-1@A", "user delete pod web-0", "ready web-1",
				"gone web-0", "create web-0@A", "ready web-0", "create web-2@A", "ready web-2"},
		},
		{
			name: "a replica fails during a scale-down", source: seed004 + ":1390 (Deployment and Scaling Guarantees)",
			why: "web-0 fails after web-2 is shut down and deleted, before web-1 is terminated: web-1 is not terminated until web-0 is Running and Ready",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3), World: slow,
				// The scale fires at +0:31; web-2 is gone at +0:41.
				Script: []Event{{When: WhenComplete, Action: Action{Kind: ScaleTo, Replicas: 1}},
					{At: 41 * time.Second, Action: Action{Kind: DeletePod, Pod: "web-0"}}}},
			from: 0, keep: []string{"user", "delete", "gone", "create", "ready"}, completed: true,
			want: []string{"user scale to 1", "delete web-2 ScaleDown", "user delete pod web-0", "gone web-2",
				"gone web-0", "create web-0@A", "ready web-0", "delete web-1 ScaleDown", "gone web-1"},
		},
		{
			name: "parallel management", source: seed004 + ":1402 (Parallel Pod Management)",
			why: "Parallel launches and terminates pods without waiting for each other",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3, parallelSet), World: slow,
				Script: []Event{{When: WhenComplete, Action: Action{Kind: ScaleTo, Replicas: 0}}}},
			from: -1, keep: []string{"user", "create", "delete"}, completed: true,
			want: []string{"create web-0@A", "create web-1@A", "create web-2@A", "user scale to 0",
				"delete web-2 ScaleDown", "delete web-1 ScaleDown", "delete web-0 ScaleDown"},
		},
		{
			name: "rolling update", source: seed004 + ":1414 (Rolling Updates)",
			why: "RollingUpdate replaces one pod at a time from the highest ordinal, waiting for each updated pod to be Running and Ready",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3, www), World: slow,
				Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}}}},
			from: 0, keep: []string{"delete", "gone", "create", "ready"}, completed: true,
			want: []string{
				"delete web-2 RollingUpdate", "gone web-2", "create web-2@B", "ready web-2",
				"delete web-1 RollingUpdate", "gone web-1", "create web-1@B", "ready web-1",
				"delete web-0 RollingUpdate", "gone web-0", "create web-0@B", "ready web-0"},
		},
		{
			name: "partition", source: seed004 + ":1418 (Partitions)",
			why: "with partition 2, only web-2 is updated; web-0, deleted, is re-created at the previous revision",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3, partitioned(2)), World: slow,
				Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}},
					{When: WhenComplete, Action: Action{Kind: DeletePod, Pod: "web-0"}}}},
			from: 0, keep: []string{"user", "delete", "create"}, completed: true,
			want: []string{"user set template " + image("nginx-slim:0.9"), "delete web-2 RollingUpdate", "create web-2@B",
				"user delete pod web-0", "create web-0@A"},
		},
		{
			name: "partition above replicas", source: seed004 + ":1418 (Partitions)",
			why: "a partition greater than replicas propagates no template update to the pods",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3, partitioned(5)), World: slow,
				Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}}}},
			from: 0, keep: []string{"delete", "create"}, completed: true,
			want: nil,
		},
		{
			name: "on delete", source: seed004 + ":1410 (On Delete)",
			why: "OnDelete does not update pods; a pod the user deletes is re-created from the new template",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3, onDeleteSet), World: slow,
				Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}},
					{When: WhenStalled, Action: Action{Kind: DeletePod, Pod: "web-1"}}}},
			from: 0, keep: []string{"user", "delete", "create"}, completed: false,
			want: []string{"user set template " + image("nginx-slim:0.9"), "user delete pod web-1", "create web-1@B"},
		},
		{
			name: "forced rollback", source: seed004 + ":1422-1428 (Forced Rollback)",
			why: "a template whose pods never become Ready stalls the rollout; reverting it is not enough until the broken pod is deleted",
			cfg: StatefulSetConfig{StatefulSet: stsSet(3, www), World: World{ReadyAfter: 10 * time.Second, TerminationGrace: 10 * time.Second, NeverReady: NeverReadyImage("broken")},
				Script: []Event{
					{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:broken"), Description: "set image broken"}},
					{When: WhenStalled, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.8"), Description: "revert the image"}},
					{When: WhenStalled, Action: Action{Kind: DeletePod, Pod: "web-2"}}}},
			from: 0, keep: []string{"user", "delete", "create", "broken", "ready"}, completed: true,
			want: []string{"user set image broken", "delete web-2 RollingUpdate", "create web-2@B", "broken web-2",
				"user revert the image", "user delete pod web-2", "create web-2@A", "ready web-2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := mustRunSTS(t, tc.cfg)
			from := 0
			if tc.from >= 0 {
				from = userSync(tr, tc.from)
			}
			got := only(happenings(tr, from), tc.keep...)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%s\n(%s) pod events differ (-want +got):\n%s", tc.why, tc.source, d)
			}
			if tr.Summary.Completed != tc.completed {
				var b bytes.Buffer
				_ = tr.WriteTimeline(&b)
				t.Errorf("%s: completed %v, want %v\n%s", tc.source, tr.Summary.Completed, tc.completed, b.String())
			}
		})
	}
}

// The seed's limitation (004:1273): scaling a StatefulSet down does not
// delete its volumes. With the retention policy whenScaled: Delete (which
// the seed predates), the claims of the removed pods go with them; the
// claims of the remaining pod stay either way.
func TestStatefulSetClaimsOnScaleDown(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   []stsOpt
		claims []string
	}{
		{"retained (" + seed004 + ":1273)", []stsOpt{www}, []string{"www-web-0", "www-web-1", "www-web-2"}},
		{"whenScaled Delete (persistentVolumeClaimRetentionPolicy)", []stsOpt{www, scaledDelete}, []string{"www-web-0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := newStatefulSetRunner(StatefulSetConfig{StatefulSet: stsSet(3, tc.opts...), Check: true,
				World:  World{ReadyAfter: 5 * time.Second, TerminationGrace: 5 * time.Second},
				Script: []Event{{When: WhenComplete, Action: Action{Kind: ScaleTo, Replicas: 1}}}})
			if err != nil {
				t.Fatal(err)
			}
			tr, err := r.run()
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Summary.Completed || tr.Summary.Violations != 0 {
				t.Fatalf("summary %+v", tr.Summary)
			}
			var names []string
			for _, c := range r.ns.claims {
				names = append(names, c.Name)
			}
			if d := cmp.Diff(tc.claims, names); d != "" {
				t.Errorf("claims after the scale-down (-want +got):\n%s", d)
			}
		})
	}
}

// The broken-state caveat of the seed (004:1422-1428, "Forced rollback"),
// step by step: the rollout to a never-Ready template stalls at web-2 with
// the planner's explanation; reverting the template renumbers the old
// revision but leaves the stall, with the same explanation; deleting web-2
// lets the controller re-create it at the reverted revision and the rollout
// completes. A Parallel set needs no deletion: its rolling update replaces
// the broken pod once the template is reverted.
func TestStatefulSetBrokenRollout(t *testing.T) {
	broken := Event{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:broken"), Description: "set image broken"}}
	revert := Event{When: WhenStalled, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.8"), Description: "revert the image"}}
	deletePod := Event{When: WhenStalled, Action: Action{Kind: DeletePod, Pod: "web-2"}}
	world := World{ReadyAfter: 10 * time.Second, TerminationGrace: 10 * time.Second, NeverReady: NeverReadyImage("broken")}
	const waiting = "web-2 is not Running and Ready (phase Running); OrderedReady waits before the rolling update"
	run := func(opts []stsOpt, script ...Event) *StatefulSetTrace {
		return mustRunSTS(t, StatefulSetConfig{StatefulSet: stsSet(3, opts...), World: world, Script: script})
	}

	tr := run(nil, broken)
	if s := tr.Summary; !s.Stalled || s.StallReason != waiting {
		t.Fatalf("the broken rollout: stalled %v, reason %q; want %q", s.Stalled, s.StallReason, waiting)
	}
	if got := lastStep(tr).Ordinals; got != "AAb" {
		t.Errorf("the broken rollout leaves pods %q, want AAb (web-0, web-1 ready at A, web-2 at B not ready)", got)
	}

	tr = run(nil, broken, revert)
	if s := tr.Summary; !s.Stalled || s.StallReason != waiting {
		t.Fatalf("after the revert: stalled %v, reason %q; want %q", s.Stalled, s.StallReason, waiting)
	}
	last := lastStep(tr)
	if last.UpdateRevision != last.CurrentRevision {
		t.Errorf("after the revert the update revision %s is not the current one %s again", last.UpdateRevision, last.CurrentRevision)
	}
	renumbered := false
	for _, s := range tr.Steps {
		for _, w := range s.Writes {
			renumbered = renumbered || w.Kind == statefulset.UpdateControllerRevision && w.Reason.Code == statefulset.ReasonRollback
		}
	}
	if !renumbered {
		t.Error("the revert does not renumber the old revision (a rollback)")
	}

	tr = run(nil, broken, revert, deletePod)
	if s := tr.Summary; !s.Completed || lastStep(tr).Ordinals != "AAA" {
		t.Fatalf("after deleting web-2: completed %v, pods %q", s.Completed, lastStep(tr).Ordinals)
	}

	tr = run([]stsOpt{parallelSet}, broken, revert)
	if s := tr.Summary; !s.Completed || lastStep(tr).Ordinals != "AAA" {
		t.Fatalf("Parallel after the revert: completed %v, pods %q, %s", s.Completed, lastStep(tr).Ordinals, s.StallReason)
	}
	var b strings.Builder
	_ = tr.WriteTimeline(&b)
	if !strings.Contains(b.String(), `web-2 is at revision "`) {
		t.Errorf("Parallel: the rolling update does not replace the broken web-2:\n%s", b.String())
	}
}

// The timeline of a rolling update with a partition, checked line by line
// for what a reader relies on; the chart has a series per revision.
func TestStatefulSetTimelineAndChart(t *testing.T) {
	tr := mustRunSTS(t, StatefulSetConfig{StatefulSet: stsSet(4, partitioned(2)), World: World{ReadyAfter: 5 * time.Second},
		Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9"), Description: "set image nginx-slim:0.9"}}}})
	var b bytes.Buffer
	if err := tr.WriteTimeline(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"revisions: A web-", "(revision 1), B web-", "(revision 2)",
		"AAAA", "AAAb", "AABB",
		"user: set image nginx-slim:0.9",
		"the rolling update replaces it (highest ordinal first, down to partition 2)",
		"since the last user action at", "completed after",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("timeline lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := tr.WriteSVG(&b, "web: partition 2"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"web: partition 2", "A web-", "B web-", " pods</text>", " ready</text>", "pods (incl. terminating)", "replicas (desired)", "▼ set image nginx-slim:0.9"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if err := (&StatefulSetTrace{}).WriteSVG(&b, "x"); err == nil {
		t.Error("no error for an empty trace")
	}
}

// A stalled StatefulSet's chart shades the stall with the planner's reason.
func TestStatefulSetChartStalled(t *testing.T) {
	tr := mustRunSTS(t, StatefulSetConfig{StatefulSet: stsSet(2), World: World{ReadyAfter: 5 * time.Second, NeverReady: NeverReadyImage("broken")},
		Script: []Event{{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("broken")}}}})
	var b bytes.Buffer
	if err := tr.WriteSVG(&b, "web"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"STALLED: no change since", "stalled: web-1 is not Running and Ready (phase Running)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

// The same configuration and seed give the same trace, failures included.
func TestStatefulSetDeterministicTrace(t *testing.T) {
	cfg := StatefulSetConfig{StatefulSet: stsSet(5, www, scaledDelete), MaxSyncs: 500,
		World:        World{ReadyAfter: 3 * time.Second, TerminationGrace: 7 * time.Second, FailureRate: 0.05, Seed: 11},
		EvictionRate: 0.03,
		Script: []Event{{At: 20 * time.Second, Action: Action{Kind: SetTemplateSpec, Spec: image("v2")}},
			{At: 40 * time.Second, Action: Action{Kind: ScaleTo, Replicas: 2}}},
	}
	var first []byte
	for range 3 {
		tr := mustRunSTS(t, cfg)
		got, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = got
			continue
		}
		if !bytes.Equal(got, first) {
			t.Fatal("two runs of the same configuration differ")
		}
	}
}

// Script actions a StatefulSet refuses or rejects, and those it takes.
func TestStatefulSetScriptActions(t *testing.T) {
	run := func(set *model.StatefulSet, script ...Event) (*StatefulSetTrace, error) {
		return RunStatefulSet(StatefulSetConfig{StatefulSet: set, Script: script, Check: true})
	}
	at := func(a Action) Event { return Event{At: 5 * time.Second, Action: a} }
	for _, tc := range []struct {
		name    string
		set     *model.StatefulSet
		action  Action
		shown   string // the trace's entry; "" when Run fails
		wantErr string
	}{
		{"pause is refused", stsSet(1), Action{Kind: PauseRollout}, `refused: rollout pause: statefulsets "web": pausing is not supported`, ""},
		{"resume is refused", stsSet(1), Action{Kind: ResumeRollout}, `refused: rollout resume: statefulsets "web": pausing is not supported`, ""},
		{"deleting a missing pod is refused", stsSet(1), Action{Kind: DeletePod, Pod: "web-7"}, `refused: delete pod web-7: pods "web-7" not found`, ""},
		{"undo without history is refused", stsSet(1), Action{Kind: UndoRollout}, "refused: rollout undo --to-revision=0: no last revision to roll back to", ""},
		{"partition", stsSet(2), Action{Kind: SetPartition, Partition: 1}, "set partition 1", ""},
		{"on delete", stsSet(2), Action{Kind: SetStrategy, UpdateStrategy: model.OnDeleteStatefulSetStrategyType}, "set updateStrategy OnDelete", ""},
		{"maxUnavailable", stsSet(2), Action{Kind: SetStrategy, UpdateStrategy: model.RollingUpdateStatefulSetStrategyType, MaxUnavailable: model.IntOrStringPtr(model.FromInt(2))}, "set updateStrategy RollingUpdate maxUnavailable=2", ""},
		{"partition under OnDelete", stsSet(2, onDeleteSet), Action{Kind: SetPartition, Partition: 1}, "", "updateStrategy is OnDelete, not RollingUpdate"},
		{"negative partition", stsSet(2), Action{Kind: SetPartition, Partition: -1}, "", "must not be negative"},
		{"maxSurge", stsSet(2), Action{Kind: SetStrategy, UpdateStrategy: model.RollingUpdateStatefulSetStrategyType, MaxSurge: model.IntOrStringPtr(model.FromInt(1))}, "", "a StatefulSet has no maxSurge"},
		{"strategy without a type", stsSet(2), Action{Kind: SetStrategy}, "", "needs UpdateStrategy RollingUpdate or OnDelete"},
		{"legacy rollback annotation", stsSet(2), Action{Kind: AnnotateRollback}, "", `unknown action "AnnotateRollback" for a StatefulSet`},
		{"negative scale", stsSet(2), Action{Kind: ScaleTo, Replicas: -1}, "", "must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := run(tc.set, at(tc.action))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var shown []string
			for _, s := range tr.Steps {
				shown = append(shown, s.User...)
			}
			if !slices.Contains(shown, tc.shown) {
				t.Errorf("trace shows %q, want %q", shown, tc.shown)
			}
			if tr.Summary.Violations != 0 {
				t.Errorf("%d violations", tr.Summary.Violations)
			}
		})
	}
}

// kubectl rollout undo on a StatefulSet restores the previous revision's
// template; the controller renumbers that revision and rolls back to it.
func TestStatefulSetUndo(t *testing.T) {
	tr := mustRunSTS(t, StatefulSetConfig{StatefulSet: stsSet(2), World: World{ReadyAfter: 2 * time.Second},
		Script: []Event{
			{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}},
			{When: WhenComplete, Action: Action{Kind: UndoRollout}},
			{When: WhenComplete, Action: Action{Kind: UndoRollout, Revision: 3}}, // already current: skipped
		}})
	if !tr.Summary.Completed || lastStep(tr).Ordinals != "AA" {
		t.Fatalf("completed %v, pods %q", tr.Summary.Completed, lastStep(tr).Ordinals)
	}
	var numbers []int64
	for _, r := range lastStep(tr).Revisions {
		numbers = append(numbers, r.Revision)
	}
	if d := cmp.Diff([]int64{2, 3}, numbers); d != "" {
		t.Errorf("revision numbers after the undo (-want +got):\n%s", d)
	}
}

// A starting namespace is taken as it is: pods that are ready stay ready,
// the others start; claims and revisions are kept; an invalid one fails.
func TestStatefulSetStartingNamespace(t *testing.T) {
	first := mustRunSTS(t, StatefulSetConfig{StatefulSet: stsSet(2, www), World: World{ReadyAfter: 3 * time.Second}})
	if !first.Summary.Completed {
		t.Fatal("the first rollout does not complete")
	}
	r, err := newStatefulSetRunner(StatefulSetConfig{StatefulSet: stsSet(2, www), World: World{ReadyAfter: 3 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.run(); err != nil {
		t.Fatal(err)
	}
	again := mustRunSTS(t, StatefulSetConfig{StatefulSet: r.ns.set, Pods: r.ns.pods, ControllerRevisions: r.ns.revisions, Claims: r.ns.claims,
		Start: lastStep(first).Time.Add(time.Second)})
	if s := again.Summary; !s.Completed || s.Writes != 0 || s.Syncs != 1 {
		t.Errorf("a complete namespace: %+v", s)
	}
	bad := stsSet(2)
	bad.Spec.Selector = nil
	if _, err := RunStatefulSet(StatefulSetConfig{StatefulSet: bad}); err == nil || !strings.Contains(err.Error(), "starting state") {
		t.Errorf("an invalid set: %v", err)
	}
	if _, err := RunStatefulSet(StatefulSetConfig{StatefulSet: stsSet(1), Pods: []*model.Pod{nil}}); err == nil || !strings.Contains(err.Error(), "starting state") {
		t.Errorf("a nil pod: %v", err)
	}
	if _, err := RunStatefulSet(StatefulSetConfig{}); err == nil {
		t.Error("no error for a nil set")
	}
	if _, err := RunStatefulSet(StatefulSetConfig{StatefulSet: stsSet(1), Script: []Event{{When: Trigger(9)}}}); err == nil {
		t.Error("no error for an unknown trigger")
	}
}

// An upstream livelock the scripts property found
// (plantest.QuirkNilRollingUpdateLoop): an OnDelete set with outdated pods
// is scaled down and switched to RollingUpdate (the type alone, so without
// a rollingUpdate block) in one go. Under Parallel the controller then
// creates web-0 at the current revision (below the stale
// status.currentReplicas) and its rolling update deletes it in the same
// sync; the status it writes has currentReplicas -1, which a real API
// server rejects, so the next sync does the same, forever. Setting a
// partition ends it; OrderedReady never meets it (it stops after the
// create).
func TestStatefulSetNilRollingUpdateLivelock(t *testing.T) {
	script := func(partitionAt time.Duration) []Event {
		ev := []Event{
			{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: image("nginx-slim:0.9")}},
			{When: WhenSettled, Action: Action{Kind: ScaleTo, Replicas: 1}},
			{Action: Action{Kind: SetStrategy, UpdateStrategy: model.RollingUpdateStatefulSetStrategyType}},
		}
		if partitionAt > 0 {
			ev = append(ev, Event{At: partitionAt, Action: Action{Kind: SetPartition, Partition: 0}})
		}
		return ev
	}
	run := func(opts []stsOpt, partitionAt time.Duration) Summary {
		tr, err := RunStatefulSet(StatefulSetConfig{StatefulSet: stsSet(2, append(opts, onDeleteSet)...), Check: true, MaxSyncs: 200, Record: RecordSummary, Script: script(partitionAt)})
		if err != nil {
			t.Fatal(err)
		}
		return tr.Summary
	}
	s := run([]stsOpt{parallelSet}, 0)
	if s.Completed || !s.Stalled || s.StallReason != "no fixed point within 200 syncs" || s.Violations != 0 || s.Quirks < 190 {
		t.Errorf("Parallel: %+v", s)
	}
	s = run([]stsOpt{parallelSet}, time.Minute)
	if !s.Completed || s.Violations != 0 || s.CompletedSyncs > 2 {
		t.Errorf("Parallel with a partition set after a minute: %+v", s)
	}
	s = run(nil, 0)
	if !s.Completed || s.Violations != 0 || s.Quirks != 0 {
		t.Errorf("OrderedReady: %+v", s)
	}
}
