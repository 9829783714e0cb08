package sim_test

import (
	"fmt"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// webSet is the seed's "web" StatefulSet of 3 nginx pods (seed 004,
// "Components"), OrderedReady with a RollingUpdate.
func webSet() *model.StatefulSet {
	return &model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.StatefulSetSpec{
			Replicas:    model.Int32Ptr(3),
			Selector:    &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template:    model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: `{"containers":[{"image":"nginx-slim:0.8","name":"nginx"}]}`},
			ServiceName: "nginx",
		},
	}
}

// The seed's "web" set is created, and once its pods are Running and Ready
// the image changes. Pods take 10s to become ready and 10s to terminate.
// The rolling update replaces web-2, web-1, web-0 in turn, each only once
// the one replaced before is Running and Ready, so two pods stay ready
// throughout: 3 pods, 5 syncs each (delete it, see it terminate, create it
// again once it is gone, see it start, see it ready and delete the next),
// the liveness bound 5u for pods that take time.
func ExampleRunStatefulSet() {
	tr, err := sim.RunStatefulSet(sim.StatefulSetConfig{
		StatefulSet: webSet(),
		World:       sim.World{ReadyAfter: 10 * time.Second, TerminationGrace: 10 * time.Second},
		Script: []sim.Event{{When: sim.WhenComplete, Action: sim.Action{
			Kind: sim.SetTemplateSpec, Spec: `{"containers":[{"image":"nginx-slim:0.9","name":"nginx"}]}`, Description: "set image nginx-slim:0.9"}}},
		Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := tr.Summary
	fmt.Printf("image changed at +%s; complete %s and %d syncs later; never fewer than %d available; %d violations\n",
		s.From, s.CompletedAfter, s.CompletedSyncs, s.MinAvailable, s.Violations)
	fmt.Println("pods by ordinal at the end:", tr.Steps[len(tr.Steps)-1].Ordinals)
	// Output:
	// image changed at +31s; complete 1m0s and 15 syncs later; never fewer than 2 available; 0 violations
	// pods by ordinal at the end: BBB
}

// The seed's caveat (004, "Forced rollback"): an OrderedReady rolling
// update to an image whose pods never become Ready stalls at web-2, and
// reverting the image is not enough: OrderedReady still waits for web-2,
// which only the rolling update would replace. Deleting web-2 frees the
// set; the controller creates it again from the reverted template.
func ExampleStatefulSetTrace_WriteTimeline() {
	tr, err := sim.RunStatefulSet(sim.StatefulSetConfig{
		StatefulSet: webSet(),
		World:       sim.World{ReadyAfter: 10 * time.Second, TerminationGrace: 10 * time.Second, NeverReady: sim.NeverReadyImage("broken")},
		Script: []sim.Event{
			{When: sim.WhenComplete, Action: sim.Action{Kind: sim.SetTemplateSpec, Spec: `{"containers":[{"image":"nginx-slim:broken","name":"nginx"}]}`, Description: "set image nginx-slim:broken"}},
			{When: sim.WhenStalled, Action: sim.Action{Kind: sim.SetTemplateSpec, Spec: `{"containers":[{"image":"nginx-slim:0.8","name":"nginx"}]}`, Description: "set image nginx-slim:0.8 (revert)"}},
			{When: sim.WhenStalled, Action: sim.Action{Kind: sim.DeletePod, Pod: "web-2", Description: "kubectl delete pod web-2"}},
		},
		Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = tr.WriteTimeline(os.Stdout)
	// Output:
	// updated, old: pods at the update revision and at other revisions (not counting terminating ones);
	// pods: pods that exist, terminating ones included; ready: Running and Ready pods / replicas;
	// ordinals: the pods from the first ordinal on, by revision letter (upper case: Running and Ready,
	// lower case: not yet), "-" terminating, "!" failed, "." no pod
	// revisions: A web-6b6d46fdcb (revision 3), B web-5f4664785c (revision 2)
	//
	//  sync      time updated   old  pods   ready  ordinals  what happened
	//     0     +0:00       1     0     1     0/3  a..       no revision records the set's template: revision 1; ordinal 0 of 3 replicas has no pod: web-0 is created at revision web-6b6d46fdcb
	//     1     +0:01       1     0     1     0/3  a..       waiting: web-0 is not Running and Ready (phase Pending); OrderedReady waits before creating web-1
	//     3     +0:10       2     0     2     1/3  Aa.       pods: web-0 Running and Ready; ordinal 1 of 3 replicas has no pod: web-1 is created at revision web-6b6d46fdcb
	//     4     +0:11       2     0     2     1/3  Aa.       waiting: web-1 is not Running and Ready (phase Pending); OrderedReady waits before creating web-2
	//     6     +0:20       3     0     3     2/3  AAa       pods: web-1 Running and Ready; ordinal 2 of 3 replicas has no pod: web-2 is created at revision web-6b6d46fdcb
	//     7     +0:21       3     0     3     2/3  AAa       waiting: web-2 is not Running and Ready (phase Pending); OrderedReady waits before the rolling update
	//     9     +0:30       3     0     3     3/3  AAA       pods: web-2 Running and Ready
	//    10     +0:31       0     2     3     2/3  AA-       user: set image nginx-slim:broken; no revision records the set's template: revision 2; web-2 is at revision "web-6b6d46fdcb", not web-5f4664785c: the rolling update replaces it (highest ordinal first, down to partition 0)
	//    11     +0:32       0     2     3     2/3  AA-       waiting: web-2 is terminating; OrderedReady waits for it to be gone before the rolling update
	//    12     +0:41       1     2     3     2/3  AAb       pods: web-2 gone; ordinal 2 of 3 replicas has no pod: web-2 is created at revision web-5f4664785c
	//    13     +0:42       1     2     3     2/3  AAb       waiting: web-2 is not Running and Ready (phase Pending); OrderedReady waits before the rolling update
	//    15     +0:51       1     2     3     2/3  AAb       pods: web-2 Running, never Ready; waiting: web-2 is not Running and Ready (phase Running); OrderedReady waits before the rolling update
	//    17     +0:53       2     1     3     2/3  AAb       user: set image nginx-slim:0.8 (revert); revision web-6b6d46fdcb (1) records the set's template but is not the latest (2): it becomes revision 3
	//    18     +0:54       2     1     3     2/3  AAb       waiting: web-2 is not Running and Ready (phase Running); OrderedReady waits before the rolling update
	//    19     +0:55       2     0     3     2/3  AA-       user: kubectl delete pod web-2; waiting: web-2 is terminating; OrderedReady waits for it to be gone before the rolling update
	//    21     +1:05       3     0     3     2/3  AAa       pods: web-2 gone; ordinal 2 of 3 replicas has no pod: web-2 is created at revision web-6b6d46fdcb
	//    22     +1:06       3     0     3     2/3  AAa       waiting: web-2 is not Running and Ready (phase Pending); OrderedReady waits before the rolling update
	//    24     +1:15       3     0     3     3/3  AAA       pods: web-2 Running and Ready
	//
	// summary: 26 syncs over +1:16; since the last user action at +0:55: completed after 5 syncs (+0:20)
	//   peak pods 3 (3 active), minimum available 2; 23 writes (0 conflicts), 0 invariant violations
}
