package controller_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
)

// ClientFor is asked once per controller, by name, as
// kube-controller-manager's client builder is; its errors stop NewManager.
func TestClientForNamesEachController(t *testing.T) {
	var names []string
	_, err := controller.NewManager(fake.NewClientset(), controller.ManagerOptions{
		StatefulSets: true, DaemonSets: true,
		ClientFor: func(name string) (kubernetes.Interface, error) {
			names = append(names, name)
			return fake.NewClientset(), nil
		},
	})
	require.NoError(t, err)
	require.Equal(t, []string{"deployment-controller", "replicaset-controller", "statefulset-controller", "daemonset-controller"}, names)

	boom := errors.New("no credentials")
	_, err = controller.NewManager(fake.NewClientset(), controller.ManagerOptions{
		ClientFor: func(name string) (kubernetes.Interface, error) {
			if name == "replicaset-controller" {
				return nil, boom
			}
			return fake.NewClientset(), nil
		},
	})
	require.ErrorIs(t, err, boom)
	require.ErrorContains(t, err, "client of replicaset-controller")

	_, err = controller.NewManager(fake.NewClientset(), controller.ManagerOptions{
		ClientFor: func(string) (kubernetes.Interface, error) { return nil, nil },
	})
	require.ErrorIs(t, err, controller.ErrOptions)
}

// Each controller writes, and records its events, through its own client;
// the informers read through the Manager's, which receives no write.
func TestControllersWriteThroughTheirOwnClients(t *testing.T) {
	shared := fake.NewClientset(nginx())
	var mu sync.Mutex
	own := map[string]*fake.Clientset{}
	m, err := controller.NewManager(shared, controller.ManagerOptions{
		ClientFor: func(name string) (kubernetes.Interface, error) {
			mu.Lock()
			defer mu.Unlock()
			own[name] = fake.NewClientset()
			return own[name], nil
		},
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()

	writes := func(c *fake.Clientset) []string {
		var out []string
		if c == nil {
			return nil // not asked for: the controller writes elsewhere
		}
		for _, a := range c.Actions() {
			if v := a.GetVerb(); v != "list" && v != "watch" && v != "get" {
				out = append(out, v+" "+a.GetResource().Resource)
			}
		}
		return out
	}
	// The Deployment's first sync creates its ReplicaSet through
	// deployment-controller's client and records a ScalingReplicaSet event
	// through it.
	require.Eventually(t, func() bool {
		w := writes(own["deployment-controller"])
		return slices.Contains(w, "create replicasets") && slices.Contains(w, "create events")
	}, 10*time.Second, 20*time.Millisecond)
	cancel()
	require.NoError(t, <-done)
	require.Empty(t, writes(shared), "the Manager's own client wrote")
	require.Empty(t, writes(own["replicaset-controller"]), "the ReplicaSet controller wrote for a Deployment")
}
