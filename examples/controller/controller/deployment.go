package controller

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
)

// DeploymentController syncs Deployments with plan.Sync and
// appsv1.Apply. Its informer handlers route events with plan/enqueue.
type DeploymentController struct {
	namespaceCaches // the ReplicaSet and Pod caches
	client          kubernetes.Interface
	dLister         appslisters.DeploymentLister
	w               *worker
	recorder        record.EventRecorder
	opts            Options
	stats           stats

	// The conversions cacheFor hands plan/enqueue, by UID and
	// resourceVersion: an event converts only what changed.
	deployments modelCache[*model.Deployment]
	replicaSets modelCache[*model.ReplicaSet]
	pods        modelCache[*model.Pod]
}

// NewDeploymentController registers the controller's handlers on the
// factory's Deployment, ReplicaSet and Pod informers. recorder receives the
// events upstream records (ScalingReplicaSet ...); it may be nil.
func NewDeploymentController(client kubernetes.Interface, factory informers.SharedInformerFactory, recorder record.EventRecorder, opts Options) (*DeploymentController, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if opts.Syncer == nil {
		opts.Syncer = appsv1.NewSyncer()
	}
	di := factory.Apps().V1().Deployments()
	rsi := factory.Apps().V1().ReplicaSets()
	pi := factory.Core().V1().Pods()
	c := &DeploymentController{
		client: client, dLister: di.Lister(), namespaceCaches: namespaceCaches{rsLister: rsi.Lister(), podLister: pi.Lister()},
		recorder: recorder, opts: opts,
	}
	synced := []cache.InformerSynced{di.Informer().HasSynced, rsi.Informer().HasSynced, pi.Informer().HasSynced}
	c.w = newWorker("deployment", c.sync, synced, opts.Workers, opts.Out, opts.Gate)
	if _, err := di.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.route(deploymentKeys(obj)) },
		UpdateFunc: func(_, cur any) { c.route(deploymentKeys(cur)) },
		DeleteFunc: func(obj any) { c.route(deploymentKeys(obj)) },
	}); err != nil {
		return nil, err
	}
	if _, err := rsi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			rs, ok := obj.(*apps.ReplicaSet)
			if !ok {
				return
			}
			m, err := c.replicaSetModel(rs)
			if err != nil {
				return
			}
			c.w.add(enqueue.AddReplicaSet(m, c.deploymentsFor(rs.Namespace, m))...)
		},
		UpdateFunc: func(old, cur any) {
			o, ok1 := old.(*apps.ReplicaSet)
			n, ok2 := cur.(*apps.ReplicaSet)
			if !ok1 || !ok2 || o.ResourceVersion == n.ResourceVersion {
				return
			}
			om, err1 := c.replicaSetModel(o)
			nm, err2 := c.replicaSetModel(n)
			if err1 != nil || err2 != nil {
				return
			}
			c.w.add(enqueue.UpdateReplicaSet(om, nm, c.deploymentsFor(n.Namespace, om, nm))...)
		},
		DeleteFunc: func(obj any) {
			m, ns := tombstoneToModel(obj)
			if m == nil {
				return
			}
			rs, _ := m.(*model.ReplicaSet)
			if ts, ok := m.(enqueue.Tombstone); ok {
				rs, _ = ts.Obj.(*model.ReplicaSet)
			}
			if rs == nil {
				return
			}
			c.route(enqueue.DeleteReplicaSet(m, c.deploymentsFor(ns, rs)))
		},
	}); err != nil {
		return nil, err
	}
	if _, err := pi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		DeleteFunc: func(obj any) {
			m, ns := tombstoneToModel(obj)
			if m == nil {
				return
			}
			c.route(enqueue.DeletePod(m, c.cacheFor(ns, true)))
		},
	}); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *DeploymentController) route(keys []string, err error) {
	if err != nil {
		c.w.logf("deployment: event: %v", err)
		return
	}
	c.w.add(keys...)
}

// deploymentKeys routes a Deployment event: every add, update and delete
// (tombstones included) enqueues the Deployment itself.
func deploymentKeys(obj any) ([]string, error) {
	m, _ := tombstoneToModel(obj)
	if m == nil {
		return nil, nil
	}
	return enqueue.DeleteDeployment(m)
}

// deploymentsFor is the cache plan/enqueue routes the events of the
// ReplicaSets rss of namespace ns with: it reads only Deployments, and of
// them only those a controller reference names when every ReplicaSet has
// one (the Deployment of that name, checked by UID, is all it resolves
// to), so that the event of an owned ReplicaSet costs one lookup rather
// than a pass over the namespace. An orphan may be adopted by any
// Deployment whose selector matches: then every Deployment of ns.
func (c *DeploymentController) deploymentsFor(ns string, rss ...*model.ReplicaSet) enqueue.Cache {
	var out enqueue.Cache
	for _, rs := range rss {
		if rs.ControllerRef() == nil {
			ds, _ := c.dLister.Deployments(ns).List(labels.Everything())
			out.Deployments = c.deploymentModels(ds, out.Deployments[:0])
			return out
		}
	}
	var named []*apps.Deployment
	for _, rs := range rss {
		ref := rs.ControllerRef()
		if ref.Kind != model.DeploymentKind || slices.ContainsFunc(named, func(d *apps.Deployment) bool { return d.Name == ref.Name }) {
			continue
		}
		if d, err := c.dLister.Deployments(ns).Get(ref.Name); err == nil {
			named = append(named, d)
		}
	}
	out.Deployments = c.deploymentModels(named, nil)
	return out
}

// deploymentModels appends the conversions of ds to out.
func (c *DeploymentController) deploymentModels(ds []*apps.Deployment, out []*model.Deployment) []*model.Deployment {
	for _, d := range ds {
		if m, err := c.deployments.get(d.UID, d.ResourceVersion, func() (*model.Deployment, error) { return appsv1.DeploymentToModel(d) }); err == nil {
			out = append(out, m)
		}
	}
	c.deployments.synced()
	return out
}

// cacheFor converts the informer caches of a namespace for plan/enqueue.
func (c *DeploymentController) cacheFor(ns string, withPods bool) enqueue.Cache {
	var out enqueue.Cache
	ds, _ := c.dLister.Deployments(ns).List(labels.Everything())
	out.Deployments = c.deploymentModels(ds, nil)
	rss, _ := c.rsLister.ReplicaSets(ns).List(labels.Everything())
	for _, rs := range rss {
		if m, err := c.replicaSetModel(rs); err == nil {
			out.ReplicaSets = append(out.ReplicaSets, m)
		}
	}
	c.replicaSets.synced()
	if withPods {
		pods, _ := c.podLister.Pods(ns).List(labels.Everything())
		for _, p := range pods {
			if m, err := c.pods.get(p.UID, p.ResourceVersion, func() (*model.Pod, error) { return appsv1.PodToModel(p) }); err == nil {
				out.Pods = append(out.Pods, m)
			}
		}
		c.pods.synced()
	}
	return out
}

// replicaSetModel is the model of an informer's ReplicaSet, converted once
// per resourceVersion (an update event's old object is the version the
// previous event converted).
func (c *DeploymentController) replicaSetModel(rs *apps.ReplicaSet) (*model.ReplicaSet, error) {
	return c.replicaSets.get(rs.UID, rs.ResourceVersion, func() (*model.ReplicaSet, error) { return appsv1.ReplicaSetToModel(rs) })
}

// Run waits for the caches and syncs until ctx ends.
func (c *DeploymentController) Run(ctx context.Context) { c.w.run(ctx) }

// Stats returns the write counts so far.
func (c *DeploymentController) Stats() Stats { return c.stats.get() }

func (c *DeploymentController) sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	d, err := c.dLister.Deployments(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	rss, pods, err := c.list(ns)
	if err != nil {
		return err
	}
	s := appsv1.State{Now: c.opts.Now(), Deployment: d, ReplicaSets: rss, Pods: pods}
	res, err := SyncDeployment(ctx, c.client, s, c.recorder, c.opts)
	c.stats.addSync(res.Planned, res.Result)
	if err != nil {
		return err
	}
	switch res.Plan.Requeue.Kind {
	case plan.RequeueAfter:
		c.w.queue.AddAfter(key, res.Plan.Requeue.After)
	case plan.RequeueRateLimited:
		c.w.queue.AddRateLimited(key)
	}
	return nil
}

// AddWrites counts the writes of r that were sent: how the server answered
// each and whether the plan had predicted that answer.
func (s *Stats) AddWrites(r appsv1.Result) {
	for _, w := range r.Writes {
		if w.Outcome == appsv1.NotSent {
			continue
		}
		s.Sent++
		switch w.Outcome {
		case appsv1.Accepted:
			s.Accepted++
		case appsv1.Conflicted:
			s.Conflict++
		default:
			s.Failed++
		}
		if w.Action.Conflict {
			s.PredictedConflicts++
			if w.Outcome == appsv1.Conflicted {
				s.ConfirmedConflicts++
			}
		}
		if w.Outcome == w.Predicted() {
			s.Matched++
		} else {
			s.Mismatched++
		}
	}
}

// DeploymentSync is what one Deployment sync planned and did.
type DeploymentSync struct {
	// Planned is false when the state could not be planned (the error says
	// why).
	Planned bool
	Output  appsv1.Output
	Plan    plan.Plan
	// Result is what the server answered; empty in shadow mode.
	Result appsv1.Result
}

// SyncDeployment plans one sync of s and sends its writes through client
// (or, with opts.Shadow, prints them to opts.Out), then records on recorder
// (if not nil) the events upstream records: those after the writes the
// server accepted. The error is the one upstream's sync ends with: a
// rejected write, or the plan's own error (a hash collision); a state that
// cannot be planned is an error too.
func SyncDeployment(ctx context.Context, client kubernetes.Interface, s appsv1.State, recorder record.EventRecorder, opts Options) (DeploymentSync, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return DeploymentSync{}, err
	}
	syncFn := appsv1.Sync
	if opts.Syncer != nil {
		syncFn = opts.Syncer.Sync
	}
	out, p, err := syncFn(s)
	// A *plan.SyncError is the error upstream's sync ends with: the plan
	// still holds the writes made before it, which are sent, and the error
	// is returned after them (upstream requeues the key rate limited).
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return DeploymentSync{}, fmt.Errorf("plan %s/%s: %w", s.Deployment.Namespace, s.Deployment.Name, err)
	}
	res := DeploymentSync{Planned: true, Output: out, Plan: p}
	if opts.Shadow {
		printShadow(opts.Out, "deployment", s.Deployment.Namespace+"/"+s.Deployment.Name, out.Actions)
		return res, nil
	}
	res.Result, err = appsv1.Apply(ctx, client, out, appsv1.ApplyOptions{SendAll: opts.SendAll})
	if recorder != nil {
		done := res.Result.AcceptedPrefix()
		for _, e := range p.Events {
			if e.AfterWrites <= done {
				recorder.Event(s.Deployment, eventType(e.Type), e.Reason, e.Message)
			}
		}
	}
	if err != nil {
		reportRefusedCreate(ctx, client, s.Deployment, res.Result, recorder, opts.Now())
		return res, err
	}
	if syncErr != nil {
		return res, syncErr
	}
	return res, nil
}

// reportRefusedCreate reports a refused create of the new ReplicaSet on
// the Deployment, as upstream's getNewReplicaSet does: unless the server
// answered AlreadyExists or the namespace is terminating, a Deployment
// with a progress deadline gets the Progressing condition False with
// reason ReplicaSetCreateError (written with the Deployment's status,
// whatever the answer), and a Warning event of that reason is recorded.
func reportRefusedCreate(ctx context.Context, client kubernetes.Interface, d *apps.Deployment, r appsv1.Result, recorder record.EventRecorder, now time.Time) {
	for _, w := range r.Writes {
		if w.Action.Kind != plan.CreateReplicaSet || w.Outcome != appsv1.Failed {
			continue
		}
		if apierrors.IsAlreadyExists(w.Err) || apierrors.HasStatusCause(w.Err, core.NamespaceTerminatingCause) {
			return
		}
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", w.Action.Name, w.Err)
		if pds := d.Spec.ProgressDeadlineSeconds; pds != nil && *pds != math.MaxInt32 {
			d = d.DeepCopy()
			setCondition(&d.Status, apps.DeploymentCondition{Type: apps.DeploymentProgressing, Status: core.ConditionFalse,
				Reason: model.ReasonReplicaSetCreateError, Message: msg}, now)
			_, _ = client.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{})
		}
		if recorder != nil {
			recorder.Event(d, core.EventTypeWarning, model.EventReplicaSetCreateError, msg)
		}
		return
	}
}

// setCondition sets c in the status as upstream's SetDeploymentCondition
// does: nothing changes when the condition has that status and reason
// already; otherwise the condition of that type is removed and c appended,
// keeping the old transition time when the status is the same.
func setCondition(s *apps.DeploymentStatus, c apps.DeploymentCondition, now time.Time) {
	c.LastUpdateTime = metav1.NewTime(now)
	c.LastTransitionTime = c.LastUpdateTime
	kept := s.Conditions[:0:0]
	for _, old := range s.Conditions {
		if old.Type != c.Type {
			kept = append(kept, old)
			continue
		}
		if old.Status == c.Status && old.Reason == c.Reason {
			return
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	s.Conditions = append(kept, c)
}

func eventType(t string) string {
	if t == core.EventTypeWarning {
		return core.EventTypeWarning
	}
	return core.EventTypeNormal
}
