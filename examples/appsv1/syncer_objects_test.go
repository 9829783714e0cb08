package appsv1_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// The Syncer validates each ReplicaSet and pod once per version and then
// tells the planner they passed (plan.ReplicaSetsAndPodsValidated): an
// object the API server would refuse (a pod name that is not a DNS-1123
// subdomain, upstream ValidateObjectMeta; a ReplicaSet with two controller
// owner references, upstream ValidateOwnerReferences) must still be refused
// with Sync's error, cold and warm, also when the other objects changed.
func TestSyncerRefusesInvalidReplicaSetsAndPods(t *testing.T) {
	controller := func(name, uid string) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name, UID: types.UID("d-" + uid), Controller: new(true)}
	}
	for _, c := range []struct {
		name  string
		state func() appsv1.State
		field string
	}{
		{"pod name", func() appsv1.State {
			s := syncerState()
			p := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "BAD NAME", Namespace: "default", UID: "p-1", ResourceVersion: "4",
				Labels: map[string]string{"app": "web"}}}
			s.Pods = []*core.Pod{p}
			return s
		}, "(pods[0]): metadata.name"},
		{"two controllers", func() appsv1.State {
			s := syncerState()
			rs := &apps.ReplicaSet{}
			rs.Name, rs.Namespace, rs.UID, rs.ResourceVersion = "web-old", "default", "rs-1", "3"
			rs.Spec.Replicas = new(int32(1))
			rs.Spec.Selector = s.Deployment.Spec.Selector
			rs.Spec.Template = *s.Deployment.Spec.Template.DeepCopy()
			rs.OwnerReferences = []metav1.OwnerReference{controller("web", "1"), controller("other", "2")}
			s.ReplicaSets = []*apps.ReplicaSet{rs}
			return s
		}, "(replicaSets[0]): metadata.ownerReferences"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, want := appsv1.Sync(c.state())
			require.ErrorContains(t, want, c.field)
			var sy appsv1.Syncer
			for round := range 3 {
				s := c.state()
				if round == 2 { // a new version of the Deployment
					s.Deployment.ResourceVersion += "0"
				}
				_, _, got := sy.Sync(s)
				require.Equal(t, fmt.Sprint(want), fmt.Sprint(got), "round %d", round)
			}
			// The objects alone, valid, plan; then the bad one comes back
			// and is refused again.
			s := syncerState()
			_, _, err := sy.Sync(s)
			require.NoError(t, err)
			_, _, got := sy.Sync(c.state())
			require.Equal(t, fmt.Sprint(want), fmt.Sprint(got))
		})
	}
}
