package daemonset_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

func TestNodeShouldRunDaemonPod(t *testing.T) {
	type c struct {
		name, why        string
		edit             func(ds *model.DaemonSet)
		node             *model.Node
		run, keep        bool
		code             daemonset.ReasonCode
		message          string
		messageUnchecked bool
	}
	cases := []c{
		{"plain node", "seed 004 section 4: without selector or affinity every node runs the daemon", nil, node("n-1"), true, true, daemonset.NodeEligible, "node n-1 should run a daemon pod", false},
		{"not ready", "seed 004 section 4 (tolerations table): not-ready NoExecute is tolerated by default", nil,
			node("n-1", taint(model.TaintNodeNotReady, "", model.TaintEffectNoExecute)), true, true, daemonset.NodeEligible, "", true},
		{"pid pressure", "upstream AddOrUpdateDaemonPodTolerations: pid-pressure NoSchedule is tolerated by default", nil,
			node("n-1", taint(model.TaintNodePIDPressure, "", model.TaintEffectNoSchedule)), true, true, daemonset.NodeEligible, "", true},
		{"network unavailable", "seed 004 section 4: network-unavailable is tolerated only by host-network pods", nil,
			node("n-1", taint(model.TaintNodeNetworkUnavailable, "", model.TaintEffectNoSchedule)), false, true, daemonset.NodeTaintNoSchedule,
			"node n-1 has taint node.kubernetes.io/network-unavailable:NoSchedule that the pod does not tolerate", false},
		{"network unavailable, host network", "seed 004 section 4: host-network daemons tolerate network-unavailable",
			func(ds *model.DaemonSet) { ds.Spec.Scheduling.HostNetwork = true },
			node("n-1", taint(model.TaintNodeNetworkUnavailable, "", model.TaintEffectNoSchedule)), true, true, daemonset.NodeEligible, "", true},
		{"NoExecute", "upstream NodeShouldRunDaemonPod: an untolerated NoExecute taint ends both", nil,
			node("n-1", taint("dedicated", "infra", model.TaintEffectNoExecute)), false, false, daemonset.NodeTaintNoExecute,
			"node n-1 has taint dedicated=infra:NoExecute that the pod does not tolerate", false},
		{"PreferNoSchedule ignored", "upstream predicates filter NoSchedule and NoExecute only", nil,
			node("n-1", taint("soft", "", model.TaintEffectPreferNoSchedule)), true, true, daemonset.NodeEligible, "", true},
		{"template node name", "upstream NodeShouldRunDaemonPod: a template spec.nodeName restricts the DaemonSet to that node",
			func(ds *model.DaemonSet) { ds.Spec.Scheduling.NodeName = "n-2" }, node("n-1"), false, false, daemonset.NodeNameMismatch,
			"the template's spec.nodeName is n-2, not node n-1", false},
		{"affinity parse error", "upstream predicates: node affinity parse errors are ignored; the term matches nothing",
			func(ds *model.DaemonSet) {
				ds.Spec.Scheduling.RequiredNodeAffinity = &model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{
					MatchExpressions: []model.NodeSelectorRequirement{{Key: "cpus", Operator: model.NodeSelectorOpGt, Values: []string{"many"}}}}}}
			}, node("n-1"), false, false, daemonset.NodeAffinityMismatch, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := fluentd()
			if c.edit != nil {
				c.edit(ds)
			}
			pl := daemonset.NodeShouldRunDaemonPod(c.node, ds)
			assert.Equal(t, c.run, pl.ShouldRun, c.why)
			assert.Equal(t, c.keep, pl.ShouldContinueRunning, c.why)
			assert.Equal(t, c.code, pl.Reason.Code, c.why)
			if !c.messageUnchecked {
				assert.Equal(t, c.message, pl.Reason.Message)
			}
		})
	}
	assert.False(t, daemonset.NodeShouldRunDaemonPod(nil, fluentd()).ShouldContinueRunning, "a nil node runs nothing")
}

var (
	fuzzEffects   = []model.TaintEffect{model.TaintEffectNoSchedule, model.TaintEffectPreferNoSchedule, model.TaintEffectNoExecute, "", "Bogus"}
	fuzzTolOps    = []model.TolerationOperator{model.TolerationOpEqual, model.TolerationOpExists, "", model.TolerationOpGt, "Bogus"}
	fuzzSelectOps = []model.NodeSelectorOperator{model.NodeSelectorOpIn, model.NodeSelectorOpNotIn, model.NodeSelectorOpExists,
		model.NodeSelectorOpDoesNotExist, model.NodeSelectorOpGt, model.NodeSelectorOpLt, "Bogus"}
)

func pick[T any](list []T, b uint8) T { return list[int(b)%len(list)] }

// FuzzNodeShouldRunDaemonPod checks the node predicate on arbitrary
// labels, selectors, affinities, taints and tolerations against an
// independent statement of upstream's rule, and that it never panics.
func FuzzNodeShouldRunDaemonPod(f *testing.F) {
	f.Add("pool", "gpu", "pool", "gpu", uint8(0), "gpu", "dedicated", "gpu", uint8(0), "dedicated", "gpu", uint8(0), uint8(0), false, "n-1", "")
	f.Add("kubernetes.io/arch", "arm64", "zone", "a", uint8(1), "a,b", "dedicated", "infra", uint8(2), "", "", uint8(1), uint8(3), true, "n-2", "n-2")
	f.Add("cpus", "8", "cpus", "", uint8(4), "4", model.TaintNodeNetworkUnavailable, "", uint8(0), "x", "y", uint8(3), uint8(4), true, "n-3", "n-4")
	f.Fuzz(func(t *testing.T, labelKey, labelValue, selKey, selValue string, exprOp uint8, exprValues, taintKey, taintValue string, taintEffect uint8,
		tolKey, tolValue string, tolOp, tolEffect uint8, hostNetwork bool, nodeName, templateNodeName string) {
		n := &model.Node{ObjectMeta: model.ObjectMeta{Name: nodeName, Labels: map[string]string{labelKey: labelValue}},
			Spec: model.NodeSpec{Taints: []model.Taint{
				{Key: taintKey, Value: taintValue, Effect: pick(fuzzEffects, taintEffect)},
				{Key: model.TaintNodeUnschedulable, Effect: model.TaintEffectNoSchedule},
			}}}
		var values []string
		if exprValues != "" {
			values = slices.Collect(func(yield func(string) bool) {
				start := 0
				for i := 0; i <= len(exprValues); i++ {
					if i == len(exprValues) || exprValues[i] == ',' {
						if !yield(exprValues[start:i]) {
							return
						}
						start = i + 1
					}
				}
			})
		}
		ds := fluentd(func(ds *model.DaemonSet) {
			sch := &ds.Spec.Scheduling
			sch.NodeName = templateNodeName
			if selKey != "" {
				sch.NodeSelector = map[string]string{selKey: selValue}
			}
			sch.RequiredNodeAffinity = &model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{
				{MatchExpressions: []model.NodeSelectorRequirement{{Key: labelKey, Operator: pick(fuzzSelectOps, exprOp), Values: values}}},
			}}
			sch.Tolerations = []model.Toleration{{Key: tolKey, Value: tolValue, Operator: pick(fuzzTolOps, tolOp), Effect: pick(fuzzEffects, tolEffect)}}
			sch.HostNetwork = hostNetwork
		})
		pl := daemonset.NodeShouldRunDaemonPod(n, ds)

		// The rule, stated independently.
		sch := ds.Spec.Scheduling
		nameOK := sch.NodeName == "" || sch.NodeName == n.Name
		selOK := selKey == "" || (n.Labels[selKey] == selValue && hasKey(n.Labels, selKey))
		affOK, _ := sch.RequiredNodeAffinity.Match(n)
		tols := model.DaemonPodTolerations(sch.Tolerations, sch.HostNetwork)
		untolerated := func(effect model.TaintEffect) bool {
			for _, tt := range n.Spec.Taints {
				if tt.Effect != effect {
					continue
				}
				tolerated := false
				for _, tol := range tols {
					tolerated = tolerated || tol.ToleratesTaint(tt)
				}
				if !tolerated {
					return true
				}
			}
			return false
		}
		fits := nameOK && selOK && affOK
		wantRun := fits && !untolerated(model.TaintEffectNoSchedule) && !untolerated(model.TaintEffectNoExecute)
		wantKeep := fits && !untolerated(model.TaintEffectNoExecute)
		if pl.ShouldRun != wantRun || pl.ShouldContinueRunning != wantKeep {
			t.Fatalf("got run=%v keep=%v (%s), want run=%v keep=%v", pl.ShouldRun, pl.ShouldContinueRunning, pl.Reason, wantRun, wantKeep)
		}
		if (pl.Reason.Code == daemonset.NodeEligible) != pl.ShouldRun || pl.Reason.Message == "" {
			t.Fatalf("reason %s for run=%v", pl.Reason, pl.ShouldRun)
		}
		// Upstream's walk over taints stops at the first untolerated one; the
		// answer must not depend on their order.
		rev := n.DeepCopy()
		slices.Reverse(rev.Spec.Taints)
		if r := daemonset.NodeShouldRunDaemonPod(rev, ds); r.ShouldRun != pl.ShouldRun || r.ShouldContinueRunning != pl.ShouldContinueRunning {
			t.Fatalf("taint order changes the answer: %+v vs %+v", r, pl)
		}
		// Tolerating everything leaves only the node name, selector and
		// affinity.
		ds.Spec.Scheduling.Tolerations = append(ds.Spec.Scheduling.Tolerations, model.Toleration{Operator: model.TolerationOpExists})
		if all := daemonset.NodeShouldRunDaemonPod(n, ds); all.ShouldRun != fits || all.ShouldContinueRunning != fits {
			t.Fatalf("with a toleration of everything: %+v, want %v", all, fits)
		}
	})
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}
