package controller

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

func kubeletPod(name, node, image string, phase core.PodPhase) *core.Pod {
	return &core.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name), ResourceVersion: "1"},
		Spec:       core.PodSpec{NodeName: node, Containers: []core.Container{{Name: "c", Image: image}}},
		Status:     core.PodStatus{Phase: phase},
	}
}

// newTestKubelet is a stand-in kubelet of nodes node-1 and node-2 over a
// fake client holding pods (its informer store filled by hand); pods are
// ready at once.
func newTestKubelet(t *testing.T, pods ...*core.Pod) (*Kubelet, *fake.Clientset, informers.SharedInformerFactory) {
	t.Helper()
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	k, err := NewKubelet(client, factory, 1, nil)
	require.NoError(t, err)
	k.Nodes = []string{"node-1", "node-2"}
	for _, p := range pods {
		_, err := client.CoreV1().Pods(p.Namespace).Create(context.Background(), p, metav1.CreateOptions{})
		require.NoError(t, err)
		require.NoError(t, factory.Core().V1().Pods().Informer().GetStore().Add(p))
	}
	client.ClearActions()
	return k, client, factory
}

func podStatus(t *testing.T, client *fake.Clientset, name string) core.PodStatus {
	t.Helper()
	p, err := client.CoreV1().Pods("default").Get(context.Background(), name, metav1.GetOptions{})
	require.NoError(t, err)
	return p.Status
}

// A kubelet of nodes runs the pods bound to its nodes, as Running and
// Ready with the addresses of node and pod, and leaves alone the pods not
// bound yet, bound elsewhere, or finished.
func TestKubeletRunsOnlyItsNodesPods(t *testing.T) {
	k, client, _ := newTestKubelet(t,
		kubeletPod("mine", "node-2", "registry.k8s.io/pause:3.10", core.PodPending),
		kubeletPod("unbound", "", "registry.k8s.io/pause:3.10", core.PodPending),
		kubeletPod("elsewhere", "node-9", "registry.k8s.io/pause:3.10", core.PodPending),
		kubeletPod("failed", "node-1", "registry.k8s.io/pause:3.10", core.PodFailed),
	)
	k.firstSeen("uid-mine") // seen long enough ago for a 1ns delay
	for _, name := range []string{"mine", "unbound", "elsewhere", "failed"} {
		require.NoError(t, k.sync(context.Background(), "default/"+name))
	}
	st := podStatus(t, client, "mine")
	assert.Equal(t, core.PodRunning, st.Phase)
	assert.Equal(t, nodeIP("node-2"), st.HostIP)
	assert.True(t, strings.HasPrefix(st.PodIP, "10."), st.PodIP)
	require.Len(t, st.ContainerStatuses, 1)
	assert.True(t, st.ContainerStatuses[0].Ready)
	assert.NotEmpty(t, st.ContainerStatuses[0].ContainerID)
	var ready bool
	for _, c := range st.Conditions {
		if c.Type == core.PodReady {
			ready = c.Status == core.ConditionTrue
		}
	}
	assert.True(t, ready)

	assert.Equal(t, core.PodPending, podStatus(t, client, "unbound").Phase)
	assert.Equal(t, core.PodPending, podStatus(t, client, "elsewhere").Phase)
	assert.Equal(t, core.PodFailed, podStatus(t, client, "failed").Phase, "a failed pod must not run again")
}

// An image the registry does not have leaves the pod Pending in
// ErrImagePull, reported once.
func TestKubeletImagePullFailure(t *testing.T) {
	k, client, factory := newTestKubelet(t, kubeletPod("broken", "node-1", "webserver:404", core.PodPending))
	k.Pullable = func(image string) bool { return strings.HasPrefix(image, "registry.k8s.io/") }
	k.firstSeen("uid-broken")
	require.NoError(t, k.sync(context.Background(), "default/broken"))
	st := podStatus(t, client, "broken")
	assert.Equal(t, core.PodPending, st.Phase)
	require.Len(t, st.ContainerStatuses, 1)
	require.NotNil(t, st.ContainerStatuses[0].State.Waiting)
	assert.Equal(t, "ErrImagePull", st.ContainerStatuses[0].State.Waiting.Reason)
	for _, c := range st.Conditions {
		if c.Type == core.PodReady {
			assert.Equal(t, core.ConditionFalse, c.Status)
		}
	}
	// Reported once: with the status in the cache, no second write.
	p, err := client.CoreV1().Pods("default").Get(context.Background(), "broken", metav1.GetOptions{})
	require.NoError(t, err)
	require.NoError(t, factory.Core().V1().Pods().Informer().GetStore().Update(p))
	client.ClearActions()
	require.NoError(t, k.sync(context.Background(), "default/broken"))
	assert.Empty(t, client.Actions())
}

// A pod asking for a host port a running pod of the same node holds is
// rejected (Failed, NodePorts), as the kubelet's admission rejects it; the
// same port on another node, or another port, is admitted.
func TestKubeletRejectsHostPortConflicts(t *testing.T) {
	withPort := func(p *core.Pod, port int32) *core.Pod {
		p.Spec.Containers[0].Ports = []core.ContainerPort{{ContainerPort: port, HostPort: port}}
		return p
	}
	k, client, _ := newTestKubelet(t,
		withPort(kubeletPod("holder", "node-1", "registry.k8s.io/pause:3.10", core.PodRunning), 21017),
		withPort(kubeletPod("clash", "node-1", "registry.k8s.io/pause:3.10", core.PodPending), 21017),
		withPort(kubeletPod("other-node", "node-2", "registry.k8s.io/pause:3.10", core.PodPending), 21017),
		withPort(kubeletPod("other-port", "node-1", "registry.k8s.io/pause:3.10", core.PodPending), 21018),
	)
	for _, name := range []string{"clash", "other-node", "other-port"} {
		k.firstSeen(types.UID("uid-" + name))
		require.NoError(t, k.sync(context.Background(), "default/"+name))
	}
	st := podStatus(t, client, "clash")
	assert.Equal(t, core.PodFailed, st.Phase)
	assert.Equal(t, "NodePorts", st.Reason)
	assert.Equal(t, core.PodRunning, podStatus(t, client, "other-node").Phase)
	assert.Equal(t, core.PodRunning, podStatus(t, client, "other-port").Phase)
}

// A running pod being deleted is reported Succeeded and not Ready before
// the kubelet removes it, so that a finalizer keeping it does not keep it
// Ready.
func TestKubeletReportsDeletedPodTerminated(t *testing.T) {
	p := kubeletPod("going", "node-1", "registry.k8s.io/pause:3.10", core.PodRunning)
	p.Finalizers = []string{"example.com/hold"}
	p.Status.Conditions = []core.PodCondition{{Type: core.PodReady, Status: core.ConditionTrue}}
	p.Status.ContainerStatuses = []core.ContainerStatus{{Name: "c", Ready: true, State: core.ContainerState{Running: &core.ContainerStateRunning{}}}}
	k, client, factory := newTestKubelet(t, p)
	// The deletion, as the API server records it with a finalizer.
	now := metav1.Now()
	deleting := p.DeepCopy()
	deleting.DeletionTimestamp = &now
	_, err := client.CoreV1().Pods("default").Update(context.Background(), deleting, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.NoError(t, factory.Core().V1().Pods().Informer().GetStore().Update(deleting))
	require.NoError(t, k.sync(context.Background(), "default/going"))

	var verbs []string
	for _, a := range client.Actions() {
		verbs = append(verbs, a.GetVerb()+" "+a.GetSubresource())
	}
	assert.Equal(t, []string{"update ", "update status", "delete "}, verbs)
	for _, a := range client.Actions() {
		if a.GetSubresource() == "status" {
			st := a.(interface{ GetObject() runtime.Object }).GetObject().(*core.Pod).Status
			assert.Equal(t, core.PodSucceeded, st.Phase)
			assert.Equal(t, core.ConditionFalse, st.Conditions[0].Status)
			require.NotNil(t, st.ContainerStatuses[0].State.Terminated)
			assert.False(t, st.ContainerStatuses[0].Ready)
		}
	}
}
