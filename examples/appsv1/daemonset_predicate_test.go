package appsv1_test

import (
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/klog/v2"
)

var (
	diffEffects = []string{"NoSchedule", "PreferNoSchedule", "NoExecute", "", "Other"}
	diffTolOps  = []string{"Equal", "Exists", "", "Lt", "Gt", "Other"}
	diffSelOps  = []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"}
)

// FuzzTolerationAgainstUpstream compares model.Toleration.ToleratesTaint
// with k8s.io/api's Toleration.ToleratesTaint (the comparison operators
// gate off, as in v1.36 by default), and a one-requirement node affinity
// term (model.NodeSelector.Match) with apimachinery's label requirement
// (labels.NewRequirement and Requirement.Matches), which the scheduler's
// node affinity builds on.
func FuzzTolerationAgainstUpstream(f *testing.F) {
	f.Add("dedicated", "gpu", uint8(0), uint8(0), "dedicated", "gpu", uint8(0), "zone", "a", uint8(0), "a,b")
	f.Add("", "", uint8(1), uint8(3), "k", "", uint8(2), "cpus", "8", uint8(4), "4")
	f.Add("k", "v", uint8(3), uint8(0), "k", "v", uint8(0), "k", "", uint8(2), "")
	f.Fuzz(func(t *testing.T, tolKey, tolValue string, tolOp, tolEffect uint8, taintKey, taintValue string, taintEffect uint8,
		labelKey, labelValue string, selOp uint8, values string) {
		tol := core.Toleration{Key: tolKey, Value: tolValue, Operator: core.TolerationOperator(diffTolOps[int(tolOp)%len(diffTolOps)]),
			Effect: core.TaintEffect(diffEffects[int(tolEffect)%len(diffEffects)])}
		taint := core.Taint{Key: taintKey, Value: taintValue, Effect: core.TaintEffect(diffEffects[int(taintEffect)%len(diffEffects)])}
		want := tol.ToleratesTaint(klog.Background(), &taint, false)
		got := model.Toleration{Key: tol.Key, Value: tol.Value, Operator: model.TolerationOperator(tol.Operator), Effect: model.TaintEffect(tol.Effect)}.
			ToleratesTaint(model.Taint{Key: taint.Key, Value: taint.Value, Effect: model.TaintEffect(taint.Effect)})
		if got != want {
			t.Fatalf("toleration %+v, taint %+v: model %v, upstream %v", tol, taint, got, want)
		}

		var vals []string
		if values != "" {
			vals = strings.Split(values, ",")
		}
		op := diffSelOps[int(selOp)%len(diffSelOps)]
		nodeLabels := map[string]string{labelKey: labelValue}
		req, err := labels.NewRequirement(labelKey, selection.Operator(map[string]string{
			"In": "in", "NotIn": "notin", "Exists": "exists", "DoesNotExist": "!", "Gt": "gt", "Lt": "lt"}[op]), vals)
		wantMatch := err == nil && req.Matches(labels.Set(nodeLabels))
		sel := model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{MatchExpressions: []model.NodeSelectorRequirement{
			{Key: labelKey, Operator: model.NodeSelectorOperator(op), Values: vals}}}}}
		gotMatch, gotErr := sel.Match(&model.Node{ObjectMeta: model.ObjectMeta{Name: "n", Labels: nodeLabels}})
		if gotMatch != wantMatch || (gotErr != nil) != (err != nil) {
			t.Fatalf("requirement %s %s %q on %v: model %v (%v), upstream %v (%v)", labelKey, op, vals, nodeLabels, gotMatch, gotErr, wantMatch, err)
		}
	})
}
