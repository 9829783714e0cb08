package sim_test

import (
	"fmt"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// A Deployment of 3 replicas is created; once that rollout is complete the
// image changes. Pods take 20s to become ready. The summary describes the
// second rollout alone: 25%/25% of 3 keeps 3 pods available and adds at most
// 1.
func ExampleRun() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: `{"containers":[{"image":"nginx:1.14.2","name":"web"}]}`},
			Strategy: model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{
				MaxSurge: model.IntOrStringPtr(model.FromString("25%")), MaxUnavailable: model.IntOrStringPtr(model.FromString("25%"))}},
		},
	}
	tr, err := sim.Run(sim.Config{
		Deployment: d,
		World:      sim.World{ReadyAfter: 20 * time.Second},
		Script: []sim.Event{{When: sim.WhenComplete, Action: sim.Action{
			Kind: sim.SetTemplateSpec, Spec: `{"containers":[{"image":"nginx:1.16.1","name":"web"}]}`, Description: "set image nginx:1.16.1"}}},
		Fidelity: sim.Pods,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := tr.Summary
	fmt.Printf("image changed at +%s; complete %s later; peak %d pods; never fewer than %d available\n", s.From, s.CompletedAfter, s.PeakPods, s.MinAvailable)
	// Output:
	// image changed at +21s; complete 1m3s later; peak 4 pods; never fewer than 3 available
}

// The timeline of a rollout that stalls: the new image never becomes ready.
func ExampleTrace_WriteTimeline() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(2),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: `{"containers":[{"image":"nginx:1.14.2","name":"web"}]}`},
			Strategy: model.Strategy{Type: model.RecreateStrategy},
		},
	}
	tr, err := sim.Run(sim.Config{
		Deployment: d,
		World:      sim.World{NeverReady: sim.NeverReadyImage("broken")},
		Script:     []sim.Event{{When: sim.WhenComplete, Action: sim.Action{Kind: sim.SetTemplateSpec, Spec: `{"containers":[{"image":"broken","name":"web"}]}`, Description: "set image broken"}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = tr.WriteTimeline(os.Stdout)
	// Output:
	// new, old: spec.replicas of the new and old ReplicaSets; pods: pods that exist, terminating ones included;
	// available: available pods / replicas
	//
	//  sync      time   new   old  pods available  what happened
	//     0     +0:00     2     0     2       0/2  no ReplicaSet has the current template: create web-d65dbdd59 (revision 1) with 2: Recreate sizes the new ReplicaSet to replicas 2 at once
	//     1     +0:01     2     0     2       2/2  Progressing → True/NewReplicaSetAvailable
	//     2     +0:02     0     0     0       0/2  user: set image broken; Recreate stops every old pod first: old web-d65dbdd59 2→0
	//     3     +0:03     2     0     2       0/2  no ReplicaSet has the current template: create web-77f648bcfd (revision 2) with 2: Recreate sizes the new ReplicaSet to replicas 2 at once; Progressing → True/NewReplicaSetCreated
	//     4     +0:04     2     0     2       0/2  Progressing → True/ReplicaSetUpdated
	//     6    +10:05     2     0     2       0/2  waiting: no progress for more than 600 seconds; Progressing → False/ProgressDeadlineExceeded
	//     7    +10:06     2     0     2       0/2  waiting: no progress for more than 600 seconds
	//
	// summary: 8 syncs over +10:06; since the last user action at +0:02: not completed
	//   peak pods 2 (2 active), minimum available 0; 9 writes (2 conflicts), 0 invariant violations
	//   STALLED: Progressing=False/ProgressDeadlineExceeded; no progress for more than 600 seconds
}
