package model_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ssTime = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// fullStatefulSet sets every field of a StatefulSet, every pointer non-nil.
func fullStatefulSet() *model.StatefulSet {
	return &model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "ns", UID: "u1", Generation: 2, DeletionTimestamp: model.TimePtr(ssTime),
			Labels: map[string]string{"a": "b"}, Annotations: map[string]string{"c": "d"}, OwnerReferences: []model.OwnerReference{{Name: "o"}}},
		Spec: model.StatefulSetSpec{
			Replicas:             model.Int32Ptr(3),
			Selector:             &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []model.LabelSelectorRequirement{{Key: "k", Operator: model.SelectorOpIn, Values: []string{"v"}}}},
			Template:             model.PodTemplate{Labels: map[string]string{"app": "web", "k": "v"}, Annotations: map[string]string{"x": "y"}, Spec: `{"spec":{}}`},
			VolumeClaimTemplates: []model.PersistentVolumeClaim{{ObjectMeta: model.ObjectMeta{Name: "data", Labels: map[string]string{"l": "1"}}, Spec: `{"spec":{}}`}},
			ServiceName:          "nginx",
			PodManagementPolicy:  model.ParallelPodManagement,
			UpdateStrategy: model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &model.RollingUpdateStatefulSetStrategy{Partition: model.Int32Ptr(1), MaxUnavailable: model.IntOrStringPtr(model.FromString("50%"))}},
			RevisionHistoryLimit: model.Int32Ptr(4),
			MinReadySeconds:      5,
			PersistentVolumeClaimRetentionPolicy: &model.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: model.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: model.RetainPersistentVolumeClaimRetentionPolicyType},
			Ordinals: &model.StatefulSetOrdinals{Start: 2},
		},
		Status: model.StatefulSetStatus{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 2, CurrentReplicas: 1, UpdatedReplicas: 2,
			CurrentRevision: "web-1", UpdateRevision: "web-2", CollisionCount: model.Int32Ptr(1), AvailableReplicas: 2,
			Conditions: []model.StatefulSetCondition{{Type: "Ready", Status: model.ConditionTrue, LastTransitionTime: ssTime}}},
	}
}

// TestStatefulSetDeepCopyShares nothing: every map, slice and pointer of the
// copy is changed and the original must not see it.
func TestStatefulSetDeepCopySharesNothing(t *testing.T) {
	s := fullStatefulSet()
	c := s.DeepCopy()
	require.Equal(t, s, c)
	c.Labels["a"] = "x"
	c.Spec.Template.Labels["app"] = "x"
	c.Spec.Selector.MatchLabels["app"] = "x"
	c.Spec.Selector.MatchExpressions[0].Values[0] = "x"
	c.Spec.VolumeClaimTemplates[0].Labels["l"] = "x"
	*c.Spec.Replicas = 9
	*c.Spec.UpdateStrategy.RollingUpdate.Partition = 9
	c.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable.StrVal = "9%"
	*c.Spec.RevisionHistoryLimit = 9
	c.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = "x"
	c.Spec.Ordinals.Start = 9
	*c.Status.CollisionCount = 9
	c.Status.Conditions[0].Reason = "x"
	assert.Equal(t, fullStatefulSet(), s)
	assert.Nil(t, (*model.StatefulSet)(nil).DeepCopy())
}

func TestControllerRevisionAndClaimDeepCopy(t *testing.T) {
	r := &model.ControllerRevision{ObjectMeta: model.ObjectMeta{Name: "web-1", Labels: map[string]string{"a": "b"}},
		Template: model.PodTemplate{Labels: map[string]string{"app": "web"}}, Data: "{}", Revision: 3}
	c := r.DeepCopy()
	require.Equal(t, r, c)
	c.Labels["a"] = "x"
	c.Template.Labels["app"] = "x"
	assert.Equal(t, "b", r.Labels["a"])
	assert.Equal(t, "web", r.Template.Labels["app"])
	assert.Nil(t, (*model.ControllerRevision)(nil).DeepCopy())

	pvc := &model.PersistentVolumeClaim{ObjectMeta: model.ObjectMeta{Name: "data-web-0", OwnerReferences: []model.OwnerReference{{Name: "web"}}}, Spec: "{}"}
	pc := pvc.DeepCopy()
	pc.OwnerReferences[0].Name = "x"
	assert.Equal(t, "web", pvc.OwnerReferences[0].Name)
	assert.Nil(t, (*model.PersistentVolumeClaim)(nil).DeepCopy())

	p := &model.Pod{Spec: model.PodSpec{Volumes: []model.Volume{{Name: "data", ClaimName: "data-web-0"}}}}
	pp := p.DeepCopy()
	pp.Spec.Volumes[0].ClaimName = "x"
	assert.Equal(t, "data-web-0", p.Spec.Volumes[0].ClaimName, "pod volumes are copied")
}

func TestStatefulSetJSONRoundTrip(t *testing.T) {
	s := fullStatefulSet()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	var back model.StatefulSet
	require.NoError(t, json.Unmarshal(b, &back))
	if d := cmp.Diff(s, &back); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

// TestDefaultStatefulSet pins the apps/v1 defaults (upstream
// SetDefaults_StatefulSet with the MaxUnavailableStatefulSet gate off).
func TestDefaultStatefulSet(t *testing.T) {
	retain := model.RetainPersistentVolumeClaimRetentionPolicyType
	cases := []struct {
		name, why string
		in        model.StatefulSetSpec
		want      model.StatefulSetSpec
	}{
		{"empty", "every default applies; an empty strategy gets a rollingUpdate block with partition 0",
			model.StatefulSetSpec{},
			model.StatefulSetSpec{Replicas: model.Int32Ptr(1), PodManagementPolicy: model.OrderedReadyPodManagement,
				UpdateStrategy:                       model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType, RollingUpdate: &model.RollingUpdateStatefulSetStrategy{Partition: model.Int32Ptr(0)}},
				RevisionHistoryLimit:                 model.Int32Ptr(10),
				PersistentVolumeClaimRetentionPolicy: &model.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: retain, WhenScaled: retain}}},
		{"explicit RollingUpdate keeps no block", "the block is added only when the type itself is defaulted",
			model.StatefulSetSpec{UpdateStrategy: model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType}},
			model.StatefulSetSpec{Replicas: model.Int32Ptr(1), PodManagementPolicy: model.OrderedReadyPodManagement,
				UpdateStrategy:                       model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType},
				RevisionHistoryLimit:                 model.Int32Ptr(10),
				PersistentVolumeClaimRetentionPolicy: &model.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: retain, WhenScaled: retain}}},
		{"OnDelete and set values kept", "defaults fill only what is unset; maxUnavailable stays nil with the gate off",
			model.StatefulSetSpec{Replicas: model.Int32Ptr(0), UpdateStrategy: model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType},
				RevisionHistoryLimit: model.Int32Ptr(0), PodManagementPolicy: model.ParallelPodManagement,
				PersistentVolumeClaimRetentionPolicy: &model.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenScaled: model.DeletePersistentVolumeClaimRetentionPolicyType}},
			model.StatefulSetSpec{Replicas: model.Int32Ptr(0), UpdateStrategy: model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType},
				RevisionHistoryLimit: model.Int32Ptr(0), PodManagementPolicy: model.ParallelPodManagement,
				PersistentVolumeClaimRetentionPolicy: &model.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: retain, WhenScaled: model.DeletePersistentVolumeClaimRetentionPolicyType}}},
	}
	for _, c := range cases {
		in := &model.StatefulSet{Spec: c.in}
		before := in.DeepCopy()
		got := model.DefaultStatefulSet(in)
		if d := cmp.Diff(c.want, got.Spec); d != "" {
			t.Errorf("%s (%s): (-want +got):\n%s", c.name, c.why, d)
		}
		assert.Equal(t, before, in, "%s: the input is not changed", c.name)
		assert.Equal(t, got, model.DefaultStatefulSet(got), "%s: defaulting is idempotent", c.name)
	}
	assert.Nil(t, model.DefaultStatefulSet(nil))
}

// validSet is a defaulted, valid StatefulSet.
func validSet() *model.StatefulSet {
	return model.DefaultStatefulSet(&model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "ns", UID: "u1"},
		Spec: model.StatefulSetSpec{Replicas: model.Int32Ptr(3), Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}}, ServiceName: "nginx"},
	})
}

// TestValidateStatefulSet pins each rule with the field path it reports
// (upstream ValidateStatefulSetSpec, ValidateStatefulSetStatus).
func TestValidateStatefulSet(t *testing.T) {
	require.NoError(t, model.ValidateStatefulSet(validSet()))
	cases := []struct {
		name   string
		edit   func(*model.StatefulSet)
		fields []string
	}{
		{"nil", nil, []string{"statefulSet"}},
		{"undefaulted", func(s *model.StatefulSet) {
			s.Spec.Replicas, s.Spec.RevisionHistoryLimit, s.Spec.PodManagementPolicy, s.Spec.UpdateStrategy = nil, nil, "", model.StatefulSetUpdateStrategy{}
		}, []string{"spec.replicas", "spec.podManagementPolicy", "spec.updateStrategy.type", "spec.revisionHistoryLimit"}},
		{"negative replicas", func(s *model.StatefulSet) { s.Spec.Replicas = model.Int32Ptr(-1) }, []string{"spec.replicas"}},
		{"no selector", func(s *model.StatefulSet) { s.Spec.Selector = nil }, []string{"spec.selector"}},
		{"empty selector", func(s *model.StatefulSet) { s.Spec.Selector = &model.LabelSelector{} }, []string{"spec.selector"}},
		{"selector misses the template", func(s *model.StatefulSet) { s.Spec.Template.Labels = map[string]string{"app": "db"} }, []string{"spec.template.metadata.labels"}},
		{"bad service name", func(s *model.StatefulSet) { s.Spec.ServiceName = "Nginx_1" }, []string{"spec.serviceName"}},
		{"bad policy", func(s *model.StatefulSet) { s.Spec.PodManagementPolicy = "Burst" }, []string{"spec.podManagementPolicy"}},
		{"OnDelete with a block", func(s *model.StatefulSet) { s.Spec.UpdateStrategy.Type = model.OnDeleteStatefulSetStrategyType }, []string{"spec.updateStrategy.rollingUpdate"}},
		{"negative partition", func(s *model.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = model.Int32Ptr(-1) }, []string{"spec.updateStrategy.rollingUpdate.partition"}},
		{"unset partition", func(s *model.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = nil }, []string{"spec.updateStrategy.rollingUpdate.partition"}},
		{"maxUnavailable 0", func(s *model.StatefulSet) {
			s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromInt(0))
		}, []string{"spec.updateStrategy.rollingUpdate.maxUnavailable"}},
		{"maxUnavailable 0%", func(s *model.StatefulSet) {
			s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromString("0%"))
		}, []string{"spec.updateStrategy.rollingUpdate.maxUnavailable"}},
		{"maxUnavailable 101%", func(s *model.StatefulSet) {
			s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromString("101%"))
		}, []string{"spec.updateStrategy.rollingUpdate.maxUnavailable"}},
		{"maxUnavailable negative", func(s *model.StatefulSet) {
			s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromInt(-1))
		}, []string{"spec.updateStrategy.rollingUpdate.maxUnavailable"}},
		{"bad retention", func(s *model.StatefulSet) {
			s.Spec.PersistentVolumeClaimRetentionPolicy = &model.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Keep"}
		}, []string{"spec.persistentVolumeClaimRetentionPolicy.whenDeleted", "spec.persistentVolumeClaimRetentionPolicy.whenScaled"}},
		{"claim templates", func(s *model.StatefulSet) {
			s.Spec.VolumeClaimTemplates = []model.PersistentVolumeClaim{{ObjectMeta: model.ObjectMeta{Name: "data"}}, {}, {ObjectMeta: model.ObjectMeta{Name: "data"}}}
		}, []string{"spec.volumeClaimTemplates[1].metadata.name", "spec.volumeClaimTemplates[2].metadata.name"}},
		{"negative start", func(s *model.StatefulSet) { s.Spec.Ordinals = &model.StatefulSetOrdinals{Start: -1} }, []string{"spec.ordinals.start"}},
		{"negative minReadySeconds", func(s *model.StatefulSet) { s.Spec.MinReadySeconds = -1 }, []string{"spec.minReadySeconds"}},
		{"negative status", func(s *model.StatefulSet) {
			s.Status.Replicas, s.Status.CollisionCount, s.Status.ObservedGeneration = -1, model.Int32Ptr(-1), -1
		}, []string{"status.observedGeneration", "status.replicas", "status.collisionCount"}},
		{"no uid or namespace", func(s *model.StatefulSet) { s.UID, s.Namespace = "", "" }, []string{"metadata.uid", "metadata.namespace"}},
	}
	for _, c := range cases {
		var s *model.StatefulSet
		if c.edit != nil {
			s = validSet()
			c.edit(s)
		}
		err := model.ValidateStatefulSet(s)
		var verr *model.ValidationError
		require.True(t, errors.As(err, &verr), "%s: %v", c.name, err)
		assert.True(t, errors.Is(err, model.ErrInvalid), c.name)
		var fields []string
		for _, fe := range verr.Errors {
			fields = append(fields, fe.Field)
		}
		assert.Equal(t, c.fields, fields, "%s: %v", c.name, err)
	}
}

func TestValidateStatefulSetSnapshot(t *testing.T) {
	pods := []*model.Pod{{ObjectMeta: model.ObjectMeta{Name: "web-0", Namespace: "ns", UID: "p"}}, {ObjectMeta: model.ObjectMeta{Name: "web-0", Namespace: "ns", UID: "q"}}}
	revs := []*model.ControllerRevision{{ObjectMeta: model.ObjectMeta{Name: "web-1"}, Revision: -1}, nil}
	claims := []*model.PersistentVolumeClaim{{ObjectMeta: model.ObjectMeta{Name: "Data"}}}
	err := model.ValidateStatefulSetSnapshot(validSet(), pods, revs, claims)
	var verr *model.ValidationError
	require.True(t, errors.As(err, &verr))
	var fields []string
	for _, fe := range verr.Errors {
		fields = append(fields, fe.Field)
	}
	assert.Equal(t, []string{"pods[1].metadata.name", "controllerRevisions[0].revision", "controllerRevisions[1]", "claims[0].metadata.name"}, fields)
	require.NoError(t, model.ValidateStatefulSetSnapshot(validSet(), pods[:1], revs[:0], nil))
	assert.Error(t, model.ValidateControllerRevision(&model.ControllerRevision{}))
	assert.Error(t, model.ValidatePersistentVolumeClaim(nil))
}

func TestCompareRevisions(t *testing.T) {
	a := &model.ControllerRevision{ObjectMeta: model.ObjectMeta{Name: "b", CreationTimestamp: ssTime}, Revision: 1}
	b := &model.ControllerRevision{ObjectMeta: model.ObjectMeta{Name: "a", CreationTimestamp: ssTime.Add(time.Second)}, Revision: 1}
	c := &model.ControllerRevision{ObjectMeta: model.ObjectMeta{Name: "a", CreationTimestamp: ssTime}, Revision: 1}
	d := &model.ControllerRevision{ObjectMeta: model.ObjectMeta{Name: "a"}, Revision: 2}
	assert.Equal(t, -1, model.CompareRevisions(a, b), "older first")
	assert.Equal(t, -1, model.CompareRevisions(c, a), "then by name")
	assert.Equal(t, -1, model.CompareRevisions(b, d), "revision number first")
	assert.Equal(t, 0, model.CompareRevisions(a, a))
}

// FuzzValidateStatefulSet decodes any JSON as a StatefulSet: validation never
// panics, its errors name a field, and defaulting a valid object changes
// nothing the planner reads and keeps it valid.
func FuzzValidateStatefulSet(f *testing.F) {
	seed, _ := json.Marshal(validSet())
	f.Add(seed)
	full, _ := json.Marshal(fullStatefulSet())
	f.Add(full)
	f.Add([]byte(`{"metadata":{"name":"web","namespace":"ns","uid":"u"},"spec":{"replicas":-3,"updateStrategy":{"type":"OnDelete","rollingUpdate":{"maxUnavailable":"0%"}}}}`))
	f.Add([]byte(`{"spec":{"volumeClaimTemplates":[{"metadata":{"name":"a"}},{"metadata":{"name":"a"}}],"ordinals":{"start":-1}}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var s model.StatefulSet
		if json.Unmarshal(doc, &s) != nil {
			return
		}
		err := model.ValidateStatefulSet(&s)
		if err != nil {
			var verr *model.ValidationError
			if !errors.As(err, &verr) || len(verr.Errors) == 0 || !errors.Is(err, model.ErrInvalid) {
				t.Fatalf("error %v is not a ValidationError", err)
			}
			for _, fe := range verr.Errors {
				if fe.Field == "" || fe.Error() == "" {
					t.Fatalf("field error without a field: %#v", fe)
				}
			}
		}
		d := model.DefaultStatefulSet(&s)
		if err == nil && model.ValidateStatefulSet(d) != nil {
			t.Fatalf("defaulting made a valid set invalid: %v", model.ValidateStatefulSet(d))
		}
		if !cmp.Equal(d, model.DefaultStatefulSet(d)) {
			t.Fatal("defaulting is not idempotent")
		}
	})
}
