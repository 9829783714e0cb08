package controller

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
)

// expectationsTimeout is how long a ReplicaSet waits at most for the pod
// events of its own creates and deletes (upstream's ExpectationsTimeout).
const expectationsTimeout = 5 * time.Minute

// ReplicaSetController syncs ReplicaSets with plan/replicaset.Sync.
//
// Like upstream it keeps expectations: after creating or deleting pods for
// a ReplicaSet it does not manage that ReplicaSet's pods again until its
// informer has seen those creates and deletes, so a lagging cache never
// makes it create or delete twice.
type ReplicaSetController struct {
	namespaceCaches // the ReplicaSet and Pod caches
	client          kubernetes.Interface
	w               *worker
	recorder        record.EventRecorder
	opts            Options

	expMu sync.Mutex
	exp   map[string]*expectation

	pods        modelCache[checked[*model.Pod]]        // conversions of the pods the syncs read
	replicaSets modelCache[checked[*model.ReplicaSet]] // and of the ReplicaSets
}

type expectation struct {
	adds    int
	deletes map[string]bool // pod keys
	at      time.Time
}

// NewReplicaSetController registers the controller's handlers on the
// factory's ReplicaSet and Pod informers. recorder receives the
// SuccessfulCreate and SuccessfulDelete events; it may be nil.
func NewReplicaSetController(client kubernetes.Interface, factory informers.SharedInformerFactory, recorder record.EventRecorder, opts Options) (*ReplicaSetController, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	rsi := factory.Apps().V1().ReplicaSets()
	pi := factory.Core().V1().Pods()
	c := &ReplicaSetController{
		client: client, namespaceCaches: namespaceCaches{rsLister: rsi.Lister(), podLister: pi.Lister()},
		recorder: recorder, opts: opts, exp: map[string]*expectation{},
	}
	synced := []cache.InformerSynced{rsi.Informer().HasSynced, pi.Informer().HasSynced}
	c.w = newWorker("replicaset", c.sync, synced, opts.Workers, opts.Out, opts.Gate)
	if _, err := rsi.Informer().AddEventHandler(c.w.objectHandlers()); err != nil {
		return nil, err
	}
	if _, err := pi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if p, ok := obj.(*core.Pod); ok {
				c.podEvent(p, p.DeletionTimestamp != nil, nil)
			}
		},
		UpdateFunc: func(old, cur any) {
			p, ok := cur.(*core.Pod)
			o, ok2 := old.(*core.Pod)
			if ok && ok2 && p.ResourceVersion != o.ResourceVersion {
				c.podEvent(p, p.DeletionTimestamp != nil, o)
			}
		},
		DeleteFunc: func(obj any) {
			if ts, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = ts.Obj
			}
			if p, ok := obj.(*core.Pod); ok {
				c.podEvent(p, true, nil)
			}
		},
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// podEvent observes a pod for the expectations and wakes the ReplicaSet
// that controls it (and, after a change of owner, the old one); orphans
// wake every ReplicaSet whose selector matches.
func (c *ReplicaSetController) podEvent(p *core.Pod, gone bool, old *core.Pod) {
	refs := []*metav1.OwnerReference{metav1.GetControllerOf(p)}
	if old != nil {
		refs = append(refs, metav1.GetControllerOf(old))
	}
	woken := false
	for _, ref := range refs {
		if ref == nil || ref.Kind != "ReplicaSet" {
			continue
		}
		key := p.Namespace + "/" + ref.Name
		c.observe(key, p, gone)
		c.w.add(key)
		woken = true
	}
	if woken || gone {
		return
	}
	rss, _ := c.rsLister.ReplicaSets(p.Namespace).List(labels.Everything())
	for _, rs := range rss {
		sel, err := metav1.LabelSelectorAsSelector(rs.Spec.Selector)
		if err == nil && !sel.Empty() && sel.Matches(labels.Set(p.Labels)) {
			c.w.add(p.Namespace + "/" + rs.Name)
		}
	}
}

func (c *ReplicaSetController) observe(rsKey string, p *core.Pod, gone bool) {
	c.expMu.Lock()
	defer c.expMu.Unlock()
	e := c.exp[rsKey]
	if e == nil {
		return
	}
	podKey := p.Namespace + "/" + p.Name
	if gone {
		delete(e.deletes, podKey)
	} else if e.adds > 0 {
		e.adds--
	}
}

func (c *ReplicaSetController) satisfied(rsKey string) bool {
	c.expMu.Lock()
	defer c.expMu.Unlock()
	e := c.exp[rsKey]
	if e == nil || (e.adds <= 0 && len(e.deletes) == 0) || time.Since(e.at) > expectationsTimeout {
		delete(c.exp, rsKey)
		return true
	}
	return false
}

func (c *ReplicaSetController) expect(rsKey string, adds int, deletes []string) {
	c.expMu.Lock()
	defer c.expMu.Unlock()
	e := &expectation{adds: adds, deletes: map[string]bool{}, at: time.Now()}
	for _, d := range deletes {
		e.deletes[d] = true
	}
	c.exp[rsKey] = e
}

// lower takes back an expected create or delete that failed.
func (c *ReplicaSetController) lower(rsKey string, add bool, podKey string) {
	c.expMu.Lock()
	defer c.expMu.Unlock()
	if e := c.exp[rsKey]; e != nil {
		if add {
			e.adds--
		} else {
			delete(e.deletes, podKey)
		}
	}
}

// Run waits for the caches and syncs until ctx ends.
func (c *ReplicaSetController) Run(ctx context.Context) { c.w.run(ctx) }

func (c *ReplicaSetController) sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	rs, err := c.rsLister.ReplicaSets(ns).Get(name)
	if apierrors.IsNotFound(err) {
		c.expMu.Lock()
		delete(c.exp, key)
		c.expMu.Unlock()
		return nil
	}
	if err != nil {
		return err
	}
	// While the informer has not seen the pods of the last sync's creates
	// and deletes, the sync still claims pods and writes the status, but
	// creates and deletes nothing, as upstream's does.
	pending := !c.satisfied(key)
	rss, pods, err := c.list(ns)
	if err != nil {
		return err
	}
	p, err := c.syncOne(ctx, key, rs, pods, rss, pending)
	if err != nil {
		return err
	}
	if p.RequeueAfter > 0 {
		c.w.queue.AddAfter(key, p.RequeueAfter)
	}
	return nil
}

func (c *ReplicaSetController) syncOne(ctx context.Context, key string, rs *apps.ReplicaSet, pods []*core.Pod, rss []*apps.ReplicaSet, pending bool) (replicaset.Plan, error) {
	defer c.pods.synced()
	defer c.replicaSets.synced()
	// Each object version is validated once, when converted; when every
	// one the sync reads passed, the planner is told so and does not
	// validate them again (a sync reads every pod of the namespace).
	allValid := true
	rsModel := func(r *apps.ReplicaSet) (*model.ReplicaSet, error) {
		e, err := c.replicaSets.get(r.UID, r.ResourceVersion, func() (checked[*model.ReplicaSet], error) {
			m, err := appsv1.ReplicaSetToModel(r)
			return checked[*model.ReplicaSet]{m, err == nil && model.ValidateReplicaSet(m) == nil}, err
		})
		allValid = allValid && e.valid
		return e.m, err
	}
	m, err := rsModel(rs)
	if err != nil {
		return replicaset.Plan{}, err
	}
	mpods := make([]*model.Pod, 0, len(pods))
	for _, p := range pods {
		e, err := c.pods.get(p.UID, p.ResourceVersion, func() (checked[*model.Pod], error) {
			m, err := appsv1.PodToModel(p)
			return checked[*model.Pod]{m, err == nil && model.ValidatePod(m) == nil}, err
		})
		if err != nil {
			return replicaset.Plan{}, err
		}
		allValid = allValid && e.valid
		mpods = append(mpods, e.m)
	}
	mrss := make([]*model.ReplicaSet, 0, len(rss))
	for _, r := range rss {
		mr, err := rsModel(r)
		if err != nil {
			return replicaset.Plan{}, err
		}
		mrss = append(mrss, mr)
	}
	// The plan assumes every create and delete succeeds. When the server
	// refuses one the planner did not predict (a quota, an admission
	// policy), the sync is planned again with the outcomes seen so far, as
	// WithCreateFault and WithDeleteFault model them: the new plan keeps
	// the writes already sent, stops the slow start after the failing
	// batch as upstream's does, and ends with the status upstream's
	// calculateStatus writes then (a ReplicaFailure condition with reason
	// FailedCreate or FailedDelete and the error). At most one round per
	// failed write.
	now := c.opts.Now()
	sent := &sendState{createErrs: map[int]error{}, deleteErrs: map[string]error{}, deleted: map[string]bool{}}
	for round := 0; ; round++ {
		var syncOpts []replicaset.Option
		if pending {
			syncOpts = append(syncOpts, replicaset.WithExpectationsPending())
		}
		if allValid {
			syncOpts = append(syncOpts, replicaset.ReplicaSetsAndPodsValidated())
		}
		if len(sent.createErrs) > 0 {
			syncOpts = append(syncOpts, replicaset.WithCreateFault(func(attempt int, _ *model.Pod) error { return sent.createErrs[attempt] }))
		}
		if len(sent.deleteErrs) > 0 {
			syncOpts = append(syncOpts, replicaset.WithDeleteFault(func(pod *model.Pod) error { return sent.deleteErrs[pod.Name] }))
		}
		p, err := replicaset.Sync(m, mpods, mrss, now, syncOpts...)
		// A *replicaset.SyncError (a failed create or delete) comes with a
		// valid plan: its writes are sent, and the error is returned after
		// them, for the rate-limited requeue upstream's sync ends with.
		var syncErr *replicaset.SyncError
		if err != nil && !errors.As(err, &syncErr) {
			return replicaset.Plan{}, fmt.Errorf("plan %s: %w", key, err)
		}
		if c.opts.Shadow {
			printReplicaSetShadow(c.opts.Out, key, p.Actions)
			return p, nil
		}
		if round == 0 && !pending {
			sent.planned = p.Count(replicaset.CreatePod)
			c.expectPlan(key, p)
		}
		replan, err := c.apply(ctx, key, rs, m, p, sent)
		if replan {
			continue
		}
		// Creates planned but not made (failed, or skipped after a failed
		// batch) will never be observed.
		for range sent.planned - sent.created {
			c.lower(key, true, "")
		}
		if err != nil {
			return p, err
		}
		if syncErr != nil {
			return p, syncErr
		}
		return p, nil
	}
}

// sendState is what the writes of one sync did so far, across its plans.
type sendState struct {
	planned    int              // creates the first plan expected
	attempts   int              // create attempts made (sent or predicted to fail)
	created    int              // creates the server accepted
	patched    bool             // the claim patches were sent
	deleted    map[string]bool  // deletes sent, by pod name
	createErrs map[int]error    // unpredicted create failures, by attempt
	deleteErrs map[string]error // unpredicted delete failures, by pod name
}

// expectPlan records the creates and deletes the first plan of a sync
// makes, for the expectations that hold the next sync back until the
// caches have seen them.
func (c *ReplicaSetController) expectPlan(key string, p replicaset.Plan) {
	adds := p.Count(replicaset.CreatePod)
	var dels []string
	for _, a := range p.Actions {
		if a.Kind == replicaset.DeletePod {
			dels = append(dels, a.Namespace+"/"+a.Name)
		}
	}
	if adds > 0 || len(dels) > 0 {
		c.expect(key, adds, dels)
	}
}

// apply sends the plan's writes not sent yet, as upstream's ReplicaSet
// controller does: claim patches, then creates with generateName (the
// server names the pods), or deletes, then the status update. It stops
// and asks for a new plan (replan) at the first create the server refuses
// unpredicted, or after the deletes when some were refused.
func (c *ReplicaSetController) apply(ctx context.Context, key string, rs *apps.ReplicaSet, m *model.ReplicaSet, p replicaset.Plan, sent *sendState) (replan bool, err error) {
	pods := c.client.CoreV1().Pods(rs.Namespace)
	var firstErr error
	attempt, newDeleteErrs := 0, 0
	for _, a := range p.Actions {
		switch a.Kind {
		case replicaset.AdoptPod, replicaset.ReleasePod:
			if sent.patched || a.Error != "" {
				continue
			}
			if _, err := pods.Patch(ctx, a.Name, types.StrategicMergePatchType, []byte(a.Patch), metav1.PatchOptions{}); err != nil &&
				!apierrors.IsNotFound(err) && !(a.Kind == replicaset.ReleasePod && apierrors.IsInvalid(err)) {
				return false, err
			}
		case replicaset.CreatePod:
			sent.patched = true
			i := attempt
			attempt++
			if i < sent.attempts {
				continue // sent in an earlier round
			}
			sent.attempts = i + 1
			if a.Error != "" {
				continue // predicted: the planner's event and status say it
			}
			created, err := pods.Create(ctx, podFromTemplate(rs, a), metav1.CreateOptions{})
			if err != nil {
				sent.createErrs[i] = err
				c.event(rs, core.EventTypeWarning, replicaset.EventFailedCreate, fmt.Sprintf("Error creating: %v", err))
				return true, nil
			}
			sent.created++
			c.event(rs, core.EventTypeNormal, replicaset.EventSuccessfulCreate, "Created pod: "+created.Name)
		case replicaset.DeletePod:
			sent.patched = true
			if sent.deleted[a.Name] || a.Error != "" {
				continue
			}
			sent.deleted[a.Name] = true
			podKey := a.Namespace + "/" + a.Name
			if err := pods.Delete(ctx, a.Name, metav1.DeleteOptions{}); err != nil {
				c.lower(key, false, podKey)
				if !apierrors.IsNotFound(err) {
					sent.deleteErrs[a.Name] = err
					newDeleteErrs++
					c.event(rs, core.EventTypeWarning, replicaset.EventFailedDelete, fmt.Sprintf("Error deleting: %v", err))
				}
				continue
			}
			c.event(rs, core.EventTypeNormal, replicaset.EventSuccessfulDelete, "Deleted pod: "+a.Name)
		case replicaset.UpdateReplicaSetStatus:
			if newDeleteErrs > 0 {
				return true, nil
			}
			sm := m.DeepCopy()
			sm.Status = *a.Status
			conv, err := appsv1.ReplicaSetFromModel(sm)
			if err != nil {
				return false, err
			}
			if err := c.updateStatus(ctx, rs, conv.Status); err != nil {
				firstErr = err
			}
		}
	}
	if newDeleteErrs > 0 {
		return true, nil
	}
	return false, firstErr
}

// updateStatus writes status on rs as upstream's updateReplicaSetStatus
// does: when the server refuses the update (a 409 when the Deployment
// controller has just scaled rs, or the cache has not yet seen this
// controller's previous status write), it reads rs again and retries once
// with the same status, instead of waiting for the cache through a
// rate-limited requeue that would meet the same stale version.
func (c *ReplicaSetController) updateStatus(ctx context.Context, rs *apps.ReplicaSet, status apps.ReplicaSetStatus) error {
	client := c.client.AppsV1().ReplicaSets(rs.Namespace)
	upd := rs.DeepCopy()
	upd.Status = status
	_, err := client.UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	if err == nil {
		return nil
	}
	latest, err := client.Get(ctx, rs.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	latest.Status = status
	_, err = client.UpdateStatus(ctx, latest, metav1.UpdateOptions{})
	return err
}

func (c *ReplicaSetController) event(rs *apps.ReplicaSet, typ, reason, msg string) {
	if c.recorder != nil {
		c.recorder.Event(rs, typ, reason, msg)
	}
}

// printReplicaSetShadow prints the writes a ReplicaSet sync would send.
func printReplicaSetShadow(w io.Writer, key string, actions []replicaset.Action) {
	if len(actions) == 0 {
		fmt.Fprintf(w, "replicaset %s: no writes\n", key)
		return
	}
	for _, a := range actions {
		fmt.Fprintf(w, "replicaset %s: %s\n", key, a.String())
	}
}

// podFromTemplate builds the pod a CreatePod action sends, as upstream's
// GetPodFromTemplate does: the planned labels, annotations and controller
// reference, the template's spec, and generateName for the server to pick
// the name.
func podFromTemplate(rs *apps.ReplicaSet, a replicaset.Action) *core.Pod {
	pod := &core.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:    rs.Namespace,
		GenerateName: a.GenerateName,
		Labels:       maps.Clone(a.Pod.Labels),
		Annotations:  maps.Clone(a.Pod.Annotations),
		Finalizers:   slices.Clone(rs.Spec.Template.Finalizers),
	}}
	for _, r := range a.Pod.OwnerReferences {
		pod.OwnerReferences = append(pod.OwnerReferences, metav1.OwnerReference{
			APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: types.UID(r.UID),
			Controller: new(r.Controller), BlockOwnerDeletion: new(r.BlockOwnerDeletion),
		})
	}
	rs.Spec.Template.Spec.DeepCopyInto(&pod.Spec)
	return pod
}
