package appsv1

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// Outcome is what became of one write sent by [Apply].
type Outcome string

// The outcomes of a write.
const (
	// Accepted: the server applied the write. A delete or release of an
	// object already gone, which upstream ignores, counts as accepted (with
	// the server's error kept in [Write.Err]).
	Accepted Outcome = "accepted"
	// Conflicted: the server answered 409 Conflict (a stale
	// resourceVersion).
	Conflicted Outcome = "conflict"
	// Failed: any other error.
	Failed Outcome = "failed"
	// NotSent: the sync stopped before this write, as upstream's does.
	NotSent Outcome = "notSent"
)

// Write is the fate of one action of an [Output].
type Write struct {
	// Action is the write as planned.
	Action Action
	// Outcome says whether the server accepted it.
	Outcome Outcome
	// Err is the server's error, or nil.
	Err error
	// ResourceVersion is the object's resourceVersion after an accepted
	// create, update or patch.
	ResourceVersion string
}

// Predicted is the outcome the plan predicts for the write: Conflicted for
// an action flagged [plan.Action.Conflict], Accepted otherwise.
func (w Write) Predicted() Outcome {
	if w.Action.Conflict {
		return Conflicted
	}
	return Accepted
}

// Result is what [Apply] did: one [Write] per action of the Output, in order.
type Result struct {
	Writes []Write
	// StoppedAt is the index of the write whose error ended the sync (the
	// writes after it were not sent), or -1.
	StoppedAt int
}

// Accepted counts the accepted writes.
func (r Result) Accepted() int {
	n := 0
	for _, w := range r.Writes {
		if w.Outcome == Accepted {
			n++
		}
	}
	return n
}

// AcceptedPrefix returns how many writes from the start were accepted
// before the first one that was not: events recorded after those writes are
// the ones upstream records ([plan.Event.AfterWrites] at most it).
func (r Result) AcceptedPrefix() int {
	for i, w := range r.Writes {
		if w.Outcome != Accepted {
			return i
		}
	}
	return len(r.Writes)
}

// ApplyOptions tune [Apply].
type ApplyOptions struct {
	// SendAll sends every write, also after one was rejected, instead of
	// stopping where upstream's sync stops. It exists to check a plan's
	// conflict predictions against a real server ([Write.Predicted]).
	SendAll bool
}

// ErrBadAction is matched (errors.Is) by the error Apply returns for an
// action whose Object does not fit its verb and resource.
var ErrBadAction = errors.New("malformed action")

// Apply sends the writes of out to the API server through client, as the
// upstream Deployment controller (Kubernetes v1.36) sends them:
//
//   - create replicasets: Create;
//   - update replicasets: Update carrying the resourceVersion read, so a
//     write derived from a replaced version is rejected with 409. A write
//     the plan derives from the answer to an earlier write of the same sync
//     (not flagged [Action.Conflict], after an accepted write of the same
//     ReplicaSet) carries the resourceVersion of that answer, as upstream
//     goes on with the object the server returned;
//   - update deployments, subresource status: UpdateStatus; without
//     subresource: Update (the rollback path). Both carry the
//     resourceVersion read: upstream derives every Deployment write of a
//     sync from the cached Deployment;
//   - patch replicasets: a strategic-merge patch whose body names the
//     ReplicaSet's UID (adoption and release);
//   - delete replicasets: Delete without preconditions (upstream's history
//     cleanup sends empty DeleteOptions).
//
// It stops where upstream's sync stops: after the first error, except that
// the adoptions and releases at the start of a sync are all attempted
// before their errors end it (upstream's ClaimReplicaSets aggregates them),
// a missing object is ignored for deletes, adoptions and releases, and an
// invalid release (the ReplicaSet was replaced) is ignored, as upstream's
// ReleaseReplicaSet does.
//
// The returned error is the one the sync ends with (nil if none), or an
// [ErrBadAction] error for an action Apply cannot send. The Result holds
// every write either way.
func Apply(ctx context.Context, client kubernetes.Interface, out Output, opts ApplyOptions) (Result, error) {
	res := Result{Writes: make([]Write, len(out.Actions)), StoppedAt: -1}
	for i, a := range out.Actions {
		res.Writes[i] = Write{Action: a, Outcome: NotSent}
	}
	latest := map[string]string{} // resource/ns/name -> resourceVersion after an accepted write
	var claimErrs []error
	for i, a := range out.Actions {
		rv, err := send(ctx, client, a, latest)
		if errors.Is(err, ErrBadAction) {
			res.StoppedAt = i
			return res, fmt.Errorf("action %d (%s %s %s/%s): %w", i, a.Verb, a.Resource, a.Namespace, a.Name, err)
		}
		w := &res.Writes[i]
		w.Err = err
		switch {
		case err == nil || ignored(a, err):
			w.Outcome, w.ResourceVersion = Accepted, rv
			if err == nil && rv != "" {
				latest[objectKey(a)] = rv
			}
			err = nil
		case apierrors.IsConflict(err):
			w.Outcome = Conflicted
		default:
			w.Outcome = Failed
		}
		if opts.SendAll {
			continue
		}
		if a.Verb == VerbPatch {
			if err != nil {
				claimErrs = append(claimErrs, err)
			}
			if i+1 < len(out.Actions) && out.Actions[i+1].Verb == VerbPatch {
				continue // the rest of the claim phase is still attempted
			}
			err = joined(claimErrs)
		}
		if err != nil {
			res.StoppedAt = i
			return res, err
		}
	}
	return res, nil
}

// joined returns the one error, or all of them joined.
func joined(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

func objectKey(a Action) string { return a.Resource + "/" + a.Namespace + "/" + a.Name }

// ignored reports the errors upstream treats as success for a write.
func ignored(a Action, err error) bool {
	switch {
	case a.Verb == VerbDelete || a.Verb == VerbPatch:
		if apierrors.IsNotFound(err) {
			return true
		}
		return a.Kind == plan.ReleaseReplicaSet && apierrors.IsInvalid(err)
	}
	return false
}

// send performs one write and returns the resourceVersion the server
// answered with.
func send(ctx context.Context, client kubernetes.Interface, a Action, latest map[string]string) (string, error) {
	rss := client.AppsV1().ReplicaSets(a.Namespace)
	switch {
	case a.Resource == ResourceReplicaSets && a.Verb == VerbCreate:
		rs, ok := a.Object.(*apps.ReplicaSet)
		if !ok || rs == nil {
			return "", fmt.Errorf("%w: create wants a *apps.ReplicaSet, got %T", ErrBadAction, a.Object)
		}
		got, err := rss.Create(ctx, rs, metav1.CreateOptions{})
		return rv(got, err)
	case a.Resource == ResourceReplicaSets && a.Verb == VerbUpdate:
		rs, ok := a.Object.(*apps.ReplicaSet)
		if !ok || rs == nil {
			return "", fmt.Errorf("%w: update wants a *apps.ReplicaSet, got %T", ErrBadAction, a.Object)
		}
		if v, ok := latest[objectKey(a)]; ok && !a.Conflict {
			rs = rs.DeepCopy()
			rs.ResourceVersion = v
		}
		got, err := rss.Update(ctx, rs, metav1.UpdateOptions{})
		return rv(got, err)
	case a.Resource == ResourceReplicaSets && a.Verb == VerbPatch:
		body, ok := a.Object.(json.RawMessage)
		if !ok {
			return "", fmt.Errorf("%w: patch wants a json.RawMessage body, got %T", ErrBadAction, a.Object)
		}
		got, err := rss.Patch(ctx, a.Name, types.StrategicMergePatchType, body, metav1.PatchOptions{})
		return rv(got, err)
	case a.Resource == ResourceReplicaSets && a.Verb == VerbDelete:
		return "", rss.Delete(ctx, a.Name, metav1.DeleteOptions{})
	case a.Resource == ResourceDeployments && a.Verb == VerbUpdate:
		d, ok := a.Object.(*apps.Deployment)
		if !ok || d == nil {
			return "", fmt.Errorf("%w: update wants a *apps.Deployment, got %T", ErrBadAction, a.Object)
		}
		ds := client.AppsV1().Deployments(a.Namespace)
		var got *apps.Deployment
		var err error
		switch a.Subresource {
		case SubresourceStatus:
			got, err = ds.UpdateStatus(ctx, d, metav1.UpdateOptions{})
		case "":
			got, err = ds.Update(ctx, d, metav1.UpdateOptions{})
		default:
			return "", fmt.Errorf("%w: unknown subresource %q", ErrBadAction, a.Subresource)
		}
		return rv(got, err)
	}
	return "", fmt.Errorf("%w: cannot %s %s", ErrBadAction, a.Verb, a.Resource)
}

func rv[T interface{ GetResourceVersion() string }](obj T, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return obj.GetResourceVersion(), nil
}
