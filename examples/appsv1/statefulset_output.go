package appsv1

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Resources of the StatefulSet writes in a [StatefulSetOutput].
const (
	ResourcePods                   = "pods"
	ResourcePersistentVolumeClaims = "persistentvolumeclaims"
	ResourceControllerRevisions    = "controllerrevisions"
	ResourceStatefulSets           = "statefulsets"
)

// StatefulSetOutput is a StatefulSet plan as apps/v1 writes, in the
// conformance Output format of the rolloutplan repository: marshalled to
// JSON it is exactly that document.
type StatefulSetOutput struct {
	// Actions are the writes, in the order upstream sends them, those the
	// API server rejects included (with Error set).
	Actions []StatefulSetWrite `json:"actions"`
	// Error is the error the sync ends with, "" if none.
	Error string `json:"error"`
	// Events are the events upstream records, in order.
	Events []Event `json:"events"`
	// Requeue holds at most one entry, {"kind":"after","seconds":N}: the
	// minReadySeconds requeue. It is omitted when upstream does not requeue.
	Requeue []Requeue `json:"requeue,omitempty"`
}

// StatefulSetWrite is one write, ready for a client: Verb on Resource (and
// Subresource) of the object Namespace/Name. Object is, by verb:
//   - create pods: the *core.Pod upstream's newVersionedStatefulSetPod
//     builds (generateName, the revision's template labels and annotations
//     with the identity and revision labels, the controller reference, the
//     template's spec with hostname, subdomain and the claim volumes first);
//   - create persistentvolumeclaims: the *core.PersistentVolumeClaim, a copy
//     of its volumeClaimTemplate with the claim's name, the namespace and
//     the selector's matchLabels;
//   - create controllerrevisions: the *apps.ControllerRevision with its
//     data;
//   - update pods, persistentvolumeclaims, controllerrevisions: a copy of
//     the object read with the planned change;
//   - update statefulsets/status: a copy of the StatefulSet read with the
//     new status;
//   - patch pods, controllerrevisions: the strategic-merge patch body;
//   - delete: nil.
//
// Every object is the write's own, sharing no memory with the State.
type StatefulSetWrite struct {
	Verb        string `json:"verb"`
	Resource    string `json:"resource"`
	Subresource string `json:"subresource"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	Object      any    `json:"object"`
	PatchType   string `json:"patchType,omitempty"`
	// Error is the message with which the API server rejects the write.
	Error string `json:"error,omitempty"`

	// Invalid is the message with which a real API server refuses the
	// write as invalid; the recordings' fake server accepts it, so it is
	// not part of the recorded Output (see [statefulset.Action.Invalid]).
	Invalid string `json:"-"`
	// Kind is the planner's action kind.
	Kind statefulset.ActionKind `json:"-"`
	// Reason is why the planner wrote it.
	Reason plan.Reason `json:"-"`
}

// ToStatefulSetOutput renders p, planned over s, as apps/v1 writes: each
// action applied to a copy of the object of s it changes (or, for a pod
// written back in the sync that created it, of the pod created), so every
// field the planner does not manage is sent as read. Output.Error is left
// empty ([SyncStatefulSet] sets it). It fails when the plan names an object
// or a revision s does not hold.
func ToStatefulSetOutput(s StatefulSetState, p statefulset.Plan) (StatefulSetOutput, error) {
	return toStatefulSetOutput(s, p, nil)
}

// revisionTemplates returns the template a revision's data restores when
// it remembers it (decoded earlier: the data holds a spec.template), and
// false otherwise. r is the revision of the State, or nil for one the plan
// creates. The template returned is only read.
type revisionTemplates func(r *apps.ControllerRevision, data []byte) (*core.PodTemplateSpec, bool)

// toStatefulSetOutput is ToStatefulSetOutput with the decoded revision
// templates remembered by known (which may be nil).
func toStatefulSetOutput(s StatefulSetState, p statefulset.Plan, known revisionTemplates) (StatefulSetOutput, error) {
	if s.StatefulSet == nil {
		return StatefulSetOutput{}, fmt.Errorf("statefulset: %w", ErrNil)
	}
	w := &ssWriter{s: s, created: map[string]*core.Pod{}, revData: map[string][]byte{}, known: known}
	out := StatefulSetOutput{Actions: make([]StatefulSetWrite, 0, len(p.Actions)), Events: make([]Event, 0, len(p.Events))}
	for i, a := range p.Actions {
		wr, err := w.write(a)
		if err != nil {
			return StatefulSetOutput{}, fmt.Errorf("action %d (%s %s/%s): %w", i, a.Kind, a.Object.Namespace, a.Object.Name, err)
		}
		out.Actions = append(out.Actions, wr)
	}
	for _, e := range p.Events {
		out.Events = append(out.Events, Event{Type: e.Type, Reason: e.Reason, Message: e.Message, Object: e.Object})
	}
	if p.Requeue.Kind == plan.RequeueAfter {
		out.Requeue = []Requeue{{Kind: string(plan.RequeueAfter), Seconds: p.Requeue.After.Seconds()}}
	}
	return out, nil
}

// ssWriter renders one plan: the pods it created so far (by name) and the
// data of the revisions it created (by name).
type ssWriter struct {
	s       StatefulSetState
	created map[string]*core.Pod
	revData map[string][]byte
	// decoded holds the revision templates decoded in this rendering, by
	// revision name; known, when not nil, those decoded before.
	decoded map[string]core.PodTemplateSpec
	known   revisionTemplates
}

func (w *ssWriter) write(a statefulset.Action) (StatefulSetWrite, error) {
	reason := a.Reason
	reason.Values = slices.Clone(reason.Values)
	out := StatefulSetWrite{Namespace: a.Object.Namespace, Name: a.Object.Name, Error: a.Error, Invalid: a.Invalid, Kind: a.Kind, Reason: reason}
	var err error
	switch a.Kind {
	case statefulset.AdoptControllerRevision, statefulset.AdoptPod:
		if a.OwnerReference == nil {
			return out, fmt.Errorf("no owner reference in the action")
		}
		out.Verb, out.Resource, out.PatchType = VerbPatch, ResourcePods, StrategicMergePatch
		if a.Kind == statefulset.AdoptControllerRevision {
			out.Resource = ResourceControllerRevisions
		}
		out.Object, err = adoptPatch(*a.OwnerReference, a.Object.UID)
	case statefulset.ReleasePod:
		if a.OwnerReference == nil {
			return out, fmt.Errorf("no owner reference in the action")
		}
		out.Verb, out.Resource, out.PatchType = VerbPatch, ResourcePods, StrategicMergePatch
		out.Object, err = releasePatch(a.OwnerReference.UID, a.Object.UID)
	case statefulset.CreateControllerRevision:
		out.Verb, out.Resource = VerbCreate, ResourceControllerRevisions
		out.Object, err = w.newRevision(a)
	case statefulset.UpdateControllerRevision:
		out.Verb, out.Resource = VerbUpdate, ResourceControllerRevisions
		out.Object, err = w.updatedRevision(a)
	case statefulset.DeleteControllerRevision:
		out.Verb, out.Resource = VerbDelete, ResourceControllerRevisions
	case statefulset.CreateClaim:
		out.Verb, out.Resource = VerbCreate, ResourcePersistentVolumeClaims
		out.Object, err = w.newClaim(a)
	case statefulset.UpdateClaim:
		out.Verb, out.Resource = VerbUpdate, ResourcePersistentVolumeClaims
		out.Object, err = w.updatedClaim(a)
	case statefulset.CreatePod:
		out.Verb, out.Resource = VerbCreate, ResourcePods
		out.Object, err = w.newPod(a)
	case statefulset.UpdatePod:
		out.Verb, out.Resource = VerbUpdate, ResourcePods
		var pod *core.Pod
		pod, err = w.updatedPod(a)
		if pod != nil {
			out.Name = pod.Name
		}
		out.Object = pod
	case statefulset.DeletePod:
		out.Verb, out.Resource = VerbDelete, ResourcePods
	case statefulset.UpdateStatefulSetStatus:
		out.Verb, out.Resource, out.Subresource = VerbUpdate, ResourceStatefulSets, SubresourceStatus
		out.Object, err = w.statusUpdate(a)
	default:
		err = fmt.Errorf("unknown action kind %q", a.Kind)
	}
	return out, err
}

// newRevision is the revision upstream's history creates: no namespace or
// kind, the action's metadata, data and number.
func (w *ssWriter) newRevision(a statefulset.Action) (*apps.ControllerRevision, error) {
	r := a.ControllerRevision
	if r == nil {
		return nil, fmt.Errorf("no ControllerRevision in the action")
	}
	data := []byte(r.Data)
	if a.Error == "" {
		w.revData[r.Name] = data
	}
	meta := metaFromModel(&r.ObjectMeta)
	meta.Namespace = ""
	return &apps.ControllerRevision{ObjectMeta: meta, Data: runtime.RawExtension{Raw: slices.Clone(data)}, Revision: r.Revision}, nil
}

func (w *ssWriter) revision(name string) *apps.ControllerRevision {
	for _, r := range w.s.ControllerRevisions {
		if r != nil && r.Name == name && r.Namespace == w.s.StatefulSet.Namespace {
			return r
		}
	}
	return nil
}

func (w *ssWriter) updatedRevision(a statefulset.Action) (*apps.ControllerRevision, error) {
	base := w.revision(a.Object.Name)
	if base == nil {
		return nil, fmt.Errorf("the state holds no ControllerRevision %s", a.Object.Name)
	}
	if a.RevisionUpdate == nil {
		return nil, fmt.Errorf("no revision update in the action")
	}
	r := base.DeepCopy()
	r.Revision = a.RevisionUpdate.To
	return r, nil
}

// revisionTemplate is the apps/v1 template a revision of the plan or the
// State restores, decoded once per rendering (the pods created at one
// revision share it: it is only read).
func (w *ssWriter) revisionTemplate(name string) (core.PodTemplateSpec, error) {
	if t, ok := w.decoded[name]; ok {
		return t, nil
	}
	var r *apps.ControllerRevision
	data, ok := w.revData[name]
	if !ok {
		if r = w.revision(name); r == nil {
			return core.PodTemplateSpec{}, fmt.Errorf("the state holds no ControllerRevision %s", name)
		}
		data = r.Data.Raw
	}
	var t core.PodTemplateSpec
	if kt, ok := w.knownTemplate(r, data); ok {
		t = *kt
	} else {
		var err error
		if t, _, err = revisionTemplate(data, &w.s.StatefulSet.Spec.Template); err != nil {
			return core.PodTemplateSpec{}, err
		}
	}
	if w.decoded == nil {
		w.decoded = map[string]core.PodTemplateSpec{}
	}
	w.decoded[name] = t
	return t, nil
}

func (w *ssWriter) knownTemplate(r *apps.ControllerRevision, data []byte) (*core.PodTemplateSpec, bool) {
	if w.known == nil {
		return nil, false
	}
	return w.known(r, data)
}

// claimTemplate is the set's volumeClaimTemplate whose claim for ordinal is
// named name.
func (w *ssWriter) claimTemplate(name string, ordinal int) (*core.PersistentVolumeClaim, bool) {
	set := w.s.StatefulSet
	for i := range set.Spec.VolumeClaimTemplates {
		t := &set.Spec.VolumeClaimTemplates[i]
		if statefulset.ClaimName(t.Name, set.Name, ordinal) == name {
			return t, true
		}
	}
	return nil, false
}

func (w *ssWriter) newClaim(a statefulset.Action) (*core.PersistentVolumeClaim, error) {
	set := w.s.StatefulSet
	t, ok := w.claimTemplate(a.Object.Name, a.Ordinal)
	if !ok {
		return nil, fmt.Errorf("no volumeClaimTemplate of the set makes claim %s", a.Object.Name)
	}
	c := t.DeepCopy()
	c.Name = a.Object.Name
	c.Namespace = set.Namespace
	if c.Labels == nil {
		c.Labels = maps.Clone(set.Spec.Selector.MatchLabels)
	} else {
		maps.Copy(c.Labels, set.Spec.Selector.MatchLabels)
	}
	return c, nil
}

func (w *ssWriter) claim(name string) *core.PersistentVolumeClaim {
	for _, c := range w.s.PVCs {
		if c != nil && c.Name == name && c.Namespace == w.s.StatefulSet.Namespace {
			return c
		}
	}
	return nil
}

// updatedClaim is the claim read with the action's owner references; each
// reference the claim already had is sent as read.
func (w *ssWriter) updatedClaim(a statefulset.Action) (*core.PersistentVolumeClaim, error) {
	base := w.claim(a.Object.Name)
	if base == nil {
		return nil, fmt.Errorf("the state holds no PersistentVolumeClaim %s", a.Object.Name)
	}
	c := base.DeepCopy()
	used := make([]bool, len(base.OwnerReferences))
	refs := make([]metav1.OwnerReference, 0, len(a.OwnerReferences))
	for _, m := range a.OwnerReferences {
		found := false
		for i, r := range base.OwnerReferences {
			// A reference kept as it is keeps its exact fields (a
			// controller flag written false rather than left out);
			// one whose flags change is written anew, as upstream's
			// updateClaimOwnerRefForSetAndPod scrubs the references to
			// the set and the pod and adds controller references.
			if !used[i] && string(r.UID) == m.UID && r.APIVersion == m.APIVersion && r.Kind == m.Kind && r.Name == m.Name &&
				isTrue(r.Controller) == m.Controller && isTrue(r.BlockOwnerDeletion) == m.BlockOwnerDeletion {
				used[i], found = true, true
				refs = append(refs, *r.DeepCopy())
				break
			}
		}
		if !found {
			refs = append(refs, ownerRefFromModel(m))
		}
	}
	c.OwnerReferences = refs
	return c, nil
}

func (w *ssWriter) pod(name string) *core.Pod {
	for _, p := range w.s.Pods {
		if p != nil && p.Name == name && p.Namespace == w.s.StatefulSet.Namespace {
			return p
		}
	}
	return nil
}

// newPod is the pod upstream creates: the cached pod itself when the plan
// re-creates a pod without a phase, else the one built from the revision's
// template (upstream GetPodFromTemplate, initIdentity, updateStorage and the
// revision label).
func (w *ssWriter) newPod(a statefulset.Action) (*core.Pod, error) {
	if a.Pod == nil {
		return nil, fmt.Errorf("no pod in the action")
	}
	if a.Pod.UID != "" {
		if p := w.pod(a.Pod.Name); p != nil && string(p.UID) == a.Pod.UID {
			return p.DeepCopy(), nil
		}
	}
	set := w.s.StatefulSet
	t, err := w.revisionTemplate(a.Revision)
	if err != nil {
		return nil, err
	}
	name := a.Pod.Name
	pod := &core.Pod{ObjectMeta: metav1.ObjectMeta{
		Labels:       make(map[string]string, len(t.Labels)+3),
		Annotations:  make(map[string]string, len(t.Annotations)),
		GenerateName: podPrefix(set.Name),
		Finalizers:   slices.Clone(t.Finalizers),
	}}
	maps.Copy(pod.Labels, t.Labels)
	maps.Copy(pod.Annotations, t.Annotations)
	for _, r := range a.Pod.OwnerReferences {
		pod.OwnerReferences = append(pod.OwnerReferences, ownerRefFromModel(r))
	}
	pod.Spec = *t.Spec.DeepCopy()
	pod.Name, pod.Namespace = name, set.Namespace
	pod.Labels[model.StatefulSetPodNameLabel] = name
	pod.Labels[model.PodIndexLabel] = strconv.Itoa(a.Ordinal)
	pod.Spec.Hostname, pod.Spec.Subdomain = name, set.Spec.ServiceName
	pod.Spec.Volumes = w.volumes(a.Pod.Spec.Volumes, pod.Spec.Volumes)
	pod.Labels[model.StatefulSetRevisionLabel] = a.Revision
	if a.Error == "" {
		// Read, never changed, by a later UpdatePod of the same rendering
		// (which writes to a copy).
		w.created[name] = pod
	}
	return pod, nil
}

// volumes is upstream's updateStorage with the claim volumes the planner
// chose (those named for a volumeClaimTemplate), then the volumes of
// current whose names are no template's.
func (w *ssWriter) volumes(planned []model.Volume, current []core.Volume) []core.Volume {
	tmpl := map[string]bool{}
	for _, t := range w.s.StatefulSet.Spec.VolumeClaimTemplates {
		tmpl[t.Name] = true
	}
	out := make([]core.Volume, 0, len(planned)+len(current))
	for _, v := range planned {
		if tmpl[v.Name] {
			out = append(out, core.Volume{Name: v.Name, VolumeSource: core.VolumeSource{PersistentVolumeClaim: &core.PersistentVolumeClaimVolumeSource{ClaimName: v.ClaimName}}})
		}
	}
	for _, v := range current {
		if !tmpl[v.Name] {
			out = append(out, *v.DeepCopy())
		}
	}
	return out
}

// podPrefix is upstream's getPodsPrefix: "<name>-", or the name when the
// dash would make it too long for a pod name.
func podPrefix(name string) string {
	if len(name)+1 > model.MaxNameLength {
		return name
	}
	return name + "-"
}

// updatedPod is the pod read (or created earlier in the plan) with the
// action's identity and volumes.
func (w *ssWriter) updatedPod(a statefulset.Action) (*core.Pod, error) {
	base := w.created[a.Object.Name]
	if base == nil {
		base = w.pod(a.Object.Name)
	}
	if base == nil {
		return nil, fmt.Errorf("the state holds no Pod %s", a.Object.Name)
	}
	if a.PodUpdate == nil {
		return nil, fmt.Errorf("no pod update in the action")
	}
	p := base.DeepCopy()
	u := a.PodUpdate
	if u.Name != "" {
		p.Name = u.Name
	}
	p.Namespace = w.s.StatefulSet.Namespace
	if len(u.Labels) > 0 {
		if p.Labels == nil {
			p.Labels = make(map[string]string, len(u.Labels))
		}
		maps.Copy(p.Labels, u.Labels)
	}
	if u.Volumes != nil {
		p.Spec.Volumes = w.volumes(u.Volumes, base.Spec.Volumes)
	}
	return p, nil
}

// statusUpdate is the StatefulSet read with the action's status.
func (w *ssWriter) statusUpdate(a statefulset.Action) (*apps.StatefulSet, error) {
	base := w.s.StatefulSet
	if base.Name != a.Object.Name || base.Namespace != a.Object.Namespace {
		return nil, fmt.Errorf("the state's StatefulSet is not %s/%s", a.Object.Namespace, a.Object.Name)
	}
	if a.Status == nil {
		return nil, fmt.Errorf("no status in the action")
	}
	out := &apps.StatefulSet{TypeMeta: base.TypeMeta}
	base.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	base.Spec.DeepCopyInto(&out.Spec)
	st := a.Status
	out.Status = apps.StatefulSetStatus{
		ObservedGeneration: st.ObservedGeneration,
		Replicas:           st.Replicas,
		ReadyReplicas:      st.ReadyReplicas,
		CurrentReplicas:    st.CurrentReplicas,
		UpdatedReplicas:    st.UpdatedReplicas,
		CurrentRevision:    st.CurrentRevision,
		UpdateRevision:     st.UpdateRevision,
		CollisionCount:     clonePtr(st.CollisionCount),
		AvailableReplicas:  st.AvailableReplicas,
	}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, apps.StatefulSetCondition{
			Type: apps.StatefulSetConditionType(c.Type), Status: core.ConditionStatus(c.Status),
			LastTransitionTime: timeFromModel(c.LastTransitionTime), Reason: c.Reason, Message: c.Message,
		})
	}
	return out, nil
}

// isTrue reads an optional flag, absent meaning false.
func isTrue(b *bool) bool { return b != nil && *b }
