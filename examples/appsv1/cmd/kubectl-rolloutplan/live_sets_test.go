package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	k8stesting "k8s.io/client-go/testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

const (
	// statefulSet is public StatefulSet state sts-s1-0166 as kubectl get
	// statefulset,controllerrevisions,pods,pvc -n prod -o yaml prints it:
	// web mid-rollout, three revisions, web-5 to be replaced.
	statefulSet = data + "web-statefulset.yaml"
	// daemonSet is public DaemonSet state ds-s1-0183 as kubectl get
	// daemonset,controllerrevisions,pods,nodes -n kube-system -o yaml prints
	// it: cilium mid-rollout over 8 nodes, two revisions.
	daemonSet = data + "cilium-daemonset.yaml"
)

// StatefulSets and DaemonSets read live print what the same objects give
// as a snapshot.
func TestLiveSetsReadAsSnapshot(t *testing.T) {
	const now = "2025-02-07T07:12:00Z"
	for _, tc := range []struct {
		file string
		args []string
	}{
		{statefulSet, []string{"status", "sts/web", "--watch=false", "-n", "prod"}},
		{statefulSet, []string{"status", "statefulset/web", "--watch=false", "-n", "prod", "--explain", "--predict", "--ready-after=10s", "--now", now}},
		{statefulSet, []string{"status", "statefulset", "-l", "app=web", "--watch=false", "-n", "prod", "-o", "yaml"}},
		{statefulSet, []string{"history", "statefulsets/web", "-n", "prod"}},
		{statefulSet, []string{"history", "sts", "web", "--revision=2", "-n", "prod"}},
		{statefulSet, []string{"history", "sts/web", "-n", "prod", "-o", "json"}},
		{statefulSet, []string{"undo", "sts/web", "--dry-run=client", "--to-revision=1", "-n", "prod"}},
		{statefulSet, []string{"next", "sts/web", "-n", "prod", "--now", now, "--explain"}},
		{statefulSet, []string{"simulate", "sts/web", "-n", "prod", "--now", now, "--ready-after=5s"}},
		{daemonSet, []string{"status", "ds/cilium", "--watch=false", "-n", "kube-system", "--explain", "--now", now}},
		{daemonSet, []string{"history", "daemonset/cilium", "-n", "kube-system"}},
		{daemonSet, []string{"history", "ds/cilium", "--revision=1", "-n", "kube-system", "-o", "yaml"}},
		{daemonSet, []string{"undo", "ds/cilium", "--dry-run=client", "-n", "kube-system"}},
		{daemonSet, []string{"next", "ds/cilium", "-n", "kube-system", "--now", now, "--explain"}},
		{daemonSet, []string{"simulate", "ds/cilium", "-n", "kube-system", "--now", now, "--ready-after=5s"}},
		{daemonSet, []string{"status", "ds/cilium", "--watch=false", "-n", "kube-system", "--predict", "--now", now}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			liveCode, liveOut, liveErr := exec(t, clitest.Options{Client: cluster(t, tc.file)}, "", tc.args...)
			snapCode, snapOut, snapErr := exec(t, clitest.Options{}, "", append(tc.args, "-f", tc.file)...)
			require.Equal(t, 0, liveCode, liveErr)
			assert.Equal(t, snapCode, liveCode)
			assert.Equal(t, snapOut, liveOut)
			assert.Equal(t, snapErr, liveErr)
			assert.NotEmpty(t, liveOut)
		})
	}
}

// undo and restart send kubectl's patches to StatefulSets and DaemonSets:
// the objects afterwards are what kubectl leaves; pause and resume are
// refused with kubectl's error, and change nothing.
func TestLiveSetWrites(t *testing.T) {
	ctx := context.Background()
	client := cluster(t, statefulSet)
	opts := clitest.Options{Client: client, Namespace: "prod"}
	get := func() (image, restartedAt, resourceVersion string) {
		s, err := client.AppsV1().StatefulSets("prod").Get(ctx, "web", metav1.GetOptions{})
		require.NoError(t, err)
		return s.Spec.Template.Spec.Containers[0].Image, s.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"], s.ResourceVersion
	}
	image, _, _ := get()
	require.Equal(t, "registry.example.com/web:1.2.5", image)

	code, out, errOut := exec(t, opts, "", "undo", "sts/web", "--to-revision=1")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "statefulset.apps/web rolled back\n", out)
	assert.Contains(t, errOut, "Warning: resource statefulsets/web was previously managed with 'kubectl apply'.")
	image, _, _ = get()
	assert.Equal(t, "registry.example.com/web:1.1.1", image, "revision 1's template restored")
	s, err := client.AppsV1().StatefulSets("prod").Get(ctx, "web", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Empty(t, s.Spec.Template.Spec.Containers[0].Env, "the revision's template replaces the set's ($patch: replace)")

	// Now at revision 1's template: kubectl skips the rollback.
	code, out, _ = exec(t, opts, "", "undo", "sts/web", "--to-revision=1")
	require.Equal(t, 0, code)
	assert.Equal(t, "statefulset.apps/web skipped rollback (current template already matches revision 1)\n", out)

	code, out, errOut = exec(t, opts, "", "restart", "statefulset/web")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "statefulset.apps/web restarted\n", out)
	assert.Equal(t, "Time: 2026-03-01T10:00:00Z (now)\n", errOut)
	_, restartedAt, rv := get()
	assert.Equal(t, "2026-03-01T10:00:00Z", restartedAt)

	// Within the same second: kubectl's error, nothing sent.
	code, _, errOut = exec(t, opts, "", "restart", "statefulset/web")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "error: failed to create patch for web: if restart has already been triggered within the past second")

	for _, verb := range []string{"pause", "resume"} {
		code, out, errOut = exec(t, opts, "", verb, "sts/web")
		assert.Equal(t, 1, code, verb)
		assert.Empty(t, out, verb)
		assert.Equal(t, "error: statefulsets.apps \"web\" "+verb[:len(verb)-1]+"ing is not supported\n", errOut, verb)
	}
	_, _, after := get()
	assert.Equal(t, rv, after, "pause and resume sent nothing")

	ds := cluster(t, daemonSet)
	opts = clitest.Options{Client: ds, Namespace: "kube-system"}
	dsImage := func() string {
		d, err := ds.AppsV1().DaemonSets("kube-system").Get(ctx, "cilium", metav1.GetOptions{})
		require.NoError(t, err)
		return d.Spec.Template.Spec.Containers[0].Image
	}
	before := dsImage()
	code, out, errOut = exec(t, opts, "", "undo", "ds/cilium")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "daemonset.apps/cilium rolled back\n", out)
	assert.Equal(t, "registry.example.com/cilium:v1.1.5", dsImage())
	assert.NotEqual(t, before, dsImage())
	code, out, _ = exec(t, opts, "", "restart", "ds/cilium", "--dry-run=server")
	require.Equal(t, 0, code)
	assert.Equal(t, "daemonset.apps/cilium restarted (server dry run)\n", out)
	code, _, errOut = exec(t, opts, "", "pause", "daemonset/cilium")
	assert.Equal(t, 1, code)
	assert.Equal(t, "error: daemonsets.apps \"cilium\" pausing is not supported\n", errOut)
	// A name the cluster does not have: the server's error, as kubectl.
	code, _, errOut = exec(t, opts, "", "pause", "ds/nope")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Error from server (NotFound): daemonsets.apps \"nope\" not found\n", errOut)
}

// status watches a StatefulSet's and a DaemonSet's rollout as kubectl
// does: a line at every change until the status viewer says done.
func TestLiveSetWatch(t *testing.T) {
	ctx := context.Background()
	client := cluster(t, statefulSet)
	watcher := watch.NewFake()
	client.PrependWatchReactor("statefulsets", func(k8stesting.Action) (bool, watch.Interface, error) {
		return true, watcher, nil
	})
	var out, errOut syncWriter
	var o, e strings.Builder
	env := clitest.Env(t, clitest.Options{Client: client, Namespace: "prod"}, "", &o, &e)
	env.Out, env.ErrOut = &out, &errOut
	done := make(chan int)
	go func() { done <- run(env, []string{"status", "sts/web", "--timeout=30s"}) }()
	waitFor := func(want string) {
		t.Helper()
		require.Eventually(t, func() bool { return strings.Contains(out.String(), want) }, 10*time.Second, 10*time.Millisecond, "stdout %q", out.String())
	}
	waitFor("Waiting for 1 pods to be ready...\n")
	s, err := client.AppsV1().StatefulSets("prod").Get(ctx, "web", metav1.GetOptions{})
	require.NoError(t, err)
	s.Status.ReadyReplicas, s.Status.UpdatedReplicas = 6, 2
	s.ResourceVersion = "90001"
	watcher.Modify(s.DeepCopy())
	waitFor("Waiting for partitioned roll out to finish: 2 out of 6 new pods have been updated...\n")
	s.Status.UpdatedReplicas = 6
	s.ResourceVersion = "90002"
	watcher.Modify(s.DeepCopy())
	select {
	case code := <-done:
		assert.Equal(t, 0, code, errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("the watch did not end when the rollout was done")
	}
	assert.Equal(t, "Waiting for 1 pods to be ready...\n"+
		"Waiting for partitioned roll out to finish: 2 out of 6 new pods have been updated...\n"+
		"partitioned roll out complete: 6 new pods have been updated...\n", out.String())

	// A DaemonSet that does not move: the watch ends at --timeout.
	ds := cluster(t, daemonSet)
	code, stdout, stderr := exec(t, clitest.Options{Client: ds}, "", "status", "ds/cilium", "-n", "kube-system", "--timeout=200ms")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Waiting for daemon set \"cilium\" rollout to finish: 1 out of 8 new pods have been updated...\n", stdout)
	assert.Equal(t, "error: timed out waiting for the condition\n", stderr)

	// A DaemonSet deleted during the watch ends it with kubectl's error.
	dsWatcher := watch.NewFake()
	ds.PrependWatchReactor("daemonsets", func(k8stesting.Action) (bool, watch.Interface, error) {
		return true, dsWatcher, nil
	})
	d, err := ds.AppsV1().DaemonSets("kube-system").Get(ctx, "cilium", metav1.GetOptions{})
	require.NoError(t, err)
	go dsWatcher.Delete(d)
	code, _, stderr = exec(t, clitest.Options{Client: ds}, "", "status", "ds/cilium", "-n", "kube-system", "--timeout=10s")
	assert.Equal(t, 1, code)
	assert.Equal(t, "error: object has been deleted\n", stderr)
}
