package plantest_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// A DaemonSet plan checked against the rolling update's guarantees: over
// four nodes running available pods of the old template, the planner's
// sync with maxUnavailable 1 deletes one old pod, and passes; a plan that
// also deleted the pod of a second node would leave two nodes without an
// available daemon pod and break D1. To check every sync of a whole
// rollout, run sim.RunDaemonSet with Check set.
func ExampleCheckDaemonSet() {
	f := newDSFixture(4, "1", "0")
	s := f.state()
	p, err := daemonset.Sync(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, "-", len(plantest.CheckDaemonSet(s, p)), "violations")

	second := f.pods[1]
	p.Actions = append(p.Actions, daemonset.Action{Kind: daemonset.DeletePod, Node: second.Spec.NodeName,
		Object: plan.ObjectRef{Namespace: second.Namespace, Name: second.Name}})
	for _, v := range plantest.CheckDaemonSet(s, p) {
		fmt.Println(v)
	}
	// A pod created on a node tainted NoSchedule breaks D3.
	f.nodes[3].Spec.Taints = []model.Taint{{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}}
	for _, v := range plantest.CheckDaemonSet(f.state(), daemonset.Plan{Hash: f.newH, Actions: []daemonset.Action{createOn(f, "n-4")}}) {
		fmt.Println(v)
	}
	// Output:
	// Plan [DeletePod agent-1 UpdateDaemonSetStatus agent]; 1 events - 0 violations
	// D1: the plan leaves 2 of 4 nodes without an available daemon pod (0 before; maxUnavailable 1)
	// D2: node n-4 would run 2 daemon pods without maxSurge (agent-4 and a new one)
	// D3: agent-x is created on node n-4, which should not run a daemon pod: node n-4 has taint dedicated=gpu:NoSchedule that the pod does not tolerate
}

// createOn is the create the planner would send for node, named agent-x.
func createOn(f *dsFixture, node string) daemonset.Action {
	sch := f.ds.Spec.Scheduling.DeepCopy()
	sch.RequiredNodeAffinity = model.NodeNameAffinity(node)
	pod := f.pod("agent-x", "", f.newH)
	return daemonset.Action{Kind: daemonset.CreatePod, Node: node, Object: plan.ObjectRef{Namespace: "default", Name: "agent-x"}, Pod: pod, Scheduling: &sch}
}
