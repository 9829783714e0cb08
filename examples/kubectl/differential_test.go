package kubectl

import (
	"flag"
	"fmt"
	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubectl/pkg/cmd/set"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/polymorphichelpers"
	"k8s.io/kubectl/pkg/scheme"
	"pgregory.net/rapid"
)

// minChecks is the number of generated states every differential test must
// check; it is rapid's default here unless -rapid.checks is given.
const minChecks = 5000

func TestMain(m *testing.M) {
	// kubectl's history viewer logs a warning for every unparsable
	// revision; the history tests compare them.
	klog.SetLogger(logr.New(warnings))
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	if !given {
		if err := flag.Set("rapid.checks", strconv.Itoa(minChecks)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}

var deploymentKind = schema.GroupKind{Group: "apps", Kind: "Deployment"}

// tally counts the checks of one test and the branches they reached; the
// test fails unless every listed branch was reached and at least the
// configured number of states was checked.
type tally struct {
	checks   int
	branches map[string]int
}

func newTally() *tally { return &tally{branches: map[string]int{}} }

func (c *tally) hit(branch string) { c.branches[branch]++ }

func (c *tally) verify(t *testing.T, want ...string) {
	t.Helper()
	checks, _ := strconv.Atoi(flag.Lookup("rapid.checks").Value.String())
	if c.checks < checks {
		t.Errorf("checked %d states, want %d", c.checks, checks)
	}
	for _, b := range want {
		if c.branches[b] == 0 {
			t.Errorf("branch %q never reached", b)
		}
	}
	keys := make([]string, 0, len(c.branches))
	for k := range c.branches {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%q=%d", k, c.branches[k]))
	}
	t.Logf("%d states, 0 differences; branches: %s", c.checks, strings.Join(parts, " "))
}

// classify names the branch an output or error belongs to.
func classify(out string, err error) string {
	s := out
	if err != nil {
		s = "error: " + err.Error()
	}
	for _, k := range []string{
		"spec update to be observed", "exceeded its progress deadline", "new replicas have been updated",
		"old replicas are pending", "updated replicas are available", "successfully rolled out",
		"is different from the running revision", "cannot get the revision",
		"No rollout history found", "unable to find the specified revision", "REVISION", "Pod Template",
		"no rollout history found", "unable to find specified revision", "paused deployment",
		"skipped rollback", "rolled back",
	} {
		if strings.Contains(s, k) {
			return k
		}
	}
	return "other: " + s
}

func modelOf(t *rapid.T, w world) modelState {
	s, err := convert(w.d, w.rss)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// client is a fake API holding the world; patches are accepted as sent
// (the server's application of them is not kubectl's logic).
func client(w world) *fake.Clientset {
	objs := []runtime.Object{w.d.DeepCopy()}
	for _, rs := range w.rss {
		objs = append(objs, rs.DeepCopy())
	}
	c := fake.NewSimpleClientset(objs...)
	c.PrependReactor("patch", "deployments", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, w.d.DeepCopy(), nil
	})
	return c
}

// drawRevision draws the revision asked for: often the Deployment's own or
// one a ReplicaSet holds, so that matches and rollbacks are frequent,
// otherwise a small number (-1 included).
func drawRevision(t *rapid.T, w world) int64 {
	var known []int64
	if v, err := strconv.ParseInt(w.d.Annotations["deployment.kubernetes.io/revision"], 10, 64); err == nil {
		known = append(known, v)
	}
	for _, rs := range w.rss {
		if v, err := strconv.ParseInt(rs.Annotations["deployment.kubernetes.io/revision"], 10, 64); err == nil {
			known = append(known, v)
		}
	}
	if len(known) > 0 && !rarely(t, "rev-any", 30) {
		return known[rapid.IntRange(0, len(known)-1).Draw(t, "rev-known-index")]
	}
	return int64(rapid.IntRange(-1, 6).Draw(t, "revision"))
}

func TestDifferentialStatus(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		rev := drawRevision(t, w)
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w.d.DeepCopy())
		if err != nil {
			t.Fatal(err)
		}
		wantMsg, wantDone, wantErr := (&polymorphichelpers.DeploymentStatusViewer{}).Status(&unstructured.Unstructured{Object: u}, rev)
		s := modelOf(t, w)
		msg, done, err := rollout.Status(s.d, rev)
		if msg != wantMsg || done != wantDone || errText(err) != errText(wantErr) {
			t.Fatalf("Status(%d) = %q, %v, %q; kubectl %q, %v, %q", rev, msg, done, errText(err), wantMsg, wantDone, errText(wantErr))
		}
		c.checks++
		c.hit(classify(msg, err))
	})
	c.verify(t, "spec update to be observed", "exceeded its progress deadline", "new replicas have been updated",
		"old replicas are pending", "updated replicas are available", "successfully rolled out",
		"is different from the running revision", "cannot get the revision")
}

func TestDifferentialHistory(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		rev := drawRevision(t, w)
		hv, err := polymorphichelpers.HistoryViewerFor(deploymentKind, client(w))
		if err != nil {
			t.Fatal(err)
		}
		warnings.take()
		want, wantErr := hv.ViewHistory(w.d.Namespace, w.d.Name, rev)
		wantWarnings := warnings.take()
		s := modelOf(t, w)
		got, err := rollout.HistoryRevision(s.d, s.rss, rev)
		if got != want || errText(err) != errText(wantErr) {
			t.Fatalf("HistoryRevision(%d) =\n%q, %q; kubectl\n%q, %q", rev, got, errText(err), want, errText(wantErr))
		}
		gotWarnings, werr := rollout.HistoryWarnings(s.d, s.rss)
		if werr != nil || strings.Join(gotWarnings, "\n") != strings.Join(wantWarnings, "\n") {
			t.Fatalf("HistoryWarnings = %q, %v; kubectl logged %q", gotWarnings, werr, wantWarnings)
		}
		if len(wantWarnings) > 0 {
			c.hit("warnings")
		}
		c.checks++
		c.hit(classify(got, err))
		for _, feature := range describerFeatures {
			if strings.Contains(got, feature) {
				c.hit(feature)
			}
		}
	})
	c.verify(t, append([]string{"No rollout history found", "unable to find the specified revision", "REVISION", "Pod Template", "warnings"}, describerFeatures...)...)
}

// warningSink collects what kubectl logs through klog (its warnings).
type warningSink struct{ msgs []string }

var warnings = &warningSink{}

func (s *warningSink) take() []string {
	m := s.msgs
	s.msgs = nil
	return m
}
func (s *warningSink) Init(logr.RuntimeInfo) {}
func (s *warningSink) Enabled(int) bool      { return true }
func (s *warningSink) Info(_ int, msg string, _ ...any) {
	s.msgs = append(s.msgs, strings.TrimSuffix(msg, "\n"))
}
func (s *warningSink) Error(_ error, msg string, _ ...any) {
	s.msgs = append(s.msgs, strings.TrimSuffix(msg, "\n"))
}
func (s *warningSink) WithValues(...any) logr.LogSink { return s }
func (s *warningSink) WithName(string) logr.LogSink   { return s }

// describerFeatures are parts of kubectl's pod template layout the
// generated templates must reach.
var describerFeatures = []string{
	"  Annotations:\t", "^[", "...\n", "  Service Account:", "  Init Containers:", "    Ports:\t", "    Host Ports:\t",
	"    Command:\n", "    Limits:\n", "    Requests:\n", "    Liveness:\thttp-get", "\ttcp-socket", "\tgrpc <pod>:", "\texec [",
	"    Environment Variables from:\n", "<set to the key", " (v1:metadata.name)", "    Mounts:\n", "  Volumes:\n",
	"EmptyDir", "SizeLimit:\t1Gi", "ConfigMap (a volume", "Secret (a volume", "PersistentVolumeClaim (a reference", "HostPathType:\tDirectory",
	"  Priority Class Name:", "SeccompProfile:\tRuntimeDefault", "LocalhostProfile:\tprofiles/audit.json", "  Node-Selectors:\tdisktype=ssd\n", " op=Exists", " for 300s",
}

// patchSent returns the body of the patch kubectl sent to the fake API.
func patchSent(c *fake.Clientset) (string, string) {
	for _, a := range c.Actions() {
		if p, ok := a.(k8stesting.PatchAction); ok {
			return string(p.GetPatchType()), string(p.GetPatch())
		}
	}
	return "", ""
}

// kubectlRollback runs kubectl's rollback of the world's Deployment to rev
// against a fake API holding the world, and returns the API (to see what
// kubectl sent), kubectl's output and its error.
func kubectlRollback(t *rapid.T, w world, rev int64, dryRun cmdutil.DryRunStrategy) (*fake.Clientset, string, error) {
	api := client(w)
	rb, err := polymorphichelpers.RollbackerFor(deploymentKind, api)
	if err != nil {
		t.Fatal(err)
	}
	out, err := rb.Rollback(w.d.DeepCopy(), nil, rev, dryRun)
	return api, out, err
}

func TestDifferentialUndo(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		rev := drawRevision(t, w)
		api, want, wantErr := kubectlRollback(t, w, rev, cmdutil.DryRunNone)
		wantType, wantPatch := patchSent(api)
		s := modelOf(t, w)
		r, err := rollout.Undo(s.d, s.rss, rev, appsv1.TemplateJSON)
		if r.Output != want || errText(err) != errText(wantErr) || string(r.Patch) != wantPatch {
			t.Fatalf("Undo(%d) = %q, %q,\n%s; kubectl %q, %q,\n%s", rev, r.Output, errText(err), r.Patch, want, errText(wantErr), wantPatch)
		}
		if wantPatch != "" && wantType != rollout.JSONPatchType {
			t.Fatalf("kubectl sent patch type %q", wantType)
		}
		c.checks++
		c.hit(classify(r.Output, err))
	})
	c.verify(t, "no rollout history found", "unable to find specified revision", "paused deployment", "skipped rollback", "rolled back")
}

func TestDifferentialUndoDryRun(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		rev := drawRevision(t, w)
		api, want, wantErr := kubectlRollback(t, w, rev, cmdutil.DryRunClient)
		if _, p := patchSent(api); p != "" {
			t.Fatalf("kubectl patched in a client dry run: %s", p)
		}
		s := modelOf(t, w)
		got, err := rollout.UndoDryRun(s.d, s.rss, rev)
		if got != want || errText(err) != errText(wantErr) {
			t.Fatalf("UndoDryRun(%d) =\n%q, %q; kubectl\n%q, %q", rev, got, errText(err), want, errText(wantErr))
		}
		c.checks++
		c.hit(classify(got, err))
	})
	c.verify(t, "no rollout history found", "unable to find specified revision", "Pod Template")
}

// kubectlPatch runs one of kubectl's object mutators the way rollout
// pause, resume and restart do (set.CalculatePatch: encode, mutate, two-way
// strategic merge patch) and returns the patch, the mutated object, and
// the mutator's error.
func kubectlPatch(d *apps.Deployment, fn set.PatchFn) (string, *apps.Deployment, error) {
	obj := d.DeepCopy()
	p := &set.Patch{Info: &resource.Info{Object: obj}}
	set.CalculatePatch(p, scheme.DefaultJSONEncoder(), fn)
	return string(p.Patch), obj, p.Err
}

func TestDifferentialRestart(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		if w.restartNow {
			if w.d.Spec.Template.Annotations == nil {
				w.d.Spec.Template.Annotations = map[string]string{}
			}
			w.d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = time.Now().Format(time.RFC3339)
		}
		want, after, wantErr := kubectlPatch(w.d, set.PatchFn(polymorphichelpers.ObjectRestarterFn))
		// kubectl reads its own clock: take the time it wrote.
		now := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
		if at, ok := after.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]; ok && wantErr == nil {
			var err error
			if now, err = time.Parse(time.RFC3339, at); err != nil {
				t.Fatal(err)
			}
		}
		s := modelOf(t, w)
		got, err := rollout.Restart(s.d, now)
		if string(got) != want || errText(err) != errText(wantErr) {
			t.Fatalf("Restart(%s) = %s, %q; kubectl %s, %q", now, got, errText(err), want, errText(wantErr))
		}
		c.checks++
		switch {
		case err != nil:
			c.hit("paused")
		case want == "{}":
			c.hit("already restarted this second")
		default:
			c.hit("patch")
		}
	})
	c.verify(t, "paused", "already restarted this second", "patch")
}

func TestDifferentialPause(t *testing.T) {
	testPauseResume(t, "Pause", rollout.Pause, set.PatchFn(polymorphichelpers.ObjectPauserFn))
}

func TestDifferentialResume(t *testing.T) {
	testPauseResume(t, "Resume", rollout.Resume, set.PatchFn(polymorphichelpers.ObjectResumerFn))
}

func testPauseResume(t *testing.T, name string, ours func(*modelDeployment) ([]byte, error), theirs set.PatchFn) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		want, _, wantErr := kubectlPatch(w.d, theirs)
		s := modelOf(t, w)
		got, err := ours(s.d)
		if string(got) != want || errText(err) != errText(wantErr) {
			t.Fatalf("%s = %s, %q; kubectl %s, %q", name, got, errText(err), want, errText(wantErr))
		}
		c.checks++
		if err != nil {
			c.hit("refused")
		} else {
			c.hit("patch")
		}
	})
	c.verify(t, "refused", "patch")
}
