package controller

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcore "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
)

// ErrCacheSync is matched (errors.Is) by the error [Manager.Run] returns
// when the informer caches did not sync.
var ErrCacheSync = errors.New("informer caches not synced")

// ManagerOptions configure a [Manager].
type ManagerOptions struct {
	Options
	// Namespace limits the informers to one namespace; "" watches all.
	Namespace string
	// KubeletDelay, when positive, runs a stand-in [Kubelet] with that
	// delay.
	KubeletDelay time.Duration
	// NoReplicaSetController leaves ReplicaSets to another controller (a
	// second Manager racing on the same Deployments, say).
	NoReplicaSetController bool
	// NoDeploymentController leaves Deployments to the caller (a test
	// driving [SyncDeployment] itself).
	NoDeploymentController bool
	// StatefulSets also runs the StatefulSet controller
	// ([StatefulSetController]), recording events as
	// statefulset-controller.
	StatefulSets bool
	// DaemonSets also runs the DaemonSet controller
	// ([DaemonSetController]), recording events as daemonset-controller;
	// it lists and watches the Nodes of the whole cluster.
	DaemonSets bool
	// Scheduler runs a stand-in [Scheduler] that binds the pods pinned to
	// a node (the DaemonSet controller's) in clusters without
	// kube-scheduler, and removes pods of deleted nodes.
	Scheduler bool
	// CacheSyncTimeout bounds the wait of [Manager.Run] for the informer
	// caches: when they have not synced that long after the start, Run
	// stops and returns an error. 0 waits as long as the context lasts.
	CacheSyncTimeout time.Duration
	// ClientFor, when set, gives each controller a client of its own,
	// called once per controller with its name (deployment-controller,
	// replicaset-controller, statefulset-controller,
	// daemonset-controller): its writes and its events go through that
	// client, the informers, the stand-ins and the leader election through
	// the Manager's. kube-controller-manager gives each controller its own
	// client, and so its own client-side rate limit: two controllers
	// sharing one limit wait for each other's requests. Nil: every
	// controller uses the Manager's client.
	ClientFor func(controller string) (kubernetes.Interface, error)
}

// Manager runs the Deployment controller, the ReplicaSet controller and,
// optionally, the StatefulSet and DaemonSet controllers, the stand-in
// kubelet and the stand-in scheduler on one set of informers, recording
// events as deployment-controller, replicaset-controller,
// statefulset-controller and daemonset-controller.
type Manager struct {
	factory      informers.SharedInformerFactory
	broadcasters []record.EventBroadcaster // one per controller; none in shadow mode
	dRec         record.EventRecorder
	// Deployments is the Deployment controller; nil with
	// NoDeploymentController.
	Deployments *DeploymentController
	// ReplicaSets is the ReplicaSet controller; nil with
	// NoReplicaSetController.
	ReplicaSets *ReplicaSetController
	// Kubelet is the stand-in kubelet; nil unless KubeletDelay > 0.
	Kubelet *Kubelet
	// StatefulSets is the StatefulSet controller; nil unless
	// ManagerOptions.StatefulSets.
	StatefulSets *StatefulSetController
	// DaemonSets is the DaemonSet controller; nil unless
	// ManagerOptions.DaemonSets.
	DaemonSets *DaemonSetController
	// Scheduler is the stand-in scheduler; nil unless
	// ManagerOptions.Scheduler.
	Scheduler *Scheduler

	syncTimeout time.Duration
	caches      []namedInformer // the informers the controllers read
	errMu       sync.Mutex
	lastErr     map[string]error // the last list or watch error of each cache
}

// namedInformer is an informer and the resource it caches.
type namedInformer struct {
	resource string
	informer cache.SharedIndexInformer
}

// NewManager builds the controllers. In shadow mode no event is recorded.
func NewManager(client kubernetes.Interface, o ManagerOptions) (*Manager, error) {
	opts, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.CacheSyncTimeout < 0 {
		return nil, fmt.Errorf("%w: CacheSyncTimeout %s: want 0 or more", ErrOptions, o.CacheSyncTimeout)
	}
	m := &Manager{
		factory:     informers.NewSharedInformerFactoryWithOptions(client, opts.Resync, informers.WithNamespace(o.Namespace)),
		syncTimeout: o.CacheSyncTimeout,
		lastErr:     map[string]error{},
	}
	fail := func(err error) (*Manager, error) {
		m.shutdownBroadcasters()
		return nil, err
	}
	if !o.NoDeploymentController {
		c, rec, err := m.controllerClient(client, o, opts, "deployment-controller")
		if err != nil {
			return fail(err)
		}
		m.dRec = rec
		if m.Deployments, err = NewDeploymentController(c, m.factory, rec, opts); err != nil {
			return fail(err)
		}
	}
	if !o.NoReplicaSetController {
		c, rec, err := m.controllerClient(client, o, opts, "replicaset-controller")
		if err != nil {
			return fail(err)
		}
		if m.ReplicaSets, err = NewReplicaSetController(c, m.factory, rec, opts); err != nil {
			return fail(err)
		}
	}
	if o.StatefulSets {
		c, rec, err := m.controllerClient(client, o, opts, "statefulset-controller")
		if err != nil {
			return fail(err)
		}
		if m.StatefulSets, err = NewStatefulSetController(c, m.factory, rec, opts); err != nil {
			return fail(err)
		}
	}
	if err := m.addDaemonSets(client, o, opts); err != nil {
		return fail(err)
	}
	if o.KubeletDelay > 0 {
		if m.Kubelet, err = NewKubelet(client, m.factory, o.KubeletDelay, opts.Gate); err != nil {
			return fail(err)
		}
	}
	if err := m.watchCaches(); err != nil {
		return fail(err)
	}
	return m, nil
}

// controllerClient is the client the controller called name writes
// through (ManagerOptions.ClientFor's, else client) and, but in shadow
// mode, the recorder of its events, sent through that client by a
// broadcaster of its own, as each of kube-controller-manager's
// controllers has.
func (m *Manager) controllerClient(client kubernetes.Interface, o ManagerOptions, opts Options, name string) (kubernetes.Interface, record.EventRecorder, error) {
	if o.ClientFor != nil {
		c, err := o.ClientFor(name)
		if err != nil {
			return nil, nil, fmt.Errorf("client of %s: %w", name, err)
		}
		if c == nil {
			return nil, nil, fmt.Errorf("%w: ClientFor(%q) returned no client", ErrOptions, name)
		}
		client = c
	}
	if opts.Shadow {
		return client, nil, nil
	}
	b := record.NewBroadcaster()
	b.StartRecordingToSink(&typedcore.EventSinkImpl{Interface: client.CoreV1().Events("")})
	m.broadcasters = append(m.broadcasters, b)
	return client, b.NewRecorder(scheme.Scheme, core.EventSource{Component: name}), nil
}

// shutdownBroadcasters stops the controllers' event broadcasters.
func (m *Manager) shutdownBroadcasters() {
	for _, b := range m.broadcasters {
		b.Shutdown()
	}
}

// watchCaches lists the informers the controllers read and records their
// list and watch errors, so that a cache that does not sync says why.
// The errors are still logged as client-go logs them.
func (m *Manager) watchCaches() error {
	if m.Deployments != nil {
		m.caches = append(m.caches, namedInformer{"deployments", m.factory.Apps().V1().Deployments().Informer()})
	}
	if m.Deployments != nil || m.ReplicaSets != nil {
		m.caches = append(m.caches, namedInformer{"replicasets", m.factory.Apps().V1().ReplicaSets().Informer()})
	}
	if m.Deployments != nil || m.ReplicaSets != nil || m.Kubelet != nil {
		m.caches = append(m.caches, namedInformer{"pods", m.factory.Core().V1().Pods().Informer()})
	}
	m.addStatefulSetCaches()
	m.addDaemonSetCaches()
	for _, c := range m.caches {
		resource := c.resource
		if err := c.informer.SetWatchErrorHandlerWithContext(func(ctx context.Context, r *cache.Reflector, err error) {
			m.errMu.Lock()
			m.lastErr[resource] = err
			m.errMu.Unlock()
			cache.DefaultWatchErrorHandler(ctx, r, err)
		}); err != nil {
			return err
		}
	}
	return nil
}

// addCachesOnce adds to the caches Run waits for those of want whose
// resource no other controller has added (the controllers share the
// factory's informers).
func (m *Manager) addCachesOnce(want ...namedInformer) {
	for _, c := range want {
		dup := false
		for _, have := range m.caches {
			dup = dup || have.resource == c.resource
		}
		if !dup {
			m.caches = append(m.caches, c)
		}
	}
}

// waitForCaches waits for the caches to sync, at most the
// CacheSyncTimeout, and says which did not and why.
func (m *Manager) waitForCaches(ctx context.Context) error {
	wctx := ctx
	if m.syncTimeout > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, m.syncTimeout)
		defer cancel()
	}
	var pending []string
	err := wait.PollUntilContextCancel(wctx, 50*time.Millisecond, true, func(context.Context) (bool, error) {
		pending = pending[:0]
		for _, c := range m.caches {
			if !c.informer.HasSynced() {
				pending = append(pending, c.resource)
			}
		}
		return len(pending) == 0, nil
	})
	if err == nil {
		return nil
	}
	var why string
	if ctx.Err() != nil {
		why = fmt.Sprintf("stopped before they synced (%v)", context.Cause(ctx))
	} else {
		why = fmt.Sprintf("not synced within %s", m.syncTimeout)
	}
	msg := fmt.Sprintf("%s %s", strings.Join(pending, ", "), why)
	m.errMu.Lock()
	var causes []string
	for _, r := range pending {
		if e := m.lastErr[r]; e != nil {
			causes = append(causes, r+": "+oneLine(e.Error()))
		}
	}
	m.errMu.Unlock()
	if len(causes) > 0 {
		msg += "; last error: " + strings.Join(causes, "; ")
	} else {
		msg += "; no list or watch error reported"
	}
	return fmt.Errorf("%w: %s", ErrCacheSync, msg)
}

// oneLine folds the line breaks of an error message.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Run starts the informers, waits for their caches to sync (at most
// CacheSyncTimeout when set), then runs the controllers and returns nil
// when ctx ends and every worker has stopped. When the caches do not sync
// in time, or ctx ends before they do, it stops the informers and returns
// an error matching [ErrCacheSync] that names the caches and the last
// list or watch error of each (the API server unreachable, access
// forbidden ...).
func (m *Manager) Run(ctx context.Context) error {
	ictx, stop := context.WithCancel(ctx)
	defer stop()
	m.factory.Start(ictx.Done())
	if err := m.waitForCaches(ctx); err != nil {
		stop()
		m.factory.Shutdown()
		m.shutdownBroadcasters()
		return err
	}
	var wg sync.WaitGroup
	run := func(f func(context.Context)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(ctx)
		}()
	}
	if m.Deployments != nil {
		run(m.Deployments.Run)
	}
	if m.ReplicaSets != nil {
		run(m.ReplicaSets.Run)
	}
	if m.Kubelet != nil {
		run(m.Kubelet.Run)
	}
	if m.StatefulSets != nil {
		run(m.StatefulSets.Run)
	}
	m.runDaemonSets(run)
	wg.Wait()
	stop()
	m.factory.Shutdown()
	m.shutdownBroadcasters()
	return nil
}

// Stats returns the Deployment controller's write counts.
func (m *Manager) Stats() Stats {
	if m.Deployments == nil {
		return Stats{}
	}
	return m.Deployments.Stats()
}

// Queues describes the work queues of the controllers the Manager runs
// (their length, the longest each has been, requeues after failed syncs
// and keys dropped after the retries), in a fixed order.
func (m *Manager) Queues() []QueueStats {
	var out []QueueStats
	for _, w := range []*worker{m.deploymentWorker(), m.replicaSetWorker()} {
		if w != nil {
			out = append(out, w.stats())
		}
	}
	return out
}

func (m *Manager) deploymentWorker() *worker {
	if m.Deployments == nil {
		return nil
	}
	return m.Deployments.w
}

func (m *Manager) replicaSetWorker() *worker {
	if m.ReplicaSets == nil {
		return nil
	}
	return m.ReplicaSets.w
}

// Recorder returns the recorder of deployment-controller events, nil in
// shadow mode.
func (m *Manager) Recorder() record.EventRecorder { return m.dRec }
