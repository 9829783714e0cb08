package appsv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// StatefulSetState is the apps/v1 snapshot one StatefulSet sync plans over:
// the StatefulSet, the pods, ControllerRevisions and claims of its
// namespace, and the controller's clock. [ToStatefulSetOutput] derives the
// writes from these objects, so keep them as read from the API server.
type StatefulSetState struct {
	Now                 time.Time
	StatefulSet         *apps.StatefulSet
	Pods                []*core.Pod
	ControllerRevisions []*apps.ControllerRevision
	PVCs                []*core.PersistentVolumeClaim
}

// StatefulSetCase is the StatefulSet conformance input format of the
// rolloutplan repository (shared/conformance/README.md).
type StatefulSetCase struct {
	Now                 time.Time                     `json:"now"`
	StatefulSet         *apps.StatefulSet             `json:"statefulSet"`
	Pods                []*core.Pod                   `json:"pods"`
	ControllerRevisions []*apps.ControllerRevision    `json:"controllerRevisions"`
	PVCs                []*core.PersistentVolumeClaim `json:"pvcs"`
}

// State returns the case as a [StatefulSetState], sharing its objects.
func (c StatefulSetCase) State() StatefulSetState { return StatefulSetState(c) }

// Model converts the snapshot to the StatefulSet planner's input. Each
// ControllerRevision keeps the bytes it stores as Data and gets the
// template its data restores (as upstream's ApplyRevision restores it onto
// the set). Nil entries are an error naming their index.
func (s StatefulSetState) Model() (statefulset.State, error) {
	return s.model(StatefulSetPodToModel)
}

// model is [StatefulSetState.Model] with pods converted by pod.
func (s StatefulSetState) model(pod func(*core.Pod) (*model.Pod, error)) (statefulset.State, error) {
	set, err := StatefulSetModel(s.StatefulSet)
	if err != nil {
		return statefulset.State{}, err
	}
	out := statefulset.State{StatefulSet: set, Now: s.Now}
	if len(s.Pods) > 0 {
		out.Pods = make([]*model.Pod, 0, len(s.Pods))
	}
	for i, p := range s.Pods {
		m, err := pod(p)
		if err != nil {
			return statefulset.State{}, fmt.Errorf("pods[%d]: %w", i, err)
		}
		out.Pods = append(out.Pods, m)
	}
	for i, r := range s.ControllerRevisions {
		m, err := ControllerRevisionToModel(r, &s.StatefulSet.Spec.Template)
		if err != nil {
			return statefulset.State{}, fmt.Errorf("controllerRevisions[%d]: %w", i, err)
		}
		out.ControllerRevisions = append(out.ControllerRevisions, m)
	}
	for i, c := range s.PVCs {
		m, err := PersistentVolumeClaimToModel(c)
		if err != nil {
			return statefulset.State{}, fmt.Errorf("pvcs[%d]: %w", i, err)
		}
		out.Claims = append(out.Claims, m)
	}
	return out, nil
}

// SyncStatefulSet plans one sync of s with [statefulset.Sync], encoding
// revision data and defaulting revision templates the upstream way
// ([StatefulSetRevisionData], [StatefulSetTemplateDefaults], passed before
// opts), and renders the plan with [ToStatefulSetOutput]. The error is
// statefulset.Sync's: invalid input (with a zero Output and Plan), or the
// *statefulset.SyncError the sync ends with, returned with the Output
// (whose Error is its message) and the Plan.
//
// The planner reads a pod's identity, volumes, status and metadata, never
// the rest of its spec: the pods of the planner's input are converted as
// by [StatefulSetState.Model] but without [model.PodSpec.Body] (encoding
// every pod spec as canonical JSON would be most of a sync's cost), so the
// one pod of the State a Plan may carry (a CreatePod that re-creates a pod
// without a phase) has no Body; the Output's writes are built from the
// apps/v1 objects and are complete.
func SyncStatefulSet(s StatefulSetState, opts ...statefulset.Option) (StatefulSetOutput, statefulset.Plan, error) {
	in, err := s.model(statefulSetPodForPlan)
	if err != nil {
		return StatefulSetOutput{}, statefulset.Plan{}, err
	}
	return syncStatefulSetInput(s, in, append([]statefulset.Option{statefulset.WithEncoder(StatefulSetRevisionData), statefulset.WithRevisionDefaults(StatefulSetTemplateDefaults)}, opts...), nil)
}

// syncStatefulSetInput plans in, converted from s, with opts and renders
// the plan with the revision templates known decoded (see
// SyncStatefulSet).
func syncStatefulSetInput(s StatefulSetState, in statefulset.State, opts []statefulset.Option, known revisionTemplates) (StatefulSetOutput, statefulset.Plan, error) {
	p, syncErr := statefulset.Sync(in, opts...)
	var se *statefulset.SyncError
	if syncErr != nil && !errors.As(syncErr, &se) {
		return StatefulSetOutput{}, statefulset.Plan{}, syncErr
	}
	out, err := toStatefulSetOutput(s, p, known)
	if err != nil {
		return StatefulSetOutput{}, statefulset.Plan{}, err
	}
	if syncErr != nil {
		out.Error = syncErr.Error()
	}
	return out, p, syncErr
}

// StatefulSetModel converts an apps/v1 StatefulSet, spec and status, to the
// model. It does not default.
func StatefulSetModel(s *apps.StatefulSet) (*model.StatefulSet, error) {
	if s == nil {
		return nil, fmt.Errorf("statefulset: %w", ErrNil)
	}
	tmpl, err := TemplateToModel(&s.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("statefulset %s/%s: spec.%w", s.Namespace, s.Name, err)
	}
	out := &model.StatefulSet{
		ObjectMeta: metaToModel(&s.ObjectMeta),
		Spec: model.StatefulSetSpec{
			Replicas:             clonePtr(s.Spec.Replicas),
			Selector:             selectorToModel(s.Spec.Selector),
			Template:             tmpl,
			ServiceName:          s.Spec.ServiceName,
			PodManagementPolicy:  model.PodManagementPolicyType(s.Spec.PodManagementPolicy),
			UpdateStrategy:       model.StatefulSetUpdateStrategy{Type: model.StatefulSetUpdateStrategyType(s.Spec.UpdateStrategy.Type)},
			RevisionHistoryLimit: clonePtr(s.Spec.RevisionHistoryLimit),
			MinReadySeconds:      s.Spec.MinReadySeconds,
		},
		Status: model.StatefulSetStatus{
			ObservedGeneration: s.Status.ObservedGeneration,
			Replicas:           s.Status.Replicas,
			ReadyReplicas:      s.Status.ReadyReplicas,
			CurrentReplicas:    s.Status.CurrentReplicas,
			UpdatedReplicas:    s.Status.UpdatedReplicas,
			CurrentRevision:    s.Status.CurrentRevision,
			UpdateRevision:     s.Status.UpdateRevision,
			CollisionCount:     clonePtr(s.Status.CollisionCount),
			AvailableReplicas:  s.Status.AvailableReplicas,
		},
	}
	for i := range s.Spec.VolumeClaimTemplates {
		c, err := PersistentVolumeClaimToModel(&s.Spec.VolumeClaimTemplates[i])
		if err != nil {
			return nil, fmt.Errorf("statefulset %s/%s: spec.volumeClaimTemplates[%d]: %w", s.Namespace, s.Name, i, err)
		}
		out.Spec.VolumeClaimTemplates = append(out.Spec.VolumeClaimTemplates, *c)
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.Spec.UpdateStrategy.RollingUpdate = &model.RollingUpdateStatefulSetStrategy{Partition: clonePtr(ru.Partition), MaxUnavailable: intOrStringToModel(ru.MaxUnavailable)}
	}
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		out.Spec.PersistentVolumeClaimRetentionPolicy = &model.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: model.PersistentVolumeClaimRetentionPolicyType(p.WhenDeleted),
			WhenScaled:  model.PersistentVolumeClaimRetentionPolicyType(p.WhenScaled),
		}
	}
	if o := s.Spec.Ordinals; o != nil {
		out.Spec.Ordinals = &model.StatefulSetOrdinals{Start: o.Start}
	}
	for _, c := range s.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, model.StatefulSetCondition{
			Type: model.StatefulSetConditionType(c.Type), Status: model.ConditionStatus(c.Status),
			LastTransitionTime: timeToModel(c.LastTransitionTime), Reason: c.Reason, Message: c.Message,
		})
	}
	return out, nil
}

// StatefulSetPodToModel is [PodToModel] with what the StatefulSet planner
// also reads: the hostname, the subdomain and the volumes (name and claim).
func StatefulSetPodToModel(p *core.Pod) (*model.Pod, error) {
	out, err := PodToModel(p)
	if err != nil {
		return nil, err
	}
	withStatefulSetIdentity(out, p)
	return out, nil
}

// statefulSetPodForPlan is [StatefulSetPodToModel] without the spec body
// (see SyncStatefulSet).
func statefulSetPodForPlan(p *core.Pod) (*model.Pod, error) {
	out, err := podForPlan(p)
	if err != nil {
		return nil, err
	}
	withStatefulSetIdentity(out, p)
	return out, nil
}

// withStatefulSetIdentity sets what the StatefulSet planner reads of p's
// spec besides the node: hostname, subdomain and volumes.
func withStatefulSetIdentity(out *model.Pod, p *core.Pod) {
	out.Spec.Hostname, out.Spec.Subdomain = p.Spec.Hostname, p.Spec.Subdomain
	if len(p.Spec.Volumes) > 0 {
		out.Spec.Volumes = make([]model.Volume, 0, len(p.Spec.Volumes))
	}
	for _, v := range p.Spec.Volumes {
		mv := model.Volume{Name: v.Name}
		if v.PersistentVolumeClaim != nil {
			mv.ClaimName = v.PersistentVolumeClaim.ClaimName
		}
		out.Spec.Volumes = append(out.Spec.Volumes, mv)
	}
}

// PersistentVolumeClaimToModel converts a claim (or a volumeClaimTemplate):
// its metadata, and the rest as canonical JSON in Spec.
func PersistentVolumeClaimToModel(c *core.PersistentVolumeClaim) (*model.PersistentVolumeClaim, error) {
	if c == nil {
		return nil, fmt.Errorf("persistentvolumeclaim: %w", ErrNil)
	}
	rest := c.DeepCopy()
	rest.ObjectMeta = *rest.ObjectMeta.DeepCopy()
	rest.Name, rest.Namespace, rest.UID, rest.ResourceVersion = "", "", "", ""
	rest.Labels, rest.Annotations, rest.OwnerReferences, rest.DeletionTimestamp = nil, nil, nil, nil
	doc, err := json.Marshal(rest)
	if err != nil {
		return nil, fmt.Errorf("persistentvolumeclaim %s/%s: %w", c.Namespace, c.Name, err)
	}
	spec, err := model.CanonicalJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("persistentvolumeclaim %s/%s: %w", c.Namespace, c.Name, err)
	}
	return &model.PersistentVolumeClaim{ObjectMeta: metaToModel(&c.ObjectMeta), Spec: spec}, nil
}

// ControllerRevisionToModel converts a StatefulSet's ControllerRevision:
// Data keeps the stored bytes, Template is the template they restore. Data
// without a spec.template leaves the set's template in place upstream, so
// such a revision records setTemplate (which may be nil for a revision
// known to carry one).
func ControllerRevisionToModel(r *apps.ControllerRevision, setTemplate *core.PodTemplateSpec) (*model.ControllerRevision, error) {
	m, _, err := controllerRevisionToModel(r, setTemplate)
	return m, err
}

// controllerRevisionToModel is ControllerRevisionToModel; it also reports
// whether the revision took setTemplate (its data has no spec.template),
// when the conversion depends on the set's template as well.
func controllerRevisionToModel(r *apps.ControllerRevision, setTemplate *core.PodTemplateSpec) (*model.ControllerRevision, bool, error) {
	if r == nil {
		return nil, false, fmt.Errorf("controllerrevision: %w", ErrNil)
	}
	t, fromSet, err := revisionTemplate(r.Data.Raw, setTemplate)
	if err != nil {
		return nil, false, fmt.Errorf("controllerrevision %s/%s: %w", r.Namespace, r.Name, err)
	}
	tmpl, err := TemplateToModel(&t)
	if err != nil {
		return nil, false, fmt.Errorf("controllerrevision %s/%s: data.spec.%w", r.Namespace, r.Name, err)
	}
	return &model.ControllerRevision{ObjectMeta: metaToModel(&r.ObjectMeta), Template: tmpl, Data: string(r.Data.Raw), Revision: r.Revision}, fromSet, nil
}

// revisionTemplate decodes the template a StatefulSet revision's data
// restores: its spec.template (the "$patch" directive aside), or
// setTemplate when the data has none (then fromSet is true).
func revisionTemplate(raw []byte, setTemplate *core.PodTemplateSpec) (t core.PodTemplateSpec, fromSet bool, err error) {
	var doc struct {
		Spec struct {
			Template json.RawMessage `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return core.PodTemplateSpec{}, false, fmt.Errorf("data is not a StatefulSet patch: %w", err)
	}
	if doc.Spec.Template == nil || string(doc.Spec.Template) == "null" {
		if setTemplate == nil {
			return core.PodTemplateSpec{}, false, fmt.Errorf("data has no spec.template")
		}
		return *setTemplate.DeepCopy(), true, nil
	}
	if err := json.Unmarshal(doc.Spec.Template, &t); err != nil {
		return core.PodTemplateSpec{}, false, fmt.Errorf("data.spec.template: %w", err)
	}
	return t, false, nil
}

// StatefulSetRevisionData is a [statefulset.Encoder] that returns the data
// upstream records for a template converted by [TemplateToModel]: the
// strategic-merge patch {"spec":{"template":{"$patch":"replace",...}}} of the
// apps/v1 template, JSON with sorted keys (upstream getPatch). With it the
// planner's revision hashes, and so revision names, are upstream's.
func StatefulSetRevisionData(t model.PodTemplate) (string, error) {
	tmpl, err := TemplateFromModel(t)
	if err != nil {
		return "", err
	}
	b, err := StatefulSetPatch(&tmpl)
	return string(b), err
}

// StatefulSetPatch returns upstream's revision data for an apps/v1
// template: the template encoded, decoded into generic JSON values (numbers
// become float64, as upstream's do), the "$patch":"replace" directive
// added, and the whole {"spec":{"template":...}} encoded again by
// encoding/json (keys sorted, HTML characters escaped).
func StatefulSetPatch(t *core.PodTemplateSpec) ([]byte, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		raw = map[string]any{}
	}
	raw["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": raw}})
}
