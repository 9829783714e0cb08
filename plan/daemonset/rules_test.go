package daemonset_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// The cases of this file each pin one upstream rule that no recording
// exercises (see the rule tables in the closing note): one small state, the
// writes upstream makes on it, worked out by hand from the function each
// case names.

// runRuleCases runs cases as TestSyncWorkedExamples does: actions, events
// and notes compared, then the case's own checks.
func runRuleCases(t *testing.T, cases []syncCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NotEmpty(t, c.why, "every case says where its expectation comes from")
			p, err := daemonset.Sync(c.state())
			if c.errKind != "" {
				var se *daemonset.SyncError
				require.True(t, errors.As(err, &se), "want a *SyncError, got %v", err)
				assert.Equal(t, c.errKind, se.Kind)
			} else {
				require.NoError(t, err)
			}
			assert.Empty(t, cmp.Diff(c.actions, summary(p)), "actions (-want +got); source: %s", c.why)
			if c.events == nil {
				c.events = []string{}
			}
			assert.Empty(t, cmp.Diff(c.events, eventSummary(p)), "events (-want +got)")
			for _, n := range c.notes {
				assert.Contains(t, noteCodes(p), n)
			}
			if c.check != nil {
				c.check(t, p)
			}
		})
	}
}

func orphaned(cr *model.ControllerRevision) *model.ControllerRevision {
	cr.OwnerReferences = nil
	return cr
}

func deletingRev(cr *model.ControllerRevision) *model.ControllerRevision {
	cr.DeletionTimestamp = model.TimePtr(t0.Add(-time.Second))
	return cr
}

func deletingPod(p *model.Pod) { p.DeletionTimestamp = model.TimePtr(t0.Add(-time.Second)) }

func orphanPod(p *model.Pod) { p.OwnerReferences = nil }

// TestRulesHistory covers the ControllerRevision claim rules of
// constructHistory that no recording reaches.
func TestRulesHistory(t *testing.T) {
	status := "UpdateDaemonSetStatus " + dsName
	old := fluentd()
	runRuleCases(t, []syncCase{
		{name: "H1 an orphan revision being deleted is not adopted",
			why: "update.go: controlledHistories → ClaimControllerRevisions → ClaimObject ignores an orphan with a deletion timestamp",
			state: func() daemonset.State {
				ds := fluentd(newTemplate)
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{daemonPod("q-1", "n-1", hashOf(ds))},
					ControllerRevisions: []*model.ControllerRevision{deletingRev(orphaned(revisionOf(old, 1))), revisionOf(ds, 2)}, Now: t0}
			},
			actions: []string{status}},
		{name: "H2 a controlled revision the selector no longer matches is released",
			why: "update.go: controlledHistories → ClaimControllerRevisions → ClaimObject releases an owned object whose labels do not match",
			state: func() daemonset.State {
				ds := fluentd(newTemplate)
				gone := revisionOf(old, 1)
				gone.Labels = map[string]string{"name": "other", model.DaemonSetUniqueLabel: hashOf(old)}
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{daemonPod("q-1", "n-1", hashOf(ds))},
					ControllerRevisions: []*model.ControllerRevision{gone, revisionOf(ds, 2)}, Now: t0}
			},
			actions: []string{"ReleaseControllerRevision " + dsName + "-" + hashOf(old), status},
			check: func(t *testing.T, p daemonset.Plan) {
				require.NotNil(t, p.Actions[0].OwnerReference)
				assert.Equal(t, dsUID, p.Actions[0].OwnerReference.UID, "the reference removed is the DaemonSet's")
			}},
		{name: "H3 a revision without the hash label gets its name as the label",
			why: "update.go: constructHistory labels a controlled revision lacking controller-revision-hash with its own name; syncDaemonSet then creates pods with that label value",
			state: func() daemonset.State {
				ds, rev, _ := current()
				rev.Labels = map[string]string{"name": dsName}
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"UpdateControllerRevision " + dsName + "-" + hashOf(fluentd()), "CreatePod @n-1", status},
			events:  []string{"SuccessfulCreate: Created pod: " + dsName + "-*"},
			check: func(t *testing.T, p daemonset.Plan) {
				name := dsName + "-" + hashOf(fluentd())
				u := p.Actions[0].RevisionUpdate
				require.NotNil(t, u)
				assert.Equal(t, map[string]string{model.DaemonSetUniqueLabel: name}, u.Labels)
				assert.Equal(t, name, p.Actions[1].Pod.Labels[model.DaemonSetUniqueLabel], "the hash of new pods is the revision's label")
			}},
	})
}

// TestRulesPods covers pod rules of manage that no recording reaches.
func TestRulesPods(t *testing.T) {
	status := "UpdateDaemonSetStatus " + dsName
	runRuleCases(t, []syncCase{
		{name: "A2 an orphan pod being deleted is not adopted",
			why: "daemon_controller.go: getDaemonPods → ClaimPods → ClaimObject ignores an orphan with a deletion timestamp, so n-1 has no pod and manage creates one",
			state: func() daemonset.State {
				ds, rev, h := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{daemonPod("p-1", "n-1", h, orphanPod, deletingPod)},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", status},
			events:  []string{"SuccessfulCreate: Created pod: " + dsName + "-*"}},
		{name: "K4 scheduled pods first: an older unscheduled duplicate goes",
			why: "daemon_controller.go: podsShouldBeOnNode sorts by podByCreationTimestampAndPhase (a pod with spec.nodeName before one without, then creation time) and keeps the first; p-a is older but unscheduled",
			state: func() daemonset.State {
				ds, rev, h := current()
				pa := daemonPod("p-a", "", h, createdAt(t0.Add(-3*time.Hour)), func(p *model.Pod) { p.Status = model.PodStatus{Phase: model.PodPending} })
				pb := daemonPod("p-b", "n-1", h, createdAt(t0.Add(-time.Hour)))
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{pa, pb},
					PodNodeAffinity:     map[string]*model.NodeSelector{"p-a": model.NodeNameAffinity("n-1")},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"DeletePod p-a", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-a"}},
	})
}

// manyNodes returns n nodes named n-000, n-001, …
func manyNodes(n int) []*model.Node {
	out := make([]*model.Node, n)
	for i := range out {
		out[i] = node(fmt.Sprintf("n-%03d", i))
	}
	return out
}

// TestRulesBurstReplicas pins the per-sync cap of syncNodes
// (daemon_controller.go: syncNodes caps createDiff and deleteDiff at
// burstReplicas, 250 in the controller manager): of 251 nodes that need a
// create, or a delete, 250 get one this sync.
func TestRulesBurstReplicas(t *testing.T) {
	require.Equal(t, 250, daemonset.BurstReplicas)
	const n = 251
	t.Run("creates", func(t *testing.T) {
		ds, rev, _ := current()
		p, err := daemonset.Sync(daemonset.State{DaemonSet: ds, Nodes: manyNodes(n), ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0})
		require.NoError(t, err)
		want := make([]string, 0, 251)
		for i := range 250 {
			want = append(want, fmt.Sprintf("CreatePod @n-%03d", i))
		}
		want = append(want, "UpdateDaemonSetStatus "+dsName)
		assert.Empty(t, cmp.Diff(want, summary(p)), "the first 250 nodes by name (upstream: the first 250 of its node list)")
		assert.Contains(t, noteCodes(p), string(daemonset.NoteBurstLimit))
		assert.Equal(t, int32(n), p.Status.DesiredNumberScheduled)
	})
	t.Run("deletes", func(t *testing.T) {
		ds, rev, h := current(func(ds *model.DaemonSet) { ds.Spec.Scheduling.NodeSelector = map[string]string{"pool": "gpu"} })
		nodes := manyNodes(n)
		pods := make([]*model.Pod, n)
		for i, nd := range nodes {
			pods[i] = daemonPod(fmt.Sprintf("p-%03d", i), nd.Name, h)
		}
		p, err := daemonset.Sync(daemonset.State{DaemonSet: ds, Nodes: nodes, Pods: pods, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0})
		require.NoError(t, err)
		want := make([]string, 0, 251)
		for i := range 250 {
			want = append(want, fmt.Sprintf("DeletePod p-%03d", i))
		}
		want = append(want, "UpdateDaemonSetStatus "+dsName)
		assert.Empty(t, cmp.Diff(want, summary(p)))
		assert.Contains(t, noteCodes(p), string(daemonset.NoteBurstLimit))
	})
}

// TestRulesSurgeMovedAway pins the shouldNotRunPodsToDelete step of
// update.go: rollingUpdate (surge): an available old pod on a node that
// should no longer run one (here an untolerated NoSchedule taint, which
// manage leaves alone) is deleted only while more pods are available than
// nodes want one (numAvailable − desiredNumberScheduled).
func TestRulesSurgeMovedAway(t *testing.T) {
	status := "UpdateDaemonSetStatus " + dsName
	old := fluentd()
	st := func(newReady bool) func() daemonset.State {
		return func() daemonset.State {
			ds := fluentd(newTemplate, withStrategy(model.FromInt(0), model.FromInt(1)))
			q2 := daemonPod("q-2", "n-2", hashOf(ds))
			if !newReady {
				notReady(q2)
			}
			return daemonset.State{DaemonSet: ds,
				Nodes:               []*model.Node{node("n-1"), node("n-2"), node("n-3", taint("dedicated", "db", model.TaintEffectNoSchedule))},
				Pods:                []*model.Pod{daemonPod("q-1", "n-1", hashOf(ds)), q2, daemonPod("p-3", "n-3", hashOf(old))},
				ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1), revisionOf(ds, 2)}, Now: t0}
		}
	}
	runRuleCases(t, []syncCase{
		{name: "U9 three available pods for two nodes: the moved old pod goes",
			why:     "update.go: rollingUpdate (surge): numAvailable 3 (q-1, q-2, p-3) − desired 2 = 1 deletable of shouldNotRunPodsToDelete [p-3]",
			state:   st(true),
			actions: []string{"DeletePod p-3", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-3"},
			check: func(t *testing.T, p daemonset.Plan) {
				assert.Equal(t, daemonset.ReasonSurgeMoved, p.Actions[0].Reason.Code)
				assert.Equal(t, int32(1), p.Status.NumberMisscheduled)
			}},
		{name: "U9 two available pods for two nodes: the moved old pod stays",
			why:     "update.go: rollingUpdate (surge): q-2 is not ready, numAvailable 2 (q-1, p-3) − desired 2 = 0: p-3 keeps serving",
			state:   st(false),
			actions: []string{status}},
	})
}

// TestRulesUnreachable records two rules of updatedDesiredNodeCounts that
// Sync cannot reach, because validation (upstream's too) refuses the
// DaemonSet first: the fallback maxUnavailable = 1 when both budgets
// resolve to 0 (only 0 and "0%" resolve to 0, rounding up), and the error
// for a budget that is not an integer or a percentage.
func TestRulesUnreachable(t *testing.T) {
	for name, strategy := range map[string]func(*model.DaemonSet){
		"U2 both budgets 0":        withStrategy(model.FromInt(0), model.FromInt(0)),
		"U2 both budgets 0%":       withStrategy(model.FromString("0%"), model.FromString("0%")),
		"U11 maxUnavailable 'one'": withStrategy(model.FromString("one"), model.FromInt(0)),
		"U11 maxSurge '1.5'":       withStrategy(model.FromInt(0), model.FromString("1.5")),
	} {
		t.Run(name, func(t *testing.T) {
			ds, rev, _ := current(strategy)
			_, err := daemonset.Sync(daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0})
			var ve *model.ValidationError
			require.True(t, errors.As(err, &ve), "validation refuses it, got %v", err)
		})
	}
}
