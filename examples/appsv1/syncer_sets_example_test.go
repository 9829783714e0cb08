package appsv1_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A StatefulSetSyncer plans like SyncStatefulSet; planning the same
// objects again reuses their conversions and the revision data of the
// set's template (keyed by UID and resourceVersion). A new OrderedReady set
// of 3 replicas records its first revision, creates web-0 and writes its
// status.
func ExampleStatefulSetSyncer() {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	set := &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "s-1", ResourceVersion: "41", Generation: 1,
			CreationTimestamp: metav1.NewTime(now.Add(-time.Second))},
		Spec: apps.StatefulSetSpec{
			Replicas:    new(int32(3)),
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			ServiceName: "web",
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
			PodManagementPolicy:  apps.OrderedReadyPodManagement,
			UpdateStrategy:       apps.StatefulSetUpdateStrategy{Type: apps.RollingUpdateStatefulSetStrategyType, RollingUpdate: &apps.RollingUpdateStatefulSetStrategy{Partition: new(int32(0))}},
			RevisionHistoryLimit: new(int32(10)),
			PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: apps.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.RetainPersistentVolumeClaimRetentionPolicyType},
		},
	}
	var syncer appsv1.StatefulSetSyncer
	for round := range 2 {
		out, _, err := syncer.Sync(appsv1.StatefulSetState{Now: now, StatefulSet: set})
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, w := range out.Actions {
			fmt.Println(round, w.Verb, w.Resource, w.Name)
		}
	}
	// Output:
	// 0 create controllerrevisions web-7d79554569
	// 0 create pods web-0
	// 0 update statefulsets web
	// 1 create controllerrevisions web-7d79554569
	// 1 create pods web-0
	// 1 update statefulsets web
}

// A DaemonSetSyncer plans like SyncDaemonSet, with the conversions, the
// template's upstream hash and its revision data reused: a new DaemonSet
// over two nodes records its first revision and creates a pod on each.
func ExampleDaemonSetSyncer() {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	ds := &apps.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "fluentd", Namespace: "kube-system", UID: "d-1", ResourceVersion: "7", Generation: 1,
			CreationTimestamp: metav1.NewTime(now.Add(-time.Second))},
		Spec: apps.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"name": "fluentd"}},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"name": "fluentd"}},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "fluentd", Image: "fluentd:v1.17"}}},
			},
			UpdateStrategy: apps.DaemonSetUpdateStrategy{Type: apps.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &apps.RollingUpdateDaemonSet{MaxUnavailable: new(intstr.FromInt32(1)), MaxSurge: new(intstr.FromInt32(0))}},
			RevisionHistoryLimit: new(int32(10)),
		},
	}
	var nodes []*core.Node
	for _, n := range []string{"node-1", "node-2"} {
		nodes = append(nodes, &core.Node{ObjectMeta: metav1.ObjectMeta{Name: n, UID: types.UID("uid-" + n), ResourceVersion: "3"}})
	}
	var syncer appsv1.DaemonSetSyncer
	for round := range 2 {
		out, _, err := syncer.Sync(appsv1.DaemonSetState{Now: now, DaemonSet: ds, Nodes: nodes})
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, w := range out.Actions {
			fmt.Println(round, w.Verb, w.Resource, w.Name)
		}
	}
	// Output:
	// 0 create controllerrevisions fluentd-fc99cb78f
	// 0 create pods fluentd-qvqj8
	// 0 create pods fluentd-qx46c
	// 0 update daemonsets fluentd
	// 1 create controllerrevisions fluentd-fc99cb78f
	// 1 create pods fluentd-qvqj8
	// 1 create pods fluentd-qx46c
	// 1 update daemonsets fluentd
}
