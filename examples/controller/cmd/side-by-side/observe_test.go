package main

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
)

func newTestObserver(t *testing.T) (*observer, informers.SharedInformerFactory) {
	t.Helper()
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	o, err := newObserver(factory, namespace)
	require.NoError(t, err)
	return o, factory
}

func replicaSet(owner, name, image string, replicas int32) *apps.ReplicaSet {
	return &apps.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "apps/v1", Kind: "Deployment", Name: owner, UID: types.UID(owner), Controller: new(true),
		}}},
		Spec: apps.ReplicaSetSpec{Replicas: new(replicas), Template: core.PodTemplateSpec{Spec: core.PodSpec{
			Containers: []core.Container{{Name: "nginx", Image: image}},
		}}},
	}
}

// The sizes of the nginx update as kube-controller-manager went through
// them in the first full run (see TestPrintTable), delivered as the watch
// delivers them, with status-only updates (same sizes) in between.
func TestObserverRecordsSizeChanges(t *testing.T) {
	o, _ := newTestObserver(t)
	old := replicaSet("nginx", "nginx-old", fromImage, 3)
	o.replicaSet(old, false)
	o.replicaSet(replicaSet("other", "other-old", fromImage, 3), false)
	assert.Empty(t, o.sequences(), "nothing is recorded before the update")

	o.begin(toImage, []string{"nginx"})
	steps := []struct {
		name     string
		image    string
		replicas int32
	}{
		{"nginx-new", toImage, 1}, {"nginx-new", toImage, 1}, {"nginx-old", fromImage, 2},
		{"nginx-new", toImage, 2}, {"nginx-old", fromImage, 1}, {"nginx-old", fromImage, 1},
		{"nginx-new", toImage, 3}, {"nginx-old", fromImage, 0},
	}
	for _, s := range steps {
		o.replicaSet(replicaSet("nginx", s.name, s.image, s.replicas), false)
	}
	// Another Deployment's ReplicaSets and an orphan do not count.
	o.replicaSet(replicaSet("other", "other-old", fromImage, 2), false)
	orphan := replicaSet("nginx", "orphan", toImage, 7)
	orphan.OwnerReferences = nil
	o.replicaSet(orphan, false)
	// A deletion is a size of 0, delivered as a tombstone or not.
	o.replicaSet(cache.DeletedFinalStateUnknown{Key: "x", Obj: replicaSet("nginx", "nginx-old", fromImage, 0)}, true)

	assert.Equal(t, map[string]string{
		"nginx": "0/3 1/3 1/2 2/2 2/1 3/1 3/0",
		"other": "0/2",
	}, o.sequences())

	o.replicaSet(replicaSet("nginx", "nginx-new", toImage, 3), true)
	assert.Equal(t, "0/3 1/3 1/2 2/2 2/1 3/1 3/0 0/0", o.sequences()["nginx"])
}

func deployment(name, image string, replicas int32, generation, observed int64, updated, available, total int32) *apps.Deployment {
	return &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, UID: types.UID(name), Generation: generation},
		Spec: apps.DeploymentSpec{Replicas: new(replicas), Template: core.PodTemplateSpec{Spec: core.PodSpec{
			Containers: []core.Container{{Name: "nginx", Image: image}},
		}}},
		Status: apps.DeploymentStatus{ObservedGeneration: observed, Replicas: total, UpdatedReplicas: updated, AvailableReplicas: available},
	}
}

func TestObserverComplete(t *testing.T) {
	o, factory := newTestObserver(t)
	ds := factory.Apps().V1().Deployments().Informer().GetIndexer()
	rss := factory.Apps().V1().ReplicaSets().Informer().GetIndexer()
	check := func(n int) (bool, string) {
		done, why, err := o.complete(toImage, n)
		require.NoError(t, err)
		return done, why
	}

	require.NoError(t, ds.Add(deployment("nginx", toImage, 3, 2, 2, 3, 3, 3)))
	require.NoError(t, rss.Add(replicaSet("nginx", "nginx-new", toImage, 3)))
	require.NoError(t, rss.Add(replicaSet("nginx", "nginx-old", fromImage, 0)))
	done, _ := check(1)
	assert.True(t, done)
	done, why := check(2)
	assert.False(t, done)
	assert.Equal(t, "1 of 2 Deployments seen", why)

	for _, c := range []struct {
		d     *apps.Deployment
		old   int32
		about string
	}{
		{deployment("nginx", toImage, 3, 3, 2, 3, 3, 3), 0, "generation not observed"},
		{deployment("nginx", toImage, 3, 2, 2, 2, 3, 3), 0, "not all updated"},
		{deployment("nginx", toImage, 3, 2, 2, 3, 2, 3), 0, "not all available"},
		{deployment("nginx", toImage, 3, 2, 2, 3, 3, 4), 0, "old pods left"},
		{deployment("nginx", fromImage, 3, 2, 2, 3, 3, 3), 0, "another image"},
		{deployment("nginx", toImage, 3, 2, 2, 3, 3, 3), 1, "an old ReplicaSet not scaled down"},
	} {
		require.NoError(t, ds.Update(c.d))
		require.NoError(t, rss.Update(replicaSet("nginx", "nginx-old", fromImage, c.old)))
		done, why := check(1)
		assert.False(t, done, c.about)
		assert.Contains(t, why, "1 Deployments pending, e.g. nginx: ", c.about)
	}
}

func TestObserverWaitCompleteTimesOut(t *testing.T) {
	o, _ := newTestObserver(t)
	_, err := o.waitComplete(t.Context(), toImage, 1, 300*time.Millisecond)
	assert.ErrorContains(t, err, "rollout to nginx:1.16.1 not complete after 300ms: 0 of 1 Deployments seen")
}

func TestParseStatCPU(t *testing.T) {
	// A /proc/<pid>/stat line of a Go process whose name holds a space and
	// a parenthesis: utime 123, stime 45 ticks.
	stat := "4242 (kube (ctl) x) S 1 4242 4242 0 -1 4194560 12345 0 0 0 123 45 0 0 20 0 12 0 987654 1234567 2345 18446744073709551615 1 1 0 0 0 0 0 0 2143420159 0 0 0 17 1 0 0 0 0 0\n"
	cpu, err := parseStatCPU(stat)
	require.NoError(t, err)
	assert.Equal(t, 1680*time.Millisecond, cpu)

	_, err = parseStatCPU("4242 kube S 1")
	assert.ErrorContains(t, err, "no command name")
	_, err = parseStatCPU("4242 (kube) S 1 2 3")
	assert.ErrorContains(t, err, "fields after the command name")
	_, err = parseStatCPU("4242 (kube) S 1 4242 4242 0 -1 4194560 12345 0 0 0 -3 45 0")
	assert.ErrorContains(t, err, "utime or stime")
}

func TestProcessCPUGrows(t *testing.T) {
	before, err := processCPU(os.Getpid())
	require.NoError(t, err)
	// Spin until the kernel has charged this process 20ms more (two
	// ticks), or give up after 10s of wall time on a loaded machine.
	deadline := time.Now().Add(10 * time.Second)
	x := 0
	for time.Now().Before(deadline) {
		for i := range 1_000_000 {
			x += i
		}
		now, err := processCPU(os.Getpid())
		require.NoError(t, err)
		if now-before >= 20*time.Millisecond {
			return
		}
	}
	t.Fatalf("processCPU did not grow by 20ms in 10s of spinning (%d)", x)
}
