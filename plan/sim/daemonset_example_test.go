package sim_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// nodeExporter is a node-exporter DaemonSet (the seed's kind of daemon:
// "running a node monitoring daemon on every node", seed 004, section 4)
// with the default RollingUpdate, maxUnavailable 1.
func nodeExporter() *model.DaemonSet {
	return &model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: "node-exporter", Namespace: "monitoring", UID: "node-exporter-uid"},
		Spec: model.DaemonSetSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "node-exporter"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "node-exporter"}, Spec: exporterImage("v1.8.2")},
		},
	}
}

func exporterImage(tag string) string {
	return `{"containers":[{"image":"prom/node-exporter:` + tag + `","name":"node-exporter"}]}`
}

// fourNodes is a pool of four plain nodes.
func fourNodes() []*model.Node {
	var nodes []*model.Node
	for _, n := range []string{"n-1", "n-2", "n-3", "n-4"} {
		nodes = append(nodes, &model.Node{ObjectMeta: model.ObjectMeta{Name: n}})
	}
	return nodes
}

// taintedMidRollout is the README's DaemonSet story: node-exporter runs on
// four nodes; once its pods are ready the image changes, and 20 seconds in
// node n-4 is tainted dedicated=gpu:NoSchedule. Pods take 10s to become
// ready and 5s to terminate.
func taintedMidRollout() (*sim.DaemonSetTrace, error) {
	return sim.RunDaemonSet(sim.DaemonSetConfig{
		DaemonSet: nodeExporter(),
		Nodes:     fourNodes(),
		World:     sim.World{ReadyAfter: 10 * time.Second, TerminationGrace: 5 * time.Second},
		Script: []sim.Event{
			{When: sim.WhenComplete, Action: sim.Action{Kind: sim.SetTemplateSpec, Spec: exporterImage("v1.9.0"), Description: "set image node-exporter:v1.9.0"}},
			{At: 20 * time.Second, Action: sim.Action{Kind: sim.TaintNode, Node: "n-4",
				Taint: model.Taint{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}}},
		},
		Check: true,
	})
}

// The image of node-exporter changes over a pool of four nodes with
// maxUnavailable 1: the update replaces one node's pod at a time, so at
// least three nodes keep an available pod throughout. Each node takes 5
// syncs (delete the old pod, see it terminate, create the new one once it
// is gone, see it start, see it ready and replace the next), the liveness
// bound for pods that take time.
func ExampleRunDaemonSet() {
	tr, err := sim.RunDaemonSet(sim.DaemonSetConfig{
		DaemonSet: nodeExporter(),
		Nodes:     fourNodes(),
		World:     sim.World{ReadyAfter: 10 * time.Second, TerminationGrace: 5 * time.Second},
		Script: []sim.Event{{When: sim.WhenComplete, Action: sim.Action{
			Kind: sim.SetTemplateSpec, Spec: exporterImage("v1.9.0"), Description: "set image node-exporter:v1.9.0"}}},
		Check: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := tr.Summary
	fmt.Printf("image changed at +%s; complete %s and %d syncs later (bound %d); never fewer than %d nodes with an available pod; %d violations\n",
		s.From, s.CompletedAfter, s.CompletedSyncs, sim.DaemonSetLivenessBound(nodeExporter(), 4, false), s.MinAvailable, s.Violations)
	fmt.Println("nodes at the end:", tr.Steps[len(tr.Steps)-1].Nodes)
	// Output:
	// image changed at +11s; complete 1m0s and 20 syncs later (bound 20); never fewer than 3 nodes with an available pod; 0 violations
	// nodes at the end: BBBB
}

// A node tainted NoSchedule in the middle of a rolling update keeps its old
// pod (pods already there may stay) until the update reaches it; the update
// then replaces the pod as usual, but no new pod may start there, so the
// node ends without a daemon pod and the DaemonSet counts three nodes.
func ExampleDaemonSetTrace_WriteTimeline() {
	tr, err := taintedMidRollout()
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = tr.WriteTimeline(os.Stdout)
	// Output:
	// updated, old: pods of the current revision and of older ones (not counting terminating ones);
	// pods: pods that exist, terminating ones included; unavail: nodes that should run a daemon pod
	// and have no available one / nodes that should run one;
	// nodes: the pool in name order, by the revision letter of each node's newest pod (upper case:
	// Running and Ready, lower case: not yet), "-" terminating, "!" failed, "." no pod, "_" no pod
	// and should run none
	// revisions: A node-exporter-8494f56d7b (revision 1), B node-exporter-576b5d8d5f (revision 2)
	//
	//  sync      time updated   old  pods unavail  nodes  what happened
	//     0     +0:00       4     0     4     4/4  aaaa   no ControllerRevision records the current template: node-exporter-8494f56d7b becomes revision 1; node n-1 should run a daemon pod and has none: node-exporter-2dptr is created (likewise on n-2, n-3, n-4)
	//     3     +0:10       4     0     4     0/4  AAAA   pods: 4 pods Running and Ready
	//     4     +0:11       0     3     4     1/4  -AAA   user: set image node-exporter:v1.9.0; no ControllerRevision records the current template: node-exporter-576b5d8d5f becomes revision 2; old pod node-exporter-2dptr on node n-1 is replaced: 0 nodes lack an available pod, maxUnavailable 1 allows 1 more
	//     5     +0:12       0     3     4     1/4  -AAA   waiting: 3 nodes keep their available old pod this sync (n-2, n-3, n-4): 1 nodes lack an available pod, maxUnavailable is 1
	//     6     +0:16       1     3     4     1/4  bAAA   pods: node-exporter-2dptr gone; node n-1 should run a daemon pod and has none: node-exporter-7xg8r is created
	//     7     +0:17       1     3     4     1/4  bAAA   waiting: 3 nodes keep their available old pod this sync (n-2, n-3, n-4): 1 nodes lack an available pod, maxUnavailable is 1
	//     9     +0:20       1     3     4     1/3  bAAA   user: kubectl taint nodes n-4 dedicated=gpu:NoSchedule; waiting: 3 nodes keep their available old pod this sync (n-2, n-3, n-4): 1 nodes lack an available pod, maxUnavailable is 1; node n-4 has taint dedicated=gpu:NoSchedule that the pod does not tolerate (no new daemon pod there)
	//    11     +0:26       1     2     4     1/3  B-AA   pods: node-exporter-7xg8r Running and Ready; old pod node-exporter-ncfm9 on node n-2 is replaced: 0 nodes lack an available pod, maxUnavailable 1 allows 1 more
	//    12     +0:27       1     2     4     1/3  B-AA   waiting: 2 nodes keep their available old pod this sync (n-3, n-4): 1 nodes lack an available pod, maxUnavailable is 1
	//    13     +0:31       2     2     4     1/3  BbAA   pods: node-exporter-ncfm9 gone; node n-2 should run a daemon pod and has none: node-exporter-2542l is created
	//    14     +0:32       2     2     4     1/3  BbAA   waiting: 2 nodes keep their available old pod this sync (n-3, n-4): 1 nodes lack an available pod, maxUnavailable is 1
	//    16     +0:41       2     1     4     1/3  BB-A   pods: node-exporter-2542l Running and Ready; old pod node-exporter-pt65g on node n-3 is replaced: 0 nodes lack an available pod, maxUnavailable 1 allows 1 more
	//    17     +0:42       2     1     4     1/3  BB-A   waiting: 1 nodes keep their available old pod this sync (n-4): 1 nodes lack an available pod, maxUnavailable is 1
	//    18     +0:46       3     1     4     1/3  BBbA   pods: node-exporter-pt65g gone; node n-3 should run a daemon pod and has none: node-exporter-76xdl is created
	//    19     +0:47       3     1     4     1/3  BBbA   waiting: 1 nodes keep their available old pod this sync (n-4): 1 nodes lack an available pod, maxUnavailable is 1
	//    21     +0:56       3     0     4     0/3  BBB-   pods: node-exporter-76xdl Running and Ready; old pod node-exporter-vhb79 on node n-4 is replaced: 0 nodes lack an available pod, maxUnavailable 1 allows 1 more
	//    23     +1:01       3     0     3     0/3  BBB_   pods: node-exporter-vhb79 gone
	//
	// summary: 25 syncs over +1:02; since the last user action at +0:20: completed after 14 syncs (+0:41)
	//   peak pods 4 (4 active), minimum available 2; 28 writes (0 conflicts), 0 invariant violations
}

// DaemonSetLivenessBound for a pool of 10 nodes: with maxUnavailable 1,
// 10 waves of one node; with maxUnavailable 30%, 3 nodes at a time (30% of
// 10), 4 waves.
func ExampleDaemonSetLivenessBound() {
	ds := nodeExporter()
	fmt.Println(sim.DaemonSetLivenessBound(ds, 10, true), sim.DaemonSetLivenessBound(ds, 10, false))
	ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate,
		RollingUpdate: &model.RollingUpdateDaemonSet{MaxUnavailable: model.IntOrStringPtr(model.FromString("30%"))}}
	fmt.Println(sim.DaemonSetLivenessBound(ds, 10, true), sim.DaemonSetLivenessBound(ds, 10, false))
	// Output:
	// 20 50
	// 8 20
}

// WriteSVG charts a DaemonSet trace like a StatefulSet's: per revision its
// pods and available pods, all pods, the nodes that should run one and
// those without an available pod. Here the legend of the README's story.
func ExampleDaemonSetTrace_WriteSVG() {
	tr, err := taintedMidRollout()
	if err != nil {
		fmt.Println(err)
		return
	}
	var svg strings.Builder
	if err := tr.WriteSVG(&svg, "node-exporter: v1.8.2 → v1.9.0, n-4 tainted"); err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range strings.Split(svg.String(), "\n") {
		if _, label, ok := strings.Cut(l, `"/><text x="796"`); ok {
			fmt.Println(label[strings.Index(label, ">")+1 : strings.LastIndex(label, "</text>")])
		}
	}
	// Output:
	// A node-exporter-8494f56… pods
	// A node-exporter-8494f56… available
	// B node-exporter-576b5d8… pods
	// B node-exporter-576b5d8… available
	// pods (incl. terminating)
	// nodes to run a pod
	// nodes without an available pod
}
