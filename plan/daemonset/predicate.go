package daemonset

import (
	"maps"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// NodeShouldRunDaemonPod says whether node should run a pod of ds
// (upstream NodeShouldRunDaemonPod), reading the template's scheduling
// fields (ds.Spec.Scheduling) as the pod the controller would create
// there:
//
//   - a template spec.nodeName other than the node's name rules the node
//     out;
//   - so does a node that lacks a label of the nodeSelector, or that no
//     term of the required node affinity matches (a term that cannot be
//     parsed matches nothing; upstream ignores the parse error);
//   - a NoSchedule or NoExecute taint that the template's tolerations, with
//     the default daemon tolerations added ([model.DaemonPodTolerations]),
//     do not tolerate rules the node out for new pods (ShouldRun false);
//     pods already there may stay (ShouldContinueRunning) unless such a
//     taint has effect NoExecute.
//
// PreferNoSchedule taints and spec.unschedulable are not read: a cordoned
// node carries node.kubernetes.io/unschedulable:NoSchedule, which every
// daemon pod tolerates. A nil node or DaemonSet yields a Placement that
// rules the node out.
//
// For example a node with the taint dedicated=gpu:NoSchedule and a template
// without tolerations gives ShouldRun false, ShouldContinueRunning true and
// the reason "node gpu-1 has taint dedicated=gpu:NoSchedule that the pod
// does not tolerate".
func NodeShouldRunDaemonPod(node *model.Node, ds *model.DaemonSet) Placement {
	if node == nil || ds == nil {
		return Placement{Reason: reason(NodeNameMismatch, nil, "no node or no DaemonSet")}
	}
	return nodeShouldRun(node, ds, newPodTerms(ds))
}

// podTerms is what a daemon pod brings to the predicate besides its
// template's fields, made once per sync (a sync asks for every node of the
// pool): its tolerations (the template's with the default daemon
// tolerations added) and the keys of its nodeSelector, sorted (the
// predicate checks them in that order, so that the reason names the first
// mismatch the same way every time).
type podTerms struct {
	tolerations  []model.Toleration
	selectorKeys []string
}

func newPodTerms(ds *model.DaemonSet) *podTerms {
	sch := &ds.Spec.Scheduling
	return &podTerms{
		tolerations:  model.DaemonPodTolerations(sch.Tolerations, sch.HostNetwork),
		selectorKeys: slices.Sorted(maps.Keys(sch.NodeSelector)),
	}
}

// nodeShouldRun is NodeShouldRunDaemonPod with the pod's terms made by the
// caller.
func nodeShouldRun(node *model.Node, ds *model.DaemonSet, terms *podTerms) Placement {
	out := Placement{Node: node.Name}
	sch := &ds.Spec.Scheduling
	tolerations := terms.tolerations
	if sch.NodeName != "" && sch.NodeName != node.Name {
		out.Reason = reason(NodeNameMismatch, nil, "the template's spec.nodeName is %s, not node %s", sch.NodeName, node.Name)
		return out
	}
	for _, k := range terms.selectorKeys {
		want := sch.NodeSelector[k]
		if have, ok := node.Labels[k]; !ok || have != want {
			if ok {
				out.Reason = reason(NodeSelectorMismatch, nil, "node %s has label %s=%s, the pod's nodeSelector wants %s=%s", node.Name, k, have, k, want)
			} else {
				out.Reason = reason(NodeSelectorMismatch, nil, "node %s lacks label %s=%s of the pod's nodeSelector", node.Name, k, want)
			}
			return out
		}
	}
	if na := sch.RequiredNodeAffinity; na != nil {
		if ok, err := na.Match(node); !ok {
			if err != nil {
				out.Reason = reason(NodeAffinityMismatch, nil, "node %s matches no term of the pod's required node affinity (terms ignored: %v)", node.Name, err)
			} else {
				out.Reason = reason(NodeAffinityMismatch, nil, "node %s matches no term of the pod's required node affinity", node.Name)
			}
			return out
		}
	}
	if t, bad := model.FindUntoleratedTaint(node.Spec.Taints, tolerations, model.TaintEffectNoSchedule, model.TaintEffectNoExecute); bad {
		if nx, badNX := model.FindUntoleratedTaint(node.Spec.Taints, tolerations, model.TaintEffectNoExecute); badNX {
			out.Reason = reason(NodeTaintNoExecute, nil, "node %s has taint %s that the pod does not tolerate", node.Name, nx)
			return out
		}
		out.ShouldContinueRunning = true
		out.Reason = reason(NodeTaintNoSchedule, nil, "node %s has taint %s that the pod does not tolerate", node.Name, t)
		return out
	}
	out.ShouldRun, out.ShouldContinueRunning = true, true
	// The most common reason, one per node: built without formatting.
	out.Reason = Reason{Code: NodeEligible, Message: "node " + node.Name + " should run a daemon pod"}
	return out
}
