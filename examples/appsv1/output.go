package appsv1

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

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
//     object read with the new spec.replicas, spec.minReadySeconds and
//     annotations;
//   - update deployments: the *apps.Deployment to send, a copy of the
//     object read with the new annotations and status (the status
//     subresource applies both) and, for the rollback's full update, the
//     new spec.template (the ReplicaSet's it rolls back to, without the
//     pod-template-hash label);
//   - patch replicasets: the strategic-merge patch body as json.RawMessage
//     (adoption or release, with the ReplicaSet's UID as precondition);
//   - delete replicasets: nil.
//
// The objects share what they do not change with the objects of the
// [State] they derive from, and the maps the plan sets with the
// [plan.Plan]: an update's copy is shallow (its labels, owner references,
// selector and template are the object read's, and so are its annotations
// and a Deployment's status conditions when the plan keeps them); a
// template taken from the Deployment or a ReplicaSet shares that
// template's pod spec; and a map the plan sets (annotations that differ
// from those read; a created ReplicaSet's labels, annotations, selector
// labels and expression values; a written template's labels and
// annotations) is the map of the plan's object, not a copy; a created
// ReplicaSet's labels, selector labels and template labels may be one map,
// as in the plan. The rest of what a write changes (replica counts,
// conditions that differ, the counts of a Deployment's status, a created
// ReplicaSet's metadata, owner references and selector) is newly
// allocated, and nothing here modifies an object of the State or the Plan.
// Treat all three as read-only, as objects of an informer's cache are:
// DeepCopy an object before changing it.
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

// ToOutput converts p, planned over s, to apps/v1 writes. Updates derive from
// the objects in s (a ReplicaSet created earlier in the plan for a later
// update of it), so every field the planner does not manage is sent back as
// read. A template the plan writes is taken from the object of s it was
// converted from (the Deployment's for a new ReplicaSet, a ReplicaSet's for
// a rollback) and decoded from its Spec, as [TemplateFromModel] does, only
// when no object of s has it. It fails when the plan writes an object s
// does not hold, or a model template cannot be rebuilt. The Output shares
// unchanged fields with the objects of s, and the maps the plan sets with p
// (see [Action]).
func ToOutput(s State, p plan.Plan) (Output, error) {
	return toOutput(s, nil, p)
}

// toOutput is ToOutput with in, s converted (nil: converted on demand).
func toOutput(s State, in *plan.State, p plan.Plan) (Output, error) {
	wr := &writer{s: s, actions: make([]Action, 0, len(p.Actions))}
	if in != nil {
		wr.in, wr.hasIn = *in, true
	}
	for i := range p.Actions {
		a := &p.Actions[i]
		wr.actions = wr.actions[:i+1]
		if err := wr.toWrite(a, &wr.actions[i]); err != nil {
			return Output{}, fmt.Errorf("action %d (%s %s/%s): %w", i, a.Kind, a.Namespace, a.Name, err)
		}
	}
	out := Output{Actions: wr.actions, Events: make([]Event, 0, len(p.Events))}
	for _, e := range p.Events {
		out.Events = append(out.Events, Event{Type: e.Type, Reason: e.Reason, Message: e.Message, Object: e.Object})
	}
	if p.Err != nil {
		out.Error = p.Err.Error()
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

// toWrite sets *w to the write of a.
func (wr *writer) toWrite(a *plan.Action, w *Action) error {
	s := wr.s
	*w = Action{Namespace: a.Namespace, Name: a.Name, Kind: a.Kind, Conflict: a.Conflict, Reason: a.Reason}
	switch a.Kind {
	case plan.CreateReplicaSet:
		if a.ReplicaSet == nil {
			return fmt.Errorf("no ReplicaSet in the action")
		}
		tmpl, err := wr.template(a.ReplicaSet.Spec.Template)
		if err != nil {
			return fmt.Errorf("replicaset %s/%s: spec.%w", a.ReplicaSet.Namespace, a.ReplicaSet.Name, err)
		}
		box := new(createdBox)
		rs := &box.rs
		replicaSetFromModel(rs, a.ReplicaSet, tmpl, &box.room)
		rs.Status = apps.ReplicaSetStatus{}
		w.Verb, w.Resource, w.Object = VerbCreate, ResourceReplicaSets, rs
	case plan.UpdateReplicaSet:
		base := wr.base(a.Namespace, a.Name)
		if base == nil {
			return fmt.Errorf("the state holds no ReplicaSet %s/%s", a.Namespace, a.Name)
		}
		if a.ReplicaSet == nil {
			return fmt.Errorf("no ReplicaSet in the action")
		}
		box := &replicaSetBox{rs: *base} // shallow: see Action
		rs := &box.rs
		rs.Spec.Replicas = box.replicas.set(a.ReplicaSet.Spec.Replicas)
		rs.Spec.MinReadySeconds = a.ReplicaSet.Spec.MinReadySeconds
		rs.Annotations = updatedMap(base.Annotations, a.ReplicaSet.Annotations, nil)
		w.Verb, w.Resource, w.Object = VerbUpdate, ResourceReplicaSets, rs
	case plan.DeleteReplicaSet:
		w.Verb, w.Resource = VerbDelete, ResourceReplicaSets
	case plan.AdoptReplicaSet:
		if a.OwnerReference == nil {
			return fmt.Errorf("no owner reference in the action")
		}
		body, err := adoptPatch(*a.OwnerReference, a.UID)
		if err != nil {
			return err
		}
		w.Verb, w.Resource, w.Object, w.PatchType = VerbPatch, ResourceReplicaSets, body, StrategicMergePatch
	case plan.ReleaseReplicaSet:
		if a.OwnerReference == nil {
			return fmt.Errorf("no owner reference in the action")
		}
		body, err := releasePatch(a.OwnerReference.UID, a.UID)
		if err != nil {
			return err
		}
		w.Verb, w.Resource, w.Object, w.PatchType = VerbPatch, ResourceReplicaSets, body, StrategicMergePatch
	case plan.UpdateDeploymentStatus, plan.UpdateDeployment:
		if s.Deployment == nil || s.Deployment.Namespace != a.Namespace || s.Deployment.Name != a.Name {
			return fmt.Errorf("the state's Deployment is not %s/%s", a.Namespace, a.Name)
		}
		if a.Deployment == nil {
			return fmt.Errorf("no Deployment in the action")
		}
		d, err := wr.deploymentWrite(a.Deployment, a.Kind == plan.UpdateDeployment)
		if err != nil {
			return err
		}
		w.Verb, w.Resource, w.Object = VerbUpdate, ResourceDeployments, d
		if a.Kind == plan.UpdateDeploymentStatus {
			w.Subresource = SubresourceStatus
		}
	default:
		return fmt.Errorf("unknown action kind %q", a.Kind)
	}
	return nil
}

// deploymentWrite derives the Deployment sent from the one read: the
// planner's annotations and status and, for a full update, its template.
func (wr *writer) deploymentWrite(m *model.Deployment, withTemplate bool) (*apps.Deployment, error) {
	orig := wr.s.Deployment
	var box *deploymentBox
	conditions := orig.Status.Conditions
	if n := len(m.Status.Conditions); !sameDeploymentConditions(m.Status.Conditions, conditions) {
		var room []apps.DeploymentCondition
		if n > 0 && n <= len(deploymentConditionsBox{}.conditions) {
			b := &deploymentConditionsBox{deploymentBox: deploymentBox{d: *orig}} // shallow: see Action
			box, room = &b.deploymentBox, b.conditions[:0:n]
		}
		conditions = conditionsFromModel(m.Status.Conditions, room)
	}
	if box == nil {
		box = &deploymentBox{d: *orig} // shallow: see Action
	}
	d := &box.d
	var conv map[string]string
	if wr.hasIn && wr.in.Deployment != nil {
		conv = wr.in.Deployment.Annotations
	}
	d.Annotations = updatedMap(orig.Annotations, m.Annotations, conv)
	d.Status = deploymentStatusFromModel(&m.Status, conditions, &box.counts)
	if withTemplate {
		was, err := wr.deploymentTemplate()
		if err != nil {
			return nil, err
		}
		if !sameTemplate(was, m.Spec.Template) {
			t, err := wr.template(m.Spec.Template)
			if err != nil {
				return nil, err
			}
			d.Spec.Template = t
		}
	}
	return d, nil
}

// replicaSetBox, createdBox and deploymentBox hold a written object and
// what its pointers point to, in one allocation.
type replicaSetBox struct {
	rs       apps.ReplicaSet
	replicas int32Slot
}

type createdBox struct {
	rs   apps.ReplicaSet
	room objectRoom
}

type deploymentBox struct {
	d      apps.Deployment
	counts statusCounts
}

// deploymentConditionsBox is a deploymentBox with room for the status
// conditions a write changes (a Deployment has at most three; one or two
// are the rule).
type deploymentConditionsBox struct {
	deploymentBox
	conditions [2]apps.DeploymentCondition
}

func sameTemplate(a, b model.PodTemplate) bool {
	return a.Spec == b.Spec && maps.Equal(a.Labels, b.Labels) && maps.Equal(a.Annotations, b.Annotations)
}

// updatedMap returns was when now has the same content (keeping the
// difference between an absent and an empty map as read), else now, the
// plan's map (see Action). conv, when not nil, is was converted for the
// planner: when now is that very map (the planner kept it), it has was's
// content without comparing them.
func updatedMap(was, now, conv map[string]string) map[string]string {
	if now != nil && reflect.ValueOf(now).UnsafePointer() == reflect.ValueOf(conv).UnsafePointer() {
		return was
	}
	if maps.Equal(was, now) {
		return was
	}
	return now
}

// adoptPatch is the body upstream sends to adopt an orphan (upstream ClaimReplicaSets).
func adoptPatch(ref model.OwnerReference, rsUID string) (json.RawMessage, error) {
	type meta struct {
		OwnerReferences []metav1.OwnerReference `json:"ownerReferences"`
		UID             string                  `json:"uid"`
	}
	return json.Marshal(struct {
		Metadata meta `json:"metadata"`
	}{meta{OwnerReferences: []metav1.OwnerReference{ownerRefFromModel(ref, nil, nil)}, UID: rsUID}})
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
