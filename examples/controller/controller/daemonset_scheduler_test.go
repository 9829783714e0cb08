package controller

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// pinnedPod is a pending pod pinned to node as the DaemonSet controller
// writes it, with the default daemon toleration of unschedulable nodes.
func pinnedPod(name, node string) *core.Pod {
	return &core.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: "uid-1"},
		Spec: core.PodSpec{
			Affinity: &core.Affinity{NodeAffinity: &core.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &core.NodeSelector{
				NodeSelectorTerms: []core.NodeSelectorTerm{{MatchFields: []core.NodeSelectorRequirement{
					{Key: metav1.ObjectNameField, Operator: core.NodeSelectorOpIn, Values: []string{node}}}}}}}},
			Tolerations: []core.Toleration{{Key: core.TaintNodeUnschedulable, Operator: core.TolerationOpExists, Effect: core.TaintEffectNoSchedule}},
		},
	}
}

func TestPinnedNode(t *testing.T) {
	assert.Equal(t, "n1", PinnedNode(pinnedPod("p", "n1")))
	p := pinnedPod("p", "n1")
	p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values = []string{"n1", "n2"}
	assert.Empty(t, PinnedNode(p), "two candidate nodes: not pinned")
	p = pinnedPod("p", "n1")
	p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Key = "kubernetes.io/hostname"
	assert.Empty(t, PinnedNode(p), "another field")
	assert.Empty(t, PinnedNode(&core.Pod{}), "no affinity")
	assert.True(t, awaitsBinding(pinnedPod("p", "n1")))
	bound := pinnedPod("p", "n1")
	bound.Spec.NodeName = "n1"
	assert.False(t, awaitsBinding(bound))
}

// The scheduler's filters a pinned pod meets: the nodeSelector's labels,
// and the NoSchedule and NoExecute taints tolerated (PreferNoSchedule is
// a preference; an unschedulable node is tainted
// node.kubernetes.io/unschedulable, which daemon pods tolerate).
func TestSchedulerFits(t *testing.T) {
	node := func(f func(*core.Node)) *core.Node {
		n := &core.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"pool": "a"}}}
		if f != nil {
			f(n)
		}
		return n
	}
	taint := func(effect core.TaintEffect) func(*core.Node) {
		return func(n *core.Node) { n.Spec.Taints = []core.Taint{{Key: "dedicated", Value: "gpu", Effect: effect}} }
	}
	p := pinnedPod("p", "n1")
	assert.True(t, fits(p, node(nil)))
	assert.False(t, fits(p, node(taint(core.TaintEffectNoSchedule))))
	assert.False(t, fits(p, node(taint(core.TaintEffectNoExecute))))
	assert.True(t, fits(p, node(taint(core.TaintEffectPreferNoSchedule))))
	assert.True(t, fits(p, node(func(n *core.Node) { n.Spec.Unschedulable = true })))
	noTol := p.DeepCopy()
	noTol.Spec.Tolerations = nil
	assert.False(t, fits(noTol, node(func(n *core.Node) { n.Spec.Unschedulable = true })))
	tol := p.DeepCopy()
	tol.Spec.Tolerations = append(tol.Spec.Tolerations, core.Toleration{Key: "dedicated", Operator: core.TolerationOpEqual, Value: "gpu", Effect: core.TaintEffectNoExecute})
	assert.True(t, fits(tol, node(taint(core.TaintEffectNoExecute))))
	sel := p.DeepCopy()
	sel.Spec.NodeSelector = map[string]string{"pool": "b"}
	assert.False(t, fits(sel, node(nil)))
	sel.Spec.NodeSelector = map[string]string{"pool": "a"}
	assert.True(t, fits(sel, node(nil)))
}

func newTestScheduler(t *testing.T, objs ...runtime.Object) (*Scheduler, *fake.Clientset) {
	t.Helper()
	client := fake.NewClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	s, err := NewScheduler(client, factory, nil)
	require.NoError(t, err)
	for _, o := range objs {
		switch o := o.(type) {
		case *core.Node:
			require.NoError(t, factory.Core().V1().Nodes().Informer().GetStore().Add(o))
		case *core.Pod:
			require.NoError(t, factory.Core().V1().Pods().Informer().GetStore().Add(o))
		}
	}
	return s, client
}

func dsWrites(client *fake.Clientset) []string {
	var out []string
	for _, a := range client.Actions() {
		if v := a.GetVerb(); v != "get" && v != "list" && v != "watch" {
			r := v + " " + a.GetResource().Resource
			if sub := a.GetSubresource(); sub != "" {
				r += "/" + sub
			}
			out = append(out, r)
		}
	}
	return out
}

// A pending pinned pod is bound to its node; one whose node does not exist
// or does not fit stays pending; a bound pod of a deleted node is removed.
func TestSchedulerBindsAndCollects(t *testing.T) {
	ctx := context.Background()
	tainted := &core.Node{ObjectMeta: metav1.ObjectMeta{Name: "n2"}, Spec: core.NodeSpec{Taints: []core.Taint{{Key: "k", Effect: core.TaintEffectNoSchedule}}}}
	orphan := pinnedPod("orphan", "gone")
	orphan.Spec.NodeName = "gone"
	s, client := newTestScheduler(t, &core.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, tainted,
		pinnedPod("a", "n1"), pinnedPod("b", "n2"), pinnedPod("c", "missing"), orphan)
	var bound []string
	client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "binding" {
			return false, nil, nil
		}
		b := a.(k8stesting.CreateAction).GetObject().(*core.Binding)
		bound = append(bound, b.Name+"->"+b.Target.Name)
		return true, b, nil
	})
	for _, key := range []string{"default/a", "default/b", "default/c"} {
		require.NoError(t, s.sync(ctx, key))
	}
	assert.Equal(t, []string{"a->n1"}, bound)
	client.ClearActions()
	require.NoError(t, s.sync(ctx, "default/orphan"))
	assert.Equal(t, []string{"delete pods"}, dsWrites(client), "the pod of a deleted node is collected")
	_, err := client.CoreV1().Pods("default").Get(ctx, "orphan", metav1.GetOptions{})
	assert.Error(t, err)
}
