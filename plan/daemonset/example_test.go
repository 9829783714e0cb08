package daemonset_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// A new DaemonSet over a pool of three nodes, one of them reserved for GPU
// work by a taint the daemon does not tolerate: the first sync records the
// template as revision 1 and creates a pod on each of the two other nodes,
// each pinned to its node; the plan says why the third gets none.
func ExampleSync() {
	now := time.Date(2025, 4, 2, 10, 0, 0, 0, time.UTC)
	ds := model.DefaultDaemonSet(&model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: "node-exporter", Namespace: "monitoring", UID: "ds-1", Generation: 1,
			Annotations: map[string]string{model.DaemonSetTemplateGenerationAnnotation: "1"}},
		Spec: model.DaemonSetSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "node-exporter"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "node-exporter"},
				Spec: `{"spec":{"containers":[{"image":"prom/node-exporter:v1.8.2","name":"node-exporter"}]}}`},
		},
	})
	nodes := []*model.Node{
		{ObjectMeta: model.ObjectMeta{Name: "n-1"}},
		{ObjectMeta: model.ObjectMeta{Name: "n-2"}},
		{ObjectMeta: model.ObjectMeta{Name: "n-3"}, Spec: model.NodeSpec{Taints: []model.Taint{
			{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}}}},
	}
	p, err := daemonset.Sync(daemonset.State{DaemonSet: ds, Nodes: nodes, Now: now})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range p.Actions {
		switch a.Kind {
		case daemonset.CreatePod:
			fmt.Printf("%s on %s, pinned to %v\n", a.Kind, a.Node, a.Scheduling.RequiredNodeAffinity.NodeSelectorTerms[0].MatchFields[0].Values)
		case daemonset.CreateControllerRevision:
			fmt.Printf("%s revision %d\n", a.Kind, a.Revision.Revision)
		default:
			fmt.Printf("%s: %s\n", a.Kind, a.Reason.Message)
		}
	}
	for _, pl := range p.Nodes {
		if !pl.ShouldRun {
			fmt.Println(pl.Reason.Message)
		}
	}
	// Output:
	// CreateControllerRevision revision 1
	// CreatePod on n-1, pinned to [n-1]
	// CreatePod on n-2, pinned to [n-2]
	// UpdateDaemonSetStatus: 2 nodes should run a daemon pod: 0 do, 0 updated, 0 available
	// node n-3 has taint dedicated=gpu:NoSchedule that the pod does not tolerate
}
