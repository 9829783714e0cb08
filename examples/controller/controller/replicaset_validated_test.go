package controller

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// The controller validates each pod version once and tells the planner
// when all passed; a pod the API server would refuse is still refused by
// the planner, at the first sync and at the next, from the cache.
func TestReplicaSetSyncRefusesInvalidPodFromCache(t *testing.T) {
	bad := rsPod("web-a")
	bad.Name = "BAD NAME"
	c, client, _ := newTestReplicaSetController(t, func(int) error { return nil }, func(string) error { return nil },
		testReplicaSet(1), bad)
	for round := range 2 {
		err := c.sync(context.Background(), "default/web")
		require.ErrorContains(t, err, "metadata.name", "round %d", round)
	}
	got, _ := writes(client)
	require.Empty(t, got)

	// A valid namespace plans (and is told its objects passed).
	c, client, _ = newTestReplicaSetController(t, func(int) error { return nil }, func(string) error { return nil },
		testReplicaSet(1), rsPod("web-a"))
	require.NoError(t, c.sync(context.Background(), "default/web"))
	got, _ = writes(client)
	require.Equal(t, []string{"update replicasets/status"}, got)
}
