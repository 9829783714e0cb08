package main

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
)

// cluster returns a fake clientset holding the objects of a snapshot file
// (rollout.json: deployment api in default, three revisions;
// web-statefulset.yaml: statefulset web in prod with its revisions, pods
// and claims; cilium-daemonset.yaml: daemonset cilium in kube-system with
// its revisions, pods and the nodes).
func cluster(t *testing.T, file string) *fake.Clientset {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	objs, err := input.ReadObjects(f, input.Options{})
	require.NoError(t, err)
	var all []runtime.Object
	for _, d := range objs.Deployments {
		all = append(all, d)
	}
	for _, rs := range objs.ReplicaSets {
		all = append(all, rs)
	}
	for _, p := range objs.Pods {
		all = append(all, p)
	}
	for _, s := range objs.StatefulSets {
		all = append(all, s)
	}
	for _, ds := range objs.DaemonSets {
		all = append(all, ds)
	}
	for _, r := range objs.ControllerRevisions {
		all = append(all, r)
	}
	for _, c := range objs.PVCs {
		all = append(all, c)
	}
	for _, n := range objs.Nodes {
		all = append(all, n)
	}
	return fake.NewClientset(all...)
}

// The live mode prints what the same objects give as a snapshot: the
// kubectl views read the cluster instead of the file.
func TestLiveReadsAsSnapshot(t *testing.T) {
	for _, args := range [][]string{
		{"status", "api", "--watch=false"},
		{"history", "api"},
		{"history", "api", "--revision=1"},
		{"history", "api", "-o", "yaml"},
		{"undo", "api", "--dry-run=client", "--to-revision=1"},
		{"explain", "api"},
		{"next", "api", "--now", "2025-05-29T03:20:00Z"},
	} {
		client := cluster(t, data+"rollout.json")
		liveCode, liveOut, liveErr := exec(t, clitest.Options{Client: client}, "", args...)
		snapCode, snapOut, snapErr := exec(t, clitest.Options{}, "", append(args, "-f", data+"rollout.json")...)
		assert.Equal(t, snapCode, liveCode, "%q", args)
		assert.Equal(t, snapOut, liveOut, "%q", args)
		assert.Equal(t, snapErr, liveErr, "%q", args)
		assert.NotEmpty(t, liveOut, "%q", args)
	}
}

// undo, restart, pause and resume send kubectl's patches: the objects on
// the cluster afterwards are what kubectl leaves.
func TestLiveWrites(t *testing.T) {
	ctx := context.Background()
	client := cluster(t, data+"rollout.json")
	opts := clitest.Options{Client: client, Clock: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	get := func() (paused bool, image, restartedAt, revision string) {
		d, err := client.AppsV1().Deployments("default").Get(ctx, "api", metav1.GetOptions{})
		require.NoError(t, err)
		return d.Spec.Paused, d.Spec.Template.Spec.Containers[0].Image, d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"], d.Annotations["deployment.kubernetes.io/revision"]
	}
	_, image, _, _ := get()
	require.Equal(t, "registry.example.com/api:1.3.0-typo", image)

	code, out, errOut := exec(t, opts, "", "undo", "deployment/api", "--to-revision=1")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "deployment.apps/api rolled back\n", out)
	_, image, _, revision := get()
	assert.Equal(t, "registry.example.com/api:1.1.1", image, "revision 1's template restored")
	assert.Equal(t, "3", revision, "the annotations kubectl's patch writes")

	// A client dry run sends nothing.
	code, _, _ = exec(t, opts, "", "restart", "api", "--dry-run=client")
	require.Equal(t, 0, code)
	_, _, restartedAt, _ := get()
	assert.Empty(t, restartedAt)

	code, out, errOut = exec(t, opts, "", "restart", "api")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "deployment.apps/api restarted\n", out)
	assert.Equal(t, "Time: 2026-03-01T10:00:00Z (now)\n", errOut)
	_, _, restartedAt, _ = get()
	assert.Equal(t, "2026-03-01T10:00:00Z", restartedAt)

	code, out, _ = exec(t, opts, "", "pause", "api")
	require.Equal(t, 0, code)
	assert.Equal(t, "deployment.apps/api paused\n", out)
	paused, _, _, _ := get()
	assert.True(t, paused)
	// kubectl's refusals, read from the cluster.
	code, _, errOut = exec(t, opts, "", "pause", "api")
	assert.Equal(t, 1, code)
	assert.Equal(t, "error: deployments.apps \"api\" is already paused\n", errOut)
	code, _, errOut = exec(t, opts, "", "undo", "api")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "you cannot rollback a paused deployment")

	code, out, _ = exec(t, opts, "", "resume", "api")
	require.Equal(t, 0, code)
	assert.Equal(t, "deployment.apps/api resumed\n", out)
	paused, _, _, _ = get()
	assert.False(t, paused)
}

// Names are looked up in -n or the context's namespace; -l selects; what
// the server refuses is printed as kubectl prints it.
func TestLiveNamespacesAndErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    clitest.Options
		args    []string
		code    int
		out     string
		errText string
	}{
		{"context's namespace", clitest.Options{Namespace: "shop"}, []string{"status", "api", "--watch=false"}, 1, "",
			"Error from server (NotFound): deployments.apps \"api\" not found\n"},
		{"-n", clitest.Options{Namespace: "shop"}, []string{"status", "api", "--watch=false", "-n", "default"}, 0, "1 old replicas are pending termination", ""},
		{"-l", clitest.Options{}, []string{"history", "-l", "app=api"}, 0, "deployment.apps/api \nREVISION  CHANGE-CAUSE\n", ""},
		// As kubectl rollout: nothing to act on is no error.
		{"-l matching nothing", clitest.Options{}, []string{"pause", "-l", "app=none"}, 0, "", "No resources found in default namespace.\n"},
		{"-l matching nothing, history", clitest.Options{}, []string{"history", "-l", "app=none"}, 0, "", ""},
		{"-A", clitest.Options{Namespace: "shop"}, []string{"history", "-A"}, 0, "deployment.apps/api \n", ""},
		{"no name", clitest.Options{}, []string{"status"}, 2, "",
			"error: required resource not specified: give NAME, KIND/NAME or KIND -l SELECTOR. See 'kubectl rolloutplan status --help'.\n"},
		{"timeout without watch", clitest.Options{}, []string{"status", "api", "--watch=false", "--timeout=1s"}, 2, "", "--timeout applies to --watch only"},
		// The client built from the kubeconfig (the test's: its server does
		// not listen).
		{"a context that does not exist", clitest.Options{}, []string{"status", "api", "--context", "nope"}, 1, "", "error: context \"nope\" does not exist\n"},
		{"an unreachable server", clitest.Options{}, []string{"status", "api"}, 1, "",
			"The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port? (-f FILE reads a snapshot instead)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			if !strings.HasPrefix(tc.name, "a context") && !strings.HasPrefix(tc.name, "an unreachable") {
				opts.Client = cluster(t, data+"rollout.json")
			}
			code, out, errOut := exec(t, opts, "", tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			assert.Contains(t, out, tc.out)
			if tc.errText == "" {
				assert.Empty(t, errOut)
			} else {
				assert.Contains(t, errOut, tc.errText)
			}
		})
	}
}

// syncWriter is a strings.Builder safe for the watch's goroutine and the
// test's.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// status watches the live rollout as kubectl rollout status does: a line
// at every change until the rollout is done (exit 0), or until --timeout
// (kubectl's error, exit 1).
func TestLiveWatch(t *testing.T) {
	ctx := context.Background()
	client := cluster(t, data+"rollout.json")
	// The watch is the test's: the fake clientset would send a watcher
	// only what happens after it is registered, which a test cannot know.
	watcher := watch.NewFake()
	client.PrependWatchReactor("deployments", func(k8stesting.Action) (bool, watch.Interface, error) {
		return true, watcher, nil
	})
	var out, errOut syncWriter
	var o, e strings.Builder
	env := clitest.Env(t, clitest.Options{Client: client}, "", &o, &e)
	env.Out, env.ErrOut = &out, &errOut
	done := make(chan int)
	go func() { done <- run(env, []string{"status", "deployment/api", "--timeout=30s"}) }()

	const pending = "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n"
	waitFor := func(want string) {
		t.Helper()
		require.Eventually(t, func() bool { return strings.Contains(out.String(), want) }, 10*time.Second, 10*time.Millisecond, "stdout %q", out.String())
	}
	waitFor(pending)
	// The controller's progress: the old pod goes, the status says so.
	d, err := client.AppsV1().Deployments("default").Get(ctx, "api", metav1.GetOptions{})
	require.NoError(t, err)
	d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.AvailableReplicas, d.Status.ReadyReplicas = 1, 1, 0, 0
	d.ResourceVersion = "70710"
	watcher.Modify(d.DeepCopy())
	waitFor("Waiting for deployment \"api\" rollout to finish: 0 of 1 updated replicas are available...\n")
	d.Status.AvailableReplicas, d.Status.ReadyReplicas = 1, 1
	d.ResourceVersion = "70711"
	watcher.Modify(d.DeepCopy())
	select {
	case code := <-done:
		assert.Equal(t, 0, code, errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatal("the watch did not end when the rollout was done")
	}
	assert.Equal(t, pending+
		"Waiting for deployment \"api\" rollout to finish: 0 of 1 updated replicas are available...\n"+
		"deployment \"api\" successfully rolled out\n", out.String())

	// Nothing moves: the watch ends at --timeout with kubectl's error.
	client = cluster(t, data+"rollout.json")
	code, stdout, stderr := exec(t, clitest.Options{Client: client}, "", "status", "api", "--timeout=200ms")
	assert.Equal(t, 1, code)
	assert.Equal(t, pending, stdout)
	assert.Equal(t, "error: timed out waiting for the condition\n", stderr)
}

// A Deployment deleted during the watch ends it with kubectl's error.
func TestLiveWatchDeleted(t *testing.T) {
	ctx := context.Background()
	client := cluster(t, data+"rollout.json")
	watcher := watch.NewFake()
	client.PrependWatchReactor("deployments", func(k8stesting.Action) (bool, watch.Interface, error) {
		return true, watcher, nil
	})
	d, err := client.AppsV1().Deployments("default").Get(ctx, "api", metav1.GetOptions{})
	require.NoError(t, err)
	go watcher.Delete(d)
	code, stdout, stderr := exec(t, clitest.Options{Client: client}, "", "status", "api", "--timeout=10s")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n", stdout)
	assert.Equal(t, "error: object has been deleted\n", stderr)
}

// With --explain and --predict every look of the watch says why the
// rollout waits and re-estimates how long it will take, at the time of the
// look.
func TestLiveWatchExplains(t *testing.T) {
	ctx := context.Background()
	client := cluster(t, data+"rollout.json")
	watcher := watch.NewFake()
	client.PrependWatchReactor("deployments", func(k8stesting.Action) (bool, watch.Interface, error) {
		return true, watcher, nil
	})
	d, err := client.AppsV1().Deployments("default").Get(ctx, "api", metav1.GetOptions{})
	require.NoError(t, err)
	d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.AvailableReplicas, d.Status.ReadyReplicas = 1, 1, 1, 1
	d.ResourceVersion = "70710"
	go watcher.Modify(d)
	at := time.Date(2025, 5, 29, 3, 20, 0, 0, time.UTC)
	code, out, errOut := exec(t, clitest.Options{Client: client, Clock: at}, "", "status", "api", "--explain", "--predict", "--timeout=10s")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "Time: 2025-05-29T03:20:00Z (now)\n", errOut)
	assert.Equal(t, 2, strings.Count(out, "Why: the Deployment controller's next sync (at 2025-05-29T03:20:00Z)"), out)
	assert.Equal(t, 2, strings.Count(out, "prediction: the rollout "), out)
	assert.True(t,
		strings.Contains(out, "deployment \"api\" successfully rolled out\nWhy:"), out)
}
