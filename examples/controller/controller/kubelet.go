package controller

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// Kubelet stands in for the kubelets of a cluster without nodes: Delay
// after a pod appears it marks it Running and, unless NeverReady says
// otherwise, Ready; a pod being deleted is removed at once (its containers
// "stop" immediately). A pod pinned to a node by its node affinity (a
// DaemonSet's) runs only once bound to it, by a scheduler or the stand-in
// [Scheduler]. It is for tests and demonstrations only.
type Kubelet struct {
	client    kubernetes.Interface
	podLister corelisters.PodLister
	w         *worker
	// Delay is how long after its creation a pod becomes ready.
	Delay time.Duration
	// NeverReady reports pods that run but never become ready; nil means
	// pods whose first container's image contains "never-ready".
	NeverReady func(*core.Pod) bool
	// Pullable reports whether an image can be pulled; nil means every
	// image can. A pod with an image that cannot stays Pending with that
	// container waiting in ErrImagePull and the pod not Ready, as a
	// kubelet reports a pull its registry refuses.
	Pullable func(image string) bool
	// Nodes, when not empty, makes it the kubelet of these nodes (see
	// [NodeHeartbeats]): it runs only the pods a scheduler bound to one of
	// them, and leaves the others alone, as a cluster's kubelets do. Empty,
	// it runs every pod, bound or not, but those pinned to a node by their
	// node affinity, which wait for their binding.
	Nodes []string

	seenMu sync.Mutex
	seen   map[types.UID]time.Time // when each pod was first seen
}

// NewKubelet registers the stand-in kubelet on the factory's Pod informer.
//
// gate, when not nil, is read-locked around every pod it handles (see
// [Options.Gate]).
func NewKubelet(client kubernetes.Interface, factory informers.SharedInformerFactory, delay time.Duration, gate *sync.RWMutex) (*Kubelet, error) {
	pi := factory.Core().V1().Pods()
	k := &Kubelet{client: client, podLister: pi.Lister(), Delay: delay}
	k.w = newWorker("kubelet", k.sync, []cache.InformerSynced{pi.Informer().HasSynced}, 2, nil, gate)
	add := func(obj any) {
		if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			k.w.add(key)
		}
	}
	if _, err := pi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    add,
		UpdateFunc: func(_, cur any) { add(cur) },
	}); err != nil {
		return nil, err
	}
	return k, nil
}

// Run waits for the cache and works until ctx ends.
func (k *Kubelet) Run(ctx context.Context) { k.w.run(ctx) }

// firstSeen returns when the kubelet first saw the pod (creation
// timestamps have only second precision).
func (k *Kubelet) firstSeen(uid types.UID) time.Time {
	k.seenMu.Lock()
	defer k.seenMu.Unlock()
	if k.seen == nil {
		k.seen = map[types.UID]time.Time{}
	}
	t, ok := k.seen[uid]
	if !ok {
		t = time.Now()
		k.seen[uid] = t
	}
	return t
}

func neverReadyImage(p *core.Pod) bool {
	return len(p.Spec.Containers) > 0 && strings.Contains(p.Spec.Containers[0].Image, "never-ready")
}

func (k *Kubelet) sync(ctx context.Context, key string) error {
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	p, err := k.podLister.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	pods := k.client.CoreV1().Pods(ns)
	if p.DeletionTimestamp != nil {
		k.seenMu.Lock()
		delete(k.seen, p.UID)
		k.seenMu.Unlock()
		if len(k.Nodes) > 0 && p.Status.Phase == core.PodRunning && slices.Contains(k.Nodes, p.Spec.NodeName) {
			// A kubelet stops the containers of a pod being deleted and
			// reports it in a terminal phase before it removes it (a
			// finalizer may keep it longer, no longer ready).
			if err := k.reportTerminated(ctx, p); err != nil {
				return err
			}
		}
		err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: new(int64(0)), Preconditions: &metav1.Preconditions{UID: &p.UID}})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return nil
		}
		return err
	}
	switch p.Status.Phase {
	case core.PodRunning, core.PodSucceeded, core.PodFailed:
		return nil // started already; a finished pod never runs again
	}
	if len(k.Nodes) > 0 {
		if !slices.Contains(k.Nodes, p.Spec.NodeName) {
			return nil // not bound yet (its binding brings it back), or another kubelet's
		}
		if p.Status.Phase == core.PodPending {
			if rejected, err := k.admitHostPorts(ctx, p); rejected || err != nil {
				return err
			}
		}
	} else if awaitsBinding(p) {
		return nil // the stand-in Scheduler binds it; the binding's update brings it back
	}
	if wait := time.Until(k.firstSeen(p.UID).Add(k.Delay)); wait > 0 {
		k.w.queue.AddAfter(key, wait)
		return nil
	}
	if k.Pullable != nil && k.reportPullFailure(ctx, p) {
		return nil
	}
	never := neverReadyImage
	if k.NeverReady != nil {
		never = k.NeverReady
	}
	ready := core.ConditionTrue
	if never(p) {
		ready = core.ConditionFalse
	}
	now := metav1.Now()
	up := p.DeepCopy()
	up.Status.Phase = core.PodRunning
	up.Status.StartTime = &now
	k.setAddresses(up)
	up.Status.Conditions = []core.PodCondition{
		{Type: core.PodScheduled, Status: core.ConditionTrue, LastTransitionTime: now},
		{Type: core.PodInitialized, Status: core.ConditionTrue, LastTransitionTime: now},
		{Type: core.ContainersReady, Status: ready, LastTransitionTime: now},
		{Type: core.PodReady, Status: ready, LastTransitionTime: now},
	}
	up.Status.ContainerStatuses = nil
	for _, c := range p.Spec.Containers {
		up.Status.ContainerStatuses = append(up.Status.ContainerStatuses, core.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: ready == core.ConditionTrue, Started: new(true),
			ImageID: "stand-in://" + c.Image, ContainerID: "stand-in://" + string(p.UID) + "/" + c.Name,
			State: core.ContainerState{Running: &core.ContainerStateRunning{StartedAt: now}},
		})
	}
	_, err = pods.UpdateStatus(ctx, up, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil // gone, or changed: the event of the change brings it back
	}
	return err
}

// reportPullFailure reports, once, a pod one of whose images cannot be
// pulled: phase Pending, the containers waiting (ErrImagePull for those
// whose image cannot be pulled, ContainerCreating for the others), the pod
// neither Ready nor ContainersReady. It returns false when every image
// can be pulled.
func (k *Kubelet) reportPullFailure(ctx context.Context, p *core.Pod) bool {
	failing := false
	for _, c := range p.Spec.Containers {
		if !k.Pullable(c.Image) {
			failing = true
		}
	}
	if !failing {
		return false
	}
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Waiting != nil && cs.State.Waiting.Reason == "ErrImagePull" {
			return true // reported already
		}
	}
	now := metav1.Now()
	up := p.DeepCopy()
	up.Status.Phase = core.PodPending
	up.Status.StartTime = &now
	k.setAddresses(up)
	notReady := "containers with unready status: ["
	up.Status.ContainerStatuses = nil
	for i, c := range p.Spec.Containers {
		waiting := &core.ContainerStateWaiting{Reason: "ContainerCreating"}
		if !k.Pullable(c.Image) {
			waiting = &core.ContainerStateWaiting{Reason: "ErrImagePull", Message: "stand-in registry: image " + c.Image + " not found"}
		}
		up.Status.ContainerStatuses = append(up.Status.ContainerStatuses, core.ContainerStatus{
			Name: c.Name, Image: c.Image, Started: new(false), State: core.ContainerState{Waiting: waiting},
		})
		if i > 0 {
			notReady += " "
		}
		notReady += c.Name
	}
	notReady += "]"
	up.Status.Conditions = []core.PodCondition{
		{Type: core.PodScheduled, Status: core.ConditionTrue, LastTransitionTime: now},
		{Type: core.PodInitialized, Status: core.ConditionTrue, LastTransitionTime: now},
		{Type: core.ContainersReady, Status: core.ConditionFalse, Reason: "ContainersNotReady", Message: notReady, LastTransitionTime: now},
		{Type: core.PodReady, Status: core.ConditionFalse, Reason: "ContainersNotReady", Message: notReady, LastTransitionTime: now},
	}
	_, err := k.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, up, metav1.UpdateOptions{})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		k.w.queue.AddRateLimited(p.Namespace + "/" + p.Name)
	}
	return true
}

// reportTerminated writes the status a kubelet writes once it has stopped
// a deleted pod's containers: every container terminated (exit code 0: the
// stand-in's containers always stop cleanly), the pod Succeeded and not
// Ready.
func (k *Kubelet) reportTerminated(ctx context.Context, p *core.Pod) error {
	now := metav1.Now()
	up := p.DeepCopy()
	up.Status.Phase = core.PodSucceeded
	for i := range up.Status.Conditions {
		switch c := &up.Status.Conditions[i]; c.Type {
		case core.PodReady, core.ContainersReady:
			if c.Status != core.ConditionFalse {
				c.Status, c.Reason, c.LastTransitionTime = core.ConditionFalse, "PodCompleted", now
			}
		}
	}
	for i := range up.Status.ContainerStatuses {
		cs := &up.Status.ContainerStatuses[i]
		var started metav1.Time
		if cs.State.Running != nil {
			started = cs.State.Running.StartedAt
		}
		cs.State = core.ContainerState{Terminated: &core.ContainerStateTerminated{
			ExitCode: 0, Reason: "Completed", StartedAt: started, FinishedAt: now, ContainerID: cs.ContainerID}}
		cs.Ready, cs.Started = false, new(false)
	}
	_, err := k.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, up, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil // gone, or changed: the event of the change brings it back
	}
	return err
}

// admitHostPorts is the kubelet's admission of a pod against the host
// ports of the pods running on its node: a pod asking for a host port
// (protocol, port and host IP, where 0.0.0.0 or empty takes every
// address) another running pod holds is rejected, phase Failed with
// reason NodePorts, and never runs. It reports whether the pod was
// rejected.
func (k *Kubelet) admitHostPorts(ctx context.Context, p *core.Pod) (bool, error) {
	wanted := hostPorts(p)
	if len(wanted) == 0 {
		return false, nil
	}
	others, err := k.podLister.List(labels.Everything())
	if err != nil {
		return false, err
	}
	conflict := false
	for _, o := range others {
		if o.UID == p.UID || o.Spec.NodeName != p.Spec.NodeName || o.Status.Phase != core.PodRunning {
			continue
		}
		for _, held := range hostPorts(o) {
			for _, w := range wanted {
				if w.port == held.port && w.protocol == held.protocol && (w.ip == held.ip || w.ip == "0.0.0.0" || held.ip == "0.0.0.0") {
					conflict = true
				}
			}
		}
	}
	if !conflict {
		return false, nil
	}
	up := p.DeepCopy()
	up.Status.Phase = core.PodFailed
	up.Status.Reason = "NodePorts"
	up.Status.Message = "Pod was rejected: Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports"
	_, err = k.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, up, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return true, nil
	}
	return true, err
}

type hostPort struct {
	protocol core.Protocol
	ip       string
	port     int32
}

// hostPorts lists the host ports a pod's containers ask for, with the
// API's defaults (TCP, every address).
func hostPorts(p *core.Pod) []hostPort {
	var out []hostPort
	for _, c := range p.Spec.Containers {
		for _, cp := range c.Ports {
			if cp.HostPort == 0 {
				continue
			}
			hp := hostPort{protocol: cp.Protocol, ip: cp.HostIP, port: cp.HostPort}
			if hp.protocol == "" {
				hp.protocol = core.ProtocolTCP
			}
			if hp.ip == "" {
				hp.ip = "0.0.0.0"
			}
			out = append(out, hp)
		}
	}
	return out
}

// setAddresses writes what a kubelet reports of a pod it starts: the
// addresses of its node and of the pod (a kubelet of no node reports none).
func (k *Kubelet) setAddresses(up *core.Pod) {
	if len(k.Nodes) == 0 {
		return
	}
	hostIP, podIP := nodeIP(up.Spec.NodeName), podIP(up.UID)
	up.Status.HostIP, up.Status.HostIPs = hostIP, []core.HostIP{{IP: hostIP}}
	up.Status.PodIP, up.Status.PodIPs = podIP, []core.PodIP{{IP: podIP}}
}
