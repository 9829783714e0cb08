package controller

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"
)

// A status update the server refuses is retried once on the ReplicaSet
// read again, with the same status, as upstream's updateReplicaSetStatus
// does (statusUpdateRetries = 1); a second refusal is the sync's error.
func TestReplicaSetStatusRetriedOnceOnTheLatestVersion(t *testing.T) {
	for _, refusals := range []int{1, 2} {
		c, client, _ := newTestReplicaSetController(t, func(int) error { return nil }, func(string) error { return nil },
			testReplicaSet(1), rsPod("web-a"))
		latest := testReplicaSet(2) // scaled meanwhile by the Deployment controller
		latest.ResourceVersion, latest.Generation = "9", 2
		require.NoError(t, client.Tracker().Update(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}, latest, "default"))
		var sent []*apps.ReplicaSet
		client.PrependReactor("update", "replicasets", func(a k8stesting.Action) (bool, runtime.Object, error) {
			rs := a.(k8stesting.UpdateAction).GetObject().(*apps.ReplicaSet)
			sent = append(sent, rs.DeepCopy())
			if len(sent) <= refusals {
				return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "replicasets"}, rs.Name, nil)
			}
			return true, rs, nil
		})
		err := c.sync(context.Background(), "default/web")
		got, _ := writes(client)
		require.Equal(t, []string{"update replicasets/status", "update replicasets/status"}, got, "%d refusals", refusals)
		require.Len(t, sent, 2)
		require.Equal(t, "1", sent[0].ResourceVersion)
		require.Equal(t, "9", sent[1].ResourceVersion, "the retry is sent on the version read again")
		require.Equal(t, sent[0].Status, sent[1].Status, "the retry writes the same status")
		require.Equal(t, int64(1), sent[1].Status.ObservedGeneration, "the status observes the generation the sync planned on")
		if refusals == 1 {
			require.NoError(t, err)
		} else {
			require.True(t, apierrors.IsConflict(err), "%v", err)
		}
	}
}
