package controller

import (
	"context"
	"sync"
	"time"

	core "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcore "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"
)

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
}

// Manager runs the Deployment controller, the ReplicaSet controller and,
// optionally, the stand-in kubelet on one set of informers, recording
// events as deployment-controller and replicaset-controller.
type Manager struct {
	factory     informers.SharedInformerFactory
	broadcaster record.EventBroadcaster
	dRec        record.EventRecorder
	// Deployments is the Deployment controller; nil with
	// NoDeploymentController.
	Deployments *DeploymentController
	// ReplicaSets is the ReplicaSet controller; nil with
	// NoReplicaSetController.
	ReplicaSets *ReplicaSetController
	// Kubelet is the stand-in kubelet; nil unless KubeletDelay > 0.
	Kubelet *Kubelet
}

// NewManager builds the controllers. In shadow mode no event is recorded.
func NewManager(client kubernetes.Interface, o ManagerOptions) (*Manager, error) {
	opts, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	m := &Manager{factory: informers.NewSharedInformerFactoryWithOptions(client, opts.Resync, informers.WithNamespace(o.Namespace))}
	var rsRec record.EventRecorder
	if !opts.Shadow {
		m.broadcaster = record.NewBroadcaster()
		m.dRec = m.broadcaster.NewRecorder(scheme.Scheme, core.EventSource{Component: "deployment-controller"})
		rsRec = m.broadcaster.NewRecorder(scheme.Scheme, core.EventSource{Component: "replicaset-controller"})
		m.broadcaster.StartRecordingToSink(&typedcore.EventSinkImpl{Interface: client.CoreV1().Events("")})
	}
	if !o.NoDeploymentController {
		if m.Deployments, err = NewDeploymentController(client, m.factory, m.dRec, opts); err != nil {
			return nil, err
		}
	}
	if !o.NoReplicaSetController {
		if m.ReplicaSets, err = NewReplicaSetController(client, m.factory, rsRec, opts); err != nil {
			return nil, err
		}
	}
	if o.KubeletDelay > 0 {
		if m.Kubelet, err = NewKubelet(client, m.factory, o.KubeletDelay, opts.Gate); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// Run starts the informers and the controllers and returns when ctx ends
// and every worker has stopped.
func (m *Manager) Run(ctx context.Context) {
	m.factory.Start(ctx.Done())
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
	wg.Wait()
	m.factory.Shutdown()
	if m.broadcaster != nil {
		m.broadcaster.Shutdown()
	}
}

// Stats returns the Deployment controller's write counts.
func (m *Manager) Stats() Stats {
	if m.Deployments == nil {
		return Stats{}
	}
	return m.Deployments.Stats()
}

// Recorder returns the recorder of deployment-controller events, nil in
// shadow mode.
func (m *Manager) Recorder() record.EventRecorder { return m.dRec }
