package model_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestToleratesTaint(t *testing.T) {
	noSched := model.Taint{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}
	type c struct {
		tc
		tol   model.Toleration
		taint model.Taint
		want  bool
	}
	runCases(t, []c{
		{tc{"equal value", "v1 Toleration.ToleratesTaint: Equal compares values"},
			model.Toleration{Key: "dedicated", Operator: model.TolerationOpEqual, Value: "gpu", Effect: model.TaintEffectNoSchedule}, noSched, true},
		{tc{"empty operator is Equal", "v1 Toleration.ToleratesTaint: an empty operator means Equal"},
			model.Toleration{Key: "dedicated", Value: "gpu"}, noSched, true},
		{tc{"other value", "v1 Toleration.ToleratesTaint: Equal with another value"},
			model.Toleration{Key: "dedicated", Value: "infra"}, noSched, false},
		{tc{"exists any value", "v1 Toleration.ToleratesTaint: Exists matches every value"},
			model.Toleration{Key: "dedicated", Operator: model.TolerationOpExists}, noSched, true},
		{tc{"other effect", "v1 Toleration.ToleratesTaint: a set effect must equal the taint's"},
			model.Toleration{Key: "dedicated", Operator: model.TolerationOpExists, Effect: model.TaintEffectNoExecute}, noSched, false},
		{tc{"empty key exists", "seed 004 section 4 (the fluentd toleration pattern): an empty key with Exists tolerates everything"},
			model.Toleration{Operator: model.TolerationOpExists}, noSched, true},
		{tc{"other key", "v1 Toleration.ToleratesTaint: keys must agree"},
			model.Toleration{Key: "x", Operator: model.TolerationOpExists}, noSched, false},
		{tc{"Gt gate off", "v1.36 gate TaintTolerationComparisonOperators off: Lt and Gt tolerate nothing"},
			model.Toleration{Key: "dedicated", Operator: model.TolerationOpGt, Value: "1"}, model.Taint{Key: "dedicated", Value: "5", Effect: model.TaintEffectNoSchedule}, false},
		{tc{"unknown operator", "v1 Toleration.ToleratesTaint: an unknown operator tolerates nothing"},
			model.Toleration{Key: "dedicated", Operator: "Maybe", Value: "gpu"}, noSched, false},
	}, func(t *testing.T, c c) {
		assert.Equal(t, c.want, c.tol.ToleratesTaint(c.taint))
	})
}

func TestFindUntoleratedTaint(t *testing.T) {
	taints := []model.Taint{
		{Key: "soft", Effect: model.TaintEffectPreferNoSchedule},
		{Key: "a", Effect: model.TaintEffectNoSchedule},
		{Key: "b", Effect: model.TaintEffectNoExecute},
	}
	got, bad := model.FindUntoleratedTaint(taints, nil, model.TaintEffectNoSchedule, model.TaintEffectNoExecute)
	require.True(t, bad)
	assert.Equal(t, "a", got.Key, "the first untolerated taint among the effects asked for")
	got, bad = model.FindUntoleratedTaint(taints, []model.Toleration{{Key: "a", Operator: model.TolerationOpExists}}, model.TaintEffectNoSchedule, model.TaintEffectNoExecute)
	require.True(t, bad)
	assert.Equal(t, "b", got.Key)
	_, bad = model.FindUntoleratedTaint(taints, []model.Toleration{{Key: "a", Operator: model.TolerationOpExists}}, model.TaintEffectNoSchedule)
	assert.False(t, bad, "PreferNoSchedule and NoExecute are filtered out")
}

func TestNodeSelectorMatch(t *testing.T) {
	node := &model.Node{ObjectMeta: model.ObjectMeta{Name: "n-1", Labels: map[string]string{"zone": "a", "cpus": "8", "gpu": ""}}}
	term := func(rs ...model.NodeSelectorRequirement) model.NodeSelectorTerm {
		return model.NodeSelectorTerm{MatchExpressions: rs}
	}
	req := func(key string, op model.NodeSelectorOperator, values ...string) model.NodeSelectorRequirement {
		return model.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
	}
	type c struct {
		tc
		sel     model.NodeSelector
		want    bool
		wantErr bool
	}
	runCases(t, []c{
		{tc{"in", "scheduler nodeaffinity: In needs the label with one of the values"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("zone", model.NodeSelectorOpIn, "a", "b"))}}, true, false},
		{tc{"not in", "labels.Requirement.Matches: NotIn holds for a missing label"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("missing", model.NodeSelectorOpNotIn, "x"))}}, true, false},
		{tc{"exists", "labels.Requirement.Matches: Exists with an empty value"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("gpu", model.NodeSelectorOpExists))}}, true, false},
		{tc{"does not exist", "seed 004 data: control-plane DoesNotExist"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("zone", model.NodeSelectorOpDoesNotExist))}}, false, false},
		{tc{"gt", "labels.Requirement.Matches: Gt compares integers"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("cpus", model.NodeSelectorOpGt, "4"))}}, true, false},
		{tc{"lt on non-integer label", "labels.Requirement.Matches: a label that does not parse fails Lt"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("zone", model.NodeSelectorOpLt, "4"))}}, false, false},
		{tc{"terms are ORed", "nodeaffinity LazyErrorNodeSelector.Match: any term"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("zone", model.NodeSelectorOpIn, "z")), term(req("zone", model.NodeSelectorOpIn, "a"))}}, true, false},
		{tc{"only empty terms", "nodeaffinity: empty terms are skipped, so nothing matches"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{}}}, false, false},
		{tc{"no terms", "nodeaffinity: a selector without terms matches nothing"},
			model.NodeSelector{}, false, false},
		{tc{"match field name", "seed 004 section 4: matchFields metadata.name In [target-host-name]"},
			*model.NodeNameAffinity("n-1"), true, false},
		{tc{"match field other name", "fields selector: metadata.name In another node"},
			*model.NodeNameAffinity("n-2"), false, false},
		{tc{"match field not in", "fields selector: NotIn is inequality"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{MatchFields: []model.NodeSelectorRequirement{req(model.NodeNameField, model.NodeSelectorOpNotIn, "n-2")}}}}, true, false},
		{tc{"broken term ignored, other matches", "nodeaffinity: a term with a parse error does not match; the next one can"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("zone", model.NodeSelectorOpIn)), term(req("zone", model.NodeSelectorOpExists))}}, true, false},
		{tc{"broken term only", "nodeaffinity: In without values is a parse error"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("zone", model.NodeSelectorOpIn))}}, false, true},
		{tc{"gt with non-integer value", "labels.NewRequirement: Gt needs an integer"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{term(req("cpus", model.NodeSelectorOpGt, "x"))}}, false, true},
		{tc{"field with two values", "nodeSelectorRequirementsAsFieldSelector: exactly one value"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{MatchFields: []model.NodeSelectorRequirement{req(model.NodeNameField, model.NodeSelectorOpIn, "n-1", "n-2")}}}}, false, true},
		{tc{"field Exists", "nodeSelectorRequirementsAsFieldSelector: only In and NotIn"},
			model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{MatchFields: []model.NodeSelectorRequirement{req(model.NodeNameField, model.NodeSelectorOpExists)}}}}, false, true},
	}, func(t *testing.T, c c) {
		got, err := c.sel.Match(node)
		assert.Equal(t, c.want, got)
		assert.Equal(t, c.wantErr, err != nil, "error: %v", err)
	})
}

func TestValidateNode(t *testing.T) {
	n := &model.Node{ObjectMeta: model.ObjectMeta{Name: "n-1"}, Spec: model.NodeSpec{Taints: []model.Taint{
		{Key: "a", Effect: model.TaintEffectNoSchedule},
		{Key: "a", Effect: model.TaintEffectNoSchedule},
		{Key: "bad key!", Effect: "Sometimes"},
	}}}
	assert.Equal(t, []string{"spec.taints[1]", "spec.taints[2].key", "spec.taints[2].effect"}, fieldsOf(t, model.ValidateNode(n)))
	require.NoError(t, model.ValidateNode(&model.Node{ObjectMeta: model.ObjectMeta{Name: "n-1"}}))
	assert.Equal(t, []string{"metadata.name"}, fieldsOf(t, model.ValidateNode(&model.Node{})))
	assert.Equal(t, []string{"node"}, fieldsOf(t, model.ValidateNode(nil)))
}

func TestNodeDeepCopy(t *testing.T) {
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	n := &model.Node{ObjectMeta: model.ObjectMeta{Name: "n", Labels: map[string]string{"a": "b"}},
		Spec: model.NodeSpec{Taints: []model.Taint{{Key: "k", Effect: model.TaintEffectNoExecute, TimeAdded: &at}}}}
	c := n.DeepCopy()
	require.Empty(t, cmp.Diff(n, c))
	c.Labels["a"] = "x"
	c.Spec.Taints[0].Key = "other"
	*c.Spec.Taints[0].TimeAdded = at.Add(time.Hour)
	assert.Equal(t, "b", n.Labels["a"])
	assert.Equal(t, "k", n.Spec.Taints[0].Key)
	assert.Equal(t, at, *n.Spec.Taints[0].TimeAdded)
	assert.Nil(t, (*model.Node)(nil).DeepCopy())
}

func TestTaintAndTolerationStrings(t *testing.T) {
	assert.Equal(t, "dedicated=gpu:NoSchedule", model.Taint{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}.String())
	assert.Equal(t, "node-role.kubernetes.io/control-plane:NoSchedule", model.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: model.TaintEffectNoSchedule}.String())
	assert.Equal(t, "* (Exists)", model.Toleration{Operator: model.TolerationOpExists}.String())
	assert.Equal(t, "dedicated=gpu:NoSchedule", model.Toleration{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}.String())
}
