package sim

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

var (
	gpuNoSchedule  = model.Taint{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}
	infraNoExecute = model.Taint{Key: "dedicated", Value: "infra", Effect: model.TaintEffectNoExecute}
	slowPods       = World{ReadyAfter: 5 * time.Second, TerminationGrace: 3 * time.Second}
)

// nodeEvent is a node event at a time after the start.
func nodeEvent(at time.Duration, a Action) Event { return Event{At: at, Action: a} }

// A new DaemonSet over three nodes: a pod is created on each, bound to its
// node by the scheduler, Running and Ready ReadyAfter later; the rollout
// completes with every node on revision A.
func TestDaemonSetFirstRollout(t *testing.T) {
	tr := mustRunDS(t, DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(3), World: slowPods, Check: true})
	s := tr.Summary
	require.True(t, s.Completed, "%+v", s)
	assert.Equal(t, "aaa", tr.Steps[0].Nodes)
	assert.Equal(t, "AAA", lastDSStep(tr).Nodes)
	assert.Equal(t, int32(3), lastDSStep(tr).Desired)
	assert.Zero(t, lastDSStep(tr).Pods.Unavailable)
	st := lastDSStep(tr)
	require.Len(t, st.Revisions, 1)
	assert.True(t, st.Revisions[0].Current)
	assert.Equal(t, int32(3), st.Revisions[0].Available)
}

// Node events mid-rollout (upstream NodeShouldRunDaemonPod and
// podsShouldBeOnNode over the changed pool): a node added gets a pod of
// the current revision; a node removed loses its pod to the pod garbage
// collector; a cordoned node keeps its pod and gets the new one (every
// daemon pod tolerates node.kubernetes.io/unschedulable); a NoExecute taint
// evicts the pod and the node gets none until untainted; a NoSchedule
// taint lets the old pod stay until the update replaces it, then the node
// runs none.
func TestDaemonSetNodeEvents(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []Event
		nodes  string // the pool at the end
		want   []string
	}{
		{"add", []Event{nodeEvent(15*time.Second, Action{Kind: AddNode, Node: "n-4"})}, "BBBB",
			[]string{"node n-4 should run a daemon pod and has none"}},
		{"remove", []Event{nodeEvent(15*time.Second, Action{Kind: RemoveNode, Node: "n-3"})}, "BB",
			[]string{"gone (its node n-3 was removed)"}},
		{"cordon", []Event{nodeEvent(15*time.Second, Action{Kind: CordonNode, Node: "n-3"})}, "BBB", nil},
		{"NoExecute", []Event{nodeEvent(15*time.Second, Action{Kind: TaintNode, Node: "n-3", Taint: infraNoExecute})}, "BB_",
			[]string{"evicted from n-3 (taint dedicated=infra:NoExecute)", "node n-3 has taint dedicated=infra:NoExecute that the pod does not tolerate"}},
		{"NoExecute, untainted", []Event{
			nodeEvent(15*time.Second, Action{Kind: TaintNode, Node: "n-3", Taint: infraNoExecute}),
			{When: WhenSettled, Action: Action{Kind: UntaintNode, Node: "n-3", Taint: infraNoExecute}}}, "BBB",
			[]string{"user: kubectl taint nodes n-3 dedicated:NoExecute-", "node n-3 should run a daemon pod and has none"}},
		{"NoSchedule", []Event{nodeEvent(15*time.Second, Action{Kind: TaintNode, Node: "n-3", Taint: gpuNoSchedule})}, "BB_",
			[]string{"old pod fluentd-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := mustRunDS(t, DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(3), World: slowPods, Check: true,
				Script: append([]Event{updateTo("fluentd:v2")}, tc.events...)})
			require.True(t, tr.Summary.Completed, "%+v\n%s", tr.Summary, strings.Join(what(tr, 0), "\n"))
			assert.Equal(t, tc.nodes, lastDSStep(tr).Nodes)
			var timeline bytes.Buffer
			require.NoError(t, tr.WriteTimeline(&timeline))
			for _, w := range tc.want {
				assert.Contains(t, timeline.String(), w)
			}
			// The update keeps to maxUnavailable 1; a node added counts
			// as unavailable until its pod is.
			updating := false
			for _, s := range tr.Steps {
				updating = updating || len(s.User) > 0 && s.User[0] == "set image fluentd:v2"
				if updating && tc.name != "add" {
					assert.LessOrEqual(t, s.Pods.Unavailable, int32(1), "sync %d: maxUnavailable 1", s.Sync)
				}
			}
		})
	}
}

// A cordoned node: the cordon taint is added and removed with
// spec.unschedulable, and the node keeps running daemon pods (the planner's
// placement says it is eligible).
func TestDaemonSetCordon(t *testing.T) {
	tr := mustRunDS(t, DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(2), Check: true, Script: []Event{
		{When: WhenComplete, Action: Action{Kind: CordonNode, Node: "n-2"}},
		updateTo("fluentd:v2"),
		{When: WhenComplete, Action: Action{Kind: UncordonNode, Node: "n-2"}},
	}})
	require.True(t, tr.Summary.Completed)
	var cordoned *DaemonSetStep
	for i, s := range tr.Steps {
		if len(s.User) > 0 && s.User[0] == "kubectl cordon n-2" {
			cordoned = &tr.Steps[i]
		}
	}
	require.NotNil(t, cordoned)
	assert.Empty(t, cordoned.Ineligible)
	assert.Equal(t, "BB", lastDSStep(tr).Nodes)
}

// With maxSurge 1 the new pod starts beside the old one, one node at a time:
// never more than one node with two pods, and never a node without an
// available pod.
func TestDaemonSetSurge(t *testing.T) {
	tr := mustRunDS(t, DaemonSetConfig{DaemonSet: dsSet(rolling("0", "1")), Nodes: pool(4), World: slowPods, Check: true,
		Script: []Event{updateTo("fluentd:v2")}})
	require.True(t, tr.Summary.Completed)
	surged := false
	for _, s := range tr.Steps {
		if s.Sync < 3 {
			continue
		}
		assert.LessOrEqual(t, s.Surging, int32(1), "sync %d", s.Sync)
		assert.Zero(t, s.Pods.Unavailable, "sync %d", s.Sync)
		surged = surged || s.Surging == 1
	}
	assert.True(t, surged)
	assert.Equal(t, int32(4), tr.Summary.MinAvailable)
	assert.Equal(t, int32(5), tr.Summary.PeakActive)
}

// An update to a template whose pods never become Ready stops after
// maxUnavailable nodes (upstream rollingUpdate counts them unavailable):
// the stall names the waiting nodes and the pods that are not Ready; an
// undo brings the old template back as revision 3 and the rollout
// completes.
func TestDaemonSetBrokenImageAndUndo(t *testing.T) {
	cfg := DaemonSetConfig{DaemonSet: dsSet(rolling("2", "0")), Nodes: pool(5), World: World{ReadyAfter: 2 * time.Second, NeverReady: NeverReadyImage("broken")},
		Check: true, Script: []Event{updateTo("fluentd:broken")}}
	tr := mustRunDS(t, cfg)
	s := tr.Summary
	require.True(t, s.Stalled)
	assert.Contains(t, s.StallReason, "3 nodes keep their available old pod this sync (n-3, n-4, n-5): 2 nodes lack an available pod, maxUnavailable is 2")
	assert.Contains(t, s.StallReason, "pods not Ready: ")
	assert.Equal(t, "bbAAA", lastDSStep(tr).Nodes)

	cfg.Script = append(cfg.Script, Event{When: WhenStalled, Action: Action{Kind: UndoRollout}})
	tr = mustRunDS(t, cfg)
	require.True(t, tr.Summary.Completed, "%+v", tr.Summary)
	last := lastDSStep(tr)
	assert.Equal(t, "AAAAA", last.Nodes)
	assert.Contains(t, strings.Join(what(tr, 0), "\n"), "user: rollout undo --to-revision=0")
	for _, r := range last.Revisions {
		if r.Current {
			assert.Equal(t, "A", r.Letter)
			assert.Equal(t, int64(3), r.Revision)
		}
	}
}

// The actions a DaemonSet refuses are shown with kubectl's error and the
// script goes on; an unknown node is refused too.
func TestDaemonSetRefusedActions(t *testing.T) {
	tr := mustRunDS(t, DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(1), Check: true, Script: []Event{
		{Action: Action{Kind: PauseRollout}},
		{Action: Action{Kind: ScaleTo, Replicas: 3}},
		{Action: Action{Kind: UndoRollout}},
		{Action: Action{Kind: CordonNode, Node: "n-9"}},
		{Action: Action{Kind: DeletePod, Pod: "nope"}},
	}})
	require.True(t, tr.Summary.Completed)
	assert.Equal(t, []string{
		`refused: rollout pause: daemonsets "fluentd": pausing is not supported`,
		"refused: scale to 3: a DaemonSet has no replicas: it runs one pod per eligible node",
		"refused: rollout undo --to-revision=0: no last revision to roll back to",
		`refused: kubectl cordon n-9: nodes "n-9" not found`,
		`refused: delete pod nope: pods "nope" not found`,
	}, tr.Steps[0].User)
	_, err := RunDaemonSet(DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(1), Script: []Event{
		{Action: Action{Kind: TaintNode, Node: "n-1", Taint: model.Taint{Key: "k", Effect: "Sometimes"}}}}})
	assert.ErrorContains(t, err, "spec.taints[0].effect")
	_, err = RunDaemonSet(DaemonSetConfig{})
	assert.EqualError(t, err, "sim: DaemonSetConfig.DaemonSet is nil")
}

// OnDelete replaces nothing by itself: the simulation stalls with the
// planner's note, and a deleted pod comes back at the new revision.
func TestDaemonSetOnDelete(t *testing.T) {
	ds := dsSet(func(ds *model.DaemonSet) {
		ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetOnDelete}
	})
	tr := mustRunDS(t, DaemonSetConfig{DaemonSet: ds, Nodes: pool(2), Check: true, Script: []Event{updateTo("fluentd:v2")}})
	require.True(t, tr.Summary.Stalled)
	assert.Contains(t, tr.Summary.StallReason, "update strategy OnDelete: 2 pods of older revisions are replaced only when someone deletes them")
	name := ""
	for _, w := range tr.Steps[0].Writes {
		if w.Kind == daemonset.CreatePod && w.Node == "n-1" {
			name = w.Name
		}
	}
	require.NotEmpty(t, name)
	tr = mustRunDS(t, DaemonSetConfig{DaemonSet: ds, Nodes: pool(2), Check: true, Script: []Event{updateTo("fluentd:v2"),
		{When: WhenStalled, Action: Action{Kind: DeletePod, Pod: name}}}})
	assert.Equal(t, "BA", lastDSStep(tr).Nodes)
}

// Pods that fail (Failed phase) are deleted and created again by the
// controller; with failures drawn from the seed, the same configuration
// gives the same trace.
func TestDaemonSetFailuresAreDeterministic(t *testing.T) {
	cfg := DaemonSetConfig{DaemonSet: dsSet(rolling("0", "1")), Nodes: pool(4), EvictionRate: 0.05, Check: true, MaxSyncs: 400,
		World:  World{ReadyAfter: time.Second, TerminationGrace: time.Second, FailureRate: 0.02, Seed: 7},
		Script: []Event{updateTo("fluentd:v2"), updateTo("fluentd:v3")}}
	a := mustRunDS(t, cfg)
	b := mustRunDS(t, cfg)
	ja, err := json.Marshal(a)
	require.NoError(t, err)
	jb, err := json.Marshal(b)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(ja, jb))
	all := strings.Join(what(a, 0), "\n")
	assert.Contains(t, all, "failed")
	assert.Contains(t, all, "has failed")
}

// Starting from a live state: ready pods stay ready, the pod not yet bound
// is bound by the scheduler, and pods of other controllers in the
// namespace are left as they are.
func TestDaemonSetStartsFromLiveState(t *testing.T) {
	ds := dsSet()
	first := mustRunDS(t, DaemonSetConfig{DaemonSet: ds, Nodes: pool(2), Check: true})
	// Rebuild the namespace at the end of the first run, with one pod of
	// another controller that is not ready.
	r, err := newDaemonSetRunner(DaemonSetConfig{DaemonSet: ds, Nodes: pool(2)})
	require.NoError(t, err)
	_, err = r.run()
	require.NoError(t, err)
	other := &model.Pod{ObjectMeta: model.ObjectMeta{Name: "other", Namespace: "kube-system", UID: "other-uid",
		OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "ReplicaSet", "x", "x")}},
		Status: model.PodStatus{Phase: model.PodPending}}
	tr := mustRunDS(t, DaemonSetConfig{DaemonSet: r.ns.ds, Nodes: r.ns.nodes, Pods: append(r.ns.pods, other), ControllerRevisions: r.ns.revisions,
		PodNodeAffinity: r.ns.affinity, Start: first.Steps[len(first.Steps)-1].Time, Check: true})
	require.True(t, tr.Summary.Completed)
	assert.Equal(t, 0, tr.Summary.CompletedSyncs)
	assert.Equal(t, "AA", tr.Steps[0].Nodes)
	for _, s := range tr.Steps {
		assert.Empty(t, s.Kubelet)
	}
}

// The chart draws every revision's pods and available pods, the pods that
// exist, the nodes that should run one and those without an available pod;
// a summary-only trace cannot be drawn.
func TestDaemonSetSVG(t *testing.T) {
	tr := mustRunDS(t, DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(3), World: slowPods, Check: true,
		Script: []Event{updateTo("fluentd:v2"), nodeEvent(20*time.Second, Action{Kind: RemoveNode, Node: "n-1"})}})
	var b bytes.Buffer
	require.NoError(t, tr.WriteSVG(&b, "fluentd"))
	svg := b.String()
	for _, want := range []string{"<svg ", ">fluentd</text>", "A fluentd-", "B fluentd-", " available</text>", "nodes to run a pod</text>",
		"nodes without an available pod</text>", "▼ remove node n-1", "</svg>\n"} {
		assert.Contains(t, svg, want)
	}
	summary := mustRunDS(t, DaemonSetConfig{DaemonSet: dsSet(), Nodes: pool(1), Record: RecordSummary})
	assert.Error(t, summary.WriteSVG(&b, "x"))
}
