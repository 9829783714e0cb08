package statefulset_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// The first sync of the seed's "web" set (3 replicas, OrderedReady, a claim
// template "www"): the controller records revision 1, creates web-0's claim
// and web-0, writes the status, and waits for web-0 before web-1.
func ExampleSync() {
	set := model.DefaultStatefulSet(&model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "0b6c5d5e-2f0e-4c55-9a8e-6f1c1c7f0d11", Generation: 1},
		Spec: model.StatefulSetSpec{
			Replicas:             model.Int32Ptr(3),
			Selector:             &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template:             model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: `{"containers":[{"image":"registry.k8s.io/nginx-slim:0.8","name":"nginx"}]}`},
			ServiceName:          "nginx",
			VolumeClaimTemplates: []model.PersistentVolumeClaim{{ObjectMeta: model.ObjectMeta{Name: "www"}}},
		},
	})
	p, err := statefulset.Sync(statefulset.State{StatefulSet: set, Now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range p.Actions {
		fmt.Printf("%s %s: %s\n", a.Kind, a.Object.Name, a.Reason.Code)
	}
	for _, e := range p.Events {
		fmt.Println("event:", e.Message)
	}
	for _, n := range p.Notes {
		fmt.Println("note:", n.Message)
	}
	// Output:
	// CreateControllerRevision web-69dc4dcd46: NewRevision
	// CreateClaim www-web-0: MissingClaim
	// CreatePod web-0: MissingPod
	// UpdateStatefulSetStatus web: SyncStatus
	// event: Create Claim www-web-0 Pod web-0 in StatefulSet web success
	// event: Create Pod web-0 in StatefulSet web successful
	// note: web-0 is created; OrderedReady waits for it to be Running and Ready before creating web-1
}
