package plantest_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// A StatefulSet plan checked against the seed's guarantees: the planner's
// first sync of a 3-replica OrderedReady set creates web-0 only, and passes;
// a plan that also started web-1 before web-0 is Running and Ready would
// break S1. To check every sync of a whole rollout, run sim.RunStatefulSet
// with Check set.
func ExampleCheckStatefulSet() {
	set := model.DefaultStatefulSet(&model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 1},
		Spec: model.StatefulSetSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: `{"containers":[{"image":"nginx-slim:0.8","name":"nginx"}]}`},
		},
	})
	s := statefulset.State{StatefulSet: set, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p, err := statefulset.Sync(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, "-", len(plantest.CheckStatefulSet(s, p, plantest.StatefulSetGates{})), "violations")

	web1 := p.Actions[1] // CreatePod web-0, made into web-1
	web1.Ordinal, web1.Object = 1, plan.ObjectRef{Namespace: "default", Name: "web-1"}
	p.Actions = append(p.Actions, web1)
	for _, v := range plantest.CheckStatefulSet(s, p, plantest.StatefulSetGates{}) {
		fmt.Println(v)
	}
	// Output:
	// Plan [CreateControllerRevision web-6b6d46fdcb CreatePod web-0 UpdateStatefulSetStatus web]; 1 event - 0 violations
	// S1: OrderedReady creates web-1 while its predecessor web-0 (missing) is not Running, Ready and available
	// S1: OrderedReady creates 2 pods in one sync (at most 1)
}
