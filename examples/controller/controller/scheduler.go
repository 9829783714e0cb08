package controller

import (
	"context"
	"sync"

	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// Scheduler stands in for kube-scheduler and the pod garbage collector of
// a cluster that has neither, for the pods the DaemonSet controller
// creates. It is for tests and demonstrations only.
//
// It binds (pods/binding) every pod pinned to one node by its required
// node affinity (a single term whose matchFields is metadata.name In
// [node], as upstream's DaemonSet controller writes it) to that node, once
// the node exists, carries the labels of the pod's nodeSelector, and has
// no NoSchedule or NoExecute taint the pod does not tolerate (an
// unschedulable node counts as tainted node.kubernetes.io/unschedulable,
// as the scheduler's NodeUnschedulable plugin has it). A pod that does not
// fit stays pending; a change of the node brings it back. Other pods are
// left alone.
//
// And it deletes, with grace period 0, the pods bound to a node that no
// longer exists, as the pod garbage collector's orphan rule does (without
// its 40-second quarantine).
type Scheduler struct {
	client     kubernetes.Interface
	podLister  corelisters.PodLister
	nodeLister corelisters.NodeLister
	w          *worker
}

// NewScheduler registers the stand-in scheduler on the factory's Pod and
// Node informers. gate, when not nil, is read-locked around every pod it
// handles (see [Options.Gate]).
func NewScheduler(client kubernetes.Interface, factory informers.SharedInformerFactory, gate *sync.RWMutex) (*Scheduler, error) {
	pi := factory.Core().V1().Pods()
	ni := factory.Core().V1().Nodes()
	s := &Scheduler{client: client, podLister: pi.Lister(), nodeLister: ni.Lister()}
	s.w = newWorker("scheduler", s.sync, []cache.InformerSynced{pi.Informer().HasSynced, ni.Informer().HasSynced}, 2, nil, gate)
	add := func(obj any) {
		if p, ok := obj.(*core.Pod); ok && s.mine(p) {
			s.w.add(p.Namespace + "/" + p.Name)
		}
	}
	if _, err := pi.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    add,
		UpdateFunc: func(_, cur any) { add(cur) },
	}); err != nil {
		return nil, err
	}
	node := func(obj any) {
		if ts, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = ts.Obj
		}
		if n, ok := obj.(*core.Node); ok {
			s.wakeNode(n.Name)
		}
	}
	if _, err := ni.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    node,
		UpdateFunc: func(_, cur any) { node(cur) },
		DeleteFunc: node,
	}); err != nil {
		return nil, err
	}
	return s, nil
}

// Run waits for the caches and works until ctx ends.
func (s *Scheduler) Run(ctx context.Context) { s.w.run(ctx) }

// mine reports the pods the stand-in handles: bound ones (for the garbage
// collection) and pending ones pinned to a node.
func (s *Scheduler) mine(p *core.Pod) bool {
	return p.Spec.NodeName != "" || PinnedNode(p) != ""
}

// wakeNode queues the pods bound or pinned to a node that changed.
func (s *Scheduler) wakeNode(name string) {
	pods, err := s.podLister.List(labels.Everything())
	if err != nil {
		return
	}
	for _, p := range pods {
		if p.Spec.NodeName == name || (p.Spec.NodeName == "" && PinnedNode(p) == name) {
			s.w.add(p.Namespace + "/" + p.Name)
		}
	}
}

// PinnedNode returns the node a pod's required node affinity pins it to
// (one term, matchFields metadata.name In [node]), or "".
func PinnedNode(p *core.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) != 1 || len(terms[0].MatchFields) != 1 {
		return ""
	}
	r := terms[0].MatchFields[0]
	if r.Key != metav1.ObjectNameField || r.Operator != core.NodeSelectorOpIn || len(r.Values) != 1 {
		return ""
	}
	return r.Values[0]
}

// awaitsBinding reports a pod the stand-in scheduler is to bind: the
// stand-in kubelet leaves it alone until then, as a kubelet only runs the
// pods bound to its node.
func awaitsBinding(p *core.Pod) bool { return p.Spec.NodeName == "" && PinnedNode(p) != "" }

func (s *Scheduler) sync(ctx context.Context, key string) error {
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	p, err := s.podLister.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if p.DeletionTimestamp != nil {
		return nil
	}
	if p.Spec.NodeName != "" {
		return s.collect(ctx, p)
	}
	target := PinnedNode(p)
	if target == "" {
		return nil
	}
	node, err := s.nodeLister.Get(target)
	if apierrors.IsNotFound(err) {
		return nil // the node's creation brings the pod back
	}
	if err != nil {
		return err
	}
	if !fits(p, node) {
		return nil
	}
	err = s.client.CoreV1().Pods(ns).Bind(ctx, &core.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: p.UID},
		Target:     core.ObjectReference{Kind: "Node", Name: target},
	}, metav1.CreateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil // gone, or bound already
	}
	return err
}

// collect deletes a pod bound to a node that no longer exists (asking the
// server, not the cache, before deleting).
func (s *Scheduler) collect(ctx context.Context, p *core.Pod) error {
	if _, err := s.nodeLister.Get(p.Spec.NodeName); !apierrors.IsNotFound(err) {
		return err
	}
	if _, err := s.client.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		return err
	}
	err := s.client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{
		GracePeriodSeconds: new(int64(0)), Preconditions: &metav1.Preconditions{UID: &p.UID}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// fits is the part of the scheduler's filters a pinned pod meets: the
// node carries the labels of the pod's nodeSelector, and the pod tolerates
// the node's NoSchedule and NoExecute taints (unschedulable counting as
// the node.kubernetes.io/unschedulable:NoSchedule taint).
func fits(p *core.Pod, n *core.Node) bool {
	for k, v := range p.Spec.NodeSelector {
		if got, ok := n.Labels[k]; !ok || got != v {
			return false
		}
	}
	taints := n.Spec.Taints
	if n.Spec.Unschedulable {
		taints = append(taints[:len(taints):len(taints)], core.Taint{Key: core.TaintNodeUnschedulable, Effect: core.TaintEffectNoSchedule})
	}
	for i := range taints {
		t := &taints[i]
		if t.Effect != core.TaintEffectNoSchedule && t.Effect != core.TaintEffectNoExecute {
			continue
		}
		tolerated := false
		for j := range p.Spec.Tolerations {
			// The comparison operators of tolerations are an alpha
			// feature, off by default in v1.36.
			if p.Spec.Tolerations[j].ToleratesTaint(klog.Background(), t, false) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			return false
		}
	}
	return true
}
