package controller

import (
	"context"
	"sync"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
)

// StatefulSetController syncs StatefulSets with plan/statefulset, through
// the apps/v1 adapter (appsv1.SyncStatefulSet), and sends the plan's writes
// with client-go, as upstream's StatefulSet controller (Kubernetes v1.36)
// does: it reads the StatefulSet, Pod, ControllerRevision and
// PersistentVolumeClaim informer caches, routes pod events to the set that
// controls the pod (orphans to every set whose selector matches them), and
// waits after its writes until the caches have seen them (see
// writeBarrier). Its events are recorded as upstream's, by the recorder it
// is given (the [Manager]'s records them as statefulset-controller).
type StatefulSetController struct {
	client    kubernetes.Interface
	setLister appslisters.StatefulSetLister
	podLister corelisters.PodLister
	revLister appslisters.ControllerRevisionLister
	pvcLister corelisters.PersistentVolumeClaimLister
	w         *worker
	recorder  record.EventRecorder
	opts      Options
	stats     stats
	barrier   *writeBarrier

	observeMu sync.Mutex
	observe   func(appsv1.StatefulSetState, StatefulSetSync)
}

// OnSync has f called after every sync that planned, with the snapshot the
// sync planned over and what it did (tests check the plans the controller
// carried out). Calls come from the sync workers, possibly at once; nil
// stops them.
func (c *StatefulSetController) OnSync(f func(appsv1.StatefulSetState, StatefulSetSync)) {
	c.observeMu.Lock()
	defer c.observeMu.Unlock()
	c.observe = f
}

// NewStatefulSetController registers the controller's handlers on the
// factory's StatefulSet and Pod informers, and its caches on the
// ControllerRevision and PersistentVolumeClaim informers (upstream watches
// neither: a change to a revision or a claim alone does not sync a set).
// recorder receives the events upstream records (SuccessfulCreate ...); it
// may be nil.
func NewStatefulSetController(client kubernetes.Interface, factory informers.SharedInformerFactory, recorder record.EventRecorder, opts Options) (*StatefulSetController, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	si := factory.Apps().V1().StatefulSets()
	pi := factory.Core().V1().Pods()
	ri := factory.Apps().V1().ControllerRevisions()
	ci := factory.Core().V1().PersistentVolumeClaims()
	c := &StatefulSetController{
		client: client, setLister: si.Lister(), podLister: pi.Lister(), revLister: ri.Lister(), pvcLister: ci.Lister(),
		recorder: recorder, opts: opts,
		barrier: newWriteBarrier(map[string]cache.Store{
			appsv1.ResourcePods:                   pi.Informer().GetStore(),
			appsv1.ResourcePersistentVolumeClaims: ci.Informer().GetStore(),
			appsv1.ResourceStatefulSets:           si.Informer().GetStore(),
		}),
	}
	synced := []cache.InformerSynced{si.Informer().HasSynced, pi.Informer().HasSynced, ri.Informer().HasSynced, ci.Informer().HasSynced}
	c.w = newWorker("statefulset", c.sync, synced, opts.Workers, opts.Out, opts.Gate)
	if _, err := si.Informer().AddEventHandler(c.w.objectHandlers()); err != nil {
		return nil, err
	}
	if _, err := pi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if p, ok := obj.(*core.Pod); ok {
				c.addPod(p)
			}
		},
		UpdateFunc: func(old, cur any) {
			o, ok1 := old.(*core.Pod)
			p, ok2 := cur.(*core.Pod)
			if ok1 && ok2 {
				c.updatePod(o, p)
			}
		},
		DeleteFunc: c.deletePod,
	}); err != nil {
		return nil, err
	}
	// The revision and claim informers are only read: registering them
	// with the factory is enough for it to start them.
	ri.Informer()
	ci.Informer()
	return c, nil
}

func (c *StatefulSetController) enqueue(set *apps.StatefulSet) {
	c.w.add(set.Namespace + "/" + set.Name)
}

// addPod wakes the set that controls a new pod, or every set that selects
// an orphan (one of them may adopt it); a pod that arrives already being
// deleted counts as a deletion.
func (c *StatefulSetController) addPod(p *core.Pod) {
	if p.DeletionTimestamp != nil {
		c.deletePod(p)
		return
	}
	if ref := metav1.GetControllerOf(p); ref != nil {
		if set := c.resolveControllerRef(p.Namespace, ref); set != nil {
			c.enqueue(set)
		}
		return
	}
	c.enqueueSelecting(p)
}

// updatePod wakes the set that controlled the pod before a change of
// controller, the set that controls it now (and again minReadySeconds after
// it became ready, when it can count as available), or, for an orphan whose
// labels or controller changed, every set that selects it. A resync (same
// resourceVersion) wakes nobody.
func (c *StatefulSetController) updatePod(old, cur *core.Pod) {
	if cur.ResourceVersion == old.ResourceVersion {
		return
	}
	set := wakeOwnersOfUpdate(old, cur, c.resolveControllerRef, c.enqueue, func() { c.enqueueSelecting(cur) })
	if set != nil && !podReady(old) && podReady(cur) && set.Spec.MinReadySeconds > 0 {
		c.w.queue.AddAfter(set.Namespace+"/"+set.Name, time.Duration(set.Spec.MinReadySeconds)*time.Second)
	}
}

// deletePod wakes the set that controlled a deleted pod (tombstones
// included); nobody cares about a deleted orphan.
func (c *StatefulSetController) deletePod(obj any) {
	if ts, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = ts.Obj
	}
	p, ok := obj.(*core.Pod)
	if !ok {
		return
	}
	if ref := metav1.GetControllerOf(p); ref != nil {
		if set := c.resolveControllerRef(p.Namespace, ref); set != nil {
			c.enqueue(set)
		}
	}
}

// enqueueSelecting wakes every set of the pod's namespace whose selector
// matches its labels.
func (c *StatefulSetController) enqueueSelecting(p *core.Pod) {
	sets, err := c.setLister.GetPodStatefulSets(p)
	if err != nil {
		return // none selects it
	}
	for _, set := range sets {
		c.enqueue(set)
	}
}

// resolveControllerRef returns the set a controller reference names, when
// the cache holds a StatefulSet of that name and UID.
func (c *StatefulSetController) resolveControllerRef(ns string, ref *metav1.OwnerReference) *apps.StatefulSet {
	if ref.Kind != "StatefulSet" {
		return nil
	}
	set, err := c.setLister.StatefulSets(ns).Get(ref.Name)
	if err != nil || set.UID != ref.UID {
		return nil
	}
	return set
}

// Run waits for the caches and syncs until ctx ends.
func (c *StatefulSetController) Run(ctx context.Context) { c.w.run(ctx) }

// Stats returns the write counts so far. PredictedConflicts and
// ConfirmedConflicts stay 0: a StatefulSet plan predicts rejections
// (Action.Error, Action.Invalid), counted in Matched when they happen.
func (c *StatefulSetController) Stats() Stats { return c.stats.get() }

func (c *StatefulSetController) sync(ctx context.Context, key string) error {
	set, err := setToSync(key, c.barrier, func(ns, name string) (*apps.StatefulSet, error) {
		return c.setLister.StatefulSets(ns).Get(name)
	}, nil)
	if set == nil {
		return err
	}
	s, err := c.snapshot(set)
	if err != nil {
		return err
	}
	res, err := syncStatefulSet(ctx, c.client, s, c.recorder, c.opts, c.latest)
	c.count(res)
	for _, w := range res.Writes {
		if w.Outcome != appsv1.Accepted {
			continue
		}
		switch w.Write.Resource {
		case appsv1.ResourcePods, appsv1.ResourcePersistentVolumeClaims, appsv1.ResourceStatefulSets:
			c.barrier.wrote(key, set.UID, w.Write.Resource, w.ResourceVersion)
		}
	}
	c.observeMu.Lock()
	observe := c.observe
	c.observeMu.Unlock()
	if res.Planned && observe != nil {
		observe(s, res)
	}
	if err != nil {
		return err
	}
	if res.Plan.Requeue.Kind == plan.RequeueAfter {
		c.w.queue.AddAfter(key, res.Plan.Requeue.After)
	}
	return nil
}

// snapshot reads from the caches what one sync of set plans over: the
// pods, ControllerRevisions and claims of its namespace.
func (c *StatefulSetController) snapshot(set *apps.StatefulSet) (appsv1.StatefulSetState, error) {
	ns := set.Namespace
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return appsv1.StatefulSetState{}, err
	}
	revs, err := c.revLister.ControllerRevisions(ns).List(labels.Everything())
	if err != nil {
		return appsv1.StatefulSetState{}, err
	}
	pvcs, err := c.pvcLister.PersistentVolumeClaims(ns).List(labels.Everything())
	if err != nil {
		return appsv1.StatefulSetState{}, err
	}
	return appsv1.StatefulSetState{Now: c.opts.Now(), StatefulSet: set, Pods: pods, ControllerRevisions: revs, PVCs: pvcs}, nil
}

// latest is the set as the cache holds it now, for a status write retried
// after a conflict (upstream re-reads its lister).
func (c *StatefulSetController) latest(_ context.Context, ns, name string) (*apps.StatefulSet, error) {
	return c.setLister.StatefulSets(ns).Get(name)
}

func (c *StatefulSetController) count(res StatefulSetSync) {
	c.stats.mu.Lock()
	defer c.stats.mu.Unlock()
	if res.Planned {
		c.stats.s.Syncs++
	}
	for _, w := range res.Writes {
		if w.Outcome == appsv1.NotSent {
			continue
		}
		c.stats.s.Sent++
		switch w.Outcome {
		case appsv1.Accepted:
			c.stats.s.Accepted++
		case appsv1.Conflicted:
			c.stats.s.Conflict++
		default:
			c.stats.s.Failed++
		}
		if w.Matched() {
			c.stats.s.Matched++
		} else {
			c.stats.s.Mismatched++
		}
	}
}

// addStatefulSetCaches adds to the Manager's watched caches those the
// StatefulSet controller reads and no other controller added.
func (m *Manager) addStatefulSetCaches() {
	if m.StatefulSets == nil {
		return
	}
	m.addCachesOnce(
		namedInformer{"statefulsets", m.factory.Apps().V1().StatefulSets().Informer()},
		namedInformer{"pods", m.factory.Core().V1().Pods().Informer()},
		namedInformer{"controllerrevisions", m.factory.Apps().V1().ControllerRevisions().Informer()},
		namedInformer{"persistentvolumeclaims", m.factory.Core().V1().PersistentVolumeClaims().Informer()})
}
