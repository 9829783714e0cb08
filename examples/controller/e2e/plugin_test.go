package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubectl/pkg/cmd/get"
	"k8s.io/kubectl/pkg/cmd/rollout"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/polymorphichelpers"
	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/rolloutplan/rolloutplan/plan/restart"
)

// deploymentKind is the group and kind kubectl's helpers are looked up by.
var deploymentKind = schema.GroupKind{Group: "apps", Kind: "Deployment"}

const restartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"

// plugin is kubectl-rolloutplan built from its own module
// (examples/appsv1), with a kubeconfig for the test server.
type plugin struct {
	bin, kubeconfig string
}

// buildPlugin builds the plugin into a directory of t.
func buildPlugin(t *testing.T) plugin {
	t.Helper()
	if envErr != nil {
		t.Fatalf("the end-to-end server did not start: %v", envErr)
	}
	dir := t.TempDir()
	p := plugin{bin: filepath.Join(dir, "kubectl-rolloutplan"), kubeconfig: filepath.Join(dir, "kubeconfig")}
	start := time.Now()
	build := exec.Command("go", "build", "-o", p.bin, ".")
	build.Dir = filepath.Join("..", "..", "appsv1", "cmd", "kubectl-rolloutplan")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build kubectl-rolloutplan: %v\n%s", err, out)
	}
	t.Logf("kubectl-rolloutplan built in %s", time.Since(start).Round(time.Millisecond))
	require.NoError(t, env.Kubeconfig(p.kubeconfig))
	return p
}

// command returns the plugin's command with args and the kubeconfig.
func (p plugin) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, p.bin, append(slices.Clone(args), "--kubeconfig", p.kubeconfig)...)
	// No kubeconfig of the machine, no discovery cache in its home.
	cmd.Env = append(os.Environ(), "KUBECONFIG=", "HOME="+filepath.Dir(p.kubeconfig))
	return cmd
}

// run runs the plugin to its end and returns its exit code and output.
func (p plugin) run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := p.command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("kubectl-rolloutplan %v: %v", args, err)
	return 0, "", ""
}

// kubectl is the kubectl machinery the plugin is compared with, in this
// process: its commands read the same server through the same kubeconfig.
type kubectl struct {
	flags *genericclioptions.ConfigFlags
}

func newKubectl(t *testing.T, p plugin, ns string) kubectl {
	flags := genericclioptions.NewConfigFlags(true)
	cache := t.TempDir()
	*flags.KubeConfig, *flags.Namespace, flags.CacheDir = p.kubeconfig, ns, &cache
	return kubectl{flags}
}

// rollout runs `kubectl rollout ARGS` in this process (kubectl's own
// command, reading and writing the test server) and returns what it prints
// on standard output, and the error it would exit with ("" when none) as
// it prints it on standard error, with its exit code. Only commands that
// leave the server as it is (dry runs, refusals, views) are run this way.
func (k kubectl) rollout(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return k.run(rollout.NewCmdRollout, args...)
}

// get runs `kubectl get ARGS` as rollout runs kubectl rollout.
func (k kubectl) get(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return k.run(get.NewCmdGet, args...)
}

// run runs the kubectl command newCmd makes with args. It makes no
// assertion, so that a test may run it in a goroutine of its own (one at a
// time: kubectl's fatal-error handler is global); cobra's own error, if
// any, comes back in the error output with code -1.
func (k kubectl) run(newCmd func(string, cmdutil.Factory, genericiooptions.IOStreams) *cobra.Command, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	var fatal string
	code := 0
	// kubectl exits on an error; here the error is kept.
	cmdutil.BehaviorOnFatal(func(msg string, c int) {
		if fatal == "" {
			fatal, code = msg, c
		}
	})
	defer cmdutil.DefaultBehaviorOnFatal()
	cmd := newCmd("kubectl", cmdutil.NewFactory(cmdutil.NewMatchVersionFlags(k.flags)),
		genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	// kubectl's global flags (--namespace and the others) on the command.
	k.flags.AddFlags(cmd.PersistentFlags())
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := cmd.Execute(); err != nil {
		return out.String(), errOut.String() + "kubectl's command failed: " + err.Error(), -1
	}
	if fatal != "" && !strings.HasSuffix(fatal, "\n") {
		fatal += "\n"
	}
	return out.String(), errOut.String() + fatal, code
}

// statusLine is what kubectl's status viewer says of d: its line, whether
// the rollout is done, or its error.
func statusLine(t *testing.T, d *apps.Deployment, revision int64) (string, bool, error) {
	t.Helper()
	v, err := polymorphichelpers.StatusViewerFor(deploymentKind)
	require.NoError(t, err)
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(d)
	require.NoError(t, err)
	return v.Status(&unstructured.Unstructured{Object: u}, revision)
}

// modified applies one of kubectl's object helpers (restarter, pauser,
// resumer) to a copy of d and returns the object it would send, or its
// refusal.
func modified(t *testing.T, fn func(runtime.Object) ([]byte, error), d *apps.Deployment) (*apps.Deployment, error) {
	t.Helper()
	b, err := fn(d.DeepCopy())
	if err != nil {
		return nil, err
	}
	var out apps.Deployment
	require.NoError(t, json.Unmarshal(b, &out))
	return &out, nil
}

// rolledBack runs kubectl's Deployment rollbacker on a copy of the
// Deployment and its ReplicaSets (a fake clientset holding them) and
// returns the Deployment it leaves, with its message, or its refusal.
func rolledBack(ctx context.Context, t *testing.T, d *apps.Deployment, rss []apps.ReplicaSet, toRevision int64) (*apps.Deployment, string, error) {
	t.Helper()
	objs := []runtime.Object{d.DeepCopy()}
	for i := range rss {
		objs = append(objs, rss[i].DeepCopy())
	}
	c := fake.NewClientset(objs...)
	rb, err := polymorphichelpers.RollbackerFor(deploymentKind, c)
	require.NoError(t, err)
	msg, err := rb.Rollback(d.DeepCopy(), nil, toRevision, cmdutil.DryRunNone)
	if err != nil {
		return nil, "", err
	}
	got, err := c.AppsV1().Deployments(d.Namespace).Get(ctx, d.Name, metav1.GetOptions{})
	require.NoError(t, err)
	return got, msg, nil
}

// written is what a client's write decides of a Deployment: its labels,
// annotations and spec; the fields the server sets (resourceVersion,
// generation, managedFields, timestamps, status) are left out. The
// restartedAt annotation holds a time: it is replaced by whether it is
// RFC 3339.
type written struct {
	Labels      map[string]string
	Annotations map[string]string
	Spec        apps.DeploymentSpec
}

func writtenOf(d *apps.Deployment) written {
	w := written{Labels: d.Labels, Annotations: d.Annotations, Spec: *d.Spec.DeepCopy()}
	if v, ok := w.Spec.Template.Annotations[restartedAtAnnotation]; ok {
		if _, err := time.Parse(time.RFC3339, v); err == nil {
			w.Spec.Template.Annotations[restartedAtAnnotation] = "(RFC 3339)"
		} else {
			w.Spec.Template.Annotations[restartedAtAnnotation] = "(not RFC 3339: " + v + ")"
		}
	}
	return w
}

func getDeployment(ctx context.Context, t *testing.T, ns, name string) *apps.Deployment {
	t.Helper()
	d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err)
	return d
}

// lines splits output into its lines, each with its newline.
func lines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// distinct drops the lines that repeat the line before.
func distinct(ls []string) []string { return slices.Compact(slices.Clone(ls)) }

// The plugin against the real server, each answer next to kubectl's own
// code on the same objects.
func TestPlugin(t *testing.T) {
	p := buildPlugin(t)
	t.Run("StatusWatch", func(t *testing.T) { testPluginStatusWatch(t, p) })
	t.Run("HistoryUndoRestartPauseResume", func(t *testing.T) { testPluginWrites(t, p) })
	t.Run("ExplainNextOutput", func(t *testing.T) { testPluginExplain(t, p) })
	t.Run("StalledPredict", func(t *testing.T) { testPluginStalled(t, p) })
	t.Run("WrongContext", func(t *testing.T) { testPluginWrongContext(t, p) })
	t.Run("ConfigRestarts", func(t *testing.T) { testPluginConfigRestarts(t, p) })
}

// status --watch follows a rollout the project's controllers drive: its
// lines are, one for one, what kubectl's status viewer says of the objects
// a watch of the same Deployment from the same resourceVersion delivers
// (kubectl prints a line at every event, repeats included).
func testPluginStatusWatch(t *testing.T, p plugin) {
	ctx, ns := setup(t)
	_, stop := startManager(t, ns, controller.ManagerOptions{})
	create(ctx, t, rolling(deployment(ns, "web", 4, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(1)))
	waitComplete(ctx, t, ns, "web")
	// The controllers are stopped while the plugin starts, so that it
	// begins at the object the recording begins at.
	stop()
	update(ctx, t, ns, "web", setImage("nginx:2"))
	first := getDeployment(ctx, t, ns, "web")
	w, err := client.AppsV1().Deployments(ns).Watch(ctx, metav1.ListOptions{
		FieldSelector:   fields.OneTermEqualSelector("metadata.name", "web").String(),
		ResourceVersion: first.ResourceVersion,
	})
	require.NoError(t, err)
	defer w.Stop()

	start := time.Now()
	plain := p.stream(ctx, t, "status", "deployment/web", "-n", ns, "--timeout", "90s")
	why := p.stream(ctx, t, "status", "deployment/web", "-n", ns, "--timeout", "90s", "--explain", "--predict")
	waitFor(ctx, t, "the plugins' first lines", 30*time.Second, func() (bool, error) {
		return len(plain.lines()) > 0 && len(why.lines()) > 0, nil
	})
	startManager(t, ns, controller.ManagerOptions{KubeletDelay: 500 * time.Millisecond})

	// What kubectl prints: its viewer's line for the object listed first,
	// then for every Added or Modified event until the viewer says done.
	objs := []*apps.Deployment{first}
	want := []string{}
	var doneAt int
	for i := 0; ; i++ {
		if i == len(objs) {
			select {
			case e, ok := <-w.ResultChan():
				require.True(t, ok, "the watch ended before the rollout")
				require.Contains(t, []watch.EventType{watch.Added, watch.Modified}, e.Type, "%v", e.Object)
				objs = append(objs, e.Object.(*apps.Deployment))
			case <-time.After(90 * time.Second):
				t.Fatalf("no end of the rollout after %d events", len(objs))
			}
		}
		line, done, err := statusLine(t, objs[i], 0)
		require.NoError(t, err)
		want = append(want, line)
		if done {
			doneAt = i
			break
		}
	}
	got, stderr, err := plain.wait()
	require.NoError(t, err, "stderr %q", stderr)
	t.Logf("status --watch: %d lines over %s, %d distinct; kubectl's viewer over %d events",
		len(got), time.Since(start).Round(time.Millisecond), len(distinct(got)), doneAt+1)
	assert.Empty(t, stderr)
	assert.Equal(t, distinct(want), distinct(got), "distinct lines")
	assert.Equal(t, want, got, "every line, as kubectl prints one per event")
	assert.Greater(t, len(distinct(want)), 3, "the rollout went through several states: %q", want)

	// With --explain --predict, every look prints kubectl's line, then why
	// the rollout waits and a new estimate of its end.
	all, stderr, err := why.wait()
	require.NoError(t, err, "stderr %q", stderr)
	var kubectlLines []string
	whys, predictions := 0, 0
	for _, l := range all {
		switch {
		case strings.HasPrefix(l, "Waiting for deployment"), strings.HasPrefix(l, `deployment "web" successfully rolled out`):
			kubectlLines = append(kubectlLines, l)
		case strings.HasPrefix(l, "Why: "):
			whys++
		case strings.HasPrefix(l, "prediction: "):
			predictions++
		}
	}
	assert.Equal(t, want, kubectlLines, "--explain --predict: kubectl's lines")
	assert.Equal(t, len(want), whys, "a Why: at every look")
	assert.Equal(t, len(want), predictions, "a prediction at every look")
	assert.True(t, strings.HasPrefix(stderr, "Time: "), "the time used: %q", stderr)
}

// streamed is a plugin run whose standard output is read line by line as
// it comes.
type streamed struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	mu     sync.Mutex
	out    []string
	read   chan struct{}
}

// stream starts the plugin with args.
func (p plugin) stream(ctx context.Context, t *testing.T, args ...string) *streamed {
	t.Helper()
	s := &streamed{cmd: p.command(ctx, args...), read: make(chan struct{})}
	stdout, err := s.cmd.StdoutPipe()
	require.NoError(t, err)
	s.cmd.Stderr = &s.stderr
	require.NoError(t, s.cmd.Start())
	go func() {
		defer close(s.read)
		r := bufio.NewReader(stdout)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				s.mu.Lock()
				s.out = append(s.out, l)
				s.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return s
}

// lines returns the lines read so far.
func (s *streamed) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.out)
}

// wait waits for the end of the run and returns its lines, its standard
// error and its exit error.
func (s *streamed) wait() ([]string, string, error) {
	<-s.read
	err := s.cmd.Wait()
	return s.lines(), s.stderr.String(), err
}

// history prints what kubectl rollout history prints, as a table, for one
// revision and as YAML; undo, restart, pause and resume leave on the
// server what kubectl's rollbacker, restarter, pauser and resumer make of a
// copy of the same object, and refuse what they refuse with their words.
func testPluginWrites(t *testing.T, p plugin) {
	ctx, ns := setup(t)
	_, stop := startManager(t, ns, controller.ManagerOptions{})
	d := rolling(deployment(ns, "web", 3, "nginx:1"), intstr.FromInt32(1), intstr.FromInt32(0))
	d.Annotations = map[string]string{"kubernetes.io/change-cause": "kubectl create deployment web --image=nginx:1"}
	create(ctx, t, d)
	waitComplete(ctx, t, ns, "web")
	for _, image := range []string{"nginx:2", "nginx:3"} {
		update(ctx, t, ns, "web", func(d *apps.Deployment) {
			setImage(image)(d)
			d.Annotations["kubernetes.io/change-cause"] = "kubectl set image deployment/web web=" + image
		})
		waitComplete(ctx, t, ns, "web")
	}
	k := newKubectl(t, p, ns)

	t.Run("history", func(t *testing.T) {
		for _, tc := range []struct {
			revision int64
			output   string
		}{{0, ""}, {2, ""}, {1, ""}, {0, "yaml"}, {0, "json"}, {3, "yaml"}, {9, ""}} {
			args := []string{"history", "deployment/web", "-n", ns}
			if tc.revision > 0 {
				args = append(args, "--revision", strconv.FormatInt(tc.revision, 10))
			}
			if tc.output != "" {
				args = append(args, "-o", tc.output)
			}
			kOut, kErr, kCode := k.rollout(t, args...)
			require.NotEmpty(t, kOut+kErr)
			code, out, errOut := p.run(t, args...)
			assert.Equal(t, kCode, code, "%v: %s", args, errOut)
			assert.Equal(t, kOut, out, "%v", args)
			assert.Equal(t, kErr, errOut, "%v", args)
		}
	})

	// The Deployments a label selector picks, as kubectl picks them; when
	// it picks none, kubectl's words and exit code 0; a name that is not
	// there, the server's error as kubectl prints it.
	t.Run("selector", func(t *testing.T) {
		for _, args := range [][]string{
			{"history", "deployment", "-l", "app=web"},
			{"history", "deployment", "-l", "app=none"},
			{"status", "deployment", "-l", "app=web", "--watch=false"},
			{"status", "deployment", "-l", "app=none", "--watch=false"},
			{"undo", "deployment", "-l", "app=none"},
			{"restart", "deployment", "-l", "app=none"},
			{"pause", "deployment", "-l", "app=none"},
			{"resume", "deployment", "-l", "app=none"},
			{"status", "deployment/missing"},
			{"history", "deployment/missing"},
			{"undo", "deployment/missing"},
			{"restart", "deployment/missing"},
			{"pause", "deployment/missing"},
		} {
			args = append(args, "-n", ns)
			kOut, kErr, kCode := k.rollout(t, args...)
			code, out, errOut := p.run(t, args...)
			assert.Equal(t, kCode, code, "%v: %s", args, errOut)
			assert.Equal(t, kOut, out, "%v", args)
			assert.Equal(t, kErr, errOut, "%v", args)
		}
	})

	// From here on the controllers are stopped: what is on the server is
	// what the writes left.
	stop()
	rss := replicaSets(ctx, t, ns)

	t.Run("undo", func(t *testing.T) {
		for _, to := range []int64{0, 1} {
			before := getDeployment(ctx, t, ns, "web")
			want, msg, err := rolledBack(ctx, t, before, rss, to)
			require.NoError(t, err)
			args := []string{"undo", "deployment/web", "-n", ns}
			if to > 0 {
				args = append(args, "--to-revision", strconv.FormatInt(to, 10))
			}
			// The dry runs first, next to kubectl's own undo: the revision's
			// pod template as kubectl describes it, and the server's dry
			// run of the patch; neither changes the object.
			for _, dry := range []string{"--dry-run=client", "--dry-run=server"} {
				kOut, kErr, kCode := k.rollout(t, append(args, dry)...)
				require.NotEmpty(t, kOut, "kubectl %v %s: %s", args, dry, kErr)
				code, out, errOut := p.run(t, append(args, dry)...)
				assert.Equal(t, kCode, code, "%v %s: %s", args, dry, errOut)
				assert.Equal(t, kOut, out, "%v %s", args, dry)
				assert.Equal(t, kErr, errOut, "%v %s", args, dry)
			}
			require.Equal(t, before.ResourceVersion, getDeployment(ctx, t, ns, "web").ResourceVersion, "dry runs write nothing")
			code, out, errOut := p.run(t, args...)
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, "deployment.apps/web "+msg+"\n", out)
			after := getDeployment(ctx, t, ns, "web")
			assert.Empty(t, cmp.Diff(writtenOf(want), writtenOf(after)), "undo %v: kubectl's rollbacker (-) against the plugin (+)", args)
			assert.NotEqual(t, before.Spec.Template.Spec.Containers[0].Image, after.Spec.Template.Spec.Containers[0].Image)
		}
	})

	t.Run("restart", func(t *testing.T) {
		before := getDeployment(ctx, t, ns, "web")
		want, err := modified(t, polymorphichelpers.ObjectRestarterFn, before)
		require.NoError(t, err)
		code, out, errOut := p.run(t, "restart", "deployment/web", "-n", ns)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, "deployment.apps/web restarted\n", out)
		after := getDeployment(ctx, t, ns, "web")
		assert.Empty(t, cmp.Diff(writtenOf(want), writtenOf(after)), "kubectl's restarter (-) against the plugin (+)")
		at, err := time.Parse(time.RFC3339, after.Spec.Template.Annotations[restartedAtAnnotation])
		require.NoError(t, err)
		assert.WithinDuration(t, time.Now(), at, time.Minute)
	})

	t.Run("pause", func(t *testing.T) {
		before := getDeployment(ctx, t, ns, "web")
		want, err := modified(t, polymorphichelpers.ObjectPauserFn, before)
		require.NoError(t, err)
		code, out, errOut := p.run(t, "pause", "deployment/web", "-n", ns)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, "deployment.apps/web paused\n", out)
		after := getDeployment(ctx, t, ns, "web")
		assert.Empty(t, cmp.Diff(writtenOf(want), writtenOf(after)), "kubectl's pauser (-) against the plugin (+)")
		require.True(t, after.Spec.Paused)
	})

	// What kubectl refuses on a paused Deployment, the plugin refuses with
	// kubectl's line and exit code (kubectl's own command, run on the same
	// object, and its helpers on a copy), and leaves the object alone.
	t.Run("refusals", func(t *testing.T) {
		paused := getDeployment(ctx, t, ns, "web")
		_, pauseErr := modified(t, polymorphichelpers.ObjectPauserFn, paused)
		_, restartErr := modified(t, polymorphichelpers.ObjectRestarterFn, paused)
		_, _, undoErr := rolledBack(ctx, t, paused, rss, 0)
		_, _, undoMissingErr := rolledBack(ctx, t, paused, rss, 9)
		for _, tc := range []struct {
			args []string
			err  error
		}{
			{[]string{"pause", "deployment/web"}, pauseErr},
			{[]string{"restart", "deployment/web"}, restartErr},
			{[]string{"undo", "deployment/web"}, undoErr},
			{[]string{"undo", "deployment/web", "--to-revision", "9"}, undoMissingErr},
		} {
			require.Error(t, tc.err, "kubectl's helper refuses %v", tc.args)
			kOut, kErr, kCode := k.rollout(t, append(tc.args, "-n", ns)...)
			require.NotEmpty(t, kErr, "kubectl refuses %v", tc.args)
			code, out, errOut := p.run(t, append(tc.args, "-n", ns)...)
			assert.Equal(t, kCode, code, "%v: %s", tc.args, errOut)
			assert.Equal(t, kOut, out, "%v", tc.args)
			// The error is kubectl's line (restart prints the time it used
			// before it).
			var errLines []string
			for _, l := range lines(errOut) {
				if !strings.HasPrefix(l, "Time: ") {
					errLines = append(errLines, l)
				}
			}
			assert.Equal(t, []string{kErr}, errLines, "%v", tc.args)
			assert.Contains(t, kErr, tc.err.Error(), "%v", tc.args)
		}
		assert.Equal(t, paused.ResourceVersion, getDeployment(ctx, t, ns, "web").ResourceVersion, "a refusal writes nothing")
	})

	t.Run("resume", func(t *testing.T) {
		before := getDeployment(ctx, t, ns, "web")
		want, err := modified(t, polymorphichelpers.ObjectResumerFn, before)
		require.NoError(t, err)
		code, out, errOut := p.run(t, "resume", "deployment/web", "-n", ns)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, "deployment.apps/web resumed\n", out)
		after := getDeployment(ctx, t, ns, "web")
		assert.Empty(t, cmp.Diff(writtenOf(want), writtenOf(after)), "kubectl's resumer (-) against the plugin (+)")
		require.False(t, after.Spec.Paused)
	})

	// The controllers roll out what the writes left.
	startManager(t, ns, controller.ManagerOptions{})
	final := waitComplete(ctx, t, ns, "web")
	assert.Equal(t, "nginx:1", final.Spec.Template.Spec.Containers[0].Image)
	code, out, errOut := p.run(t, "status", "web", "-n", ns)
	assert.Equal(t, 0, code, errOut)
	want, done, err := statusLine(t, getDeployment(ctx, t, ns, "web"), 0)
	require.NoError(t, err)
	require.True(t, done)
	assert.Equal(t, want, out)
	// kubectl's own status command, for the current revision and another.
	rev := final.Annotations[revisionAnnotation]
	for _, args := range [][]string{
		{"status", "deployment/web", "--watch=false"},
		{"status", "deployment/web", "--revision", rev},
		{"status", "deployment/web", "--revision", "1"},
	} {
		kOut, kErr, kCode := k.rollout(t, append(args, "-n", ns)...)
		require.NotEmpty(t, kOut+kErr, "kubectl %v", args)
		code, out, errOut := p.run(t, append(args, "-n", ns)...)
		assert.Equal(t, kCode, code, "%v", args)
		assert.Equal(t, kOut, out, "%v", args)
		assert.Equal(t, kErr, errOut, "%v", args)
	}
}

// explain, next and status -o yaml on the live Deployment answer what they
// answer on the same object saved as `kubectl get deployment -o yaml`
// saves it.
func testPluginExplain(t *testing.T, p plugin) {
	ctx, ns := setup(t)
	startManager(t, ns, controller.ManagerOptions{})
	create(ctx, t, rolling(deployment(ns, "web", 5, "nginx:1"), intstr.FromString("25%"), intstr.FromString("25%")))
	d := waitComplete(ctx, t, ns, "web")

	// The state as kubectl get -o yaml saves it: the Deployment alone, and
	// with its ReplicaSets and pods (from which explain reads how long
	// pods take to become ready).
	k := newKubectl(t, p, ns)
	dir := t.TempDir()
	snapshot := func(file string, args ...string) string {
		out, errOut, code := k.get(t, append(args, "-n", ns, "-o", "yaml")...)
		require.Equal(t, 0, code, errOut)
		path := filepath.Join(dir, file)
		require.NoError(t, os.WriteFile(path, []byte(out), 0o600))
		return path
	}
	alone := snapshot("web.yaml", "deployment", "web")
	state := snapshot("state.yaml", "deployment,replicasets,pods")

	code, live, errOut := p.run(t, "explain", "web", "-n", ns)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, live, "deployment.apps/web: RollingUpdate, 5 replicas\n")
	code, snap, errOut := p.run(t, "explain", "-f", state)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, snap, live, "explain: the live Deployment and kubectl get deployment,replicasets,pods -o yaml")
	// The Deployment alone: the same strategy, without the pods' evidence.
	code, one, errOut := p.run(t, "explain", "-f", alone)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, lines(live)[:2], lines(one)[:2], "explain: kubectl get deployment -o yaml")

	// status -o yaml: kubectl's line and the status as stored.
	code, out, errOut := p.run(t, "status", "web", "-n", ns, "--watch=false", "-o", "yaml")
	require.Equal(t, 0, code, errOut)
	var look struct {
		Deployment string                `json:"deployment"`
		Message    string                `json:"message"`
		Done       bool                  `json:"done"`
		Status     apps.DeploymentStatus `json:"status"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(out), &look), out)
	line, done, err := statusLine(t, d, 0)
	require.NoError(t, err)
	assert.Equal(t, ns+"/web", look.Deployment)
	assert.Equal(t, strings.TrimSuffix(line, "\n"), look.Message)
	assert.Equal(t, done, look.Done)
	assert.Empty(t, cmp.Diff(d.Status, look.Status), "status -o yaml (+) against the server's (-)")

	// next on a complete rollout: the controller's next sync, as YAML and
	// as JSON, the same document.
	code, y, errOut := p.run(t, "next", "web", "-n", ns, "-o", "yaml")
	require.Equal(t, 0, code, errOut)
	code, j, errOut := p.run(t, "next", "web", "-n", ns, "-o", "json")
	require.Equal(t, 0, code, errOut)
	fromYAML, err := yaml.YAMLToJSON([]byte(y))
	require.NoError(t, err)
	assert.JSONEq(t, j, string(fromYAML))
}

// A rollout whose new image cannot be pulled (a mistyped tag: the test
// writes the kubelet's ImagePullBackOff into the new pods' status, the
// stand-in kubelet being held off them): status --explain names the cause,
// --predict says the rollout stalls, status --watch ends at --timeout with
// kubectl's error, and once the progress deadline passes status reports
// kubectl's viewer's error with exit 1.
func testPluginStalled(t *testing.T, p plugin) {
	ctx, ns := setup(t)
	_, stop := startManager(t, ns, controller.ManagerOptions{})
	d := rolling(deployment(ns, "web", 4, "nginx:1.27"), intstr.FromInt32(1), intstr.FromInt32(1))
	d.Spec.ProgressDeadlineSeconds = new(int32(15))
	create(ctx, t, d)
	waitComplete(ctx, t, ns, "web")
	stop()
	// A kubelet that takes an hour: the new pods stay pending, as the test
	// writes them.
	startManager(t, ns, controller.ManagerOptions{KubeletDelay: time.Hour})
	const typo = "nginx:1.27-typo"
	update(ctx, t, ns, "web", setImage(typo))
	stable(ctx, t, ns, typo, 2, 3)
	pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	backoff := 0
	for i := range pods.Items {
		pod := &pods.Items[i]
		if pod.Spec.Containers[0].Image != typo || pod.DeletionTimestamp != nil {
			continue
		}
		now := metav1.Now()
		pod.Status = core.PodStatus{
			Phase:      core.PodPending,
			Conditions: []core.PodCondition{{Type: core.PodScheduled, Status: core.ConditionTrue, LastTransitionTime: now}, {Type: core.PodReady, Status: core.ConditionFalse, Reason: "ContainersNotReady", LastTransitionTime: now}},
			ContainerStatuses: []core.ContainerStatus{{Name: "web", Image: typo, State: core.ContainerState{Waiting: &core.ContainerStateWaiting{
				Reason: "ImagePullBackOff", Message: `Back-off pulling image "` + typo + `"`}}}},
		}
		_, err := client.CoreV1().Pods(ns).UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		require.NoError(t, err)
		backoff++
	}
	require.Equal(t, 2, backoff, "new pods")

	code, out, errOut := p.run(t, "status", "web", "-n", ns, "--watch=false", "--predict", "--explain")
	require.Equal(t, 0, code, errOut)
	t.Logf("status --predict --explain on the stalled rollout:\n%s%s", out, errOut)
	line, _, err := statusLine(t, getDeployment(ctx, t, ns, "web"), 0)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, line), "kubectl's line first: %q", out)
	assert.Contains(t, out, "ImagePullBackOff")
	assert.Contains(t, out, "prediction: the rollout stalls")
	assert.NotContains(t, out, "prediction: the rollout completes")

	start := time.Now()
	code, out, errOut = p.run(t, "status", "web", "-n", ns, "--timeout", "2s")
	assert.Equal(t, 1, code)
	assert.Equal(t, "error: timed out waiting for the condition\n", errOut)
	assert.Equal(t, line, lines(out)[0])
	assert.Less(t, time.Since(start), 30*time.Second)

	// A Deployment deleted while its rollout is watched: the plugin's watch
	// and kubectl's own, side by side, print the same and end with the
	// same error.
	gone := rolling(deployment(ns, "gone", 2, typo), intstr.FromInt32(1), intstr.FromInt32(1))
	create(ctx, t, gone)
	// Both watches start once the controller has nothing more to write.
	waitFor(ctx, t, "the stalled rollout of gone", 30*time.Second, func() (bool, error) {
		d := getDeployment(ctx, t, ns, "gone")
		return d.Status.ObservedGeneration == d.Generation && d.Status.UpdatedReplicas == 2 && d.Status.Replicas == 2, nil
	})
	time.Sleep(time.Second)
	k := newKubectl(t, p, ns)
	type result struct {
		out, errOut string
		code        int
	}
	kubectlDone := make(chan result, 1)
	go func() {
		out, errOut, code := k.run(rollout.NewCmdRollout, "status", "deployment/gone", "-n", ns, "--timeout", "60s")
		kubectlDone <- result{out, errOut, code}
	}()
	watching := p.stream(ctx, t, "status", "deployment/gone", "-n", ns, "--timeout", "60s")
	waitFor(ctx, t, "the plugin's first line", 30*time.Second, func() (bool, error) { return len(watching.lines()) > 0, nil })
	time.Sleep(2 * time.Second) // kubectl's watch, started first, is up too
	require.NoError(t, client.AppsV1().Deployments(ns).Delete(ctx, "gone", metav1.DeleteOptions{}))
	got, gotErr, err := watching.wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	var kr result
	select {
	case kr = <-kubectlDone:
	case <-time.After(60 * time.Second):
		t.Fatal("kubectl's watch did not end")
	}
	assert.Equal(t, kr.code, exit.ExitCode())
	assert.Equal(t, kr.out, strings.Join(got, ""))
	assert.Equal(t, kr.errOut, gotErr)
	assert.Equal(t, "error: object has been deleted\n", gotErr)

	// The controller marks the deadline; kubectl's viewer refuses.
	var cur *apps.Deployment
	waitFor(ctx, t, "the progress deadline", 60*time.Second, func() (bool, error) {
		cur = getDeployment(ctx, t, ns, "web")
		_, _, err := statusLine(t, cur, 0)
		return err != nil, nil
	})
	_, _, viewerErr := statusLine(t, cur, 0)
	code, out, errOut = p.run(t, "status", "web", "-n", ns)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Equal(t, "error: "+viewerErr.Error()+"\n", errOut)
}

// A context the kubeconfig does not have: kubectl's one line and exit
// code (1, the table's "the cluster's error"), from every subcommand that
// reads the cluster, before anything is read or sent. The rollout
// subcommands are compared with kubectl's own; the others print the same.
func testPluginWrongContext(t *testing.T, p plugin) {
	_, ns := setup(t)
	k := newKubectl(t, p, ns)
	_, want, wantCode := k.rollout(t, "status", "deployment/web", "-n", ns, "--context", "nope")
	require.Equal(t, "error: context \"nope\" does not exist\n", want)
	for _, args := range [][]string{
		{"status", "deployment/web"},
		{"history", "deployment/web"},
		{"undo", "deployment/web"},
		{"restart", "deployment/web"},
		{"pause", "deployment/web"},
		{"resume", "deployment/web"},
		{"explain", "web"},
		{"next", "web"},
		{"simulate", "web"},
		{"config-restarts"},
	} {
		args = append(args, "-n", ns, "--context", "nope")
		kErr, kCode := want, wantCode
		if args[0] != "explain" && args[0] != "next" && args[0] != "simulate" && args[0] != "config-restarts" {
			_, kErr, kCode = k.rollout(t, args...)
		}
		code, out, errOut := p.run(t, args...)
		assert.Equal(t, kCode, code, "%v", args)
		assert.Empty(t, out, "%v", args)
		assert.Equal(t, kErr, errOut, "%v", args)
	}
}

// restartPlan is what config-restarts -o json prints of the live plan (the
// fields the test reads).
type restartPlan struct {
	Namespace  string            `json:"namespace"`
	NotOptedIn int               `json:"notOptedIn"`
	Workloads  []restartWorkload `json:"workloads"`
}

type restartWorkload struct {
	Kind      string          `json:"kind"`
	Name      string          `json:"name"`
	Action    string          `json:"action"`
	Configs   []restartConfig `json:"configs"`
	Timestamp string          `json:"timestamp"`
	Patch     json.RawMessage `json:"patch"`
}

type restartConfig struct {
	Config  string `json:"config"`
	Reason  string `json:"reason"`
	Applied string `json:"applied,omitempty"`
	Current string `json:"current,omitempty"`
}

// config-restarts without -f reads the namespace's ConfigMaps, Secrets and
// workloads from the server and says what the restart planner does now;
// the patch it shows, sent to the server as the restart controller sends
// it (a JSON merge patch), leaves the workload up to date, and an edit of
// the ConfigMap then restarts it again.
func testPluginConfigRestarts(t *testing.T, p plugin) {
	ctx, ns := setup(t)
	cm := &core.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "web-config"}, Data: map[string]string{"level": "info"}}
	_, err := client.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{})
	require.NoError(t, err)
	secret := &core.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "creds"}, StringData: map[string]string{"password": "x"}}
	_, err = client.CoreV1().Secrets(ns).Create(ctx, secret, metav1.CreateOptions{})
	require.NoError(t, err)
	// web recorded an older web-config, and the secret's current checksum;
	// db opts in and recorded nothing; plain does not opt in.
	old := restart.ConfigMapChecksum(map[string]string{"level": "debug"}, nil, false)
	creds := restart.SecretChecksum(map[string][]byte{"password": []byte("x")})
	web := deployment(ns, "web", 1, "nginx:1")
	web.Annotations = map[string]string{restart.AnnotationEnabled: restart.EnabledValue,
		restart.AnnotationChecksums: restart.FormatChecksums(map[string]string{"configmap/" + ns + "/web-config": old, "secret/" + ns + "/creds": creds})}
	web.Spec.Template.Spec.Containers[0].EnvFrom = []core.EnvFromSource{
		{ConfigMapRef: &core.ConfigMapEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "web-config"}}},
		{SecretRef: &core.SecretEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "creds"}}},
	}
	create(ctx, t, web)
	plain := deployment(ns, "plain", 1, "nginx:1")
	plain.Spec.Template.Spec.Containers[0].EnvFrom = web.Spec.Template.Spec.Containers[0].EnvFrom
	create(ctx, t, plain)
	db := &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db", Annotations: map[string]string{restart.AnnotationEnabled: restart.EnabledValue}},
		Spec: apps.StatefulSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "db"}},
				Spec: core.PodSpec{Containers: []core.Container{{Name: "db", Image: "postgres"}},
					Volumes: []core.Volume{{Name: "conf", VolumeSource: core.VolumeSource{ConfigMap: &core.ConfigMapVolumeSource{
						LocalObjectReference: core.LocalObjectReference{Name: "web-config"}}}}}},
			},
		},
	}
	_, err = client.AppsV1().StatefulSets(ns).Create(ctx, db, metav1.CreateOptions{})
	require.NoError(t, err)

	// plan runs config-restarts -o json and returns the plan by workload.
	plan := func() map[string]restartWorkload {
		t.Helper()
		code, out, errOut := p.run(t, "config-restarts", "-n", ns, "-o", "json")
		require.Equal(t, 0, code, errOut)
		var l restartPlan
		require.NoError(t, json.Unmarshal([]byte(out), &l), out)
		assert.Equal(t, ns, l.Namespace)
		assert.Equal(t, 1, l.NotOptedIn, "plain")
		byName := map[string]restartWorkload{}
		for _, w := range l.Workloads {
			byName[w.Kind+"/"+w.Name] = w
		}
		return byName
	}
	current := restart.ConfigMapChecksum(cm.Data, nil, false)
	got := plan()
	require.Len(t, got, 2)
	assert.Equal(t, "Restart", got["Deployment/web"].Action)
	assert.Equal(t, []restartConfig{
		{Config: "configmap/" + ns + "/web-config", Reason: string(restart.ReasonChecksumChanged), Applied: old, Current: current},
		{Config: "secret/" + ns + "/creds", Reason: string(restart.ReasonUpToDate), Applied: creds, Current: creds},
	}, got["Deployment/web"].Configs, "the secret's checksum from the server's data (stringData merged)")
	assert.Equal(t, "Update", got["StatefulSet/db"].Action)

	// The text says the same.
	code, text, errOut := p.run(t, "config-restarts", "-n", ns)
	require.Equal(t, 0, code, errOut)
	t.Logf("config-restarts -n %s:\n%s", ns, text)
	assert.Contains(t, text, "restart Deployment "+ns+"/web (")
	assert.Contains(t, text, "configmap/"+ns+"/web-config changed since the last restart (checksum "+old+" → "+current+")")
	assert.Contains(t, text, "record the config checksums of StatefulSet "+ns+"/db (no restart)")
	assert.Contains(t, text, "1 restart, 1 checksum update without restart, 0 up to date")

	// The patches, sent as the restart controller sends them.
	_, err = client.AppsV1().Deployments(ns).Patch(ctx, "web", types.MergePatchType, got["Deployment/web"].Patch, metav1.PatchOptions{})
	require.NoError(t, err)
	_, err = client.AppsV1().StatefulSets(ns).Patch(ctx, "db", types.MergePatchType, got["StatefulSet/db"].Patch, metav1.PatchOptions{})
	require.NoError(t, err)
	restarted := getDeployment(ctx, t, ns, "web")
	assert.Equal(t, got["Deployment/web"].Timestamp, restarted.Spec.Template.Annotations[restart.AnnotationTimestamp])
	got = plan()
	assert.Equal(t, "None", got["Deployment/web"].Action)
	assert.Equal(t, "None", got["StatefulSet/db"].Action)

	// An edit of the ConfigMap restarts both.
	cm.Data["level"] = "warn"
	_, err = client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	got = plan()
	assert.Equal(t, "Restart", got["Deployment/web"].Action)
	assert.Equal(t, "Restart", got["StatefulSet/db"].Action)
}
