package controller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
)

// DaemonSetController syncs DaemonSets with daemonset.Sync through the
// apps/v1 adapter (appsv1.SyncDaemonSet) and sends the planned writes in
// order, stopping at the first error, as upstream's DaemonSet controller
// (Kubernetes v1.36) does.
//
// It reads four informers (DaemonSets, Pods, Nodes, ControllerRevisions)
// and routes their events as upstream's handlers do: a pod event wakes
// its controlling DaemonSet (an orphan wakes the DaemonSets whose
// selector matches it), a revision event likewise, and a node added, or
// updated in its labels or taints, goes through a second queue whose
// worker wakes the DaemonSets for which the node now needs a pod, must
// lose one, or has one while the DaemonSet counts misscheduled pods.
//
// Like upstream it keeps expectations (after creating or deleting pods
// for a DaemonSet it does not sync it again until its pod informer has
// seen those creates and deletes) and, as the StaleControllerConsistency
// feature of v1.36 does, waits until its pod and DaemonSet informers have
// caught up with the resourceVersions of its own pod and status writes.
// One difference: while expectations are pending upstream still writes the
// status (without raising observedGeneration); this controller waits for
// the pod events that satisfy them, which sync the DaemonSet again.
type DaemonSetController struct {
	client     kubernetes.Interface
	dsLister   appslisters.DaemonSetLister
	podLister  corelisters.PodLister
	nodeLister corelisters.NodeLister
	crLister   appslisters.ControllerRevisionLister
	w          *worker // DaemonSet keys
	nodes      *worker // node names (upstream's daemonset-node-updates queue)
	recorder   record.EventRecorder
	opts       Options
	stats      stats
	exp        dsExpectations
	barrier    *writeBarrier
}

// NewDaemonSetController registers the controller's handlers on the
// factory's DaemonSet, Pod, Node and ControllerRevision informers.
// recorder receives the events upstream records as daemonset-controller
// (SuccessfulCreate, SuccessfulDelete, FailedDaemonPod ...); it may be nil.
func NewDaemonSetController(client kubernetes.Interface, factory informers.SharedInformerFactory, recorder record.EventRecorder, opts Options) (*DaemonSetController, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	dsi := factory.Apps().V1().DaemonSets()
	pi := factory.Core().V1().Pods()
	ni := factory.Core().V1().Nodes()
	cri := factory.Apps().V1().ControllerRevisions()
	c := &DaemonSetController{
		client: client, dsLister: dsi.Lister(), podLister: pi.Lister(), nodeLister: ni.Lister(), crLister: cri.Lister(),
		recorder: recorder, opts: opts,
		exp: dsExpectations{m: map[string]*dsExpectation{}},
		barrier: newWriteBarrier(map[string]cache.Store{
			"pods":       pi.Informer().GetStore(),
			"daemonsets": dsi.Informer().GetStore(),
		}),
	}
	synced := []cache.InformerSynced{dsi.Informer().HasSynced, pi.Informer().HasSynced, ni.Informer().HasSynced, cri.Informer().HasSynced}
	c.w = newWorker("daemonset", c.sync, synced, opts.Workers, opts.Out, opts.Gate)
	c.nodes = newWorker("daemonset-node-updates", c.syncNode, synced, opts.Workers, opts.Out, opts.Gate)
	handlers := []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandlerFuncs
	}{
		{dsi.Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc:    c.w.addObject,
			UpdateFunc: c.updateDaemonSet,
			DeleteFunc: c.deleteDaemonSet,
		}},
		{pi.Informer(), cache.ResourceEventHandlerFuncs{AddFunc: c.addPod, UpdateFunc: c.updatePod, DeleteFunc: c.deletePod}},
		{cri.Informer(), cache.ResourceEventHandlerFuncs{AddFunc: c.addRevision, UpdateFunc: c.updateRevision, DeleteFunc: c.deleteRevision}},
		{ni.Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				if n, ok := obj.(*core.Node); ok {
					c.nodes.add(n.Name)
				}
			},
			UpdateFunc: func(old, cur any) {
				o, ok1 := old.(*core.Node)
				n, ok2 := cur.(*core.Node)
				if ok1 && ok2 && nodeChangeMatters(o, n) {
					c.nodes.add(n.Name)
				}
			},
		}},
	}
	for _, h := range handlers {
		if _, err := h.inf.AddEventHandler(h.h); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Run waits for the caches and syncs until ctx ends.
func (c *DaemonSetController) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { c.nodes.run(ctx) })
	c.w.run(ctx)
	wg.Wait()
}

// Stats returns the write counts so far.
func (c *DaemonSetController) Stats() Stats { return c.stats.get() }

func (c *DaemonSetController) updateDaemonSet(old, cur any) {
	o, ok1 := old.(*apps.DaemonSet)
	n, ok2 := cur.(*apps.DaemonSet)
	if ok1 && ok2 && o.UID != n.UID {
		// A DaemonSet deleted and recreated under the same name between
		// two watch events: forget what was expected of the old one.
		c.deleteDaemonSet(cache.DeletedFinalStateUnknown{Key: o.Namespace + "/" + o.Name, Obj: o})
	}
	c.w.addObject(cur)
}

func (c *DaemonSetController) deleteDaemonSet(obj any) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.exp.forget(key)
	c.barrier.forget(key)
	c.w.add(key)
}

// resolve returns the DaemonSet a controller reference names, if the
// cache holds it with that UID.
func (c *DaemonSetController) resolve(ns string, ref *metav1.OwnerReference) *apps.DaemonSet {
	if ref == nil || ref.Kind != "DaemonSet" {
		return nil
	}
	ds, err := c.dsLister.DaemonSets(ns).Get(ref.Name)
	if err != nil || ds.UID != ref.UID {
		return nil
	}
	return ds
}

// selecting returns the DaemonSets of namespace ns whose selector matches
// labels set (upstream GetPodDaemonSets and GetHistoryDaemonSets).
func (c *DaemonSetController) selecting(ns string, set map[string]string) []*apps.DaemonSet {
	dss, err := c.dsLister.DaemonSets(ns).List(labels.Everything())
	if err != nil {
		return nil
	}
	var out []*apps.DaemonSet
	for _, ds := range dss {
		sel, err := metav1.LabelSelectorAsSelector(ds.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(set)) {
			continue
		}
		out = append(out, ds)
	}
	return out
}

func (c *DaemonSetController) enqueue(dss ...*apps.DaemonSet) {
	for _, ds := range dss {
		c.w.add(ds.Namespace + "/" + ds.Name)
	}
}

func (c *DaemonSetController) enqueueOne(ds *apps.DaemonSet) { c.enqueue(ds) }

func (c *DaemonSetController) addPod(obj any) {
	p, ok := obj.(*core.Pod)
	if !ok {
		return
	}
	if p.DeletionTimestamp != nil {
		// Seen for the first time already being deleted (a restart): a
		// deletion, never a creation observed.
		c.deletePod(p)
		return
	}
	if ref := metav1.GetControllerOf(p); ref != nil {
		if ds := c.resolve(p.Namespace, ref); ds != nil {
			c.exp.observe(ds.Namespace+"/"+ds.Name, true)
			c.enqueue(ds)
		}
		return
	}
	c.enqueue(c.selecting(p.Namespace, p.Labels)...)
}

func (c *DaemonSetController) updatePod(old, cur any) {
	o, ok1 := old.(*core.Pod)
	p, ok2 := cur.(*core.Pod)
	if !ok1 || !ok2 || o.ResourceVersion == p.ResourceVersion {
		return
	}
	if p.DeletionTimestamp != nil {
		// A graceful deletion has begun: the DaemonSet may replace the
		// pod now, without waiting for it to be gone.
		c.deletePod(p)
		return
	}
	// A pod that just became ready is available minReadySeconds later:
	// sync then (with upstream's extra second against clock skew).
	ds := wakeOwnersOfUpdate(o, p, c.resolve, c.enqueueOne, func() { c.enqueue(c.selecting(p.Namespace, p.Labels)...) })
	if ds != nil && !podReady(o) && podReady(p) && ds.Spec.MinReadySeconds > 0 {
		c.w.queue.AddAfter(ds.Namespace+"/"+ds.Name, time.Duration(ds.Spec.MinReadySeconds)*time.Second+time.Second)
	}
}

func (c *DaemonSetController) deletePod(obj any) {
	if ts, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = ts.Obj
	}
	p, ok := obj.(*core.Pod)
	if !ok {
		return
	}
	ds := c.resolve(p.Namespace, metav1.GetControllerOf(p))
	if ds == nil {
		return // nobody waits for an orphan's deletion
	}
	c.exp.observe(ds.Namespace+"/"+ds.Name, false)
	c.enqueue(ds)
}

func (c *DaemonSetController) addRevision(obj any) {
	r, ok := obj.(*apps.ControllerRevision)
	if !ok {
		return
	}
	if r.DeletionTimestamp != nil {
		c.deleteRevision(r)
		return
	}
	if ref := metav1.GetControllerOf(r); ref != nil {
		// Upstream only resolves the owner of a revision it sees
		// created: the DaemonSet that created it needs no wake-up.
		return
	}
	c.enqueue(c.selecting(r.Namespace, r.Labels)...)
}

func (c *DaemonSetController) updateRevision(old, cur any) {
	o, ok1 := old.(*apps.ControllerRevision)
	r, ok2 := cur.(*apps.ControllerRevision)
	if !ok1 || !ok2 || o.ResourceVersion == r.ResourceVersion {
		return
	}
	wakeOwnersOfUpdate(o, r, c.resolve, c.enqueueOne, func() { c.enqueue(c.selecting(r.Namespace, r.Labels)...) })
}

func (c *DaemonSetController) deleteRevision(obj any) {
	if ts, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = ts.Obj
	}
	r, ok := obj.(*apps.ControllerRevision)
	if !ok {
		return
	}
	if ds := c.resolve(r.Namespace, metav1.GetControllerOf(r)); ds != nil {
		c.enqueue(ds)
	}
}

// nodeChangeMatters reports a node update upstream does not ignore: one
// that changes the labels or the taints, the only parts of a node the
// should-run predicate reads.
func nodeChangeMatters(old, cur *core.Node) bool {
	return !equality.Semantic.DeepEqual(old.Labels, cur.Labels) || !equality.Semantic.DeepEqual(old.Spec.Taints, cur.Spec.Taints)
}

// syncNode is upstream syncNodeUpdate: it wakes every DaemonSet for which
// the node should run a pod and has none of it, should not keep the pods
// it has, or has one while the DaemonSet counts misscheduled pods (whose
// count the node's change may correct). Pods count as on the node by
// spec.nodeName.
func (c *DaemonSetController) syncNode(_ context.Context, name string) error {
	node, err := c.nodeLister.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	mnode, err := appsv1.NodeToModel(node)
	if err != nil {
		return err
	}
	dss, err := c.dsLister.List(labels.Everything())
	if err != nil {
		return err
	}
	pods, err := c.podLister.List(labels.Everything())
	if err != nil {
		return err
	}
	scheduled := map[string]bool{}
	for _, p := range pods {
		if p.Spec.NodeName != name {
			continue
		}
		if ref := metav1.GetControllerOf(p); ref != nil && ref.Kind == "DaemonSet" {
			scheduled[p.Namespace+"/"+ref.Name] = true
		}
	}
	for _, ds := range dss {
		mds, err := appsv1.DaemonSetToModel(ds)
		if err != nil {
			continue
		}
		pl := daemonset.NodeShouldRunDaemonPod(mnode, mds)
		key := ds.Namespace + "/" + ds.Name
		has := scheduled[key]
		if (pl.ShouldRun && !has) || (!pl.ShouldContinueRunning && has) || (has && ds.Status.NumberMisscheduled > 0) {
			c.w.add(key)
		}
	}
	return nil
}

func (c *DaemonSetController) sync(ctx context.Context, key string) error {
	// Reads older than this controller's own writes would plan them
	// again: setToSync waits for the informers (a rate-limited retry, as
	// upstream).
	ds, err := setToSync(key, c.barrier, func(ns, name string) (*apps.DaemonSet, error) {
		return c.dsLister.DaemonSets(ns).Get(name)
	}, func() { c.exp.forget(key) })
	if ds == nil {
		return err
	}
	if !c.exp.satisfied(key) {
		return nil
	}
	s, err := c.state(ds)
	if err != nil {
		return err
	}
	res, err := c.syncState(ctx, key, s)
	c.stats.addSync(res.Planned, res.Result)
	if err != nil {
		return err
	}
	if res.Plan.Requeue.Kind == plan.RequeueAfter {
		c.w.queue.AddAfter(key, res.Plan.Requeue.After)
	}
	return nil
}

// state lists what one sync of ds reads from the caches: every node, the
// pods and ControllerRevisions of its namespace.
func (c *DaemonSetController) state(ds *apps.DaemonSet) (appsv1.DaemonSetState, error) {
	s := appsv1.DaemonSetState{Now: c.opts.Now(), DaemonSet: ds}
	var err error
	if s.Nodes, err = c.nodeLister.List(labels.Everything()); err != nil {
		return s, err
	}
	if s.Pods, err = c.podLister.Pods(ds.Namespace).List(labels.Everything()); err != nil {
		return s, err
	}
	if s.ControllerRevisions, err = c.crLister.ControllerRevisions(ds.Namespace).List(labels.Everything()); err != nil {
		return s, err
	}
	return s, nil
}

// syncState plans and applies one sync of s, with the expectations and
// the writeBarrier records around the writes.
func (c *DaemonSetController) syncState(ctx context.Context, key string, s appsv1.DaemonSetState) (DaemonSetSync, error) {
	res, syncErr, err := planDaemonSet(s)
	if err != nil {
		return res, err
	}
	if c.opts.Shadow {
		printShadow(c.opts.Out, "daemonset", key, res.Output.Actions)
		return res, nil
	}
	c.exp.expect(key, res.Plan.Count(daemonset.CreatePod), res.Plan.Count(daemonset.DeletePod))
	res.Result, err = applyDaemonSet(ctx, c.client, res.Output)
	for _, w := range res.Result.Writes {
		switch {
		case w.Action.Kind == plan.ActionKind(daemonset.CreatePod) && (w.Outcome != appsv1.Accepted || w.Err != nil):
			c.exp.lower(key, true)
		case w.Action.Kind == plan.ActionKind(daemonset.DeletePod) && (w.Outcome != appsv1.Accepted || w.Err != nil):
			// Not sent, failed, or the pod was already gone: no event
			// of this delete is coming.
			c.exp.lower(key, false)
		case w.Outcome == appsv1.Accepted && w.ResourceVersion != "" &&
			(w.Action.Resource == "pods" && w.Action.Verb != appsv1.VerbDelete || w.Action.Resource == "daemonsets"):
			c.barrier.wrote(key, s.DaemonSet.UID, w.Action.Resource, w.ResourceVersion)
		}
	}
	recordDaemonSetEvents(c.recorder, s.DaemonSet, res)
	if err != nil {
		return res, err
	}
	if syncErr != nil {
		return res, syncErr
	}
	return res, nil
}

// DaemonSetSync is what one DaemonSet sync planned and did.
type DaemonSetSync struct {
	// Planned is false when the state could not be planned (the error says
	// why).
	Planned bool
	// Output is the plan rendered as apps/v1 writes (created pods with
	// generateName).
	Output appsv1.Output
	Plan   daemonset.Plan
	// Result is what the server answered, one write per action of Output;
	// empty in shadow mode. The Action.Object of an accepted pod create is
	// the pod the server returned, named from generateName.
	Result appsv1.Result
}

// planDaemonSet plans s through the apps/v1 adapter. The plan's own error
// (a hash collision, a node gone during a surge update) is returned apart:
// the writes before it are still sent.
func planDaemonSet(s appsv1.DaemonSetState) (DaemonSetSync, *daemonset.SyncError, error) {
	out, p, err := appsv1.SyncDaemonSet(s)
	var syncErr *daemonset.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return DaemonSetSync{}, nil, fmt.Errorf("plan %s/%s: %w", s.DaemonSet.Namespace, s.DaemonSet.Name, err)
	}
	return DaemonSetSync{Planned: true, Output: out, Plan: p}, syncErr, nil
}

// SyncDaemonSet plans one sync of s and sends its writes through client
// (or, with opts.Shadow, prints them to opts.Out), then records on recorder
// (if not nil) the events upstream records for the writes the server
// accepted. It keeps no expectations: a caller syncing again must read
// its own writes first. The error is a rejected write, the plan's own
// error (a *daemonset.SyncError, after the writes planned before it), or
// a state that cannot be planned.
func SyncDaemonSet(ctx context.Context, client kubernetes.Interface, s appsv1.DaemonSetState, recorder record.EventRecorder, opts Options) (DaemonSetSync, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return DaemonSetSync{}, err
	}
	res, syncErr, err := planDaemonSet(s)
	if err != nil {
		return res, err
	}
	key := s.DaemonSet.Namespace + "/" + s.DaemonSet.Name
	if opts.Shadow {
		printShadow(opts.Out, "daemonset", key, res.Output.Actions)
		return res, nil
	}
	res.Result, err = applyDaemonSet(ctx, client, res.Output)
	recordDaemonSetEvents(recorder, s.DaemonSet, res)
	if err != nil {
		return res, err
	}
	if syncErr != nil {
		return res, syncErr
	}
	return res, nil
}

// recordDaemonSetEvents records the plan's events that follow writes the
// server accepted; a SuccessfulCreate names the pod the server created
// (the plan knows only its planned name), and no event follows a delete
// of a pod already gone (upstream's pod control records none then).
func recordDaemonSetEvents(recorder record.EventRecorder, ds *apps.DaemonSet, res DaemonSetSync) {
	if recorder == nil {
		return
	}
	done := res.Result.AcceptedPrefix()
	for _, e := range res.Plan.Events {
		if e.AfterWrites > done {
			break
		}
		msg := e.Message
		if i := e.AfterWrites - 1; i >= 0 && i < len(res.Result.Writes) {
			w := res.Result.Writes[i]
			switch {
			case e.Reason == daemonset.EventSuccessfulCreate && w.Action.Verb == appsv1.VerbCreate && w.Action.Resource == "pods":
				if created, ok := w.Action.Object.(*core.Pod); ok && created.Name != "" {
					msg = "Created pod: " + created.Name
				}
			case e.Reason == daemonset.EventSuccessfulDelete && w.Err != nil:
				continue
			}
		}
		recorder.Event(ds, eventType(e.Type), e.Reason, msg)
	}
}

// applyDaemonSet sends the writes of out in order and stops at the first
// error, as upstream's sync does. Patches (adoptions, releases, the
// relabelling of a revision merge) and deletes of objects already gone
// count as done, and so does a release of an object replaced since. A
// ControllerRevision create whose name exists with the same data counts as
// done (upstream's snapshot reads the existing one and uses it). A status
// update rejected with 409 is retried once on the DaemonSet read again
// (upstream's storeDaemonSetStatus). The Object of an accepted pod create
// is replaced by the pod the server returned.
func applyDaemonSet(ctx context.Context, client kubernetes.Interface, out appsv1.Output) (appsv1.Result, error) {
	res := appsv1.Result{Writes: make([]appsv1.Write, len(out.Actions)), StoppedAt: -1}
	for i, a := range out.Actions {
		res.Writes[i] = appsv1.Write{Action: a, Outcome: appsv1.NotSent}
	}
	for i, a := range out.Actions {
		w := &res.Writes[i]
		obj, rv, err := sendDaemonSetWrite(ctx, client, a)
		if errors.Is(err, appsv1.ErrBadAction) {
			res.StoppedAt = i
			return res, fmt.Errorf("action %d (%s %s %s/%s): %w", i, a.Verb, a.Resource, a.Namespace, a.Name, err)
		}
		w.Err = err
		switch {
		case err == nil:
			w.Outcome, w.ResourceVersion = appsv1.Accepted, rv
			if obj != nil {
				w.Action.Object = obj
			}
		case apierrors.IsNotFound(err) && (a.Verb == appsv1.VerbDelete || a.Verb == appsv1.VerbPatch),
			apierrors.IsInvalid(err) && (a.Kind == plan.ActionKind(daemonset.ReleasePod) || a.Kind == plan.ActionKind(daemonset.ReleaseControllerRevision)):
			// Upstream's controller reference manager ignores a release
			// of an object that is gone or was replaced (Invalid: its UID
			// precondition no longer holds).
			w.Outcome = appsv1.Accepted
		case apierrors.IsConflict(err):
			w.Outcome = appsv1.Conflicted
		default:
			w.Outcome = appsv1.Failed
		}
		if w.Outcome != appsv1.Accepted {
			res.StoppedAt = i
			return res, err
		}
	}
	return res, nil
}

// sendDaemonSetWrite performs one write; it returns the created pod (for
// its server-given name) and the resourceVersion the server answered.
func sendDaemonSetWrite(ctx context.Context, client kubernetes.Interface, a appsv1.Action) (any, string, error) {
	bad := func(format string, args ...any) (any, string, error) {
		return nil, "", fmt.Errorf("%w: "+format, append([]any{appsv1.ErrBadAction}, args...)...)
	}
	switch a.Resource + " " + a.Verb {
	case "pods " + appsv1.VerbCreate:
		pod, ok := a.Object.(*core.Pod)
		if !ok || pod == nil {
			return bad("create wants a *core.Pod, got %T", a.Object)
		}
		got, err := client.CoreV1().Pods(a.Namespace).Create(ctx, pod, metav1.CreateOptions{})
		if err != nil {
			return nil, "", err
		}
		return got, got.ResourceVersion, nil
	case "pods " + appsv1.VerbDelete:
		return nil, "", client.CoreV1().Pods(a.Namespace).Delete(ctx, a.Name, metav1.DeleteOptions{})
	case "pods " + appsv1.VerbPatch, "controllerrevisions " + appsv1.VerbPatch:
		body, ok := a.Object.(json.RawMessage)
		if !ok {
			return bad("patch wants a json.RawMessage body, got %T", a.Object)
		}
		pt := types.PatchType(a.PatchType)
		if a.Resource == "pods" {
			got, err := client.CoreV1().Pods(a.Namespace).Patch(ctx, a.Name, pt, body, metav1.PatchOptions{})
			return dsRVOf(got, err)
		}
		got, err := client.AppsV1().ControllerRevisions(a.Namespace).Patch(ctx, a.Name, pt, body, metav1.PatchOptions{})
		return dsRVOf(got, err)
	case "controllerrevisions " + appsv1.VerbCreate:
		cr, ok := a.Object.(*apps.ControllerRevision)
		if !ok || cr == nil {
			return bad("create wants a *apps.ControllerRevision, got %T", a.Object)
		}
		revs := client.AppsV1().ControllerRevisions(a.Namespace)
		got, err := revs.Create(ctx, cr, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			// Created by an earlier sync whose write the cache has not
			// shown yet: the same data is the same revision.
			existing, gerr := revs.Get(ctx, cr.Name, metav1.GetOptions{})
			if gerr == nil && string(existing.Data.Raw) == string(cr.Data.Raw) {
				return nil, existing.ResourceVersion, nil
			}
		}
		return dsRVOf(got, err)
	case "controllerrevisions " + appsv1.VerbUpdate:
		cr, ok := a.Object.(*apps.ControllerRevision)
		if !ok || cr == nil {
			return bad("update wants a *apps.ControllerRevision, got %T", a.Object)
		}
		got, err := client.AppsV1().ControllerRevisions(a.Namespace).Update(ctx, cr, metav1.UpdateOptions{})
		return dsRVOf(got, err)
	case "controllerrevisions " + appsv1.VerbDelete:
		return nil, "", client.AppsV1().ControllerRevisions(a.Namespace).Delete(ctx, a.Name, metav1.DeleteOptions{})
	case "daemonsets " + appsv1.VerbUpdate:
		d, ok := a.Object.(*apps.DaemonSet)
		if !ok || d == nil || a.Subresource != appsv1.SubresourceStatus {
			return bad("update wants a *apps.DaemonSet and the status subresource, got %T and %q", a.Object, a.Subresource)
		}
		dsc := client.AppsV1().DaemonSets(a.Namespace)
		got, err := dsc.UpdateStatus(ctx, d, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			fresh, gerr := dsc.Get(ctx, d.Name, metav1.GetOptions{})
			if gerr != nil {
				return nil, "", gerr
			}
			// Upstream writes its counts and observedGeneration over the
			// DaemonSet read again, keeping the rest of its status.
			st := &fresh.Status
			st.ObservedGeneration = d.Status.ObservedGeneration
			st.DesiredNumberScheduled, st.CurrentNumberScheduled = d.Status.DesiredNumberScheduled, d.Status.CurrentNumberScheduled
			st.NumberMisscheduled, st.NumberReady = d.Status.NumberMisscheduled, d.Status.NumberReady
			st.UpdatedNumberScheduled, st.NumberAvailable = d.Status.UpdatedNumberScheduled, d.Status.NumberAvailable
			st.NumberUnavailable = d.Status.NumberUnavailable
			got, err = dsc.UpdateStatus(ctx, fresh, metav1.UpdateOptions{})
		}
		return dsRVOf(got, err)
	}
	return bad("cannot %s %s", a.Verb, a.Resource)
}

// dsRVOf is versionOf in sendDaemonSetWrite's results, which have no
// object to return.
func dsRVOf[T interface{ GetResourceVersion() string }](obj T, err error) (any, string, error) {
	rv, err := versionOf(obj, err)
	return nil, rv, err
}

// dsExpectations are upstream's ControllerExpectations for DaemonSets:
// the creates and deletes of pods a sync sent and the pod informer has
// not yet shown, per DaemonSet key.
type dsExpectations struct {
	mu sync.Mutex
	m  map[string]*dsExpectation
}

type dsExpectation struct {
	adds, dels int
	at         time.Time
}

func (e *dsExpectations) expect(key string, adds, dels int) {
	if adds == 0 && dels == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.m[key] = &dsExpectation{adds: adds, dels: dels, at: time.Now()}
}

// observe counts a pod create (add) or delete the informer showed.
func (e *dsExpectations) observe(key string, add bool) { e.lower(key, add) }

// lower takes back one expected create (add) or delete.
func (e *dsExpectations) lower(key string, add bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := e.m[key]
	if x == nil {
		return
	}
	if add {
		x.adds--
	} else {
		x.dels--
	}
}

// satisfied reports whether the DaemonSet may be synced: nothing expected,
// everything observed, or the expectations older than upstream's
// ExpectationsTimeout.
func (e *dsExpectations) satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x := e.m[key]
	if x == nil || (x.adds <= 0 && x.dels <= 0) || time.Since(x.at) > expectationsTimeout {
		delete(e.m, key)
		return true
	}
	return false
}

func (e *dsExpectations) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}
