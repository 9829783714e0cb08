package controller_test

import (
	"context"
	"fmt"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"k8s.io/client-go/kubernetes/fake"
)

// The first sync of the seed's "web" StatefulSet, sent to a fake API
// server: the revision, web-0's claim, web-0 and the status, each accepted
// as the plan predicted; then why the sync goes no further.
func ExampleSyncStatefulSet() {
	set := web()
	client := fake.NewClientset(set)
	res, err := controller.SyncStatefulSet(context.Background(), client, appsv1.StatefulSetState{Now: now, StatefulSet: set}, nil, controller.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range res.Writes {
		target := w.Write.Resource
		if w.Write.Subresource != "" {
			target += "/" + w.Write.Subresource
		}
		fmt.Printf("%s %s %s: %s (as predicted: %v)\n", w.Write.Verb, target, w.Write.Name, w.Outcome, w.Matched())
	}
	for _, n := range res.Plan.Notes {
		fmt.Println("note:", n.Message)
	}
	// Output:
	// create controllerrevisions web-68bcc47dbc: accepted (as predicted: true)
	// create persistentvolumeclaims www-web-0: accepted (as predicted: true)
	// create pods web-0: accepted (as predicted: true)
	// update statefulsets/status web: accepted (as predicted: true)
	// note: web-0 is created; OrderedReady waits for it to be Running and Ready before creating web-1
}
