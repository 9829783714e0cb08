package controller

import (
	"context"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	apps "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
)

// addDaemonSets builds the DaemonSet controller (events as
// daemonset-controller) and the stand-in scheduler the options ask for.
func (m *Manager) addDaemonSets(client kubernetes.Interface, o ManagerOptions, opts Options) error {
	var err error
	if o.DaemonSets {
		c, rec, err := m.controllerClient(client, o, opts, "daemonset-controller")
		if err != nil {
			return err
		}
		if m.DaemonSets, err = NewDaemonSetController(c, m.factory, rec, opts); err != nil {
			return err
		}
	}
	if o.Scheduler {
		if m.Scheduler, err = NewScheduler(client, m.factory, opts.Gate); err != nil {
			return err
		}
	}
	return nil
}

// addDaemonSetCaches adds the informers the DaemonSet controller and the
// stand-in scheduler read to the caches Run waits for, each once.
func (m *Manager) addDaemonSetCaches() {
	var want []namedInformer
	if m.DaemonSets != nil {
		want = append(want,
			namedInformer{"daemonsets", m.factory.Apps().V1().DaemonSets().Informer()},
			namedInformer{"controllerrevisions", m.factory.Apps().V1().ControllerRevisions().Informer()})
	}
	if m.DaemonSets != nil || m.Scheduler != nil {
		want = append(want,
			namedInformer{"pods", m.factory.Core().V1().Pods().Informer()},
			namedInformer{"nodes", m.factory.Core().V1().Nodes().Informer()})
	}
	m.addCachesOnce(want...)
}

// runDaemonSets starts the DaemonSet controller and the stand-in
// scheduler with run.
func (m *Manager) runDaemonSets(run func(func(context.Context))) {
	if m.DaemonSets != nil {
		run(m.DaemonSets.Run)
	}
	if m.Scheduler != nil {
		run(m.Scheduler.Run)
	}
}

// LiveDaemonSetState reads the state one DaemonSet sync plans over
// straight from the API server (no informer cache): the DaemonSet, every
// node, and every pod and ControllerRevision of its namespace, all as of
// one resourceVersion (the pod list's, the others listed at exactly that
// version), so that the state is one the cluster was in, not a mix of
// reads taken while it changed. A DaemonSet that did not exist then is
// NotFound.
func LiveDaemonSetState(ctx context.Context, client kubernetes.Interface, namespace, name string, now time.Time) (appsv1.DaemonSetState, error) {
	return LiveDaemonSetStateAt(ctx, client, namespace, name, "", now)
}

// LiveDaemonSetStateAt is [LiveDaemonSetState] as of resourceVersion rv
// (the cluster's state right after the write that produced rv), or, for
// rv "", as of the latest one. The API server keeps past versions for a
// few minutes (until etcd compacts them).
func LiveDaemonSetStateAt(ctx context.Context, client kubernetes.Interface, namespace, name, rv string, now time.Time) (appsv1.DaemonSetState, error) {
	first := metav1.ListOptions{}
	if rv != "" {
		first = metav1.ListOptions{ResourceVersion: rv, ResourceVersionMatch: metav1.ResourceVersionMatchExact}
	}
	pods, err := client.CoreV1().Pods(namespace).List(ctx, first)
	if err != nil {
		return appsv1.DaemonSetState{}, err
	}
	at := metav1.ListOptions{ResourceVersion: pods.ResourceVersion, ResourceVersionMatch: metav1.ResourceVersionMatchExact}
	byName := at
	byName.FieldSelector = fields.OneTermEqualSelector("metadata.name", name).String()
	dss, err := client.AppsV1().DaemonSets(namespace).List(ctx, byName)
	if err != nil {
		return appsv1.DaemonSetState{}, err
	}
	if len(dss.Items) != 1 {
		return appsv1.DaemonSetState{}, apierrors.NewNotFound(apps.Resource("daemonsets"), name)
	}
	nodes, err := client.CoreV1().Nodes().List(ctx, at)
	if err != nil {
		return appsv1.DaemonSetState{}, err
	}
	revs, err := client.AppsV1().ControllerRevisions(namespace).List(ctx, at)
	if err != nil {
		return appsv1.DaemonSetState{}, err
	}
	s := appsv1.DaemonSetState{Now: now, DaemonSet: &dss.Items[0]}
	for i := range nodes.Items {
		s.Nodes = append(s.Nodes, &nodes.Items[i])
	}
	for i := range pods.Items {
		s.Pods = append(s.Pods, &pods.Items[i])
	}
	for i := range revs.Items {
		s.ControllerRevisions = append(s.ControllerRevisions, &revs.Items[i])
	}
	return s, nil
}
