package controller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/retry"
)

// StatefulSetSync is what one StatefulSet sync planned and did.
type StatefulSetSync struct {
	// Planned is false when the state could not be planned (the error says
	// why).
	Planned bool
	Output  appsv1.StatefulSetOutput
	Plan    statefulset.Plan
	// Writes are the fates of Output.Actions, one each, in order; empty in
	// shadow mode.
	Writes []StatefulSetWriteResult
}

// StatefulSetWriteResult is the fate of one write of a StatefulSet plan.
type StatefulSetWriteResult struct {
	// Write is the write as planned.
	Write appsv1.StatefulSetWrite
	// Outcome says whether the server accepted it (NotSent: the sync
	// stopped before it).
	Outcome appsv1.Outcome
	// Err is the server's error, or nil.
	Err error
	// ResourceVersion is the object's resourceVersion after an accepted
	// create, update or patch.
	ResourceVersion string
}

// Matched reports whether the server answered as the plan predicted: the
// write accepted, or rejected when the plan said it would be
// (StatefulSetWrite.Error or Invalid set). A write not sent matches
// nothing.
func (w StatefulSetWriteResult) Matched() bool {
	if w.Outcome == appsv1.NotSent {
		return false
	}
	rejected := w.Write.Error != "" || w.Write.Invalid != ""
	return (w.Outcome == appsv1.Accepted) != rejected
}

// SyncStatefulSet plans one sync of s with appsv1.SyncStatefulSet (the
// v1.36 default feature gates) and sends its writes through client (or,
// with opts.Shadow, prints them to opts.Out), then records on recorder (if
// not nil) the events upstream records.
//
// The writes are sent in the plan's order. A write the plan predicts the
// server rejects (a name already taken, an invalid status) is sent, and the
// sync goes on as upstream's does; the first write whose answer the plan did
// not predict (the caches the plan was made from were stale, or another
// writer got there first) stops the sync, with the warning event upstream
// records for a failed pod or claim write, and its error is returned: the
// caller syncs again, from fresher caches. Before the first adoption it
// re-reads the set from the server, as upstream does, and adopts nothing if
// the set is being deleted or was replaced. A status write rejected with 409
// is retried a few times on the set read again, as upstream does.
//
// The error is the first unpredicted answer, else the error the plan's
// sync ends with (a *statefulset.SyncError, or the rejection of a write
// the plan marked Invalid), else nil; a state that cannot be planned is an
// error too.
func SyncStatefulSet(ctx context.Context, client kubernetes.Interface, s appsv1.StatefulSetState, recorder record.EventRecorder, opts Options) (StatefulSetSync, error) {
	return syncStatefulSet(ctx, client, s, recorder, opts, nil)
}

// latestFunc reads the set again for a status write retried after a
// conflict; nil reads it from the server.
type latestFunc func(ctx context.Context, ns, name string) (*apps.StatefulSet, error)

func syncStatefulSet(ctx context.Context, client kubernetes.Interface, s appsv1.StatefulSetState, recorder record.EventRecorder, opts Options, latest latestFunc) (StatefulSetSync, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return StatefulSetSync{}, err
	}
	if s.StatefulSet == nil {
		return StatefulSetSync{}, fmt.Errorf("statefulset: %w", appsv1.ErrNil)
	}
	key := s.StatefulSet.Namespace + "/" + s.StatefulSet.Name
	out, p, err := appsv1.SyncStatefulSet(s)
	// A *statefulset.SyncError is the error upstream's sync ends with: the
	// plan holds the writes attempted before and after it (the status, the
	// history cleanup), which are sent; the error is returned after them.
	var syncErr *statefulset.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return StatefulSetSync{}, fmt.Errorf("plan statefulset %s: %w", key, err)
	}
	res := StatefulSetSync{Planned: true, Output: out, Plan: p}
	if opts.Shadow {
		printStatefulSetShadow(opts.Out, key, out.Actions, p.Notes)
		return res, nil
	}
	if latest == nil {
		latest = func(ctx context.Context, ns, name string) (*apps.StatefulSet, error) {
			return client.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		}
	}
	a := &ssApplier{client: client, set: s.StatefulSet, latest: latest}
	res.Writes = make([]StatefulSetWriteResult, len(out.Actions))
	for i, w := range out.Actions {
		res.Writes[i] = StatefulSetWriteResult{Write: w, Outcome: appsv1.NotSent}
	}
	done := len(out.Actions)
	var stopErr, invalidErr error
	for i, w := range out.Actions {
		r := &res.Writes[i]
		r.ResourceVersion, r.Err = a.send(ctx, w)
		switch {
		case r.Err == nil || ignoredStatefulSetError(w, r.Err):
			r.Outcome = appsv1.Accepted
		case apierrors.IsConflict(r.Err):
			r.Outcome = appsv1.Conflicted
		default:
			r.Outcome = appsv1.Failed
		}
		if r.Matched() {
			if r.Outcome != appsv1.Accepted && w.Invalid != "" && invalidErr == nil {
				invalidErr = r.Err
			}
			continue
		}
		done = i
		if r.Outcome == appsv1.Accepted {
			stopErr = fmt.Errorf("%s %s %s/%s was accepted, but the plan expected the server to reject it (%s): the caches were stale",
				w.Verb, w.Resource, w.Namespace, w.Name, strings.TrimSpace(w.Error+" "+w.Invalid))
		} else {
			stopErr = fmt.Errorf("%s %s %s/%s: %w", w.Verb, w.Resource, w.Namespace, w.Name, r.Err)
		}
		break
	}
	if recorder != nil {
		for _, e := range p.Events {
			if e.AfterWrites <= done {
				recorder.Event(s.StatefulSet, eventType(e.Type), e.Reason, e.Message)
			}
		}
		if done < len(out.Actions) && res.Writes[done].Outcome != appsv1.Accepted {
			recordFailedWrite(recorder, s.StatefulSet, out.Actions[done], res.Writes[done].Err)
		}
	}
	switch {
	case stopErr != nil:
		return res, stopErr
	case syncErr != nil:
		return res, syncErr
	case invalidErr != nil:
		return res, invalidErr
	}
	return res, nil
}

// ignoredStatefulSetError reports the errors upstream treats as success: a
// pod already gone when deleted, adopted or released, and a release the
// server finds invalid (the pod was replaced).
func ignoredStatefulSetError(w appsv1.StatefulSetWrite, err error) bool {
	if w.Resource != appsv1.ResourcePods {
		return false
	}
	switch w.Verb {
	case appsv1.VerbDelete:
		return apierrors.IsNotFound(err)
	case appsv1.VerbPatch:
		return apierrors.IsNotFound(err) || w.Kind == statefulset.ReleasePod && apierrors.IsInvalid(err)
	}
	return false
}

// recordFailedWrite records the warning upstream's pod control records for
// a pod or claim write the server rejected: "FailedCreate", "create Pod
// web-1 in StatefulSet web failed error: ...".
func recordFailedWrite(recorder record.EventRecorder, set *apps.StatefulSet, w appsv1.StatefulSetWrite, err error) {
	verb := strings.ToUpper(w.Verb[:1]) + w.Verb[1:]
	switch w.Resource {
	case appsv1.ResourcePods:
		if w.Verb == appsv1.VerbPatch {
			return
		}
		recorder.Event(set, core.EventTypeWarning, "Failed"+verb, fmt.Sprintf("%s Pod %s in StatefulSet %s failed error: %s", verb, w.Name, set.Name, err))
	case appsv1.ResourcePersistentVolumeClaims:
		_, ordinal := statefulset.ParseOrdinal(w.Name)
		pod := statefulset.PodName(set.Name, ordinal)
		if w.Verb == appsv1.VerbUpdate {
			// A claim's owner references are fixed on the way to a pod
			// write; upstream reports the pod's update as failed.
			recorder.Event(set, core.EventTypeWarning, "FailedUpdate", fmt.Sprintf("Update Pod %s in StatefulSet %s failed error: %s", pod, set.Name, err))
			return
		}
		recorder.Event(set, core.EventTypeWarning, "Failed"+verb, fmt.Sprintf("%s Claim %s for Pod %s in StatefulSet %s failed error: %s", verb, w.Name, pod, set.Name, err))
	}
}

// ssApplier sends the writes of one StatefulSet sync.
type ssApplier struct {
	client    kubernetes.Interface
	set       *apps.StatefulSet
	latest    latestFunc
	rechecked bool
}

// errBadWrite is wrapped by the error for a write whose object does not fit
// its verb and resource.
var errBadWrite = errors.New("malformed write")

// send performs one write and returns the resourceVersion the server
// answered with.
func (a *ssApplier) send(ctx context.Context, w appsv1.StatefulSetWrite) (string, error) {
	ns := w.Namespace
	switch w.Kind {
	case statefulset.AdoptControllerRevision, statefulset.AdoptPod:
		if err := a.recheck(ctx); err != nil {
			return "", err
		}
	}
	switch w.Resource + " " + w.Verb {
	case appsv1.ResourcePods + " " + appsv1.VerbCreate:
		return sendObject(w, "a *core.Pod", func(p *core.Pod) (string, error) {
			return versionOf(a.client.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{}))
		})
	case appsv1.ResourcePods + " " + appsv1.VerbUpdate:
		return sendObject(w, "a *core.Pod", func(p *core.Pod) (string, error) {
			return versionOf(a.client.CoreV1().Pods(ns).Update(ctx, p, metav1.UpdateOptions{}))
		})
	case appsv1.ResourcePods + " " + appsv1.VerbPatch:
		body, err := patchBody(w)
		if err != nil {
			return "", err
		}
		return versionOf(a.client.CoreV1().Pods(ns).Patch(ctx, w.Name, types.PatchType(w.PatchType), body, metav1.PatchOptions{}))
	case appsv1.ResourcePods + " " + appsv1.VerbDelete:
		// Upstream deletes by name, without preconditions.
		return "", a.client.CoreV1().Pods(ns).Delete(ctx, w.Name, metav1.DeleteOptions{})
	case appsv1.ResourcePersistentVolumeClaims + " " + appsv1.VerbCreate:
		return sendObject(w, "a *core.PersistentVolumeClaim", func(c *core.PersistentVolumeClaim) (string, error) {
			return versionOf(a.client.CoreV1().PersistentVolumeClaims(ns).Create(ctx, c, metav1.CreateOptions{}))
		})
	case appsv1.ResourcePersistentVolumeClaims + " " + appsv1.VerbUpdate:
		return sendObject(w, "a *core.PersistentVolumeClaim", func(c *core.PersistentVolumeClaim) (string, error) {
			return versionOf(a.client.CoreV1().PersistentVolumeClaims(ns).Update(ctx, c, metav1.UpdateOptions{}))
		})
	case appsv1.ResourceControllerRevisions + " " + appsv1.VerbCreate:
		return sendObject(w, "an *apps.ControllerRevision", func(r *apps.ControllerRevision) (string, error) {
			return versionOf(a.client.AppsV1().ControllerRevisions(ns).Create(ctx, r, metav1.CreateOptions{}))
		})
	case appsv1.ResourceControllerRevisions + " " + appsv1.VerbUpdate:
		return sendObject(w, "an *apps.ControllerRevision", func(r *apps.ControllerRevision) (string, error) {
			return versionOf(a.client.AppsV1().ControllerRevisions(ns).Update(ctx, r, metav1.UpdateOptions{}))
		})
	case appsv1.ResourceControllerRevisions + " " + appsv1.VerbPatch:
		body, err := patchBody(w)
		if err != nil {
			return "", err
		}
		return versionOf(a.client.AppsV1().ControllerRevisions(ns).Patch(ctx, w.Name, types.PatchType(w.PatchType), body, metav1.PatchOptions{}))
	case appsv1.ResourceControllerRevisions + " " + appsv1.VerbDelete:
		return "", a.client.AppsV1().ControllerRevisions(ns).Delete(ctx, w.Name, metav1.DeleteOptions{})
	case appsv1.ResourceStatefulSets + " " + appsv1.VerbUpdate:
		set, ok := w.Object.(*apps.StatefulSet)
		if !ok || w.Subresource != appsv1.SubresourceStatus {
			return "", fmt.Errorf("%w: update statefulsets wants the status subresource and an *apps.StatefulSet, got %q and %T", errBadWrite, w.Subresource, w.Object)
		}
		return a.updateStatus(ctx, set)
	}
	return "", fmt.Errorf("%w: cannot %s %s", errBadWrite, w.Verb, w.Resource)
}

// sendObject calls send with w's object, which must be the T its verb and
// resource want (want describes it in the error for anything else).
func sendObject[T any](w appsv1.StatefulSetWrite, want string, send func(T) (string, error)) (string, error) {
	obj, ok := w.Object.(T)
	if !ok {
		return "", fmt.Errorf("%w: %s %s wants %s, got %T", errBadWrite, w.Verb, w.Resource, want, w.Object)
	}
	return send(obj)
}

func patchBody(w appsv1.StatefulSetWrite) ([]byte, error) {
	body, ok := w.Object.(json.RawMessage)
	if !ok {
		return nil, fmt.Errorf("%w: patch wants a json.RawMessage body, got %T", errBadWrite, w.Object)
	}
	return body, nil
}

// recheck is upstream's check before adopting orphans: the set read from
// the server (not the cache) must be the same set and not being deleted.
// It reads once per sync.
func (a *ssApplier) recheck(ctx context.Context) error {
	if a.rechecked {
		return nil
	}
	fresh, err := a.client.AppsV1().StatefulSets(a.set.Namespace).Get(ctx, a.set.Name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("can't adopt: %w", err)
	}
	if fresh.UID != a.set.UID {
		return fmt.Errorf("can't adopt: StatefulSet %s/%s is gone: got uid %s, wanted %s", a.set.Namespace, a.set.Name, fresh.UID, a.set.UID)
	}
	if fresh.DeletionTimestamp != nil {
		return fmt.Errorf("can't adopt: StatefulSet %s/%s has just been deleted at %v", a.set.Namespace, a.set.Name, fresh.DeletionTimestamp)
	}
	a.rechecked = true
	return nil
}

// updateStatus writes the planned status; on a 409 it writes it again on
// the set read anew, a few times, as upstream's status updater does.
func (a *ssApplier) updateStatus(ctx context.Context, set *apps.StatefulSet) (string, error) {
	status := set.Status.DeepCopy()
	var version string
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		got, err := a.client.AppsV1().StatefulSets(set.Namespace).UpdateStatus(ctx, set, metav1.UpdateOptions{})
		if err == nil {
			version = got.ResourceVersion
			return nil
		}
		if fresh, ferr := a.latest(ctx, set.Namespace, set.Name); ferr == nil && fresh.UID == set.UID {
			set = fresh.DeepCopy()
			set.Status = *status.DeepCopy()
		}
		return err
	})
	return version, err
}

// printStatefulSetShadow prints the writes a StatefulSet sync would send,
// one per line, and, when there are none, why.
func printStatefulSetShadow(w io.Writer, key string, writes []appsv1.StatefulSetWrite, notes []statefulset.Reason) {
	for _, a := range writes {
		target := a.Resource
		if a.Subresource != "" {
			target += "/" + a.Subresource
		}
		line := fmt.Sprintf("statefulset %s: %s %s %s/%s", key, a.Verb, target, a.Namespace, a.Name)
		if msg := strings.TrimSpace(a.Error + " " + a.Invalid); msg != "" {
			line += " (the server rejects it: " + msg + ")"
		}
		if a.Reason.Code != "" {
			line += ": " + a.Reason.String()
		}
		fmt.Fprintln(w, line)
	}
	if len(writes) == 0 {
		var why []string
		for _, n := range notes {
			why = append(why, n.String())
		}
		fmt.Fprintf(w, "statefulset %s: no writes (%s)\n", key, strings.Join(why, "; "))
	}
}

// versionOf returns the resourceVersion of the object a write answered
// with.
func versionOf[T interface{ GetResourceVersion() string }](obj T, err error) (string, error) {
	if err != nil {
		return "", err
	}
	return obj.GetResourceVersion(), nil
}
