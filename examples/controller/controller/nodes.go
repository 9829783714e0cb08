package controller

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/netip"
	"time"

	coordination "k8s.io/api/coordination/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// NodeHeartbeats stands in for the node half of a cluster's kubelets: it
// registers Node objects that report Ready, and keeps them alive the way a
// kubelet does (its Lease in kube-node-lease renewed every
// LeaseRenewInterval, its status posted every StatusInterval), so that
// kube-controller-manager's node lifecycle controller neither taints them
// nor evicts their pods, and kube-scheduler binds pods to them. A
// [Kubelet] with [Kubelet.Nodes] set to the same names runs the pods bound
// to them. It is for tests and demonstrations only.
type NodeHeartbeats struct {
	client kubernetes.Interface
	// Names are the nodes' names.
	Names []string
	// Capacity is each node's capacity and allocatable resources; nil
	// means 8 CPUs, 32Gi of memory and 110 pods.
	Capacity core.ResourceList
	// LeaseRenewInterval is how often each node's Lease is renewed; 0
	// means 10s, a kubelet's default.
	LeaseRenewInterval time.Duration
	// StatusInterval is how often each node's status is posted; 0 means
	// 1m (a kubelet posts an unchanged status every 5m and relies on its
	// Lease meanwhile).
	StatusInterval time.Duration
}

// The duration a node's Lease claims, a kubelet's default.
const nodeLeaseSeconds = 40

// NewNodeHeartbeats returns heartbeats for the named nodes; [NodeHeartbeats.Run]
// registers them.
func NewNodeHeartbeats(client kubernetes.Interface, names ...string) *NodeHeartbeats {
	return &NodeHeartbeats{client: client, Names: names}
}

// Register creates the nodes, or marks them Ready again when they exist,
// and their Leases. Run calls it first.
func (h *NodeHeartbeats) Register(ctx context.Context) error {
	if len(h.Names) == 0 {
		return errors.New("node heartbeats: no node names")
	}
	for _, name := range h.Names {
		if err := h.postStatus(ctx, name); err != nil {
			return err
		}
		if err := h.renewLease(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

// Run registers the nodes, then renews their Leases and posts their
// status until ctx ends. It returns the registration's error, or nil when
// ctx ends; a failed heartbeat is retried at the next tick, as a kubelet
// retries.
func (h *NodeHeartbeats) Run(ctx context.Context) error {
	if err := h.Register(ctx); err != nil {
		return err
	}
	leases := time.NewTicker(orDefault(h.LeaseRenewInterval, 10*time.Second))
	defer leases.Stop()
	status := time.NewTicker(orDefault(h.StatusInterval, time.Minute))
	defer status.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-leases.C:
			for _, name := range h.Names {
				_ = h.renewLease(ctx, name)
			}
		case <-status.C:
			for _, name := range h.Names {
				_ = h.postStatus(ctx, name)
			}
		}
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func (h *NodeHeartbeats) capacity() core.ResourceList {
	if h.Capacity != nil {
		return h.Capacity
	}
	return core.ResourceList{
		core.ResourceCPU:    resource.MustParse("8"),
		core.ResourceMemory: resource.MustParse("32Gi"),
		core.ResourcePods:   resource.MustParse("110"),
	}
}

// postStatus creates the node, or writes its status: Ready, no pressure,
// its address and version, the heartbeat time now. A conflict (the node
// lifecycle controller tainting the new node meanwhile) is retried on the
// node as it is now, as a kubelet retries.
func (h *NodeHeartbeats) postStatus(ctx context.Context, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { return h.tryPostStatus(ctx, name) })
}

func (h *NodeHeartbeats) tryPostStatus(ctx context.Context, name string) error {
	nodes := h.client.CoreV1().Nodes()
	now := metav1.Now()
	node, err := nodes.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		node = &core.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			core.LabelHostname: name, core.LabelOSStable: "linux", core.LabelArchStable: "amd64",
		}}}
		if node, err = nodes.Create(ctx, node, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("node %s: %w", name, err)
		}
	} else if err != nil {
		return fmt.Errorf("node %s: %w", name, err)
	}
	up := node.DeepCopy()
	condition := func(t core.NodeConditionType, s core.ConditionStatus, reason, message string) core.NodeCondition {
		since := now
		for _, c := range node.Status.Conditions {
			if c.Type == t && c.Status == s {
				since = c.LastTransitionTime
			}
		}
		return core.NodeCondition{Type: t, Status: s, Reason: reason, Message: message, LastHeartbeatTime: now, LastTransitionTime: since}
	}
	up.Status.Capacity, up.Status.Allocatable = h.capacity(), h.capacity()
	up.Status.Phase = core.NodeRunning
	up.Status.Conditions = []core.NodeCondition{
		condition(core.NodeMemoryPressure, core.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		condition(core.NodeDiskPressure, core.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		condition(core.NodePIDPressure, core.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
		condition(core.NodeReady, core.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
	}
	up.Status.Addresses = []core.NodeAddress{{Type: core.NodeInternalIP, Address: nodeIP(name)}, {Type: core.NodeHostName, Address: name}}
	up.Status.DaemonEndpoints.KubeletEndpoint.Port = 10250
	up.Status.NodeInfo = core.NodeSystemInfo{
		KubeletVersion: "v1.36.3", OperatingSystem: "linux", Architecture: "amd64",
		ContainerRuntimeVersion: "stand-in://1", OSImage: "rolloutplan stand-in", KernelVersion: "0",
	}
	if _, err := nodes.UpdateStatus(ctx, up, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("node %s status: %w", name, err)
	}
	return nil
}

// renewLease creates or renews the node's Lease in kube-node-lease, owned
// by the node as a kubelet's is (so that it goes with the node).
func (h *NodeHeartbeats) renewLease(ctx context.Context, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { return h.tryRenewLease(ctx, name) })
}

func (h *NodeHeartbeats) tryRenewLease(ctx context.Context, name string) error {
	leases := h.client.CoordinationV1().Leases(core.NamespaceNodeLease)
	now := metav1.NewMicroTime(time.Now())
	lease, err := leases.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		node, err := h.client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("lease %s: %w", name, err)
		}
		lease = &coordination.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: core.NamespaceNodeLease, OwnerReferences: []metav1.OwnerReference{
				{APIVersion: "v1", Kind: "Node", Name: name, UID: node.UID},
			}},
			Spec: coordination.LeaseSpec{HolderIdentity: &name, LeaseDurationSeconds: new(int32(nodeLeaseSeconds)), RenewTime: &now},
		}
		_, err = leases.Create(ctx, lease, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("lease %s: %w", name, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("lease %s: %w", name, err)
	}
	lease.Spec.RenewTime = &now
	if _, err := leases.Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("lease %s: %w", name, err)
	}
	return nil
}

// nodeIP is the stand-in node's InternalIP: a fixed address in 10.64.0.0/10
// derived from its name.
func nodeIP(node string) string { return addressIn(0x0a400000, 22, node) }

// podIP is a pod's stand-in address in 10.128.0.0/9, derived from its UID.
func podIP(uid types.UID) string { return addressIn(0x0a800000, 23, string(uid)) }

// addressIn maps key into the block base/(32-bits) by its FNV-1a hash, away
// from the block's first and last address.
func addressIn(base uint32, bits uint, key string) string {
	f := fnv.New32a()
	f.Write([]byte(key))
	size := uint32(1) << bits
	a := base + 1 + f.Sum32()%(size-2)
	return netip.AddrFrom4([4]byte{byte(a >> 24), byte(a >> 16), byte(a >> 8), byte(a)}).String()
}
