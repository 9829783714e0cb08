package kubectl

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
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

var daemonSetKind = schema.GroupKind{Group: "apps", Kind: "DaemonSet"}

// dsFataler is what the helpers need of a *testing.T or *rapid.T.
type dsFataler interface{ Fatal(args ...any) }

// dsModel is a DaemonSet state converted to the model, as the rollout
// functions take it.
type dsModel struct {
	ds  *model.DaemonSet
	crs []*model.ControllerRevision
}

// convertDaemonSet converts a DaemonSet and ControllerRevisions with the
// apps/v1 adapter's DaemonSet conversion (the one its planner input uses).
func convertDaemonSet(ds *apps.DaemonSet, crs []*apps.ControllerRevision) (dsModel, error) {
	s, err := appsv1.DaemonSetState{DaemonSet: ds, ControllerRevisions: crs}.Model()
	if err != nil {
		return dsModel{}, err
	}
	return dsModel{ds: s.DaemonSet, crs: s.ControllerRevisions}, nil
}

func dsModelOf(t *rapid.T, w dsWorld) dsModel {
	s, err := convertDaemonSet(w.ds, w.crs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dsClient is a fake API holding a DaemonSet and ControllerRevisions;
// patches are accepted as sent (the server's application of them is not
// kubectl's logic).
func dsClient(ds *apps.DaemonSet, crs []*apps.ControllerRevision) *fake.Clientset {
	objs := []runtime.Object{ds.DeepCopy()}
	for _, cr := range crs {
		objs = append(objs, cr.DeepCopy())
	}
	c := fake.NewSimpleClientset(objs...)
	c.PrependReactor("patch", "daemonsets", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, ds.DeepCopy(), nil
	})
	return c
}

// classifyDaemonSet names the branch an output or error belongs to.
func classifyDaemonSet(out string, err error) string {
	s := out
	if err != nil {
		s = "error: " + err.Error()
	}
	for _, k := range []string{
		"only available for RollingUpdate", "spec update to be observed", "new pods have been updated",
		"updated pods are available", "successfully rolled out",
		"failed to create selector", "No rollout history found", "unable to find the specified revision",
		"unable to parse history", "REVISION", "will roll back to", "Pod Template",
		"no last revision to roll back to", "unable to find specified revision", "invalid JSON document",
		"skipped rollback", "rolled back", "pausing is not supported", "resuming is not supported",
	} {
		if strings.Contains(s, k) {
			return k
		}
	}
	return "other: " + s
}

// dsDataKind names how kubectl reads a revision's data (see
// rollout.DaemonSetRevisionTemplate), for the branch counts.
func dsDataKind(raw []byte) string {
	switch string(raw) {
	case `{"spec":`, `[]`, `"x"`:
		return "data: invalid"
	case `null`, `{}`, `{"spec":{}}`, `{"spec":{"minReadySeconds":5}}`:
		return "data: the DaemonSet's template"
	case `{"spec":null}`, `{"spec":{"template":null}}`, `{"spec":{"template":{"$patch":"delete"}}}`:
		return "data: the empty template"
	case `{"spec":7}`, `{"spec":{"template":"x"}}`, `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"a":1}}}}}`,
		`{"spec":{"template":{"$patch":"remove"}}}`:
		return "data: undecodable"
	}
	return "data: template"
}

// dsWorldFeatures names the history features of a world the undo test
// must meet.
func dsWorldFeatures(w dsWorld) []string {
	var out []string
	if len(w.crs) > 12 {
		out = append(out, "crowded history")
	}
	numbers := map[int64]bool{}
	for _, cr := range w.crs {
		if numbers[cr.Revision] {
			out = append(out, "repeated revision numbers")
		}
		numbers[cr.Revision] = true
		if cr.Namespace != w.ds.Namespace {
			out = append(out, "revision of another namespace")
		}
		switch {
		case bytes.Contains(cr.Data.Raw, []byte("\n  ")):
			out = append(out, "re-indented data")
		case bytes.Contains(cr.Data.Raw, []byte(strconv.FormatInt(hugeInt, 10))):
			out = append(out, "integer beyond 2^53")
		}
		if len(cr.OwnerReferences) > 0 && cr.OwnerReferences[0].Controller == nil {
			out = append(out, "owned, not controlled")
		}
	}
	return out
}

// dsRevisionData returns the data of the revision of crs named name, or
// nil.
func dsRevisionData(crs []*apps.ControllerRevision, name string) []byte {
	for _, cr := range crs {
		if cr.Name == name {
			return cr.Data.Raw
		}
	}
	return nil
}

func TestDifferentialDaemonSetStatus(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genDaemonSetWorld(t)
		rev := drawDaemonSetRevision(t, w)
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w.ds.DeepCopy())
		if err != nil {
			t.Fatal(err)
		}
		wantMsg, wantDone, wantErr := (&polymorphichelpers.DaemonSetStatusViewer{}).Status(&unstructured.Unstructured{Object: u}, rev)
		s := dsModelOf(t, w)
		msg, done, err := rollout.DaemonSetStatus(s.ds)
		if msg != wantMsg || done != wantDone || errText(err) != errText(wantErr) {
			t.Fatalf("DaemonSetStatus (revision %d) = %q, %v, %q; kubectl %q, %v, %q", rev, msg, done, errText(err), wantMsg, wantDone, errText(wantErr))
		}
		c.checks++
		c.hit(classifyDaemonSet(msg, err))
	})
	c.verify(t, "only available for RollingUpdate", "spec update to be observed", "new pods have been updated",
		"updated pods are available", "successfully rolled out")
}

func TestDifferentialDaemonSetHistory(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genDaemonSetWorld(t)
		rev := drawDaemonSetRevision(t, w)
		hv, err := polymorphichelpers.HistoryViewerFor(daemonSetKind, dsClient(w.ds, w.crs))
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := hv.ViewHistory(w.ds.Namespace, w.ds.Name, rev)
		s := dsModelOf(t, w)
		got, err := rollout.DaemonSetHistoryRevision(s.ds, s.crs, rev)
		if got != want || errText(err) != errText(wantErr) {
			t.Fatalf("DaemonSetHistoryRevision(%d) =\n%q, %q; kubectl\n%q, %q", rev, got, errText(err), want, errText(wantErr))
		}
		if rev <= 0 {
			table, err := rollout.DaemonSetHistory(s.ds, s.crs)
			if table != want || errText(err) != errText(wantErr) {
				t.Fatalf("DaemonSetHistory =\n%q, %q; kubectl\n%q, %q", table, errText(err), want, errText(wantErr))
			}
		}
		c.checks++
		c.hit(classifyDaemonSet(got, err))
		if rev > 0 && err == nil && got != rollout.NoHistory {
			c.hit(dsShownDataKind(t, s, rev, w))
		}
	})
	c.verify(t, "No rollout history found", "unable to find the specified revision",
		"unable to parse history", "REVISION", "Pod Template",
		"data: template", "data: the DaemonSet's template", "data: the empty template")
}

// dsShownDataKind is the data kind of the revision numbered rev that kubectl's
// history shows: the last of that number in name order.
func dsShownDataKind(t *rapid.T, s dsModel, rev int64, w dsWorld) string {
	selected := func(map[string]string) bool { return true }
	if s.ds.Spec.Selector != nil {
		m, err := model.NewMatcher(s.ds.Spec.Selector)
		if err != nil {
			t.Fatal(err)
		}
		selected = m.Matches
	}
	name := ""
	for _, r := range s.crs {
		if r.Revision == rev && r.Namespace == s.ds.Namespace && selected(r.Labels) && r.IsControlledBy(s.ds.UID) && r.Name > name {
			name = r.Name
		}
	}
	if name == "" {
		t.Fatalf("no revision %d shown", rev)
	}
	return dsDataKind(dsRevisionData(w.crs, name))
}

// kubectlDaemonSetRollback runs kubectl's rollback of a DaemonSet to rev
// against a fake API holding it and its revisions, and returns the API (to
// see what kubectl sent), kubectl's output and its error.
func kubectlDaemonSetRollback(t dsFataler, ds *apps.DaemonSet, crs []*apps.ControllerRevision, rev int64, dryRun cmdutil.DryRunStrategy) (*fake.Clientset, string, error) {
	api := dsClient(ds, crs)
	rb, err := polymorphichelpers.RollbackerFor(daemonSetKind, api)
	if err != nil {
		t.Fatal(err)
	}
	out, err := rb.Rollback(ds.DeepCopy(), nil, rev, dryRun)
	return api, out, err
}

func TestDifferentialDaemonSetUndo(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genDaemonSetWorld(t)
		rev := drawDaemonSetRevision(t, w)
		api, want, wantErr := kubectlDaemonSetRollback(t, w.ds, w.crs, rev, cmdutil.DryRunNone)
		wantType, wantPatch := patchSent(api)
		s := dsModelOf(t, w)
		r, err := rollout.DaemonSetUndo(s.ds, s.crs, rev, appsv1.TemplateJSON)
		if r.Output != want || errText(err) != errText(wantErr) || string(r.Patch) != wantPatch {
			t.Fatalf("DaemonSetUndo(%d) = %q, %q,\n%s; kubectl %q, %q,\n%s", rev, r.Output, errText(err), r.Patch, want, errText(wantErr), wantPatch)
		}
		if wantPatch != "" && wantType != rollout.StrategicMergePatchType {
			t.Fatalf("kubectl sent patch type %q", wantType)
		}
		c.checks++
		c.hit(classifyDaemonSet(r.Output, err))
		if r.Target != nil && r.Patch != nil {
			c.hit("sent " + dsDataKind(r.Patch))
		}
		for _, f := range dsWorldFeatures(w) {
			c.hit(f)
		}
	})
	c.verify(t, "no last revision to roll back to", "unable to find specified revision",
		"skipped rollback", "rolled back", "sent data: invalid",
		"crowded history", "re-indented data", "integer beyond 2^53", "owned, not controlled",
		"repeated revision numbers", "revision of another namespace")
}

func TestDifferentialDaemonSetUndoDryRun(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genDaemonSetWorld(t)
		rev := drawDaemonSetRevision(t, w)
		api, want, wantErr := kubectlDaemonSetRollback(t, w.ds, w.crs, rev, cmdutil.DryRunClient)
		if _, p := patchSent(api); p != "" {
			t.Fatalf("kubectl patched in a client dry run: %s", p)
		}
		s := dsModelOf(t, w)
		got, err := rollout.DaemonSetUndoDryRun(s.ds, s.crs, rev)
		c.checks++
		// Data that kubectl's JSON decoder rejects after the merge: both
		// fail, each with its own decoder's text.
		if rde, ok := errors.AsType[*rollout.RevisionDataError](err); ok && !errors.Is(err, rollout.ErrInvalidJSONDoc) {
			if wantErr == nil || want != "" {
				t.Fatalf("UndoDryRun(%d) = %q (%s); kubectl succeeded:\n%q", rev, errText(err), rde.Revision, want)
			}
			c.hit("undecodable data, both fail")
			return
		}
		if got != want || errText(err) != errText(wantErr) {
			t.Fatalf("DaemonSetUndoDryRun(%d) =\n%q, %q; kubectl\n%q, %q", rev, got, errText(err), want, errText(wantErr))
		}
		c.hit(classifyDaemonSet(got, err))
	})
	c.verify(t, "no last revision to roll back to", "unable to find specified revision",
		"will roll back to", "invalid JSON document", "undecodable data, both fail")
}

// kubectlDaemonSetPatch runs one of kubectl's object mutators the way rollout
// pause, resume and restart do (set.CalculatePatch: encode, mutate, two-way
// strategic merge patch) and returns the patch and the mutator's error;
// obj is mutated.
func kubectlDaemonSetPatch(obj runtime.Object, fn set.PatchFn) (string, error) {
	p := &set.Patch{Info: &resource.Info{Object: obj}}
	set.CalculatePatch(p, scheme.DefaultJSONEncoder(), fn)
	return string(p.Patch), p.Err
}

func TestDifferentialDaemonSetRestart(t *testing.T) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genDaemonSetWorld(t)
		if w.restartNow {
			if w.ds.Spec.Template.Annotations == nil {
				w.ds.Spec.Template.Annotations = map[string]string{}
			}
			w.ds.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = time.Now().Format(time.RFC3339)
		}
		want, got, err := daemonSetRestart(t, w.ds)
		if got != want.patch || errText(err) != errText(want.err) {
			t.Fatalf("DaemonSetRestart(%s) = %s, %q; kubectl %s, %q", want.now, got, errText(err), want.patch, errText(want.err))
		}
		c.checks++
		switch {
		case err != nil:
			c.hit("refused")
		case got == "{}":
			c.hit("already restarted this second")
		default:
			c.hit("patch")
		}
	})
	c.verify(t, "already restarted this second", "patch")
}

// dsRestartView is kubectl's rollout restart of a DaemonSet: the time it
// wrote, the patch and the error.
type dsRestartView struct {
	now   time.Time
	patch string
	err   error
}

// daemonSetRestart runs kubectl's restarter on ds and rollout.DaemonSetRestart
// at the time kubectl read from its clock (converting ds to the model after
// kubectl ran, as kubectl reads the object it is given).
func daemonSetRestart(t dsFataler, ds *apps.DaemonSet) (dsRestartView, string, error) {
	after := ds.DeepCopy()
	patch, kerr := kubectlDaemonSetPatch(after, set.PatchFn(polymorphichelpers.ObjectRestarterFn))
	// kubectl reads its own clock: take the time it wrote.
	now := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if at, ok := after.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]; ok && kerr == nil {
		var err error
		if now, err = time.Parse(time.RFC3339, at); err != nil {
			t.Fatal(err)
		}
	}
	m, err := appsv1.DaemonSetToModel(ds)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rollout.DaemonSetRestart(m, now)
	return dsRestartView{now: now, patch: patch, err: kerr}, string(got), err
}

func TestDifferentialDaemonSetPause(t *testing.T) {
	testDaemonSetPauseResume(t, "DaemonSetPause", rollout.DaemonSetPause, set.PatchFn(polymorphichelpers.ObjectPauserFn), "pausing is not supported")
}

func TestDifferentialDaemonSetResume(t *testing.T) {
	testDaemonSetPauseResume(t, "DaemonSetResume", rollout.DaemonSetResume, set.PatchFn(polymorphichelpers.ObjectResumerFn), "resuming is not supported")
}

// testDaemonSetPauseResume checks a refusal: kubectl pauses and resumes
// only Deployments.
func testDaemonSetPauseResume(t *testing.T, name string, ours func(*model.DaemonSet) ([]byte, error), theirs set.PatchFn, refusal string) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genDaemonSetWorld(t)
		want, wantErr := kubectlDaemonSetPatch(w.ds.DeepCopy(), theirs)
		s := dsModelOf(t, w)
		got, err := ours(s.ds)
		if string(got) != want || errText(err) != errText(wantErr) {
			t.Fatalf("%s = %s, %q; kubectl %s, %q", name, got, errText(err), want, errText(wantErr))
		}
		c.checks++
		c.hit(classifyDaemonSet("", err))
	})
	c.verify(t, refusal)
}
