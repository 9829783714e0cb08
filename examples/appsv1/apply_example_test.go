package appsv1_test

import (
	"context"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"k8s.io/client-go/kubernetes/fake"
)

// Apply sends a plan's writes and reports each one. Against a real API
// server the second status write of a new Deployment's first sync is
// rejected with 409, as the plan predicts (Write.Predicted); the fake
// clientset used here does not check resourceVersions, so it accepts it.
func ExampleApply() {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	d := nginx(now)
	out, _, err := appsv1.Sync(appsv1.State{Now: now, Deployment: d})
	if err != nil {
		fmt.Println(err)
		return
	}
	client := fake.NewClientset(d)
	res, err := appsv1.Apply(context.Background(), client, out, appsv1.ApplyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range res.Writes {
		fmt.Println(w.Action.Verb, w.Action.Resource, w.Action.Subresource, w.Outcome, "predicted:", w.Predicted())
	}
	// Output:
	// create replicasets  accepted predicted: accepted
	// update deployments status accepted predicted: accepted
	// update deployments status accepted predicted: conflict
}
