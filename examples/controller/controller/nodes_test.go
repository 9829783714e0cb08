package controller

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// Registered nodes report Ready with their capacity and address, and own a
// Lease in kube-node-lease held by the node; a renewal moves the Lease's
// renew time and keeps the Ready condition's transition time.
func TestNodeHeartbeats(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset()
	h := NewNodeHeartbeats(client, "node-1", "node-2")
	require.NoError(t, h.Register(ctx))

	nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, nodes.Items, 2)
	n := nodes.Items[0]
	assert.Equal(t, "node-1", n.Name)
	assert.Equal(t, "node-1", n.Labels[core.LabelHostname])
	var ready *core.NodeCondition
	for i, c := range n.Status.Conditions {
		if c.Type == core.NodeReady {
			ready = &n.Status.Conditions[i]
		}
	}
	require.NotNil(t, ready)
	assert.Equal(t, core.ConditionTrue, ready.Status)
	assert.Equal(t, "110", n.Status.Allocatable.Pods().String())
	assert.Equal(t, nodeIP("node-1"), n.Status.Addresses[0].Address)

	lease, err := client.CoordinationV1().Leases(core.NamespaceNodeLease).Get(ctx, "node-1", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "node-1", *lease.Spec.HolderIdentity)
	assert.Equal(t, int32(40), *lease.Spec.LeaseDurationSeconds)
	require.Len(t, lease.OwnerReferences, 1)
	assert.Equal(t, "Node", lease.OwnerReferences[0].Kind)
	first := lease.Spec.RenewTime.Time

	time.Sleep(2 * time.Millisecond)
	require.NoError(t, h.Register(ctx))
	lease, err = client.CoordinationV1().Leases(core.NamespaceNodeLease).Get(ctx, "node-1", metav1.GetOptions{})
	require.NoError(t, err)
	assert.True(t, lease.Spec.RenewTime.After(first), "the lease is renewed")
	again, err := client.CoreV1().Nodes().Get(ctx, "node-1", metav1.GetOptions{})
	require.NoError(t, err)
	for _, c := range again.Status.Conditions {
		if c.Type == core.NodeReady {
			assert.Equal(t, ready.LastTransitionTime, c.LastTransitionTime, "still Ready: no transition")
		}
	}

	assert.Error(t, NewNodeHeartbeats(client).Register(ctx))
}

// Addresses are stable, distinct for distinct keys (on these), and inside
// their blocks.
func TestStandInAddresses(t *testing.T) {
	assert.Equal(t, nodeIP("node-1"), nodeIP("node-1"))
	assert.NotEqual(t, nodeIP("node-1"), nodeIP("node-2"))
	assert.Regexp(t, `^10\.(6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7])\.`, nodeIP("node-1"))
	assert.Regexp(t, `^10\.(12[89]|1[3-9][0-9]|2[0-5][0-9])\.`, podIP("0b0e2f1a-uid"))
}
