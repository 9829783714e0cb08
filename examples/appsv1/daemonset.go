package appsv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// DaemonSetState is the apps/v1 snapshot one DaemonSet sync plans over:
// the DaemonSet, every node, the pods and ControllerRevisions of its
// namespace, and the controller's clock. [SyncDaemonSet] derives the writes
// from these objects, so keep them as read from the API server.
type DaemonSetState struct {
	Now                 time.Time
	DaemonSet           *apps.DaemonSet
	Nodes               []*core.Node
	Pods                []*core.Pod
	ControllerRevisions []*apps.ControllerRevision
}

// DaemonSetCase is the DaemonSet conformance input format of the
// rolloutplan repository (shared/conformance/README.md, "StatefulSets and
// DaemonSets").
type DaemonSetCase struct {
	Now                 time.Time                  `json:"now"`
	DaemonSet           *apps.DaemonSet            `json:"daemonSet"`
	Nodes               []*core.Node               `json:"nodes"`
	Pods                []*core.Pod                `json:"pods"`
	ControllerRevisions []*apps.ControllerRevision `json:"controllerRevisions"`
}

// State returns the case as a [DaemonSetState]; it shares the objects.
func (c DaemonSetCase) State() DaemonSetState { return DaemonSetState(c) }

// Model converts the snapshot to the planner's input: the DaemonSet, the
// nodes, the pods with their required node affinities, and the
// ControllerRevisions, whose Data keeps the bytes stored. Nil entries are
// an error naming their index.
func (s DaemonSetState) Model() (daemonset.State, error) {
	return s.model(PodToModel)
}

// model is [DaemonSetState.Model] with pods converted by pod.
func (s DaemonSetState) model(pod func(*core.Pod) (*model.Pod, error)) (daemonset.State, error) {
	ds, err := DaemonSetToModel(s.DaemonSet)
	if err != nil {
		return daemonset.State{}, err
	}
	out := daemonset.State{DaemonSet: ds, Now: s.Now}
	if len(s.Nodes) > 0 {
		out.Nodes = make([]*model.Node, 0, len(s.Nodes))
	}
	if len(s.Pods) > 0 {
		out.Pods = make([]*model.Pod, 0, len(s.Pods))
	}
	for i, n := range s.Nodes {
		m, err := NodeToModel(n)
		if err != nil {
			return daemonset.State{}, fmt.Errorf("nodes[%d]: %w", i, err)
		}
		out.Nodes = append(out.Nodes, m)
	}
	for i, p := range s.Pods {
		m, err := pod(p)
		if err != nil {
			return daemonset.State{}, fmt.Errorf("pods[%d]: %w", i, err)
		}
		out.Pods = append(out.Pods, m)
		if na := requiredNodeAffinity(p.Spec.Affinity); na != nil {
			if out.PodNodeAffinity == nil {
				out.PodNodeAffinity = map[string]*model.NodeSelector{}
			}
			out.PodNodeAffinity[p.Name] = na
		}
	}
	for i, r := range s.ControllerRevisions {
		if r == nil {
			return daemonset.State{}, fmt.Errorf("controllerRevisions[%d]: %w", i, ErrNil)
		}
		out.ControllerRevisions = append(out.ControllerRevisions, daemonRevisionToModel(r))
	}
	return out, nil
}

// SyncDaemonSet plans one DaemonSet sync of s with daemonset.Sync, hashing
// and encoding the template exactly as upstream does (controller.ComputeHash
// of the apps/v1 template, and getPatch for the revision data, applied
// before opts), and renders the plan as apps/v1 writes with
// [ToDaemonSetOutput]. The error is daemonset.Sync's: invalid input (with a
// zero Output and Plan), or the *daemonset.SyncError the sync ends with,
// returned with the Output (whose Error is its message) and the Plan.
//
// The planner reads a pod's node, required node affinity, status and
// metadata, never the rest of its spec: the pods of the planner's input are
// converted as by [DaemonSetState.Model] but without [model.PodSpec.Body]
// (encoding every pod spec as canonical JSON would be most of a sync's
// cost). No pod of the State is carried into the Plan.
func SyncDaemonSet(s DaemonSetState, opts ...daemonset.Option) (Output, daemonset.Plan, error) {
	in, err := s.model(podForPlan)
	if err != nil {
		return Output{}, daemonset.Plan{}, err
	}
	patch, err := DaemonSetPatch(&s.DaemonSet.Spec.Template)
	if err != nil {
		return Output{}, daemonset.Plan{}, err
	}
	return syncDaemonSetInput(s, in, new(hashMemo), string(patch), opts)
}

// syncDaemonSetInput plans in, converted from s, whose DaemonSet's apps/v1
// template has the revision data patch and the hash state kept in memo,
// with opts after the upstream hasher and patcher, and renders the plan
// (see SyncDaemonSet).
func syncDaemonSetInput(s DaemonSetState, in daemonset.State, memo *hashMemo, patch string, opts []daemonset.Option) (Output, daemonset.Plan, error) {
	conv := in.DaemonSet.Spec.Template
	all := make([]daemonset.Option, 0, 2+len(opts))
	all = append(all,
		daemonset.WithHasher(deploymentHasher(&s.DaemonSet.Spec.Template, conv, memo)),
		daemonset.WithPatcher(func(t model.PodTemplate) string {
			if identicalTemplates(t, conv) {
				return patch
			}
			return modelTemplatePatch(t)
		}))
	p, err := daemonset.Sync(in, append(all, opts...)...)
	var syncErr *daemonset.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return Output{}, daemonset.Plan{}, err
	}
	out, oerr := ToDaemonSetOutput(s, p)
	if oerr != nil {
		return Output{}, p, oerr
	}
	if syncErr != nil {
		out.Error = syncErr.Error()
		return out, p, err
	}
	return out, p, nil
}

// DaemonSetPatch returns the ControllerRevision data upstream records for
// a DaemonSet with template t (upstream getPatch): the template's JSON,
// decoded into generic values (integers kept as integers) and re-encoded
// with sorted keys, with "$patch":"replace", under spec.template.
func DaemonSetPatch(t *core.PodTemplateSpec) ([]byte, error) {
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	var tmpl map[string]any
	if err := utiljson.Unmarshal(b, &tmpl); err != nil {
		return nil, err
	}
	tmpl["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": tmpl}})
}

// modelTemplatePatch is DaemonSetPatch of a model template rebuilt as a
// v1.PodTemplateSpec, or daemonset.DefaultPatch when it cannot be rebuilt.
func modelTemplatePatch(t model.PodTemplate) string {
	tmpl, err := TemplateFromModel(t)
	if err != nil {
		return daemonset.DefaultPatch(t)
	}
	b, err := DaemonSetPatch(&tmpl)
	if err != nil {
		return daemonset.DefaultPatch(t)
	}
	return string(b)
}

// DaemonSetToModel converts an apps/v1 DaemonSet. It does not default: the
// planner expects objects as the API server returns them. The template's
// scheduling fields are copied into model.DaemonSetSpec.Scheduling.
func DaemonSetToModel(ds *apps.DaemonSet) (*model.DaemonSet, error) {
	if ds == nil {
		return nil, fmt.Errorf("daemonSet: %w", ErrNil)
	}
	tmpl, err := TemplateToModel(&ds.Spec.Template)
	if err != nil {
		return nil, fmt.Errorf("daemonset %s/%s: spec.%w", ds.Namespace, ds.Name, err)
	}
	out := &model.DaemonSet{
		ObjectMeta: metaToModel(&ds.ObjectMeta),
		Spec: model.DaemonSetSpec{
			Selector:             selectorToModel(ds.Spec.Selector),
			Template:             tmpl,
			Scheduling:           schedulingToModel(&ds.Spec.Template.Spec),
			MinReadySeconds:      ds.Spec.MinReadySeconds,
			RevisionHistoryLimit: clonePtr(ds.Spec.RevisionHistoryLimit),
			UpdateStrategy:       model.DaemonSetUpdateStrategy{Type: model.DaemonSetUpdateStrategyType(ds.Spec.UpdateStrategy.Type)},
		},
		Status: model.DaemonSetStatus{
			CurrentNumberScheduled: ds.Status.CurrentNumberScheduled,
			NumberMisscheduled:     ds.Status.NumberMisscheduled,
			DesiredNumberScheduled: ds.Status.DesiredNumberScheduled,
			NumberReady:            ds.Status.NumberReady,
			ObservedGeneration:     ds.Status.ObservedGeneration,
			UpdatedNumberScheduled: ds.Status.UpdatedNumberScheduled,
			NumberAvailable:        ds.Status.NumberAvailable,
			NumberUnavailable:      ds.Status.NumberUnavailable,
			CollisionCount:         clonePtr(ds.Status.CollisionCount),
		},
	}
	if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.Spec.UpdateStrategy.RollingUpdate = &model.RollingUpdateDaemonSet{
			MaxUnavailable: intOrStringToModel(ru.MaxUnavailable),
			MaxSurge:       intOrStringToModel(ru.MaxSurge),
		}
	}
	for _, c := range ds.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, model.DaemonSetCondition{
			Type: string(c.Type), Status: model.ConditionStatus(c.Status),
			LastTransitionTime: timeToModel(c.LastTransitionTime), Reason: c.Reason, Message: c.Message,
		})
	}
	return out, nil
}

// schedulingToModel copies what the DaemonSet controller reads of a pod
// spec for placement.
func schedulingToModel(s *core.PodSpec) model.PodScheduling {
	out := model.PodScheduling{
		NodeName:             s.NodeName,
		NodeSelector:         maps.Clone(s.NodeSelector),
		RequiredNodeAffinity: requiredNodeAffinity(s.Affinity),
		HostNetwork:          s.HostNetwork,
	}
	for _, t := range s.Tolerations {
		out.Tolerations = append(out.Tolerations, model.Toleration{
			Key: t.Key, Operator: model.TolerationOperator(t.Operator), Value: t.Value,
			Effect: model.TaintEffect(t.Effect), TolerationSeconds: clonePtr(t.TolerationSeconds),
		})
	}
	return out
}

// requiredNodeAffinity converts
// affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution, or
// returns nil.
func requiredNodeAffinity(a *core.Affinity) *model.NodeSelector {
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return nil
	}
	in := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	out := &model.NodeSelector{}
	for _, t := range in.NodeSelectorTerms {
		out.NodeSelectorTerms = append(out.NodeSelectorTerms, model.NodeSelectorTerm{
			MatchExpressions: nodeRequirementsToModel(t.MatchExpressions),
			MatchFields:      nodeRequirementsToModel(t.MatchFields),
		})
	}
	return out
}

func nodeRequirementsToModel(rs []core.NodeSelectorRequirement) []model.NodeSelectorRequirement {
	if rs == nil {
		return nil
	}
	out := make([]model.NodeSelectorRequirement, 0, len(rs))
	for _, r := range rs {
		out = append(out, model.NodeSelectorRequirement{Key: r.Key, Operator: model.NodeSelectorOperator(r.Operator), Values: slices.Clone(r.Values)})
	}
	return out
}

// NodeToModel converts a v1 Node: metadata, spec.unschedulable and the
// taints.
func NodeToModel(n *core.Node) (*model.Node, error) {
	if n == nil {
		return nil, fmt.Errorf("node: %w", ErrNil)
	}
	out := &model.Node{ObjectMeta: metaToModel(&n.ObjectMeta), Spec: model.NodeSpec{Unschedulable: n.Spec.Unschedulable}}
	for _, t := range n.Spec.Taints {
		mt := model.Taint{Key: t.Key, Value: t.Value, Effect: model.TaintEffect(t.Effect)}
		if t.TimeAdded != nil {
			mt.TimeAdded = model.TimePtr(timeToModel(*t.TimeAdded))
		}
		out.Spec.Taints = append(out.Spec.Taints, mt)
	}
	return out, nil
}

// daemonRevisionToModel converts a ControllerRevision, keeping its data
// bytes as stored; its Template is decoded from the data's spec.template
// when that is a pod template (it is informational: the planner compares
// Data).
func daemonRevisionToModel(r *apps.ControllerRevision) *model.ControllerRevision {
	out := &model.ControllerRevision{ObjectMeta: metaToModel(&r.ObjectMeta), Data: string(r.Data.Raw), Revision: r.Revision}
	var doc struct {
		Spec struct {
			Template json.RawMessage `json:"template"`
		} `json:"spec"`
	}
	if json.Unmarshal(r.Data.Raw, &doc) == nil && doc.Spec.Template != nil {
		var t core.PodTemplateSpec
		if json.Unmarshal(doc.Spec.Template, &t) == nil {
			if m, err := TemplateToModel(&t); err == nil {
				out.Template = m
			}
		}
	}
	return out
}
