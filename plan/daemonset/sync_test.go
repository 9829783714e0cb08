package daemonset_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// syncCase is one worked example: a state, the writes and events expected,
// and where the expectation comes from.
type syncCase struct {
	name, why string
	state     func() daemonset.State
	actions   []string
	events    []string
	notes     []string // codes that must be among the plan's notes
	requeue   time.Duration
	errKind   daemonset.ErrorKind
	check     func(t *testing.T, p daemonset.Plan)
}

// current returns fluentd (edited) with its revision 1, for states that
// need no history write.
func current(edits ...func(ds *model.DaemonSet)) (*model.DaemonSet, *model.ControllerRevision, string) {
	ds := fluentd(edits...)
	return ds, revisionOf(ds, 1), hashOf(ds)
}

func threeNodes(edits ...func(n *model.Node)) []*model.Node {
	return []*model.Node{node("n-1", edits...), node("n-2"), node("n-3")}
}

func TestSyncWorkedExamples(t *testing.T) {
	status := "UpdateDaemonSetStatus " + dsName
	created := "SuccessfulCreate: Created pod: " + dsName + "-*"
	cases := []syncCase{
		{name: "all nodes", why: "seed 004 section 4: with neither nodeSelector nor affinity the controller creates a pod on every node",
			state: func() daemonset.State {
				ds, rev, _ := current()
				return daemonset.State{DaemonSet: ds, Nodes: threeNodes(), ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", "CreatePod @n-2", "CreatePod @n-3", status},
			events:  []string{created, created, created},
			notes:   []string{string(daemonset.NoteRollingUpdateDeferred)},
			check: func(t *testing.T, p daemonset.Plan) {
				require.NotNil(t, p.Status)
				assert.Equal(t, int32(3), p.Status.DesiredNumberScheduled)
				assert.Equal(t, int32(3), p.Status.NumberUnavailable)
				a := p.Actions[0]
				assert.Equal(t, dsName+"-", a.GenerateName)
				assert.Empty(t, cmp.Diff(model.NodeNameAffinity("n-1"), a.Scheduling.RequiredNodeAffinity),
					"seed 004 section 4: the pod is pinned by matchFields metadata.name In [node]")
				assert.Len(t, a.Scheduling.Tolerations, 7, "the template's toleration and the six defaults")
				assert.Equal(t, "1", a.Pod.Labels[model.DaemonSetTemplateGenerationLabel])
				assert.Equal(t, hashOf(fluentd()), a.Pod.Labels[model.DaemonSetUniqueLabel])
				assert.Equal(t, dsUID, a.Pod.OwnerReferences[0].UID)
			}},
		{name: "node selector", why: "seed 004 section 4: with .spec.template.spec.nodeSelector only matching nodes get a pod",
			state: func() daemonset.State {
				ds, rev, _ := current(func(ds *model.DaemonSet) { ds.Spec.Scheduling.NodeSelector = map[string]string{"pool": "gpu"} })
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1", label("pool", "gpu")), node("n-2", label("pool", "general")), node("n-3")},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", status},
			events:  []string{created},
			check: func(t *testing.T, p daemonset.Plan) {
				assert.Equal(t, "node n-2 has label pool=general, the pod's nodeSelector wants pool=gpu", p.Nodes[1].Reason.Message)
				assert.Equal(t, "node n-3 lacks label pool=gpu of the pod's nodeSelector", p.Nodes[2].Reason.Message)
			}},
		{name: "node affinity", why: "seed 004 section 4: with a required node affinity only matching nodes get a pod",
			state: func() daemonset.State {
				ds, rev, _ := current(func(ds *model.DaemonSet) {
					ds.Spec.Scheduling.RequiredNodeAffinity = &model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{
						MatchExpressions: []model.NodeSelectorRequirement{{Key: "kubernetes.io/arch", Operator: model.NodeSelectorOpIn, Values: []string{"arm64"}}}}}}
				})
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1", label("kubernetes.io/arch", "amd64")), node("n-2", label("kubernetes.io/arch", "arm64"))},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-2", status},
			events:  []string{created},
		},
		{name: "untolerated taint", why: "seed 004 section 4 (Taints and Tolerations): a NoSchedule taint the pod does not tolerate keeps new pods off",
			state: func() daemonset.State {
				ds, rev, _ := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1"), node("n-2"), node("n-3", taint("dedicated", "gpu", model.TaintEffectNoSchedule))},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", "CreatePod @n-2", status},
			events:  []string{created, created},
			check: func(t *testing.T, p daemonset.Plan) {
				pl := p.Nodes[2]
				assert.False(t, pl.ShouldRun)
				assert.True(t, pl.ShouldContinueRunning)
				assert.Equal(t, "node n-3 has taint dedicated=gpu:NoSchedule that the pod does not tolerate", pl.Reason.Message)
			}},
		{name: "tolerated master taint", why: "seed 004 section 4: the fluentd example tolerates node-role.kubernetes.io/master:NoSchedule",
			state: func() daemonset.State {
				ds, rev, _ := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1", taint("node-role.kubernetes.io/master", "", model.TaintEffectNoSchedule))},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", status},
			events:  []string{created},
		},
		{name: "cordoned node", why: "seed 004 section 4: node.kubernetes.io/unschedulable:NoSchedule is tolerated by every daemon pod",
			state: func() daemonset.State {
				ds, rev, _ := current()
				n := node("n-1", taint(model.TaintNodeUnschedulable, "", model.TaintEffectNoSchedule))
				n.Spec.Unschedulable = true
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{n}, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", status},
			events:  []string{created},
		},
		{name: "NoExecute evicts", why: "upstream NodeShouldRunDaemonPod: an untolerated NoExecute taint ends shouldContinueRunning; podsShouldBeOnNode deletes",
			state: func() daemonset.State {
				ds, rev, h := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1", taint("dedicated", "infra", model.TaintEffectNoExecute))},
					Pods: []*model.Pod{daemonPod("p-1", "n-1", h)}, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"DeletePod p-1", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-1"},
		},
		{name: "NoSchedule keeps", why: "upstream NodeShouldRunDaemonPod: a NoSchedule taint leaves shouldContinueRunning; the pod is misscheduled",
			state: func() daemonset.State {
				ds, rev, h := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1", taint("dedicated", "gpu", model.TaintEffectNoSchedule))},
					Pods: []*model.Pod{daemonPod("p-1", "n-1", h)}, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{status},
			check: func(t *testing.T, p daemonset.Plan) {
				assert.Equal(t, int32(1), p.Status.NumberMisscheduled)
				assert.Equal(t, int32(0), p.Status.DesiredNumberScheduled)
			}},
		{name: "labels changed", why: "seed 004 section 4 (DaemonSetの更新): a node that stops matching loses its pod, a newly matching one gets one",
			state: func() daemonset.State {
				ds, rev, h := current(func(ds *model.DaemonSet) { ds.Spec.Scheduling.NodeSelector = map[string]string{"pool": "gpu"} })
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1", label("pool", "general")), node("n-2", label("pool", "gpu"))},
					Pods: []*model.Pod{daemonPod("p-1", "n-1", h)}, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-2", "DeletePod p-1", status},
			events:  []string{created, "SuccessfulDelete: Deleted pod: p-1"},
		},
		{name: "failed pods and backoff", why: "upstream podsShouldBeOnNode: a failed pod is deleted with a FailedDaemonPod event; a second one on the node waits for the 1s backoff",
			state: func() daemonset.State {
				ds, rev, h := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")},
					Pods:                []*model.Pod{daemonPod("f-1", "n-1", h, phase(model.PodFailed)), daemonPod("f-2", "n-1", h, phase(model.PodFailed))},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"DeletePod f-1", status},
			events: []string{"FailedDaemonPod: Found failed daemon pod kube-system/f-1 on node n-1, will try to kill it",
				"SuccessfulDelete: Deleted pod: f-1"},
			notes:   []string{string(daemonset.NoteFailedPodBackoff)},
			requeue: time.Second,
		},
		{name: "succeeded pod", why: "upstream podsShouldBeOnNode: a succeeded pod is deleted with a SucceededDaemonPod event",
			state: func() daemonset.State {
				ds, rev, h := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")},
					Pods: []*model.Pod{daemonPod("s-1", "n-1", h, phase(model.PodSucceeded))}, ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"DeletePod s-1", status},
			events: []string{"SucceededDaemonPod: Found succeeded daemon pod kube-system/s-1 on node n-1, will try to delete it",
				"SuccessfulDelete: Deleted pod: s-1"},
		},
		{name: "duplicates", why: "upstream podsShouldBeOnNode without surge: all but the oldest running pod go",
			state: func() daemonset.State {
				ds, rev, h := current()
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")},
					Pods:                []*model.Pod{daemonPod("p-old", "n-1", h), daemonPod("p-new", "n-1", h, createdAt(t0.Add(-time.Minute)))},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"DeletePod p-new", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-new"},
		},
		{name: "maxUnavailable 1", why: "upstream rollingUpdate without surge: one available old pod at a time (the first node by name)",
			state: func() daemonset.State {
				old := fluentd()
				ds := fluentd(newTemplate)
				oh := hashOf(old)
				return daemonset.State{DaemonSet: ds, Nodes: threeNodes(),
					Pods:                []*model.Pod{daemonPod("p-1", "n-1", oh), daemonPod("p-2", "n-2", oh), daemonPod("p-3", "n-3", oh)},
					ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1)}, Now: t0}
			},
			actions: []string{"CreateControllerRevision " + dsName + "-" + hashOf(fluentd(newTemplate)), "DeletePod p-1", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-1"},
			notes:   []string{string(daemonset.NoteBudgetSpent)},
			check: func(t *testing.T, p daemonset.Plan) {
				assert.Equal(t, int64(2), p.Actions[0].Revision.Revision, "numbered after the old revision")
				v, _ := p.Actions[1].Reason.Value("maxUnavailable")
				assert.Equal(t, int64(1), v)
				assert.Equal(t, int64(2), p.Status.ObservedGeneration)
				assert.Contains(t, p.Notes[len(p.Notes)-1].Message, "2 nodes keep their available old pod this sync (n-2, n-3)",
					"the notes say why nothing happens on n-2 and n-3")
			}},
		{name: "unavailable old pods go at once", why: "upstream rollingUpdate: an old pod that is not available is replaced regardless of the budget",
			state: func() daemonset.State {
				old := fluentd()
				ds := fluentd(newTemplate)
				oh := hashOf(old)
				return daemonset.State{DaemonSet: ds, Nodes: threeNodes(),
					Pods:                []*model.Pod{daemonPod("p-1", "n-1", oh, notReady), daemonPod("p-2", "n-2", oh, notReady), daemonPod("p-3", "n-3", oh)},
					ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1), revisionOf(ds, 2)}, Now: t0}
			},
			actions: []string{"DeletePod p-1", "DeletePod p-2", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-1", "SuccessfulDelete: Deleted pod: p-2"},
		},
		{name: "maxSurge 1", why: "upstream rollingUpdate with surge: a new pod beside an available old one, one node at a time",
			state: func() daemonset.State {
				old := fluentd()
				ds := fluentd(newTemplate, withStrategy(model.FromInt(0), model.FromInt(1)))
				oh := hashOf(old)
				return daemonset.State{DaemonSet: ds, Nodes: threeNodes(),
					Pods:                []*model.Pod{daemonPod("p-1", "n-1", oh), daemonPod("p-2", "n-2", oh), daemonPod("p-3", "n-3", oh)},
					ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1), revisionOf(ds, 2)}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", status},
			events:  []string{created},
			notes:   []string{string(daemonset.NoteBudgetSpent)},
		},
		{name: "surge replaced once available", why: "upstream podsShouldBeOnNode with surge: the old pod goes once the new one on its node is available after minReadySeconds",
			state: func() daemonset.State {
				old := fluentd()
				ds := fluentd(newTemplate, withStrategy(model.FromInt(0), model.FromInt(1)), func(ds *model.DaemonSet) { ds.Spec.MinReadySeconds = 10 })
				oh, nh := hashOf(old), hashOf(ds)
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1"), node("n-2")},
					Pods: []*model.Pod{daemonPod("p-1", "n-1", oh), daemonPod("q-1", "n-1", nh, createdAt(t0.Add(-time.Minute)), readySince(t0.Add(-10*time.Second))),
						daemonPod("p-2", "n-2", oh), daemonPod("q-2", "n-2", nh, createdAt(t0.Add(-time.Minute)), readySince(t0.Add(-9*time.Second)))},
					ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1), revisionOf(ds, 2)}, Now: t0}
			},
			actions: []string{"DeletePod p-1", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-1"},
			check: func(t *testing.T, p daemonset.Plan) {
				assert.Equal(t, daemonset.ReasonNewPodAvailable, p.Actions[0].Reason.Code, "q-1 is ready for exactly minReadySeconds: available (v1.36 podutil)")
			}},
		{name: "excess old pods at one creation time", why: "upstream podsShouldBeOnNode with surge: of two old pods the older stays, and equal creation times fall back to names, even if that deletes the available one",
			state: func() daemonset.State {
				ds := fluentd(newTemplate, withStrategy(model.FromInt(0), model.FromInt(1)))
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")},
					Pods:                []*model.Pod{daemonPod("b-ready", "n-1", "rev-1"), daemonPod("a-pending", "n-1", "rev-2", notReady)},
					ControllerRevisions: []*model.ControllerRevision{revisionOf(ds, 3)}, Now: t0}
			},
			actions: []string{"DeletePod b-ready", status},
			events:  []string{"SuccessfulDelete: Deleted pod: b-ready"},
		},
		{name: "on delete", why: "upstream updateDaemonSet: OnDelete runs no update; old pods stay",
			state: func() daemonset.State {
				old := fluentd()
				ds := fluentd(newTemplate, func(ds *model.DaemonSet) {
					ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetOnDelete}
				})
				oh := hashOf(old)
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{daemonPod("p-1", "n-1", oh)},
					ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1), revisionOf(ds, 2)}, Now: t0}
			},
			actions: []string{status},
			notes:   []string{string(daemonset.NoteOnDelete)},
		},
		{name: "renumber", why: "upstream constructHistory: a current revision below an old one (a rollback) gets the next number",
			state: func() daemonset.State {
				ds, rev, h := current()
				other := revisionOf(fluentd(newTemplate), 2)
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{daemonPod("p-1", "n-1", h)},
					ControllerRevisions: []*model.ControllerRevision{rev, other}, Now: t0}
			},
			actions: []string{"UpdateControllerRevision " + dsName + "-" + hashOf(fluentd()), status},
			check: func(t *testing.T, p daemonset.Plan) {
				u := p.Actions[0].RevisionUpdate
				assert.Equal(t, int64(1), u.FromRevision)
				assert.Equal(t, int64(3), u.Revision)
			}},
		{name: "duplicate current revisions", why: "upstream dedupCurHistories: pods relabelled to the highest revision's hash, the other deleted; the cache still sees the old label",
			state: func() daemonset.State {
				ds, rev, h := current()
				dup := revisionOf(ds, 1)
				dup.Name, dup.UID, dup.Labels[model.DaemonSetUniqueLabel] = dsName+"-aaa", "uid-aaa", "aaa"
				rev.Revision = 2
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1"), node("n-2")},
					Pods:                []*model.Pod{daemonPod("p-1", "n-1", "aaa"), daemonPod("p-2", "n-2", h)},
					ControllerRevisions: []*model.ControllerRevision{dup, rev}, Now: t0}
			},
			actions: []string{"RelabelPod p-1", "DeleteControllerRevision " + dsName + "-aaa", "DeletePod p-1", status},
			events:  []string{"SuccessfulDelete: Deleted pod: p-1"},
		},
		{name: "history limit", why: "upstream cleanupHistory: old revisions beyond revisionHistoryLimit that no pod uses go, lowest first",
			state: func() daemonset.State {
				ds := fluentd(newTemplate, func(ds *model.DaemonSet) { ds.Spec.RevisionHistoryLimit = model.Int32Ptr(0) })
				used := revisionOf(fluentd(func(ds *model.DaemonSet) { ds.Spec.Template.Labels["v"] = "used" }), 1)
				unused := revisionOf(fluentd(), 2)
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")},
					Pods:                []*model.Pod{daemonPod("p-1", "n-1", used.Labels[model.DaemonSetUniqueLabel], func(p *model.Pod) { p.Status.Phase = model.PodSucceeded; p.DeletionTimestamp = model.TimePtr(t0) })},
					ControllerRevisions: []*model.ControllerRevision{used, unused, revisionOf(ds, 3)}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", "DeleteControllerRevision " + dsName + "-" + hashOf(fluentd()), status},
			events:  []string{created},
		},
		{name: "hash collision", why: "upstream snapshot: the name is taken by another template's revision; collisionCount is bumped and the sync ends with AlreadyExists",
			state: func() daemonset.State {
				ds := fluentd(newTemplate)
				squatter := revisionOf(fluentd(), 1)
				squatter.Name = dsName + "-" + hashOf(ds)
				squatter.Labels = map[string]string{"other": "x"}
				squatter.OwnerReferences = nil
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, ControllerRevisions: []*model.ControllerRevision{squatter}, Now: t0}
			},
			actions: []string{status},
			errKind: daemonset.ErrKindAlreadyExists,
			check: func(t *testing.T, p daemonset.Plan) {
				require.NotNil(t, p.Actions[0].Status.CollisionCount)
				assert.Equal(t, int32(1), *p.Actions[0].Status.CollisionCount)
				assert.Nil(t, p.Status)
			}},
		{name: "existing revision of the template", why: "upstream snapshot: AlreadyExists with the same data: that revision is the current one",
			state: func() daemonset.State {
				ds, rev, h := current()
				rev.OwnerReferences = nil
				rev.Labels = map[string]string{"other": "x", model.DaemonSetUniqueLabel: h}
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{daemonPod("p-1", "n-1", h)},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{status},
			notes:   []string{string(daemonset.NoteExistingRevision)},
		},
		{name: "adoption repeated", why: "upstream getDaemonPods claims at every listing (manage, cleanupHistory, status) and its cache does not see the patch",
			state: func() daemonset.State {
				ds, rev, h := current()
				orphan := daemonPod("p-1", "n-1", h)
				orphan.OwnerReferences = nil
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1"), node("n-2")}, Pods: []*model.Pod{orphan},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"AdoptPod p-1", "CreatePod @n-2", "AdoptPod p-1", "AdoptPod p-1", status},
			events:  []string{created},
		},
		{name: "adoption with rolling update", why: "upstream lists pods a fourth time in rollingUpdate when manage wrote no pod",
			state: func() daemonset.State {
				ds, rev, h := current()
				orphan := daemonPod("p-1", "n-1", h)
				orphan.OwnerReferences = nil
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{orphan},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"AdoptPod p-1", "AdoptPod p-1", "AdoptPod p-1", "AdoptPod p-1", status},
		},
		{name: "release", why: "upstream ClaimPods: a controlled pod that no longer matches is released and not counted",
			state: func() daemonset.State {
				ds, rev, h := current()
				p := daemonPod("p-1", "n-1", h)
				p.Labels["name"] = "other"
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{p},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"ReleasePod p-1", "CreatePod @n-1", "ReleasePod p-1", "ReleasePod p-1", status},
			events:  []string{created},
		},
		{name: "deleting", why: "upstream syncDaemonSet: a DaemonSet being deleted is not synced",
			state: func() daemonset.State {
				ds, rev, _ := current(func(ds *model.DaemonSet) { ds.DeletionTimestamp = model.TimePtr(t0) })
				return daemonset.State{DaemonSet: ds, Nodes: threeNodes(), ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{},
			notes:   []string{string(daemonset.NoteDeleting)},
		},
		{name: "min ready requeue", why: "upstream updateDaemonSetStatus: resync after minReadySeconds while ready pods are not available",
			state: func() daemonset.State {
				ds, rev, h := current(func(ds *model.DaemonSet) { ds.Spec.MinReadySeconds = 30 })
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{daemonPod("p-1", "n-1", h, readySince(t0.Add(-10*time.Second)))},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{status},
			notes:   []string{string(daemonset.NoteRequeueMinReady)},
			requeue: 30 * time.Second,
			check: func(t *testing.T, p daemonset.Plan) {
				assert.Equal(t, int32(1), p.Status.NumberReady)
				assert.Equal(t, int32(0), p.Status.NumberAvailable)
			}},
		{name: "unscheduled pod on a missing node", why: "upstream getUnscheduledPodsWithoutNode: PodGC cannot remove it, the controller does",
			state: func() daemonset.State {
				ds, rev, h := current()
				p := daemonPod("p-9", "", h)
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")}, Pods: []*model.Pod{p},
					PodNodeAffinity:     map[string]*model.NodeSelector{"p-9": model.NodeNameAffinity("n-9")},
					ControllerRevisions: []*model.ControllerRevision{rev}, Now: t0}
			},
			actions: []string{"CreatePod @n-1", "DeletePod p-9", status},
			events:  []string{created, "SuccessfulDelete: Deleted pod: p-9"},
		},
		{name: "surge meets a missing node", why: "upstream rollingUpdate with surge looks the node of an old pod up and fails when it is gone",
			state: func() daemonset.State {
				old := fluentd()
				ds := fluentd(newTemplate, withStrategy(model.FromInt(0), model.FromInt(1)))
				return daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1")},
					Pods:                []*model.Pod{daemonPod("q-1", "n-1", hashOf(ds)), daemonPod("p-9", "n-9", hashOf(old))},
					ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1), revisionOf(ds, 2)}, Now: t0}
			},
			actions: []string{status},
			errKind: daemonset.ErrKindNodeNotFound,
			check: func(t *testing.T, p daemonset.Plan) {
				assert.Equal(t, int32(1), p.Status.UpdatedNumberScheduled)
			}},
	}
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
			if c.requeue != 0 {
				assert.Equal(t, plan.Requeue{Kind: plan.RequeueAfter, After: c.requeue}, p.Requeue)
			} else {
				assert.Equal(t, plan.Requeue{}, p.Requeue)
			}
			if c.check != nil {
				c.check(t, p)
			}
		})
	}
}

func TestSyncRejectsInvalidInput(t *testing.T) {
	ds := fluentd(func(ds *model.DaemonSet) { ds.Spec.RevisionHistoryLimit = nil })
	p, err := daemonset.Sync(daemonset.State{DaemonSet: ds, Nodes: []*model.Node{node("n-1"), nil}, Now: t0})
	var ve *model.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	var fields []string
	for _, fe := range ve.Errors {
		fields = append(fields, fe.Field)
	}
	assert.Equal(t, []string{"daemonSet.spec.revisionHistoryLimit", "nodes[1]"}, fields)
	assert.Empty(t, cmp.Diff(daemonset.Plan{}, p), "invalid input gives the zero plan")
}
