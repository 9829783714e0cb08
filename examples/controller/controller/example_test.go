package controller_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"k8s.io/client-go/kubernetes/fake"
)

// One sync of a new Recreate Deployment in shadow mode: the writes are printed, not
// sent. The last one is the status write a real API server rejects.
func ExampleSyncDeployment() {
	d := nginx()
	d.CreationTimestamp.Time = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	s := appsv1.State{Now: time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC), Deployment: d}
	res, err := controller.SyncDeployment(context.Background(), fake.NewClientset(d), s, nil,
		controller.Options{Shadow: true, Out: os.Stdout})
	if err != nil {
		fmt.Println(err)
		return
	}
	if i, ok := res.Plan.Rejected(); ok {
		fmt.Println("conflict at write", i)
	}
	// Output:
	// deployment default/nginx: create replicasets default/nginx-56fd7b57c8: CreateNewReplicaSet: no ReplicaSet has the current template: create nginx-56fd7b57c8 (revision 1) with 3: Recreate sizes the new ReplicaSet to replicas 3 at once
	// deployment default/nginx: update deployments/status default/nginx: SyncRevision: the Deployment records revision 1 and its new ReplicaSet nginx-56fd7b57c8
	// deployment default/nginx: update deployments/status default/nginx (a real server answers 409): SyncStatus: status: 0 replicas, 0 updated, 0 ready, 0 available, 3 unavailable
	// conflict at write 2
}
