package model_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
)

// The mutate* helpers change, in place, everything a copy could share with
// its original: every map (a new key and a changed value), every slice
// element, every pointer's target. Nil maps and slices are left alone (there
// is nothing to share). If a DeepCopy shared any of these with its original,
// mutating the copy shows up in the original.

func mutateMap(m map[string]string) {
	if m == nil {
		return
	}
	for k := range m {
		m[k] += "~"
	}
	m["mutated~"] = "yes"
}

func mutateInt32(p *int32) {
	if p != nil {
		*p = ^*p
	}
}

func mutateIntOrString(p *model.IntOrString) {
	if p != nil {
		*p = model.IntOrString{Type: 1 - p.Type, IntVal: ^p.IntVal, StrVal: p.StrVal + "~"}
	}
}

func mutateMeta(m *model.ObjectMeta) {
	if m.DeletionTimestamp != nil {
		*m.DeletionTimestamp = m.DeletionTimestamp.Add(time.Hour)
	}
	mutateMap(m.Labels)
	mutateMap(m.Annotations)
	for i := range m.OwnerReferences {
		r := &m.OwnerReferences[i]
		r.Name += "~"
		r.UID += "~"
		r.Controller = !r.Controller
	}
}

func mutateSelector(s *model.LabelSelector) {
	if s == nil {
		return
	}
	mutateMap(s.MatchLabels)
	for i := range s.MatchExpressions {
		r := &s.MatchExpressions[i]
		r.Key += "~"
		r.Operator += "~"
		for j := range r.Values {
			r.Values[j] += "~"
		}
	}
}

func mutateTemplate(t *model.PodTemplate) {
	mutateMap(t.Labels)
	mutateMap(t.Annotations)
	t.Spec += "~"
}

func mutateDeployment(d *model.Deployment) {
	mutateMeta(&d.ObjectMeta)
	s := &d.Spec
	mutateInt32(s.Replicas)
	mutateSelector(s.Selector)
	mutateTemplate(&s.Template)
	if ru := s.Strategy.RollingUpdate; ru != nil {
		mutateIntOrString(ru.MaxSurge)
		mutateIntOrString(ru.MaxUnavailable)
	}
	mutateInt32(s.RevisionHistoryLimit)
	mutateInt32(s.ProgressDeadlineSeconds)
	st := &d.Status
	mutateInt32(st.TerminatingReplicas)
	mutateInt32(st.CollisionCount)
	for i := range st.Conditions {
		st.Conditions[i].Reason += "~"
		st.Conditions[i].LastUpdateTime = st.Conditions[i].LastUpdateTime.Add(time.Second)
	}
	// Finally detach the block itself, which must not be visible either.
	if s.Strategy.RollingUpdate != nil {
		s.Strategy.RollingUpdate.MaxSurge = nil
	}
}

func mutateReplicaSet(rs *model.ReplicaSet) {
	mutateMeta(&rs.ObjectMeta)
	mutateInt32(rs.Spec.Replicas)
	mutateSelector(rs.Spec.Selector)
	mutateTemplate(&rs.Spec.Template)
	mutateInt32(rs.Status.TerminatingReplicas)
	for i := range rs.Status.Conditions {
		rs.Status.Conditions[i].Message += "~"
	}
}

func mutatePod(p *model.Pod) {
	mutateMeta(&p.ObjectMeta)
	p.Spec.NodeName += "~"
	for i := range p.Status.Conditions {
		p.Status.Conditions[i].Status += "~"
	}
	for i := range p.Status.ContainerStatuses {
		p.Status.ContainerStatuses[i].RestartCount++
	}
	for i := range p.Status.InitContainerStatuses {
		p.Status.InitContainerStatuses[i].State.Waiting.Reason += "~"
	}
}

// Fully populated fixtures: every pointer, map and slice is set.

func fullMeta() model.ObjectMeta {
	return model.ObjectMeta{
		Name: "web", Namespace: "ns", UID: "uid", ResourceVersion: "42", Generation: 3,
		CreationTimestamp: t0,
		DeletionTimestamp: model.TimePtr(t0.Add(time.Minute)),
		Labels:            map[string]string{"app": "web"},
		Annotations:       map[string]string{model.RevisionAnnotation: "2"},
		OwnerReferences:   []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web", "duid")},
	}
}

func fullSelector() *model.LabelSelector {
	return &model.LabelSelector{
		MatchLabels:      map[string]string{"app": "web"},
		MatchExpressions: []model.LabelSelectorRequirement{req("tier", model.SelectorOpIn, "fe", "be")},
	}
}

func fullTemplate() model.PodTemplate {
	return model.PodTemplate{Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"a": "b"}, Spec: "{}"}
}

func fullDeployment() *model.Deployment {
	return &model.Deployment{
		ObjectMeta: fullMeta(),
		Spec: model.DeploymentSpec{
			Replicas: i32(3), Selector: fullSelector(), Template: fullTemplate(),
			Strategy: model.Strategy{Type: model.RollingUpdateStrategy,
				RollingUpdate: &model.RollingUpdate{MaxUnavailable: ioi(1), MaxSurge: ios("25%")}},
			MinReadySeconds: 5, RevisionHistoryLimit: i32(10), Paused: true, ProgressDeadlineSeconds: i32(600),
		},
		Status: model.DeploymentStatus{
			ObservedGeneration: 3, Replicas: 3, UpdatedReplicas: 1, ReadyReplicas: 2, AvailableReplicas: 2, UnavailableReplicas: 1,
			TerminatingReplicas: i32(1),
			Conditions: []model.DeploymentCondition{{Type: model.DeploymentProgressing, Status: model.ConditionTrue,
				LastUpdateTime: t0, LastTransitionTime: t0, Reason: model.ReasonReplicaSetUpdated, Message: "m"}},
			CollisionCount: i32(2),
		},
	}
}

func fullReplicaSet() *model.ReplicaSet {
	return &model.ReplicaSet{
		ObjectMeta: fullMeta(),
		Spec:       model.ReplicaSetSpec{Replicas: i32(2), MinReadySeconds: 5, Selector: fullSelector(), Template: fullTemplate()},
		Status: model.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 1, AvailableReplicas: 1,
			TerminatingReplicas: i32(1), ObservedGeneration: 3,
			Conditions: []model.ReplicaSetCondition{{Type: model.ReplicaSetReplicaFailure, Status: model.ConditionTrue,
				LastTransitionTime: t0, Reason: model.ReasonFailedCreate, Message: "quota"}}},
	}
}

func fullPod() *model.Pod {
	return &model.Pod{
		ObjectMeta: fullMeta(),
		Spec:       model.PodSpec{NodeName: "node-1", Body: "{}"},
		Status: model.PodStatus{Phase: model.PodRunning,
			Conditions:        []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: t0}},
			ContainerStatuses: []model.ContainerStatus{{Name: "c", RestartCount: 1}},
			InitContainerStatuses: []model.ContainerStatus{{Name: "init",
				State: model.ContainerState{Waiting: model.ContainerStateWaiting{Reason: "ImagePullBackOff"}}}}},
	}
}

func TestDeepCopySharesNothing(t *testing.T) {
	type c struct {
		tc
		fresh  func() any // builds an independent original, twice
		copyOf func(any) any
		mutate func(any)
	}
	runCases(t, []c{
		{tc{"deployment", "the library contract: never keeps references a caller could change; Deployment.DeepCopy doc"},
			func() any { return fullDeployment() },
			func(v any) any { return v.(*model.Deployment).DeepCopy() },
			func(v any) { mutateDeployment(v.(*model.Deployment)) }},
		{tc{"replicaset", "ReplicaSet.DeepCopy doc: shares nothing"},
			func() any { return fullReplicaSet() },
			func(v any) any { return v.(*model.ReplicaSet).DeepCopy() },
			func(v any) { mutateReplicaSet(v.(*model.ReplicaSet)) }},
		{tc{"pod", "Pod.DeepCopy doc: shares nothing"},
			func() any { return fullPod() },
			func(v any) any { return v.(*model.Pod).DeepCopy() },
			func(v any) { mutatePod(v.(*model.Pod)) }},
		{tc{"objectmeta", "ObjectMeta.DeepCopy doc: no maps, slices or pointers shared"},
			func() any { m := fullMeta(); return &m },
			func(v any) any { m := v.(*model.ObjectMeta).DeepCopy(); return &m },
			func(v any) { mutateMeta(v.(*model.ObjectMeta)) }},
		{tc{"labelselector", "LabelSelector.DeepCopy doc: shares nothing"},
			func() any { return fullSelector() },
			func(v any) any { return v.(*model.LabelSelector).DeepCopy() },
			func(v any) { mutateSelector(v.(*model.LabelSelector)) }},
		{tc{"deployment spec", "DeploymentSpec.DeepCopy doc"},
			func() any { s := fullDeployment().Spec; return &s },
			func(v any) any { s := v.(*model.DeploymentSpec).DeepCopy(); return &s },
			func(v any) { mutateDeployment(&model.Deployment{Spec: *v.(*model.DeploymentSpec)}) }},
		{tc{"deployment status", "DeploymentStatus.DeepCopy doc"},
			func() any { s := fullDeployment().Status; return &s },
			func(v any) any { s := v.(*model.DeploymentStatus).DeepCopy(); return &s },
			func(v any) { mutateDeployment(&model.Deployment{Status: *v.(*model.DeploymentStatus)}) }},
	}, func(t *testing.T, c c) {
		orig, want := c.fresh(), c.fresh()
		cp := c.copyOf(orig)
		if d := cmp.Diff(want, cp); d != "" {
			t.Fatalf("copy differs from original (-want +copy):\n%s", d)
		}
		c.mutate(cp)
		if d := cmp.Diff(want, cp); d == "" {
			t.Fatal("test bug: mutate changed nothing")
		}
		if d := cmp.Diff(want, orig); d != "" {
			t.Fatalf("mutating the copy changed the original (-want +orig):\n%s", d)
		}
		// And the other way round.
		cp2 := c.copyOf(orig)
		c.mutate(orig)
		if d := cmp.Diff(want, cp2); d != "" {
			t.Fatalf("mutating the original changed the copy (-want +copy):\n%s", d)
		}
	})
}

func TestDeepCopyNilAndEmpty(t *testing.T) {
	if (*model.Deployment)(nil).DeepCopy() != nil || (*model.ReplicaSet)(nil).DeepCopy() != nil ||
		(*model.Pod)(nil).DeepCopy() != nil || (*model.LabelSelector)(nil).DeepCopy() != nil {
		t.Fatal("DeepCopy of a nil pointer must be nil")
	}
	// nil stays nil and empty stays empty: cmp.Diff without EquateEmpty tells them apart.
	empty := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Labels: map[string]string{}, OwnerReferences: []model.OwnerReference{}},
		Spec: model.DeploymentSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{},
				MatchExpressions: []model.LabelSelectorRequirement{{Key: "a", Operator: model.SelectorOpExists, Values: []string{}}}},
			Strategy: model.Strategy{RollingUpdate: &model.RollingUpdate{}},
		},
		Status: model.DeploymentStatus{Conditions: []model.DeploymentCondition{}},
	}
	for _, d := range []*model.Deployment{{}, empty} {
		if diff := cmp.Diff(d, d.DeepCopy()); diff != "" {
			t.Fatalf("nil/empty not preserved (-orig +copy):\n%s", diff)
		}
	}
	sel := &model.LabelSelector{}
	if cp := sel.DeepCopy(); cp.MatchLabels != nil || cp.MatchExpressions != nil || !cp.IsEmpty() {
		t.Fatal("copy of an empty selector must stay IsEmpty (upstream syncDeployment step 1 relies on nil-ness)")
	}
	for _, p := range []*model.Pod{{}, {Status: model.PodStatus{Conditions: []model.PodCondition{}}}} {
		if diff := cmp.Diff(p, p.DeepCopy()); diff != "" {
			t.Fatalf("pod nil/empty not preserved:\n%s", diff)
		}
	}
	for _, rs := range []*model.ReplicaSet{{}, {Status: model.ReplicaSetStatus{Conditions: []model.ReplicaSetCondition{}}}} {
		if diff := cmp.Diff(rs, rs.DeepCopy()); diff != "" {
			t.Fatalf("replicaset nil/empty not preserved:\n%s", diff)
		}
	}
}

func TestControllerRef(t *testing.T) {
	m := model.ObjectMeta{OwnerReferences: []model.OwnerReference{
		{APIVersion: "v1", Kind: "Other", Name: "x", UID: "u0"},
		model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web", "u1"),
		model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web2", "u2"),
	}}
	ref := m.ControllerRef()
	if ref == nil || ref.UID != "u1" {
		t.Fatalf("ControllerRef = %+v, want the first controller ref u1 (upstream ClaimReplicaSets: controller=true)", ref)
	}
	want := model.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u1", Controller: true, BlockOwnerDeletion: true}
	if *ref != want {
		t.Fatalf("NewControllerRef = %+v, want %+v (upstream ClaimReplicaSets adopt patch)", *ref, want)
	}
	if !m.IsControlledBy("u1") || m.IsControlledBy("u0") || m.IsControlledBy("u2") || m.IsControlledBy("") {
		t.Fatal("IsControlledBy must follow the first controller ref only")
	}
	var none model.ObjectMeta
	if none.ControllerRef() != nil || none.IsControlledBy("") {
		t.Fatal("no owner references: no controller")
	}
}

func TestConditionLookup(t *testing.T) {
	s := model.DeploymentStatus{Conditions: []model.DeploymentCondition{
		{Type: model.DeploymentAvailable, Status: model.ConditionTrue},
		{Type: model.DeploymentProgressing, Status: model.ConditionFalse},
	}}
	if c := s.Condition(model.DeploymentProgressing); c == nil || c.Status != model.ConditionFalse {
		t.Fatalf("Condition(Progressing) = %+v", c)
	}
	if s.Condition(model.DeploymentReplicaFailure) != nil {
		t.Fatal("absent condition must be nil")
	}
	s.Condition(model.DeploymentAvailable).Reason = "r"
	if s.Conditions[0].Reason != "r" {
		t.Fatal("Condition doc: the pointer aliases s.Conditions")
	}
}

func TestIsSkippedAnnotation(t *testing.T) {
	type c struct {
		tc
		key  string
		want bool
	}
	runCases(t, []c{
		{tc{"last-applied", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation) skip list"}, "kubectl.kubernetes.io/last-applied-configuration", true},
		{tc{"revision", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation) skip list"}, "deployment.kubernetes.io/revision", true},
		{tc{"revision-history", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation) skip list"}, "deployment.kubernetes.io/revision-history", true},
		{tc{"desired-replicas", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation) skip list"}, "deployment.kubernetes.io/desired-replicas", true},
		{tc{"max-replicas", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation) skip list"}, "deployment.kubernetes.io/max-replicas", true},
		{tc{"rollback-to", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation) skip list"}, "deprecated.deployment.rollback.to", true},
		{tc{"change-cause", "the apps/v1 annotation keys: change-cause is copied Deployment → RS"}, "kubernetes.io/change-cause", false},
		{tc{"user annotation", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation): everything not on the list is copied"}, "example.com/owner", false},
		{tc{"empty", "not on the list"}, "", false},
	}, func(t *testing.T, c c) {
		if got := model.IsSkippedAnnotation(c.key); got != c.want {
			t.Fatalf("IsSkippedAnnotation(%q) = %v, want %v", c.key, got, c.want)
		}
	})
}

func TestConstants(t *testing.T) {
	type c struct {
		tc
		got, want any
	}
	runCases(t, []c{
		{tc{"NoLimit", "Appendix A: no-limit sentinel 2147483647"}, model.NoLimit, int32(2147483647)},
		{tc{"MaxRevisionHistoryLength", "Appendix A: maxRevHistoryLengthInChars 2000"}, model.MaxRevisionHistoryLength, 2000},
		{tc{"hash label", "Appendix A"}, model.PodTemplateHashLabel, "pod-template-hash"},
		{tc{"deletion cost", "the apps/v1 annotation keys"}, model.PodDeletionCostAnnotation, "controller.kubernetes.io/pod-deletion-cost"},
		{tc{"restartedAt", "the apps/v1 annotation keys"}, model.RestartedAtAnnotation, "kubectl.kubernetes.io/restartedAt"},
		{tc{"default surge", "apps/v1 defaulting"}, model.DefaultMaxSurge, "25%"},
		{tc{"default unavailable", "apps/v1 defaulting"}, model.DefaultMaxUnavailable, "25%"},
		{tc{"default history", "apps/v1 defaulting"}, model.DefaultRevisionHistoryLimit, 10},
		{tc{"default deadline", "apps/v1 defaulting"}, model.DefaultProgressDeadlineSeconds, 600},
		{tc{"default replicas", "apps/v1 defaulting"}, model.DefaultReplicas, 1},
	}, func(t *testing.T, c c) {
		if c.got != c.want {
			t.Fatalf("got %v (%T), want %v (%T)", c.got, c.got, c.want, c.want)
		}
	})
}
