package model_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
)

// validDaemonSet is the seed's fluentd-elasticsearch DaemonSet (seed 004,
// section 4, "DaemonSetの作成"), defaulted.
func validDaemonSet() *model.DaemonSet {
	return model.DefaultDaemonSet(&model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: "fluentd-elasticsearch", Namespace: "kube-system", UID: "uid-ds", Generation: 1,
			Labels:      map[string]string{"k8s-app": "fluentd-logging"},
			Annotations: map[string]string{model.DaemonSetTemplateGenerationAnnotation: "1"}},
		Spec: model.DaemonSetSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"name": "fluentd-elasticsearch"}},
			Template: model.PodTemplate{Labels: map[string]string{"name": "fluentd-elasticsearch"},
				Spec: `{"spec":{"containers":[{"image":"quay.io/fluentd_elasticsearch/fluentd:v2.5.2","name":"fluentd-elasticsearch"}]}}`},
			Scheduling: model.PodScheduling{Tolerations: []model.Toleration{
				{Key: "node-role.kubernetes.io/master", Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule}}},
		},
	})
}

func TestDefaultDaemonSet(t *testing.T) {
	type c struct {
		tc
		in   model.DaemonSetUpdateStrategy
		want model.DaemonSetUpdateStrategy
	}
	runCases(t, []c{
		{tc{"empty", "apps/v1 SetDefaults_DaemonSet: RollingUpdate, maxUnavailable 1, maxSurge 0"},
			model.DaemonSetUpdateStrategy{},
			model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate, RollingUpdate: &model.RollingUpdateDaemonSet{MaxUnavailable: ioi(1), MaxSurge: ioi(0)}}},
		{tc{"surge kept", "apps/v1 SetDefaults_DaemonSet: set values are kept, missing ones filled"},
			model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate, RollingUpdate: &model.RollingUpdateDaemonSet{MaxSurge: ios("25%")}},
			model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate, RollingUpdate: &model.RollingUpdateDaemonSet{MaxUnavailable: ioi(1), MaxSurge: ios("25%")}}},
		{tc{"on delete", "apps/v1 SetDefaults_DaemonSet: no rollingUpdate block for OnDelete"},
			model.DaemonSetUpdateStrategy{Type: model.DaemonSetOnDelete},
			model.DaemonSetUpdateStrategy{Type: model.DaemonSetOnDelete}},
	}, func(t *testing.T, c c) {
		in := &model.DaemonSet{Spec: model.DaemonSetSpec{UpdateStrategy: c.in}}
		before := in.DeepCopy()
		out := model.DefaultDaemonSet(in)
		assert.Empty(t, cmp.Diff(c.want, out.Spec.UpdateStrategy))
		assert.Equal(t, int32(10), *out.Spec.RevisionHistoryLimit, "apps/v1 SetDefaults_DaemonSet: revisionHistoryLimit 10")
		assert.Empty(t, cmp.Diff(before, in), "the input is not changed")
	})
	assert.Nil(t, model.DefaultDaemonSet(nil))
}

func TestValidateDaemonSet(t *testing.T) {
	type c struct {
		tc
		edit func(ds *model.DaemonSet)
		want []string
	}
	runCases(t, []c{
		{tc{"valid", "the seed's fluentd DaemonSet, defaulted, is valid"}, func(*model.DaemonSet) {}, nil},
		{tc{"no selector", "seed 004 section 4: the pod selector is required"},
			func(ds *model.DaemonSet) { ds.Spec.Selector = nil }, []string{"spec.selector"}},
		{tc{"empty selector", "apps validation: empty selector is invalid for daemonset"},
			func(ds *model.DaemonSet) { ds.Spec.Selector = &model.LabelSelector{} }, []string{"spec.selector"}},
		{tc{"selector does not match", "seed 004 section 4: a selector that does not match the template labels is rejected by the API"},
			func(ds *model.DaemonSet) { ds.Spec.Template.Labels = map[string]string{"name": "other"} }, []string{"spec.template.metadata.labels"}},
		{tc{"both zero", "apps ValidateRollingUpdateDaemonSet: maxUnavailable cannot be 0 when maxSurge is 0"},
			func(ds *model.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ioi(0) },
			[]string{"spec.updateStrategy.rollingUpdate.maxUnavailable"}},
		{tc{"both set accepted", "recorded states carry both; the controller lets maxSurge win"},
			func(ds *model.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = ios("25%") }, nil},
		{tc{"over 100%", "apps IsNotMoreThan100Percent"},
			func(ds *model.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = ios("150%") },
			[]string{"spec.updateStrategy.rollingUpdate.maxSurge"}},
		{tc{"no block", "apps ValidateDaemonSetUpdateStrategy: rollingUpdate required for RollingUpdate"},
			func(ds *model.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate = nil }, []string{"spec.updateStrategy.rollingUpdate"}},
		{tc{"unknown type", "apps ValidateDaemonSetUpdateStrategy: supported values"},
			func(ds *model.DaemonSet) { ds.Spec.UpdateStrategy.Type = "Recreate" }, []string{"spec.updateStrategy.type"}},
		{tc{"undefaulted history limit", "the planner needs revisionHistoryLimit (upstream dereferences it)"},
			func(ds *model.DaemonSet) { ds.Spec.RevisionHistoryLimit = nil }, []string{"spec.revisionHistoryLimit"}},
		{tc{"negative minReadySeconds", "apps ValidateDaemonSetSpec: non-negative"},
			func(ds *model.DaemonSet) { ds.Spec.MinReadySeconds = -1 }, []string{"spec.minReadySeconds"}},
		{tc{"bad toleration", "core pod spec validation: Exists takes no value; unknown effect"},
			func(ds *model.DaemonSet) {
				ds.Spec.Scheduling.Tolerations = []model.Toleration{{Key: "a", Operator: model.TolerationOpExists, Value: "v", Effect: "Never"}}
			}, []string{"spec.template.spec.tolerations[0].operator", "spec.template.spec.tolerations[0].effect"}},
		{tc{"bad affinity", "core node selector validation: In needs values; matchFields only metadata.name"},
			func(ds *model.DaemonSet) {
				ds.Spec.Scheduling.RequiredNodeAffinity = &model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{
					MatchExpressions: []model.NodeSelectorRequirement{{Key: "zone", Operator: model.NodeSelectorOpIn}},
					MatchFields:      []model.NodeSelectorRequirement{{Key: "spec.x", Operator: model.NodeSelectorOpIn, Values: []string{"a"}}},
				}}}
			}, []string{
				"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]",
				"spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key",
			}},
		{tc{"negative status", "apps validateDaemonSetStatus: non-negative counts"},
			func(ds *model.DaemonSet) { ds.Status.NumberReady = -1 }, []string{"status.numberReady"}},
	}, func(t *testing.T, c c) {
		ds := validDaemonSet()
		c.edit(ds)
		assert.Equal(t, c.want, fieldsOf(t, model.ValidateDaemonSet(ds)))
	})
}

func TestValidateDaemonSetSnapshotPaths(t *testing.T) {
	ds := validDaemonSet()
	nodes := []*model.Node{{ObjectMeta: model.ObjectMeta{Name: "n-1"}}, {ObjectMeta: model.ObjectMeta{Name: "n-1"}}}
	pods := []*model.Pod{nil}
	revs := []*model.ControllerRevision{{ObjectMeta: model.ObjectMeta{Name: "r"}, Revision: -1}}
	err := model.ValidateDaemonSetSnapshot(ds, nodes, pods, revs)
	assert.Equal(t, []string{"nodes[1].metadata.name", "pods[0]", "controllerRevisions[0].revision"}, fieldsOf(t, err))
	require.NoError(t, model.ValidateDaemonSetSnapshot(ds, nil, nil, nil))
}

func TestDaemonPodTolerations(t *testing.T) {
	defaults := []model.Toleration{
		{Key: model.TaintNodeNotReady, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoExecute},
		{Key: model.TaintNodeUnreachable, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoExecute},
		{Key: model.TaintNodeDiskPressure, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
		{Key: model.TaintNodeMemoryPressure, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
		{Key: model.TaintNodePIDPressure, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
		{Key: model.TaintNodeUnschedulable, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule},
	}
	network := model.Toleration{Key: model.TaintNodeNetworkUnavailable, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule}
	own := model.Toleration{Key: "node-role.kubernetes.io/master", Operator: model.TolerationOpExists, Effect: model.TaintEffectNoSchedule}
	secs := int64(300)
	timed := model.Toleration{Key: model.TaintNodeNotReady, Operator: model.TolerationOpExists, Effect: model.TaintEffectNoExecute, TolerationSeconds: &secs}
	type c struct {
		tc
		in          []model.Toleration
		hostNetwork bool
		want        []model.Toleration
	}
	runCases(t, []c{
		{tc{"none", "seed 004 section 4 (Taints and Tolerations table) and upstream AddOrUpdateDaemonPodTolerations: the defaults in order"},
			nil, false, defaults},
		{tc{"host network", "seed 004 section 4: network-unavailable is added for host-network pods"},
			nil, true, append(append([]model.Toleration{}, defaults...), network)},
		{tc{"own first", "AddOrUpdateTolerationInPodSpec appends after the template's"},
			[]model.Toleration{own}, false, append([]model.Toleration{own}, defaults...)},
		{tc{"already present", "AddOrUpdateTolerationInPodSpec: an identical toleration is kept, not repeated"},
			[]model.Toleration{defaults[2]}, false, append([]model.Toleration{defaults[2]}, append(append([]model.Toleration{}, defaults[:2]...), defaults[3:]...)...)},
		{tc{"timed replaced in place", "AddOrUpdateTolerationInPodSpec: a match with tolerationSeconds is replaced by the default"},
			[]model.Toleration{own, timed}, false, append([]model.Toleration{own}, defaults...)},
	}, func(t *testing.T, c c) {
		in := copyTolerations(c.in)
		got := model.DaemonPodTolerations(c.in, c.hostNetwork)
		assert.Empty(t, cmp.Diff(c.want, got))
		assert.Empty(t, cmp.Diff(in, c.in), "the input is not changed")
	})
}

func TestTargetNodeName(t *testing.T) {
	pod := &model.Pod{ObjectMeta: model.ObjectMeta{Name: "p", Namespace: "ns"}}
	type c struct {
		tc
		nodeName string
		affinity *model.NodeSelector
		want     string
		wantErr  string
	}
	runCases(t, []c{
		{tc{"node name", "GetTargetNodeName: spec.nodeName first"}, "n-1", model.NodeNameAffinity("n-2"), "n-1", ""},
		{tc{"affinity", "GetTargetNodeName: a pending pod's metadata.name match field"}, "", model.NodeNameAffinity("n-2"), "n-2", ""},
		{tc{"nothing", "GetTargetNodeName: no affinity is an error"}, "", nil, "",
			"no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod ns/p"},
		{tc{"no terms", "GetTargetNodeName: no terms"}, "", &model.NodeSelector{}, "", "no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod ns/p"},
		{tc{"two values", "GetTargetNodeName: the value must be unique"}, "", &model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{
			MatchFields: []model.NodeSelectorRequirement{{Key: model.NodeNameField, Operator: model.NodeSelectorOpIn, Values: []string{"a", "b"}}}}}},
			"", "the matchFields value of 'metadata.name' is not unique for pod ns/p"},
		{tc{"labels only", "GetTargetNodeName: match expressions do not name a node"}, "", &model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{
			MatchExpressions: []model.NodeSelectorRequirement{{Key: "a", Operator: model.NodeSelectorOpExists}}}}},
			"", "no node name found for pod ns/p"},
	}, func(t *testing.T, c c) {
		p := pod.DeepCopy()
		p.Spec.NodeName = c.nodeName
		got, err := model.TargetNodeName(p, c.affinity)
		assert.Equal(t, c.want, got)
		if c.wantErr == "" {
			assert.NoError(t, err)
		} else {
			assert.EqualError(t, err, c.wantErr)
		}
	})
}

func TestDaemonSetTemplateGeneration(t *testing.T) {
	ds := validDaemonSet()
	g, err := ds.TemplateGeneration()
	require.NoError(t, err)
	require.NotNil(t, g)
	assert.Equal(t, int64(1), *g)
	ds.Annotations[model.DaemonSetTemplateGenerationAnnotation] = "x"
	g, err = ds.TemplateGeneration()
	assert.Error(t, err, "GetTemplateGeneration: a value that does not parse is an error")
	assert.Nil(t, g)
	delete(ds.Annotations, model.DaemonSetTemplateGenerationAnnotation)
	g, err = ds.TemplateGeneration()
	assert.NoError(t, err)
	assert.Nil(t, g)
}

func TestDaemonSetDeepCopy(t *testing.T) {
	ds := validDaemonSet()
	ds.Spec.Scheduling.NodeSelector = map[string]string{"a": "b"}
	ds.Spec.Scheduling.RequiredNodeAffinity = model.NodeNameAffinity("n")
	ds.Status.CollisionCount = i32(2)
	ds.Status.Conditions = []model.DaemonSetCondition{{Type: "X"}}
	c := ds.DeepCopy()
	require.Empty(t, cmp.Diff(ds, c))
	c.Spec.Selector.MatchLabels["name"] = "x"
	c.Spec.Scheduling.NodeSelector["a"] = "x"
	c.Spec.Scheduling.Tolerations[0].Key = "x"
	c.Spec.Scheduling.RequiredNodeAffinity.NodeSelectorTerms[0].MatchFields[0].Values[0] = "x"
	*c.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.FromInt(9)
	*c.Spec.RevisionHistoryLimit = 99
	*c.Status.CollisionCount = 99
	c.Status.Conditions[0].Type = "Y"
	c.Annotations["x"] = "y"
	require.Empty(t, cmp.Diff(validDaemonSetWith(), ds), "the original is unchanged")
	assert.Nil(t, (*model.DaemonSet)(nil).DeepCopy())
}

// validDaemonSetWith is validDaemonSet with the fields TestDaemonSetDeepCopy
// sets.
func validDaemonSetWith() *model.DaemonSet {
	ds := validDaemonSet()
	ds.Spec.Scheduling.NodeSelector = map[string]string{"a": "b"}
	ds.Spec.Scheduling.RequiredNodeAffinity = model.NodeNameAffinity("n")
	ds.Status.CollisionCount = i32(2)
	ds.Status.Conditions = []model.DaemonSetCondition{{Type: "X"}}
	return ds
}

// copyTolerations copies a toleration list, pointers included.
func copyTolerations(ts []model.Toleration) []model.Toleration {
	if ts == nil {
		return nil
	}
	out := make([]model.Toleration, len(ts))
	for i, t := range ts {
		if t.TolerationSeconds != nil {
			v := *t.TolerationSeconds
			t.TolerationSeconds = &v
		}
		out[i] = t
	}
	return out
}
