package controller

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// testDaemonSet is a defaulted DaemonSet (as an API server returns it)
// with a rolling update of maxUnavailable 1.
func testDaemonSet() *apps.DaemonSet {
	labels := map[string]string{"app": "agent"}
	one := intstr.FromInt32(1)
	zero := intstr.FromInt32(0)
	return &apps.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "agent", UID: "ds-1", Generation: 1, ResourceVersion: "1",
			Annotations: map[string]string{"deprecated.daemonset.template.generation": "1"}},
		Spec: apps.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: core.PodSpec{
					Containers:    []core.Container{{Name: "agent", Image: "agent:1", TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: "IfNotPresent"}},
					RestartPolicy: core.RestartPolicyAlways, DNSPolicy: core.DNSClusterFirst, SchedulerName: "default-scheduler",
					TerminationGracePeriodSeconds: new(int64(30)), SecurityContext: &core.PodSecurityContext{},
				},
			},
			UpdateStrategy: apps.DaemonSetUpdateStrategy{Type: apps.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &apps.RollingUpdateDaemonSet{MaxUnavailable: &one, MaxSurge: &zero}},
			RevisionHistoryLimit: new(int32(10)),
		},
	}
}

func dsTestNode(name string, taints ...core.Taint) *core.Node {
	return &core.Node{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: "1"}, Spec: core.NodeSpec{Taints: taints}}
}

// daemonPod is a pod of testDaemonSet bound to node.
func daemonPod(name, node string) *core.Pod {
	return &core.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name), ResourceVersion: "1",
			Labels:          map[string]string{"app": "agent"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent", UID: "ds-1", Controller: new(true)}}},
		Spec: core.PodSpec{NodeName: node},
	}
}

// newTestDaemonSetController builds a controller over a fake client whose
// informer stores hold objs (the informers are not started: the tests fill
// the stores and call the handlers and syncs themselves). Created pods get
// names from their generateName, as an API server gives them.
func newTestDaemonSetController(t *testing.T, objs ...runtime.Object) (*DaemonSetController, *fake.Clientset) {
	t.Helper()
	client := fake.NewClientset(objs...)
	var n atomic.Int32
	client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		p := a.(k8stesting.CreateAction).GetObject().(*core.Pod)
		if p.Name == "" {
			p.Name = fmt.Sprintf("%s%05d", p.GenerateName, n.Add(1))
		}
		return false, nil, nil
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	c, err := NewDaemonSetController(client, factory, nil, Options{})
	require.NoError(t, err)
	for _, o := range objs {
		var err error
		switch o := o.(type) {
		case *apps.DaemonSet:
			err = factory.Apps().V1().DaemonSets().Informer().GetStore().Add(o)
		case *core.Node:
			err = factory.Core().V1().Nodes().Informer().GetStore().Add(o)
		case *core.Pod:
			err = factory.Core().V1().Pods().Informer().GetStore().Add(o)
		case *apps.ControllerRevision:
			err = factory.Apps().V1().ControllerRevisions().Informer().GetStore().Add(o)
		}
		require.NoError(t, err)
	}
	return c, client
}

// dsQueued drains the DaemonSet queue.
func dsQueued(c *DaemonSetController) []string {
	var out []string
	for c.w.queue.Len() > 0 {
		k, _ := c.w.queue.Get()
		out = append(out, k)
		c.w.queue.Done(k)
	}
	slices.Sort(out)
	return out
}

// The node worker wakes a DaemonSet as upstream's syncNodeUpdate does
// (k8s.io/kubernetes pkg/controller/daemon, v1.36): when the node should
// run a pod and has none of it, when it has one it may not keep, or when
// it has one and the DaemonSet counts misscheduled pods.
func TestDaemonSetNodeUpdateWakes(t *testing.T) {
	noSchedule := core.Taint{Key: "dedicated", Value: "gpu", Effect: core.TaintEffectNoSchedule}
	noExecute := core.Taint{Key: "dedicated", Value: "gpu", Effect: core.TaintEffectNoExecute}
	for _, tc := range []struct {
		name         string
		node         *core.Node
		podOnNode    bool
		misscheduled int32
		want         bool
	}{
		{"eligible node without a pod", dsTestNode("n1"), false, 0, true},
		{"eligible node with its pod", dsTestNode("n1"), true, 0, false},
		{"NoExecute taint with a pod", dsTestNode("n1", noExecute), true, 0, true},
		{"NoExecute taint without a pod", dsTestNode("n1", noExecute), false, 0, false},
		{"NoSchedule taint with a pod", dsTestNode("n1", noSchedule), true, 0, false},
		{"NoSchedule taint with a pod, misscheduled pods counted", dsTestNode("n1", noSchedule), true, 1, true},
		{"NoSchedule taint without a pod", dsTestNode("n1", noSchedule), false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := testDaemonSet()
			ds.Status.NumberMisscheduled = tc.misscheduled
			objs := []runtime.Object{ds, tc.node}
			if tc.podOnNode {
				objs = append(objs, daemonPod("agent-a", "n1"))
			}
			c, _ := newTestDaemonSetController(t, objs...)
			require.NoError(t, c.syncNode(context.Background(), "n1"))
			var want []string
			if tc.want {
				want = []string{"default/agent"}
			}
			assert.Equal(t, want, dsQueued(c))
		})
	}
	c, _ := newTestDaemonSetController(t, testDaemonSet())
	require.NoError(t, c.syncNode(context.Background(), "gone"), "a node no longer in the cache is skipped")
	assert.Empty(t, dsQueued(c))
}

// Upstream's updateNode ignores updates that change neither labels nor
// taints (shouldIgnoreNodeUpdate).
func TestDaemonSetNodeChangeMatters(t *testing.T) {
	base := dsTestNode("n1")
	status := base.DeepCopy()
	status.Status.Conditions = []core.NodeCondition{{Type: core.NodeReady, Status: core.ConditionTrue}}
	unsched := base.DeepCopy()
	unsched.Spec.Unschedulable = true
	labelled := base.DeepCopy()
	labelled.Labels = map[string]string{"zone": "a"}
	tainted := dsTestNode("n1", core.Taint{Key: "k", Effect: core.TaintEffectNoSchedule})
	emptyLabels := base.DeepCopy()
	emptyLabels.Labels = map[string]string{}
	assert.False(t, nodeChangeMatters(base, status), "status only")
	assert.False(t, nodeChangeMatters(base, unsched), "spec.unschedulable only (the predicate reads taints)")
	assert.False(t, nodeChangeMatters(base, emptyLabels), "nil and empty labels are equal")
	assert.True(t, nodeChangeMatters(base, labelled), "labels")
	assert.True(t, nodeChangeMatters(base, tainted), "taints")
}

// Pod events wake the controlling DaemonSet (and count as observed
// creates and deletes); orphans wake the DaemonSets selecting them;
// pods of another controller wake nothing (upstream addPod, updatePod,
// deletePod).
func TestDaemonSetPodEventsWake(t *testing.T) {
	c, _ := newTestDaemonSetController(t, testDaemonSet())
	c.exp.expect("default/agent", 1, 1)
	c.addPod(daemonPod("agent-a", "n1"))
	assert.Equal(t, []string{"default/agent"}, dsQueued(c))
	assert.False(t, c.exp.satisfied("default/agent"), "one delete still expected")
	gone := daemonPod("agent-b", "n2")
	c.deletePod(gone)
	assert.Equal(t, []string{"default/agent"}, dsQueued(c))
	assert.True(t, c.exp.satisfied("default/agent"))

	orphan := daemonPod("stray", "n1")
	orphan.OwnerReferences = nil
	c.addPod(orphan)
	assert.Equal(t, []string{"default/agent"}, dsQueued(c), "an orphan the selector matches")

	other := daemonPod("other", "n1")
	other.OwnerReferences[0].UID = "someone-else"
	c.addPod(other)
	c.deletePod(other)
	assert.Empty(t, dsQueued(c), "a pod of another DaemonSet of the same name (another UID)")

	unrelated := orphan.DeepCopy()
	unrelated.Labels = map[string]string{"app": "web"}
	c.addPod(unrelated)
	assert.Empty(t, dsQueued(c), "an orphan the selector does not match")

	// An update with the same resourceVersion (a resync) is ignored; a
	// pod being deleted counts as a delete observed.
	p := daemonPod("agent-a", "n1")
	c.updatePod(p, p.DeepCopy())
	assert.Empty(t, dsQueued(c))
	c.exp.expect("default/agent", 0, 1)
	deleting := p.DeepCopy()
	deleting.ResourceVersion = "2"
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	c.updatePod(p, deleting)
	assert.Equal(t, []string{"default/agent"}, dsQueued(c))
	assert.True(t, c.exp.satisfied("default/agent"))
}

// A sync that creates pods is not followed by another until the pod
// informer has shown the creates (upstream's expectations): without them
// a second sync over the same stale cache would create the pods again.
func TestDaemonSetExpectationsHoldSyncs(t *testing.T) {
	c, client := newTestDaemonSetController(t, testDaemonSet(), dsTestNode("n1"), dsTestNode("n2"))
	ctx := context.Background()
	require.NoError(t, c.sync(ctx, "default/agent"))
	created := dsPodCreates(client)
	require.Len(t, created, 2, "one pod per node")
	for _, p := range created {
		assert.Equal(t, "agent-", p.GenerateName)
		assert.NotEmpty(t, PinnedNode(p), "pod %s is pinned to its node", p.Name)
	}
	client.ClearActions()
	require.NoError(t, c.sync(ctx, "default/agent"))
	assert.Empty(t, client.Actions(), "the second sync waits for the creates")

	stored, err := client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, stored.Items, 2)
	for i := range stored.Items {
		assert.Regexp(t, `^agent-\d{5}$`, stored.Items[i].Name, "named from generateName")
		c.addPod(&stored.Items[i])
	}
	assert.True(t, c.exp.satisfied("default/agent"))
	require.NoError(t, c.sync(ctx, "default/agent"))
	assert.Len(t, dsPodCreates(client), 2, "the cache still lacks the pods, so the plan creates them again once allowed")
}

func dsPodCreates(client *fake.Clientset) []*core.Pod {
	var out []*core.Pod
	for _, a := range client.Actions() {
		if a.GetVerb() == "create" && a.GetResource().Resource == "pods" {
			out = append(out, a.(k8stesting.CreateAction).GetObject().(*core.Pod))
		}
	}
	return out
}

// The writes go in the plan's order and stop at the first error, as
// upstream's sync does; the failed create is no longer expected.
func TestDaemonSetApplyStopsAtFirstError(t *testing.T) {
	c, client := newTestDaemonSetController(t, testDaemonSet(), dsTestNode("n1"), dsTestNode("n2"), dsTestNode("n3"))
	var creates atomic.Int32
	client.PrependReactor("create", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		if creates.Add(1) == 2 {
			return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", fmt.Errorf("quota exceeded"))
		}
		return false, nil, nil
	})
	err := c.sync(context.Background(), "default/agent")
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err), "the sync ends with the server's error: %v", err)
	var verbs []string
	for _, a := range client.Actions() {
		if a.GetVerb() != "list" && a.GetVerb() != "watch" {
			verbs = append(verbs, a.GetVerb()+" "+a.GetResource().Resource)
		}
	}
	assert.Equal(t, []string{"create controllerrevisions", "create pods", "create pods"}, verbs,
		"the third pod and the status are not sent after the failed create")
	c.exp.mu.Lock()
	e := *c.exp.m["default/agent"]
	c.exp.mu.Unlock()
	assert.Equal(t, 1, e.adds, "only the accepted create is still expected")
}

// A ControllerRevision that already exists with the same data (created by
// an earlier sync the cache has not shown yet) counts as created; a status
// update rejected with 409 is retried once over the DaemonSet read again
// (upstream storeDaemonSetStatus); deletes of pods already gone count as
// done.
func TestDaemonSetApplyRecovers(t *testing.T) {
	ds := testDaemonSet()
	c, client := newTestDaemonSetController(t, ds, dsTestNode("n1"))
	s, err := c.state(ds)
	require.NoError(t, err)
	res, _, err := planDaemonSet(s)
	require.NoError(t, err)
	// The revision the plan creates is already on the server.
	for _, a := range res.Output.Actions {
		if cr, ok := a.Object.(*apps.ControllerRevision); ok {
			_, err := client.AppsV1().ControllerRevisions("default").Create(context.Background(), cr.DeepCopy(), metav1.CreateOptions{})
			require.NoError(t, err)
		}
	}
	var statusTries atomic.Int32
	client.PrependReactor("update", "daemonsets", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() == "status" && statusTries.Add(1) == 1 {
			return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "daemonsets"}, "agent", fmt.Errorf("stale"))
		}
		return false, nil, nil
	})
	result, err := applyDaemonSet(context.Background(), client, res.Output)
	require.NoError(t, err)
	assert.Equal(t, len(res.Output.Actions), result.Accepted())
	assert.Equal(t, int32(2), statusTries.Load(), "one retry after the conflict")
	got, err := client.AppsV1().DaemonSets("default").Get(context.Background(), "agent", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(1), got.Status.DesiredNumberScheduled)
	assert.Equal(t, int64(1), got.Status.ObservedGeneration)

	del := res.Output
	del.Actions = nil
	del.Actions = append(del.Actions, delPodAction("missing"))
	result, err = applyDaemonSet(context.Background(), client, del)
	require.NoError(t, err)
	require.Len(t, result.Writes, 1)
	assert.Equal(t, "accepted", string(result.Writes[0].Outcome))
	assert.True(t, apierrors.IsNotFound(result.Writes[0].Err))
}

func delPodAction(name string) appsv1.Action {
	return appsv1.Action{Verb: appsv1.VerbDelete, Resource: "pods", Namespace: "default", Name: name, Kind: plan.ActionKind(daemonset.DeletePod)}
}
