// Package kubecluster starts a whole local Kubernetes cluster without
// containers: etcd and kube-apiserver (package testenv),
// kube-controller-manager, kube-scheduler, stand-in nodes with their
// kubelet (package controller's NodeHeartbeats and Kubelet), and, in place
// of kube-controller-manager's Deployment and ReplicaSet controllers,
// rolloutplan-controller. Every Kubernetes binary is the v1.36.3 release
// that hack/build-apiserver.sh builds from the module proxy.
//
// It exists so that the same cluster can run with either set of
// Deployment and ReplicaSet controllers: Kubernetes' own e2e specs and the
// side-by-side comparisons run against both.
package kubecluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/rolloutplan/rolloutplan/examples/controller/internal/testenv"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
)

// Controllers names who runs the Deployment and ReplicaSet controllers.
type Controllers string

// The two sets of Deployment and ReplicaSet controllers.
const (
	// Rolloutplan runs rolloutplan-controller, and kube-controller-manager
	// without its deployment-controller and replicaset-controller.
	Rolloutplan Controllers = "rolloutplan"
	// Upstream runs kube-controller-manager with all its default
	// controllers, its Deployment and ReplicaSet ones included.
	Upstream Controllers = "upstream"
)

// ParseControllers reads "rolloutplan" or "upstream".
func ParseControllers(s string) (Controllers, error) {
	switch c := Controllers(s); c {
	case Rolloutplan, Upstream:
		return c, nil
	}
	return "", fmt.Errorf("controllers %q: want rolloutplan or upstream", s)
}

// KubeVersion is the version of kube-controller-manager, kube-scheduler
// and e2e.test that hack/build-apiserver.sh builds.
const KubeVersion = testenv.KubeAPIServerVersion

// Options configure [Start].
type Options struct {
	// Dir keeps the cluster's data, credentials and logs; it must exist.
	Dir string
	// Controllers says whose Deployment and ReplicaSet controllers run.
	Controllers Controllers
	// ControllerBinary is the rolloutplan-controller binary; required
	// with Rolloutplan.
	ControllerBinary string
	// ControllerArgs are extra flags for rolloutplan-controller.
	ControllerArgs []string
	// StatefulSets and DaemonSets swap the StatefulSet and DaemonSet
	// controllers too: with Rolloutplan, kube-controller-manager runs
	// without them and rolloutplan-controller with --statefulsets and
	// --daemonsets.
	StatefulSets, DaemonSets bool
	// KubeControllers, when not empty, replaces the list of controllers
	// kube-controller-manager runs (its --controllers flag) beside the
	// Deployment and ReplicaSet ones, which Controllers decides: say
	// "-*" for none (kube-controller-manager itself knows no "-*": it is
	// dropped from the flag, which then lists no "*"). Without its
	// serviceaccount-controller, Start does not wait for the default
	// service account.
	KubeControllers []string
	// APIServerFlags are extra kube-apiserver flags (an audit log, say).
	APIServerFlags []string
	// Nodes is the number of stand-in nodes; 0 means 3, a negative
	// number none (and no kube-scheduler: the stand-in kubelet then runs
	// every pod unbound).
	Nodes int
	// KubeletDelay is how long after its binding a pod becomes ready; 0
	// means 500ms.
	KubeletDelay time.Duration
	// Pullable says which images the stand-in kubelet can pull (see
	// controller.Kubelet.Pullable); nil means all.
	Pullable func(image string) bool
	// StartTimeout bounds the start of each component; 0 means 2m.
	StartTimeout time.Duration
}

// Cluster is a running cluster.
type Cluster struct {
	// Env is its etcd and kube-apiserver.
	Env *testenv.Env
	// Kubeconfig is the path of an admin kubeconfig.
	Kubeconfig string
	// Client is an admin clientset.
	Client kubernetes.Interface
	// KubeControllerManager is the kube-controller-manager process.
	KubeControllerManager *testenv.Process
	// Controller is the rolloutplan-controller process; nil with
	// Upstream.
	Controller *testenv.Process
	// Scheduler is the kube-scheduler process; nil without nodes.
	Scheduler *testenv.Process

	dir    string
	cancel context.CancelFunc
	nodes  chan error
}

// swapped lists the kube-controller-manager v1.36 controllers that
// rolloutplan-controller replaces.
func swapped(o Options) []string {
	names := []string{"deployment-controller", "replicaset-controller"}
	if o.StatefulSets {
		names = append(names, "statefulset-controller")
	}
	if o.DaemonSets {
		names = append(names, "daemonset-controller")
	}
	return names
}

// Start starts the cluster and waits until its nodes are Ready and the
// default namespace's service account exists (kube-controller-manager is
// working). On error everything started is stopped.
func Start(ctx context.Context, o Options) (c *Cluster, err error) {
	if o.Dir == "" {
		return nil, errors.New("kubecluster: Options.Dir is empty")
	}
	if _, err := ParseControllers(string(o.Controllers)); err != nil {
		return nil, fmt.Errorf("kubecluster: %w", err)
	}
	if o.Controllers == Rolloutplan && o.ControllerBinary == "" {
		return nil, errors.New("kubecluster: Options.ControllerBinary is required with the rolloutplan controllers")
	}
	timeout := o.StartTimeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	kcmBin, err := testenv.Binary("kube-controller-manager", KubeVersion)
	if err != nil {
		return nil, err
	}
	nodes := o.Nodes
	if nodes == 0 {
		nodes = 3
	}
	var schedBin string
	if nodes > 0 {
		if schedBin, err = testenv.Binary("kube-scheduler", KubeVersion); err != nil {
			return nil, err
		}
	}
	c = &Cluster{dir: o.Dir}
	defer func() {
		if err != nil {
			c.Stop()
			c = nil
		}
	}()
	if c.Env, err = testenv.StartWith(o.Dir, timeout, testenv.Options{APIServerFlags: o.APIServerFlags}); err != nil {
		return c, err
	}
	c.Kubeconfig = filepath.Join(o.Dir, "kubeconfig")
	if err = c.Env.Kubeconfig(c.Kubeconfig); err != nil {
		return c, err
	}
	client, err := c.Env.Client()
	if err != nil {
		return c, err
	}
	c.Client = client

	kcmArgs := []string{
		"--kubeconfig=" + c.Kubeconfig,
		"--leader-elect=false",
		"--secure-port=0",
		"--controllers=" + strings.Join(kubeControllers(o), ","),
		"--root-ca-file=" + c.Env.ServingCertFile(),
		"--service-account-private-key-file=" + c.Env.ServiceAccountKeyFile(),
		"--v=1",
	}
	if c.KubeControllerManager, err = testenv.StartProcess(filepath.Join(o.Dir, "kube-controller-manager.log"), kcmBin, kcmArgs...); err != nil {
		return c, err
	}
	if nodes > 0 {
		if c.Scheduler, err = testenv.StartProcess(filepath.Join(o.Dir, "kube-scheduler.log"), schedBin,
			"--kubeconfig="+c.Kubeconfig, "--leader-elect=false", "--secure-port=0", "--v=1"); err != nil {
			return c, err
		}
	}
	if o.Controllers == Rolloutplan {
		// One replica, like kube-controller-manager here: no lease to
		// hold (a loaded machine that stalls past the renew deadline would
		// stop a leader, which is right in production and noise here).
		args := []string{"--kubeconfig=" + c.Kubeconfig, "--leader-elect=false"}
		if o.StatefulSets {
			args = append(args, "--statefulsets")
		}
		if o.DaemonSets {
			args = append(args, "--daemonsets")
		}
		args = append(args, o.ControllerArgs...)
		if c.Controller, err = testenv.StartProcess(filepath.Join(o.Dir, "rolloutplan-controller.log"), o.ControllerBinary, args...); err != nil {
			return c, err
		}
	}
	if err = c.startNodes(ctx, nodes, o.KubeletDelay, o.Pullable); err != nil {
		return c, err
	}
	return c, c.waitReady(ctx, nodes, enabled("serviceaccount-controller", kubeControllers(o)), timeout)
}

// kubeControllers is kube-controller-manager's --controllers list.
func kubeControllers(o Options) []string {
	list := o.KubeControllers
	if len(list) == 0 {
		list = []string{"*"}
	}
	list = slices.DeleteFunc(append([]string(nil), list...), func(s string) bool { return s == "-*" })
	for _, name := range swapped(o) {
		switch {
		case o.Controllers == Rolloutplan:
			list = append(list, "-"+name)
		case len(o.KubeControllers) > 0:
			list = append(list, name)
		}
	}
	return list
}

// enabled says whether kube-controller-manager runs the controller name,
// on by default, with the --controllers list: the first entry naming it
// decides, else "*" enables it.
func enabled(name string, list []string) bool {
	for _, c := range list {
		switch c {
		case name:
			return true
		case "-" + name:
			return false
		}
	}
	return slices.Contains(list, "*")
}

// startNodes registers the stand-in nodes and runs their heartbeats and
// kubelet, and the stand-in volume provisioner, in this process until
// Stop.
func (c *Cluster) startNodes(ctx context.Context, n int, delay time.Duration, pullable func(string) bool) error {
	if delay == 0 {
		delay = 500 * time.Millisecond
	}
	var names []string
	for i := range max(n, 0) {
		names = append(names, fmt.Sprintf("node-%d", i+1))
	}
	ctx, c.cancel = context.WithCancel(ctx)
	factory := informers.NewSharedInformerFactory(c.Client, 0)
	kubelet, err := controller.NewKubelet(c.Client, factory, delay, nil)
	if err != nil {
		return err
	}
	kubelet.Nodes, kubelet.Pullable = names, pullable
	// Claims get volumes from a stand-in provisioner of the default
	// StorageClass "standard", as on a cluster with dynamic provisioning.
	provisioner, err := controller.NewProvisioner(c.Client, factory, "standard")
	if err != nil {
		return err
	}
	if _, err := c.Client.StorageV1().StorageClasses().Create(ctx, provisioner.DefaultStorageClass(), metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("storage class: %w", err)
	}
	c.nodes = make(chan error, 1)
	if len(names) == 0 {
		close(c.nodes)
	} else {
		heartbeats := controller.NewNodeHeartbeats(c.Client, names...)
		if err := heartbeats.Register(ctx); err != nil {
			close(c.nodes)
			return err
		}
		go func() { c.nodes <- heartbeats.Run(ctx) }()
	}
	factory.Start(ctx.Done())
	go kubelet.Run(ctx)
	go provisioner.Run(ctx)
	return nil
}

// waitReady waits for the nodes to be Ready without the not-ready taint
// (kube-controller-manager's node lifecycle controller removes it) and for
// the default service account (its service account controller, when it
// runs).
func (c *Cluster) waitReady(ctx context.Context, nodes int, serviceAccounts bool, timeout time.Duration) error {
	var last string
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		select {
		case <-c.KubeControllerManager.Done():
			return false, fmt.Errorf("kube-controller-manager exited: %s", tail(filepath.Join(c.dir, "kube-controller-manager.log")))
		default:
		}
		if c.Scheduler != nil {
			select {
			case <-c.Scheduler.Done():
				return false, fmt.Errorf("kube-scheduler exited: %s", tail(filepath.Join(c.dir, "kube-scheduler.log")))
			default:
			}
		}
		if c.Controller != nil {
			select {
			case <-c.Controller.Done():
				return false, fmt.Errorf("rolloutplan-controller exited: %s", tail(filepath.Join(c.dir, "rolloutplan-controller.log")))
			default:
			}
		}
		if serviceAccounts {
			if _, err := c.Client.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{}); err != nil {
				last = "service account default/default: " + err.Error()
				return false, nil
			}
		}
		list, err := c.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			last = err.Error()
			return false, nil
		}
		ready := 0
		for _, n := range list.Items {
			if len(n.Spec.Taints) == 0 && !n.Spec.Unschedulable {
				ready++
			}
		}
		if ready < nodes {
			last = fmt.Sprintf("%d of %d nodes untainted", ready, nodes)
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("cluster not ready after %s (%s): %w", timeout, last, err)
	}
	return nil
}

// Stop stops every component: rolloutplan-controller gracefully (its
// last line counts its syncs and writes), the others killed. It returns
// rolloutplan-controller's exit error, if any.
func (c *Cluster) Stop() error {
	var err error
	if c.Controller != nil {
		err = c.Controller.Stop(10 * time.Second)
	}
	if c.cancel != nil {
		c.cancel()
		<-c.nodes
	}
	if c.Scheduler != nil {
		c.Scheduler.Kill()
	}
	if c.KubeControllerManager != nil {
		c.KubeControllerManager.Kill()
	}
	if c.Env != nil {
		c.Env.Stop()
	}
	return err
}

func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
