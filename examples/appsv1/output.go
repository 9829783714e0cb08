package appsv1

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Verbs, resources and subresources of the writes in an [Output].
const (
	VerbCreate = "create"
	VerbUpdate = "update"
	VerbPatch  = "patch"
	VerbDelete = "delete"

	ResourceReplicaSets = "replicasets"
	ResourceDeployments = "deployments"

	SubresourceStatus = "status"
)

// StrategicMergePatch is the patch type of the adopt and release patches.
const StrategicMergePatch = string(types.StrategicMergePatchType)

// Output is a plan as apps/v1 writes, in the conformance Output format of the
// rolloutplan repository (shared/conformance/README.md): marshalled to JSON
// it is exactly that document.
type Output struct {
	// Actions are the writes, in the order upstream sends them.
	Actions []Action `json:"actions"`
	// Error is the error the sync ends with, "" if none.
	Error string `json:"error"`
	// Events are the events upstream records, in order.
	Events []Event `json:"events"`
	// Requeue holds at most one entry: when to sync again. It is omitted
	// when upstream does not requeue.
	Requeue []Requeue `json:"requeue,omitempty"`
}

// Action is one write, ready for a client: Verb on Resource (and
// Subresource) of the object Namespace/Name.
//
// Object is, by verb:
//   - create replicasets: the *apps.ReplicaSet to create, built as the
//     controller builds it (no kind or apiVersion, status.replicas 0), its
//     template the Deployment's with the pod-template-hash label;
//   - update replicasets: the *apps.ReplicaSet to send, a copy of the
//     object read (or of the one created earlier in the plan) with the
//     new spec.replicas, spec.minReadySeconds and annotations;
//   - update deployments: the *apps.Deployment to send, a copy of the
//     object read with the new annotations and status (the status
//     subresource applies both) and, for the rollback's full update, the
//     new spec.template (the ReplicaSet's it rolls back to, without the
//     pod-template-hash label);
//   - patch replicasets: the strategic-merge patch body as json.RawMessage
//     (adoption or release, with the ReplicaSet's UID as precondition);
//   - delete replicasets: nil.
//
// Every object is the write's own: it shares no memory with the objects of
// the [State], the [plan.Plan] or another write, so a caller may change it
// (to set a field of its own before sending, say).
type Action struct {
	Verb        string `json:"verb"`
	Resource    string `json:"resource"`
	Subresource string `json:"subresource"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	Object      any    `json:"object"`
	PatchType   string `json:"patchType,omitempty"`

	// Kind is the planner's action kind.
	Kind plan.ActionKind `json:"-"`
	// Conflict reports that a real API server rejects this write with 409
	// Conflict, because an earlier write of the same sync replaced the
	// version it derives from (see [plan.Action.Conflict]).
	Conflict bool `json:"-"`
	// Reason is why the planner wrote it.
	Reason plan.Reason `json:"-"`
}

// Requeue is the scheduling outcome: Kind "after" with Seconds (upstream's
// progress-deadline requeue, its extra second included; fractional when the
// clock has sub-second precision), or Kind "rateLimited".
type Requeue struct {
	Kind    string  `json:"kind"`
	Seconds float64 `json:"seconds"`
}

// MarshalJSON writes {"kind":"after","seconds":N}, or only the kind for the
// other kinds.
func (r Requeue) MarshalJSON() ([]byte, error) {
	if r.Kind == string(plan.RequeueAfter) {
		type wire Requeue
		return json.Marshal(wire(r))
	}
	return json.Marshal(struct {
		Kind string `json:"kind"`
	}{r.Kind})
}

// ToOutput converts p, planned over s, to apps/v1 writes by applying each
// action's changes to the objects of s: a scale or an update of a
// ReplicaSet to a copy of the ReplicaSet of s (or of the one an earlier
// action of p creates), a Deployment write to a copy of s's Deployment, so
// every field the planner does not manage is sent back as read. A template
// the plan writes (a new ReplicaSet's, a rollback's) is taken from the
// object of s whose template converts to the same Spec (the Deployment's,
// a ReplicaSet's), with the plan's labels and annotations, and decoded
// from its Spec, as [TemplateFromModel] does, only when no object of s has
// it. It fails when the plan writes an object s does not hold, or a model
// template cannot be rebuilt.
//
// Output.Error is left empty: it is the error plan.Sync returned with p (a
// *plan.SyncError), which [Sync] sets. The Output shares no memory with s
// or p (see [Action]).
func ToOutput(s State, p plan.Plan) (Output, error) {
	return toOutput(s, nil, p)
}

// toOutput is ToOutput with in, s converted (nil: templates are converted
// on demand).
func toOutput(s State, in *plan.State, p plan.Plan) (Output, error) {
	wr := &writer{s: s, in: in}
	out := Output{Actions: make([]Action, 0, len(p.Actions)), Events: make([]Event, 0, len(p.Events))}
	for i, a := range p.Actions {
		w, err := wr.toWrite(a)
		if err != nil {
			return Output{}, fmt.Errorf("action %d (%s %s/%s): %w", i, a.Kind, a.Object.Namespace, a.Object.Name, err)
		}
		out.Actions = append(out.Actions, w)
	}
	for _, e := range p.Events {
		out.Events = append(out.Events, Event{Type: e.Type, Reason: e.Reason, Message: e.Message, Object: e.Object})
	}
	switch p.Requeue.Kind {
	case plan.RequeueNone:
	case plan.RequeueAfter:
		out.Requeue = []Requeue{{Kind: string(plan.RequeueAfter), Seconds: p.Requeue.After.Seconds()}}
	default:
		out.Requeue = []Requeue{{Kind: string(p.Requeue.Kind)}}
	}
	return out, nil
}

// toWrite returns the write of a.
func (wr *writer) toWrite(a plan.Action) (Action, error) {
	ns, name := a.Object.Namespace, a.Object.Name
	reason := a.Reason
	reason.Values = slices.Clone(reason.Values)
	w := Action{Namespace: ns, Name: name, Kind: a.Kind, Conflict: a.Conflict, Reason: reason}
	switch a.Kind {
	case plan.CreateReplicaSet:
		if a.ReplicaSet == nil {
			return Action{}, fmt.Errorf("no ReplicaSet in the action")
		}
		tmpl, err := wr.template(a.ReplicaSet.Spec.Template)
		if err != nil {
			return Action{}, fmt.Errorf("replicaset %s/%s: spec.%w", a.ReplicaSet.Namespace, a.ReplicaSet.Name, err)
		}
		// rs is built of copies; later updates of it apply to copies of it.
		rs := replicaSetFromModel(a.ReplicaSet, tmpl)
		rs.Status = apps.ReplicaSetStatus{}
		wr.created = append(wr.created, rs)
		w.Verb, w.Resource, w.Object = VerbCreate, ResourceReplicaSets, rs
	case plan.ScaleReplicaSet, plan.UpdateReplicaSet:
		if a.Update == nil {
			return Action{}, fmt.Errorf("no update in the action")
		}
		base := wr.base(ns, name)
		if base == nil {
			return Action{}, fmt.Errorf("the state holds no ReplicaSet %s/%s", ns, name)
		}
		w.Verb, w.Resource, w.Object = VerbUpdate, ResourceReplicaSets, updatedReplicaSet(base, a.Update)
	case plan.DeleteReplicaSet:
		w.Verb, w.Resource = VerbDelete, ResourceReplicaSets
	case plan.AdoptReplicaSet:
		if a.OwnerReference == nil {
			return Action{}, fmt.Errorf("no owner reference in the action")
		}
		body, err := adoptPatch(*a.OwnerReference, a.Object.UID)
		if err != nil {
			return Action{}, err
		}
		w.Verb, w.Resource, w.Object, w.PatchType = VerbPatch, ResourceReplicaSets, body, StrategicMergePatch
	case plan.ReleaseReplicaSet:
		if a.OwnerReference == nil {
			return Action{}, fmt.Errorf("no owner reference in the action")
		}
		body, err := releasePatch(a.OwnerReference.UID, a.Object.UID)
		if err != nil {
			return Action{}, err
		}
		w.Verb, w.Resource, w.Object, w.PatchType = VerbPatch, ResourceReplicaSets, body, StrategicMergePatch
	case plan.UpdateDeploymentStatus, plan.UpdateDeployment:
		if d := wr.s.Deployment; d == nil || d.Namespace != ns || d.Name != name {
			return Action{}, fmt.Errorf("the state's Deployment is not %s/%s", ns, name)
		}
		if a.Deployment == nil {
			return Action{}, fmt.Errorf("no Deployment update in the action")
		}
		d, err := wr.updatedDeployment(a.Deployment)
		if err != nil {
			return Action{}, err
		}
		w.Verb, w.Resource, w.Object = VerbUpdate, ResourceDeployments, d
		if a.Kind == plan.UpdateDeploymentStatus {
			w.Subresource = SubresourceStatus
		}
	default:
		return Action{}, fmt.Errorf("unknown action kind %q", a.Kind)
	}
	return w, nil
}

// updatedReplicaSet is a copy of base with u applied: spec.replicas, and
// spec.minReadySeconds and annotations when u changes them.
func updatedReplicaSet(base *apps.ReplicaSet, u *plan.ReplicaSetUpdate) *apps.ReplicaSet {
	rs := base.DeepCopy()
	rs.Spec.Replicas = new(u.Replicas)
	if u.MinReadySeconds != nil {
		rs.Spec.MinReadySeconds = *u.MinReadySeconds
	}
	if len(u.Annotations) > 0 {
		if rs.Annotations == nil {
			rs.Annotations = make(map[string]string, len(u.Annotations))
		}
		maps.Copy(rs.Annotations, u.Annotations)
	}
	return rs
}

// updatedDeployment is a copy of the State's Deployment with u applied:
// its annotations, its status (converted from u.Status when set) and, for
// a rollback, its template.
func (wr *writer) updatedDeployment(u *plan.DeploymentUpdate) (*apps.Deployment, error) {
	base := wr.s.Deployment
	d := &apps.Deployment{TypeMeta: base.TypeMeta}
	base.ObjectMeta.DeepCopyInto(&d.ObjectMeta)
	base.Spec.DeepCopyInto(&d.Spec)
	if u.Status != nil {
		d.Status = deploymentStatusFromModel(u.Status)
	} else {
		base.Status.DeepCopyInto(&d.Status)
	}
	if len(u.Annotations) > 0 || len(u.RemovedAnnotations) > 0 {
		if d.Annotations == nil {
			d.Annotations = make(map[string]string, len(u.Annotations))
		}
		for _, k := range u.RemovedAnnotations {
			delete(d.Annotations, k)
		}
		maps.Copy(d.Annotations, u.Annotations)
	}
	if u.Template != nil {
		t, err := wr.template(*u.Template)
		if err != nil {
			return nil, fmt.Errorf("deployment %s/%s: spec.%w", d.Namespace, d.Name, err)
		}
		d.Spec.Template = t
	}
	return d, nil
}

// adoptPatch is the body upstream sends to adopt an orphan (upstream ClaimReplicaSets).
func adoptPatch(ref model.OwnerReference, rsUID string) (json.RawMessage, error) {
	type meta struct {
		OwnerReferences []metav1.OwnerReference `json:"ownerReferences"`
		UID             string                  `json:"uid"`
	}
	return json.Marshal(struct {
		Metadata meta `json:"metadata"`
	}{meta{OwnerReferences: []metav1.OwnerReference{ownerRefFromModel(ref)}, UID: rsUID}})
}

// releasePatch is the body upstream sends to drop its owner reference,
// byte for byte (GenerateDeleteOwnerRefStrategicMergeBytes: uid first).
func releasePatch(ownerUID, rsUID string) (json.RawMessage, error) {
	type del struct {
		Patch string `json:"$patch"`
		UID   string `json:"uid"`
	}
	type meta struct {
		UID             string `json:"uid"`
		OwnerReferences []del  `json:"ownerReferences"`
	}
	return json.Marshal(struct {
		Metadata meta `json:"metadata"`
	}{meta{UID: rsUID, OwnerReferences: []del{{Patch: "delete", UID: ownerUID}}}})
}

// Event is an event as the conformance Output records it.
type Event struct {
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Object  string `json:"object"`
}
