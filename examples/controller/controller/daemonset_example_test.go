package controller_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
)

// exampleDaemonSet is a DaemonSet as an API server returns it (defaulted).
func exampleDaemonSet() *apps.DaemonSet {
	labels := map[string]string{"app": "agent"}
	one, zero := intstr.FromInt32(1), intstr.FromInt32(0)
	return &apps.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kube-system", Name: "agent", UID: "3f1c", Generation: 1, ResourceVersion: "1",
			Annotations: map[string]string{"deprecated.daemonset.template.generation": "1"}},
		Spec: apps.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: core.PodSpec{
					Containers:    []core.Container{{Name: "agent", Image: "agent:1", TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: "IfNotPresent"}},
					RestartPolicy: core.RestartPolicyAlways, DNSPolicy: core.DNSClusterFirst, SchedulerName: "default-scheduler",
					TerminationGracePeriodSeconds: new(int64(30)), SecurityContext: &core.PodSecurityContext{},
				},
			},
			UpdateStrategy: apps.DaemonSetUpdateStrategy{Type: apps.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &apps.RollingUpdateDaemonSet{MaxUnavailable: &one, MaxSurge: &zero}},
			RevisionHistoryLimit: new(int32(10)),
		},
	}
}

// One sync of a new DaemonSet over two nodes, one of them tainted, in
// shadow mode: the writes are printed, not sent. The tainted node gets no
// pod; the pods are created with generateName "agent-" (the printed names
// are the planner's).
func ExampleSyncDaemonSet() {
	ds := exampleDaemonSet()
	nodes := []*core.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}},
		{ObjectMeta: metav1.ObjectMeta{Name: "node-2"}, Spec: core.NodeSpec{Taints: []core.Taint{{Key: "dedicated", Value: "gpu", Effect: core.TaintEffectNoSchedule}}}},
	}
	s := appsv1.DaemonSetState{Now: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), DaemonSet: ds, Nodes: nodes}
	res, err := controller.SyncDaemonSet(context.Background(), fake.NewClientset(ds), s, nil,
		controller.Options{Shadow: true, Out: os.Stdout})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range res.Plan.Nodes {
		fmt.Println(n.Node, n.ShouldRun, n.Reason.Message)
	}
	// Output:
	// daemonset kube-system/agent: create controllerrevisions kube-system/agent-bfb574866: CreateControllerRevision: no ControllerRevision records the current template: agent-bfb574866 becomes revision 1
	// daemonset kube-system/agent: create pods kube-system/agent-hdfr6: NodeNeedsDaemonPod: node node-1 should run a daemon pod and has none
	// daemonset kube-system/agent: update daemonsets/status kube-system/agent: SyncStatus: 1 nodes should run a daemon pod: 0 do, 0 updated, 0 available
	// node-1 true node node-1 should run a daemon pod
	// node-2 false node node-2 has taint dedicated=gpu:NoSchedule that the pod does not tolerate
}

// The stand-in scheduler binds a pod to the node its required node
// affinity pins it to, as the DaemonSet controller writes it.
func ExamplePinnedNode() {
	p := &core.Pod{Spec: core.PodSpec{Affinity: &core.Affinity{NodeAffinity: &core.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &core.NodeSelector{NodeSelectorTerms: []core.NodeSelectorTerm{{
			MatchFields: []core.NodeSelectorRequirement{{Key: "metadata.name", Operator: core.NodeSelectorOpIn, Values: []string{"node-1"}}},
		}}},
	}}}}
	fmt.Printf("%q %q\n", controller.PinnedNode(p), controller.PinnedNode(&core.Pod{}))
	// Output:
	// "node-1" ""
}
