package appsv1

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// Resources of the DaemonSet writes in an [Output] (unexported so that the
// StatefulSet adapter may export its own names for the shared ones).
const (
	dsResourcePods                = "pods"
	dsResourceControllerRevisions = "controllerrevisions"
	dsResourceDaemonSets          = "daemonsets"
)

// dsMergePatch is the patch type of the pod relabelling of a revision
// merge.
const dsMergePatch = string(types.MergePatchType)

// ToDaemonSetOutput renders p, planned over s, as apps/v1 writes, as
// upstream sends them:
//   - create pods: the *core.Pod built from the DaemonSet's template
//     (generateName, the action's labels and annotations, the controller
//     reference, the template's spec with the action's tolerations and its
//     required node affinity replaced by the node pin), named in the Output
//     by the planned name;
//   - create controllerrevisions: the *apps.ControllerRevision with the
//     revision's data;
//   - update controllerrevisions: a copy of the revision read (or as an
//     earlier write of p left it) with the new labels and number;
//   - update daemonsets/status: a copy of the DaemonSet read with the
//     action's status;
//   - patch pods and controllerrevisions: the adoption and release
//     strategic-merge patches, and the relabelling merge patch;
//   - delete: nil.
//
// Output.Error is left empty (SyncDaemonSet sets it). The Output shares no
// memory with s or p.
func ToDaemonSetOutput(s DaemonSetState, p daemonset.Plan) (Output, error) {
	w := &dsWriter{s: s, revisions: map[string]*apps.ControllerRevision{}}
	for _, r := range s.ControllerRevisions {
		if r != nil && s.DaemonSet != nil && r.Namespace == s.DaemonSet.Namespace {
			w.revisions[r.Name] = r
		}
	}
	out := Output{Actions: make([]Action, 0, len(p.Actions)), Events: make([]Event, 0, len(p.Events))}
	for i, a := range p.Actions {
		wa, err := w.write(a)
		if err != nil {
			return Output{}, fmt.Errorf("action %d (%s %s/%s): %w", i, a.Kind, a.Object.Namespace, a.Object.Name, err)
		}
		out.Actions = append(out.Actions, wa)
	}
	for _, e := range p.Events {
		out.Events = append(out.Events, Event{Type: e.Type, Reason: e.Reason, Message: e.Message, Object: e.Object})
	}
	if p.Requeue.Kind == plan.RequeueAfter {
		out.Requeue = []Requeue{{Kind: string(plan.RequeueAfter), Seconds: p.Requeue.After.Seconds()}}
	}
	return out, nil
}

type dsWriter struct {
	s         DaemonSetState
	revisions map[string]*apps.ControllerRevision
}

func (w *dsWriter) write(a daemonset.Action) (Action, error) {
	reason := a.Reason
	reason.Values = slices.Clone(reason.Values)
	out := Action{Namespace: a.Object.Namespace, Name: a.Object.Name, Kind: plan.ActionKind(a.Kind), Reason: reason}
	switch a.Kind {
	case daemonset.AdoptPod, daemonset.AdoptControllerRevision:
		if a.OwnerReference == nil {
			return Action{}, fmt.Errorf("no owner reference in the action")
		}
		body, err := adoptPatch(*a.OwnerReference, a.Object.UID)
		if err != nil {
			return Action{}, err
		}
		out.Verb, out.Object, out.PatchType = VerbPatch, body, StrategicMergePatch
	case daemonset.ReleasePod, daemonset.ReleaseControllerRevision:
		if a.OwnerReference == nil {
			return Action{}, fmt.Errorf("no owner reference in the action")
		}
		body, err := releasePatch(a.OwnerReference.UID, a.Object.UID)
		if err != nil {
			return Action{}, err
		}
		out.Verb, out.Object, out.PatchType = VerbPatch, body, StrategicMergePatch
	case daemonset.RelabelPod:
		body, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": a.Labels}})
		if err != nil {
			return Action{}, err
		}
		out.Verb, out.Object, out.PatchType = VerbPatch, json.RawMessage(body), dsMergePatch
	case daemonset.CreatePod:
		pod, err := w.pod(a)
		if err != nil {
			return Action{}, err
		}
		out.Verb, out.Object = VerbCreate, pod
	case daemonset.DeletePod, daemonset.DeleteControllerRevision:
		out.Verb = VerbDelete
	case daemonset.CreateControllerRevision:
		if a.Revision == nil {
			return Action{}, fmt.Errorf("no revision in the action")
		}
		r := a.Revision
		cr := &apps.ControllerRevision{
			ObjectMeta: metaFromModel(&r.ObjectMeta),
			Data:       runtime.RawExtension{Raw: []byte(r.Data)},
			Revision:   r.Revision,
		}
		w.revisions[cr.Name] = cr
		out.Verb, out.Object = VerbCreate, cr.DeepCopy()
	case daemonset.UpdateControllerRevision:
		base := w.revisions[a.Object.Name]
		if base == nil || a.RevisionUpdate == nil {
			return Action{}, fmt.Errorf("the state holds no ControllerRevision %s/%s", a.Object.Namespace, a.Object.Name)
		}
		cr := base.DeepCopy()
		if len(a.RevisionUpdate.Labels) > 0 {
			if cr.Labels == nil {
				cr.Labels = map[string]string{}
			}
			maps.Copy(cr.Labels, a.RevisionUpdate.Labels)
		}
		cr.Revision = a.RevisionUpdate.Revision
		w.revisions[cr.Name] = cr
		out.Verb, out.Object = VerbUpdate, cr.DeepCopy()
	case daemonset.UpdateDaemonSetStatus:
		ds := w.s.DaemonSet
		if ds == nil || ds.Namespace != a.Object.Namespace || ds.Name != a.Object.Name || a.Status == nil {
			return Action{}, fmt.Errorf("the state's DaemonSet is not %s/%s", a.Object.Namespace, a.Object.Name)
		}
		d := ds.DeepCopy()
		st := a.Status
		d.Status.CurrentNumberScheduled = st.CurrentNumberScheduled
		d.Status.NumberMisscheduled = st.NumberMisscheduled
		d.Status.DesiredNumberScheduled = st.DesiredNumberScheduled
		d.Status.NumberReady = st.NumberReady
		d.Status.ObservedGeneration = st.ObservedGeneration
		d.Status.UpdatedNumberScheduled = st.UpdatedNumberScheduled
		d.Status.NumberAvailable = st.NumberAvailable
		d.Status.NumberUnavailable = st.NumberUnavailable
		d.Status.CollisionCount = clonePtr(st.CollisionCount)
		out.Verb, out.Subresource, out.Object = VerbUpdate, SubresourceStatus, d
	default:
		return Action{}, fmt.Errorf("unknown action kind %q", a.Kind)
	}
	out.Resource = dsResource(a.Kind)
	return out, nil
}

func dsResource(k daemonset.ActionKind) string {
	switch k {
	case daemonset.AdoptControllerRevision, daemonset.ReleaseControllerRevision, daemonset.CreateControllerRevision,
		daemonset.UpdateControllerRevision, daemonset.DeleteControllerRevision:
		return dsResourceControllerRevisions
	case daemonset.UpdateDaemonSetStatus:
		return dsResourceDaemonSets
	}
	return dsResourcePods
}

// pod builds the pod a CreatePod sends from the DaemonSet's template, as
// upstream's CreatePodTemplate, ReplaceDaemonSetPodNodeNameNodeAffinity and
// GetPodFromTemplate do.
func (w *dsWriter) pod(a daemonset.Action) (*core.Pod, error) {
	if a.Pod == nil || a.Scheduling == nil || w.s.DaemonSet == nil {
		return nil, fmt.Errorf("no pod in the action")
	}
	tmpl := w.s.DaemonSet.Spec.Template.DeepCopy()
	pod := &core.Pod{
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: a.GenerateName,
			Labels:       maps.Clone(a.Pod.Labels),
			Annotations:  maps.Clone(a.Pod.Annotations),
			Finalizers:   slices.Clone(tmpl.Finalizers),
		},
		Spec: tmpl.Spec,
	}
	for _, r := range a.Pod.OwnerReferences {
		pod.OwnerReferences = append(pod.OwnerReferences, ownerRefFromModel(r))
	}
	pod.Spec.Tolerations = nil
	for _, t := range a.Scheduling.Tolerations {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, core.Toleration{
			Key: t.Key, Operator: core.TolerationOperator(t.Operator), Value: t.Value,
			Effect: core.TaintEffect(t.Effect), TolerationSeconds: clonePtr(t.TolerationSeconds),
		})
	}
	required := nodeSelectorFromModel(a.Scheduling.RequiredNodeAffinity)
	switch {
	case pod.Spec.Affinity == nil:
		pod.Spec.Affinity = &core.Affinity{NodeAffinity: &core.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required}}
	case pod.Spec.Affinity.NodeAffinity == nil:
		pod.Spec.Affinity.NodeAffinity = &core.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required}
	default:
		pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = required
	}
	return pod, nil
}

func nodeSelectorFromModel(s *model.NodeSelector) *core.NodeSelector {
	if s == nil {
		return nil
	}
	out := &core.NodeSelector{NodeSelectorTerms: []core.NodeSelectorTerm{}}
	for _, t := range s.NodeSelectorTerms {
		out.NodeSelectorTerms = append(out.NodeSelectorTerms, core.NodeSelectorTerm{
			MatchExpressions: nodeRequirementsFromModel(t.MatchExpressions),
			MatchFields:      nodeRequirementsFromModel(t.MatchFields),
		})
	}
	return out
}

func nodeRequirementsFromModel(rs []model.NodeSelectorRequirement) []core.NodeSelectorRequirement {
	if rs == nil {
		return nil
	}
	out := make([]core.NodeSelectorRequirement, 0, len(rs))
	for _, r := range rs {
		out = append(out, core.NodeSelectorRequirement{Key: r.Key, Operator: core.NodeSelectorOperator(r.Operator), Values: slices.Clone(r.Values)})
	}
	return out
}
