package controller

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// While the controller waits to observe its own creates (expectations not
// satisfied), a sync creates nothing but still writes the status, as
// upstream's syncReplicaSet does: a ReplicaSet of 3 with one ready pod the
// status does not count yet gets replicas 1, readyReplicas 1 and no pod.
// Once the creates are observed, the next sync creates the missing pods.
func TestReplicaSetSyncWhileExpectationsPending(t *testing.T) {
	c, client, _ := newTestReplicaSetController(t, func(int) error { return nil }, func(string) error { return nil },
		testReplicaSet(3), rsPod("web-a"))
	key := "default/web"
	c.expect(key, 2, nil) // two creates of an earlier sync not yet seen

	require.NoError(t, c.sync(context.Background(), key))
	got, status := writes(client)
	require.Equal(t, []string{"update replicasets/status"}, got)
	require.NotNil(t, status)
	require.Equal(t, int32(1), status.Replicas)
	require.Equal(t, int32(1), status.ReadyReplicas)
	require.False(t, c.satisfied(key), "a pending sync dropped the expectations")

	c.observe(key, rsPod("web-b"), false)
	c.observe(key, rsPod("web-c"), false)
	client.ClearActions()
	require.NoError(t, c.sync(context.Background(), key))
	got, _ = writes(client)
	require.Equal(t, []string{"create pods", "create pods"}, got[:2])
}
