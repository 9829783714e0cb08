package appsv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// ErrNil is returned (wrapped) when a conversion is handed a nil object.
var ErrNil = errors.New("nil object")

// TemplateToModel converts a pod template. Labels and annotations become the
// template's maps (nil stays nil, empty stays empty: upstream's hash tells
// them apart). Everything else, the pod spec and the rest of the template
// metadata, becomes [model.PodTemplate.Spec]: [model.CanonicalJSON] of the
// template's JSON encoding with labels and annotations removed, so equal
// templates compare equal and [TemplateFromModel] gives the full template
// back.
func TemplateToModel(t *core.PodTemplateSpec) (model.PodTemplate, error) {
	if t == nil {
		return model.PodTemplate{}, fmt.Errorf("template: %w", ErrNil)
	}
	rest := *t // shallow: only marshalled
	rest.Labels, rest.Annotations = nil, nil
	doc, err := json.Marshal(&rest)
	if err != nil {
		return model.PodTemplate{}, fmt.Errorf("template: encoding: %w", err)
	}
	spec, err := model.CanonicalJSON(doc)
	if err != nil {
		return model.PodTemplate{}, fmt.Errorf("template: canonical encoding: %w", err)
	}
	return model.PodTemplate{Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations), Spec: spec}, nil
}

// TemplateFromModel rebuilds the pod template: Spec is decoded as the JSON of
// a v1.PodTemplateSpec (an empty Spec is an empty template) and the labels
// and annotations are set from the maps. It fails when Spec is not such a
// document.
func TemplateFromModel(t model.PodTemplate) (core.PodTemplateSpec, error) {
	out, err := templateSpecFromModel(t.Spec)
	if err != nil {
		return core.PodTemplateSpec{}, err
	}
	out.Labels = maps.Clone(t.Labels)
	out.Annotations = maps.Clone(t.Annotations)
	return out, nil
}

// templateSpecFromModel is TemplateFromModel without the labels and
// annotations: spec decoded.
func templateSpecFromModel(spec string) (core.PodTemplateSpec, error) {
	var out core.PodTemplateSpec
	if spec != "" {
		if err := json.Unmarshal([]byte(spec), &out); err != nil {
			return core.PodTemplateSpec{}, fmt.Errorf("template spec is not a v1.PodTemplateSpec document: %w", err)
		}
	}
	return out, nil
}

// DeploymentToModel converts an apps/v1 Deployment. It does not default: the
// planner expects objects as the API server returns them.
func DeploymentToModel(d *apps.Deployment) (*model.Deployment, error) {
	if d == nil {
		return nil, fmt.Errorf("deployment: %w", ErrNil)
	}
	tmpl, err := TemplateToModel(&d.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("deployment %s/%s: spec.%w", d.Namespace, d.Name, err)
	}
	return deploymentWithTemplate(d, tmpl), nil
}

// deploymentWithTemplate is DeploymentToModel with the template converted.
func deploymentWithTemplate(d *apps.Deployment, tmpl model.PodTemplate) *model.Deployment {
	return &model.Deployment{
		ObjectMeta: metaToModel(&d.ObjectMeta),
		Spec: model.DeploymentSpec{
			Replicas:                clonePtr(d.Spec.Replicas),
			Selector:                selectorToModel(d.Spec.Selector),
			Template:                tmpl,
			Strategy:                strategyToModel(d.Spec.Strategy),
			MinReadySeconds:         d.Spec.MinReadySeconds,
			RevisionHistoryLimit:    clonePtr(d.Spec.RevisionHistoryLimit),
			Paused:                  d.Spec.Paused,
			ProgressDeadlineSeconds: clonePtr(d.Spec.ProgressDeadlineSeconds),
		},
		Status: deploymentStatusToModel(&d.Status),
	}
}

// DeploymentFromModel converts a model Deployment to a new apps/v1 object.
// Fields the model does not carry (managed fields, finalizers, kind...) are
// left zero; to write a Deployment back, derive it from the object read
// instead, as [ToOutput] does.
func DeploymentFromModel(d *model.Deployment) (*apps.Deployment, error) {
	if d == nil {
		return nil, fmt.Errorf("deployment: %w", ErrNil)
	}
	tmpl, err := TemplateFromModel(d.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("deployment %s/%s: spec.%w", d.Namespace, d.Name, err)
	}
	return &apps.Deployment{
		ObjectMeta: metaFromModel(&d.ObjectMeta),
		Spec: apps.DeploymentSpec{
			Replicas:                clonePtr(d.Spec.Replicas),
			Selector:                selectorFromModel(d.Spec.Selector),
			Template:                tmpl,
			Strategy:                strategyFromModel(d.Spec.Strategy),
			MinReadySeconds:         d.Spec.MinReadySeconds,
			RevisionHistoryLimit:    clonePtr(d.Spec.RevisionHistoryLimit),
			Paused:                  d.Spec.Paused,
			ProgressDeadlineSeconds: clonePtr(d.Spec.ProgressDeadlineSeconds),
		},
		Status: deploymentStatusFromModel(&d.Status),
	}, nil
}

// ReplicaSetToModel converts an apps/v1 ReplicaSet.
func ReplicaSetToModel(rs *apps.ReplicaSet) (*model.ReplicaSet, error) {
	if rs == nil {
		return nil, fmt.Errorf("replicaset: %w", ErrNil)
	}
	tmpl, err := TemplateToModel(&rs.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("replicaset %s/%s: spec.%w", rs.Namespace, rs.Name, err)
	}
	return replicaSetWithTemplate(rs, tmpl), nil
}

// replicaSetWithTemplate is ReplicaSetToModel with the template converted.
func replicaSetWithTemplate(rs *apps.ReplicaSet, tmpl model.PodTemplate) *model.ReplicaSet {
	out := &model.ReplicaSet{
		ObjectMeta: metaToModel(&rs.ObjectMeta),
		Spec: model.ReplicaSetSpec{
			Replicas:        clonePtr(rs.Spec.Replicas),
			MinReadySeconds: rs.Spec.MinReadySeconds,
			Selector:        selectorToModel(rs.Spec.Selector),
			Template:        tmpl,
		},
		Status: model.ReplicaSetStatus{
			Replicas:             rs.Status.Replicas,
			FullyLabeledReplicas: rs.Status.FullyLabeledReplicas,
			ReadyReplicas:        rs.Status.ReadyReplicas,
			AvailableReplicas:    rs.Status.AvailableReplicas,
			TerminatingReplicas:  clonePtr(rs.Status.TerminatingReplicas),
			ObservedGeneration:   rs.Status.ObservedGeneration,
		},
	}
	for _, c := range rs.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, model.ReplicaSetCondition{
			Type:               model.ReplicaSetConditionType(c.Type),
			Status:             model.ConditionStatus(c.Status),
			LastTransitionTime: timeToModel(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	return out
}

// ReplicaSetFromModel converts a model ReplicaSet to a new apps/v1 object,
// the way the controller builds the ReplicaSets it creates: no kind or
// apiVersion, and only the fields the model carries.
func ReplicaSetFromModel(rs *model.ReplicaSet) (*apps.ReplicaSet, error) {
	if rs == nil {
		return nil, fmt.Errorf("replicaset: %w", ErrNil)
	}
	tmpl, err := TemplateFromModel(rs.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("replicaset %s/%s: spec.%w", rs.Namespace, rs.Name, err)
	}
	return replicaSetFromModel(rs, tmpl), nil
}

// replicaSetFromModel is ReplicaSetFromModel with the template rebuilt
// (tmpl, which the result takes as it is).
func replicaSetFromModel(rs *model.ReplicaSet, tmpl core.PodTemplateSpec) *apps.ReplicaSet {
	out := &apps.ReplicaSet{
		ObjectMeta: metaFromModel(&rs.ObjectMeta),
		Spec: apps.ReplicaSetSpec{
			Replicas:        clonePtr(rs.Spec.Replicas),
			MinReadySeconds: rs.Spec.MinReadySeconds,
			Selector:        selectorFromModel(rs.Spec.Selector),
			Template:        tmpl,
		},
		Status: apps.ReplicaSetStatus{
			Replicas:             rs.Status.Replicas,
			FullyLabeledReplicas: rs.Status.FullyLabeledReplicas,
			ReadyReplicas:        rs.Status.ReadyReplicas,
			AvailableReplicas:    rs.Status.AvailableReplicas,
			TerminatingReplicas:  clonePtr(rs.Status.TerminatingReplicas),
			ObservedGeneration:   rs.Status.ObservedGeneration,
		},
	}
	for _, c := range rs.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, apps.ReplicaSetCondition{
			Type:               apps.ReplicaSetConditionType(c.Type),
			Status:             core.ConditionStatus(c.Status),
			LastTransitionTime: timeFromModel(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	return out
}

// PodToModel converts a v1 Pod: metadata, the node name, the phase, the
// conditions (with their reasons and messages) and the container and init
// container statuses as [model.ContainerStatus] keeps them (restart count,
// readiness, waiting and terminated details). The rest of the pod spec
// becomes [model.PodSpec.Body], canonical JSON as for templates.
func PodToModel(p *core.Pod) (*model.Pod, error) {
	if p == nil {
		return nil, fmt.Errorf("pod: %w", ErrNil)
	}
	rest := p.Spec // shallow: only marshalled
	rest.NodeName = ""
	doc, err := json.Marshal(&rest)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: spec: %w", p.Namespace, p.Name, err)
	}
	body, err := model.CanonicalJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("pod %s/%s: spec: %w", p.Namespace, p.Name, err)
	}
	return podWithBody(p, body), nil
}

// podWithBody is PodToModel with the spec body converted.
func podWithBody(p *core.Pod, body string) *model.Pod {
	out := &model.Pod{
		ObjectMeta: metaToModel(&p.ObjectMeta),
		Spec:       model.PodSpec{NodeName: p.Spec.NodeName, Body: body},
		Status:     model.PodStatus{Phase: model.PodPhase(p.Status.Phase)},
	}
	for _, c := range p.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, model.PodCondition{
			Type:               model.PodConditionType(c.Type),
			Status:             model.ConditionStatus(c.Status),
			LastTransitionTime: timeToModel(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	out.Status.ContainerStatuses = containerStatusesToModel(p.Status.ContainerStatuses)
	out.Status.InitContainerStatuses = containerStatusesToModel(p.Status.InitContainerStatuses)
	return out
}

// containerStatusesToModel keeps of each container status the name, the
// restart count, the readiness, and the waiting and terminated details of
// the state and the last state (what explains a wait).
func containerStatusesToModel(in []core.ContainerStatus) []model.ContainerStatus {
	var out []model.ContainerStatus
	for _, c := range in {
		out = append(out, model.ContainerStatus{Name: c.Name, RestartCount: c.RestartCount, Ready: c.Ready,
			State: containerStateToModel(c.State), LastTerminationState: containerStateToModel(c.LastTerminationState)})
	}
	return out
}

func containerStateToModel(s core.ContainerState) model.ContainerState {
	var out model.ContainerState
	if w := s.Waiting; w != nil {
		out.Waiting = model.ContainerStateWaiting{Reason: w.Reason, Message: w.Message}
	}
	if t := s.Terminated; t != nil {
		out.Terminated = model.ContainerStateTerminated{ExitCode: t.ExitCode, Reason: t.Reason, Message: t.Message}
	}
	return out
}

// containerStatusesFromModel is containerStatusesToModel's inverse for
// what the model keeps.
func containerStatusesFromModel(in []model.ContainerStatus) []core.ContainerStatus {
	var out []core.ContainerStatus
	for _, c := range in {
		out = append(out, core.ContainerStatus{Name: c.Name, RestartCount: c.RestartCount, Ready: c.Ready,
			State: containerStateFromModel(c.State), LastTerminationState: containerStateFromModel(c.LastTerminationState)})
	}
	return out
}

func containerStateFromModel(s model.ContainerState) core.ContainerState {
	var out core.ContainerState
	if w := s.Waiting; w != (model.ContainerStateWaiting{}) {
		out.Waiting = &core.ContainerStateWaiting{Reason: w.Reason, Message: w.Message}
	}
	if t := s.Terminated; t != (model.ContainerStateTerminated{}) {
		out.Terminated = &core.ContainerStateTerminated{ExitCode: t.ExitCode, Reason: t.Reason, Message: t.Message}
	}
	return out
}

// PodFromModel converts a model Pod to a new v1 Pod. Body, when set, is
// decoded as the JSON of a v1.PodSpec (what [PodToModel] stores); the node
// name, phase, conditions and container statuses are set from the model.
func PodFromModel(p *model.Pod) (*core.Pod, error) {
	if p == nil {
		return nil, fmt.Errorf("pod: %w", ErrNil)
	}
	out := &core.Pod{ObjectMeta: metaFromModel(&p.ObjectMeta)}
	if p.Spec.Body != "" {
		if err := json.Unmarshal([]byte(p.Spec.Body), &out.Spec); err != nil {
			return nil, fmt.Errorf("pod %s/%s: spec body is not a v1.PodSpec document: %w", p.Namespace, p.Name, err)
		}
	}
	out.Spec.NodeName = p.Spec.NodeName
	out.Status.Phase = core.PodPhase(p.Status.Phase)
	for _, c := range p.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, core.PodCondition{
			Type:               core.PodConditionType(c.Type),
			Status:             core.ConditionStatus(c.Status),
			LastTransitionTime: timeFromModel(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	out.Status.ContainerStatuses = containerStatusesFromModel(p.Status.ContainerStatuses)
	out.Status.InitContainerStatuses = containerStatusesFromModel(p.Status.InitContainerStatuses)
	return out, nil
}

func metaToModel(m *metav1.ObjectMeta) model.ObjectMeta {
	out := model.ObjectMeta{
		Name:              m.Name,
		Namespace:         m.Namespace,
		UID:               string(m.UID),
		ResourceVersion:   m.ResourceVersion,
		Generation:        m.Generation,
		CreationTimestamp: timeToModel(m.CreationTimestamp),
		Labels:            maps.Clone(m.Labels),
		Annotations:       maps.Clone(m.Annotations),
	}
	if m.DeletionTimestamp != nil {
		out.DeletionTimestamp = model.TimePtr(timeToModel(*m.DeletionTimestamp))
	}
	for _, r := range m.OwnerReferences {
		out.OwnerReferences = append(out.OwnerReferences, model.OwnerReference{
			APIVersion:         r.APIVersion,
			Kind:               r.Kind,
			Name:               r.Name,
			UID:                string(r.UID),
			Controller:         r.Controller != nil && *r.Controller,
			BlockOwnerDeletion: r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion,
		})
	}
	return out
}

func metaFromModel(m *model.ObjectMeta) metav1.ObjectMeta {
	out := metav1.ObjectMeta{
		Name:              m.Name,
		Namespace:         m.Namespace,
		UID:               types.UID(m.UID),
		ResourceVersion:   m.ResourceVersion,
		Generation:        m.Generation,
		CreationTimestamp: timeFromModel(m.CreationTimestamp),
		Labels:            maps.Clone(m.Labels),
		Annotations:       maps.Clone(m.Annotations),
	}
	if m.DeletionTimestamp != nil {
		t := timeFromModel(*m.DeletionTimestamp)
		out.DeletionTimestamp = &t
	}
	if len(m.OwnerReferences) > 0 {
		out.OwnerReferences = make([]metav1.OwnerReference, 0, len(m.OwnerReferences))
		for _, r := range m.OwnerReferences {
			out.OwnerReferences = append(out.OwnerReferences, ownerRefFromModel(r))
		}
	}
	return out
}

// ownerRefFromModel writes controller and blockOwnerDeletion only when true,
// as the controllers do.
func ownerRefFromModel(r model.OwnerReference) metav1.OwnerReference {
	out := metav1.OwnerReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: types.UID(r.UID)}
	if r.Controller {
		out.Controller = new(true)
	}
	if r.BlockOwnerDeletion {
		out.BlockOwnerDeletion = new(true)
	}
	return out
}

// timeToModel returns the instant in UTC; the zero time stays the zero
// time.Time.
func timeToModel(t metav1.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

func timeFromModel(t time.Time) metav1.Time {
	if t.IsZero() {
		return metav1.Time{}
	}
	return metav1.NewTime(t.UTC())
}

func selectorToModel(s *metav1.LabelSelector) *model.LabelSelector {
	if s == nil {
		return nil
	}
	out := &model.LabelSelector{MatchLabels: maps.Clone(s.MatchLabels)}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]model.LabelSelectorRequirement, 0, len(s.MatchExpressions))
		for _, r := range s.MatchExpressions {
			out.MatchExpressions = append(out.MatchExpressions, model.LabelSelectorRequirement{
				Key: r.Key, Operator: model.SelectorOperator(r.Operator), Values: slices.Clone(r.Values),
			})
		}
	}
	return out
}

func selectorFromModel(s *model.LabelSelector) *metav1.LabelSelector {
	if s == nil {
		return nil
	}
	out := &metav1.LabelSelector{MatchLabels: maps.Clone(s.MatchLabels)}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]metav1.LabelSelectorRequirement, 0, len(s.MatchExpressions))
		for _, r := range s.MatchExpressions {
			out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
				Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: slices.Clone(r.Values),
			})
		}
	}
	return out
}

func strategyToModel(s apps.DeploymentStrategy) model.Strategy {
	out := model.Strategy{Type: model.StrategyType(s.Type)}
	if ru := s.RollingUpdate; ru != nil {
		out.RollingUpdate = &model.RollingUpdate{MaxUnavailable: intOrStringToModel(ru.MaxUnavailable), MaxSurge: intOrStringToModel(ru.MaxSurge)}
	}
	return out
}

func strategyFromModel(s model.Strategy) apps.DeploymentStrategy {
	out := apps.DeploymentStrategy{Type: apps.DeploymentStrategyType(s.Type)}
	if ru := s.RollingUpdate; ru != nil {
		out.RollingUpdate = &apps.RollingUpdateDeployment{MaxUnavailable: intOrStringFromModel(ru.MaxUnavailable), MaxSurge: intOrStringFromModel(ru.MaxSurge)}
	}
	return out
}

func intOrStringToModel(v *intstr.IntOrString) *model.IntOrString {
	if v == nil {
		return nil
	}
	if v.Type == intstr.String {
		return model.IntOrStringPtr(model.FromString(v.StrVal))
	}
	return model.IntOrStringPtr(model.FromInt(v.IntVal))
}

func intOrStringFromModel(v *model.IntOrString) *intstr.IntOrString {
	if v == nil {
		return nil
	}
	if v.Type == model.String {
		return new(intstr.FromString(v.StrVal))
	}
	return new(intstr.FromInt32(v.IntVal))
}

func deploymentStatusToModel(s *apps.DeploymentStatus) model.DeploymentStatus {
	out := model.DeploymentStatus{
		ObservedGeneration:  s.ObservedGeneration,
		Replicas:            s.Replicas,
		UpdatedReplicas:     s.UpdatedReplicas,
		ReadyReplicas:       s.ReadyReplicas,
		AvailableReplicas:   s.AvailableReplicas,
		UnavailableReplicas: s.UnavailableReplicas,
		TerminatingReplicas: clonePtr(s.TerminatingReplicas),
		CollisionCount:      clonePtr(s.CollisionCount),
	}
	for _, c := range s.Conditions {
		out.Conditions = append(out.Conditions, model.DeploymentCondition{
			Type:               model.DeploymentConditionType(c.Type),
			Status:             model.ConditionStatus(c.Status),
			LastUpdateTime:     timeToModel(c.LastUpdateTime),
			LastTransitionTime: timeToModel(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	return out
}

func deploymentStatusFromModel(s *model.DeploymentStatus) apps.DeploymentStatus {
	out := apps.DeploymentStatus{
		ObservedGeneration:  s.ObservedGeneration,
		Replicas:            s.Replicas,
		UpdatedReplicas:     s.UpdatedReplicas,
		ReadyReplicas:       s.ReadyReplicas,
		AvailableReplicas:   s.AvailableReplicas,
		UnavailableReplicas: s.UnavailableReplicas,
		TerminatingReplicas: clonePtr(s.TerminatingReplicas),
		CollisionCount:      clonePtr(s.CollisionCount),
		Conditions:          conditionsFromModel(s.Conditions),
	}
	return out
}

// conditionsFromModel converts a status's conditions (nil when there are
// none).
func conditionsFromModel(m []model.DeploymentCondition) []apps.DeploymentCondition {
	if len(m) == 0 {
		return nil
	}
	out := make([]apps.DeploymentCondition, 0, len(m))
	for _, c := range m {
		out = append(out, apps.DeploymentCondition{
			Type:               apps.DeploymentConditionType(c.Type),
			Status:             core.ConditionStatus(c.Status),
			LastUpdateTime:     timeFromModel(c.LastUpdateTime),
			LastTransitionTime: timeFromModel(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	return out
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
