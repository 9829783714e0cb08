package kubectl

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/kubectl/pkg/cmd/set"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/polymorphichelpers"
)

// daemonSetCases is the apps/v1 adapter's copy of the 200 public DaemonSet
// conformance recordings (shared/conformance/daemonset): real DaemonSets
// and ControllerRevisions, and the writes of one sync of the v1.36.3
// controller.
const daemonSetCases = "../appsv1/testdata/conformance/daemonset/public-seed1.jsonl"

// publicDaemonSetCase is one line of the DaemonSet recordings.
type publicDaemonSetCase struct {
	Case   appsv1.DaemonSetCase `json:"case"`
	Expect struct {
		Actions []struct {
			Verb        string          `json:"verb"`
			Resource    string          `json:"resource"`
			Subresource string          `json:"subresource"`
			Namespace   string          `json:"namespace"`
			Name        string          `json:"name"`
			Object      json.RawMessage `json:"object"`
		} `json:"actions"`
	} `json:"expect"`
	Meta struct {
		ID string `json:"id"`
	} `json:"meta"`
}

// afterSync returns the DaemonSet and ControllerRevisions the recorded
// sync leaves: its ControllerRevision creations, adoption patches and
// deletions and its status update applied (the pods it writes are not read
// by kubectl's DaemonSet helpers).
func (c publicDaemonSetCase) afterSync() (*apps.DaemonSet, []*apps.ControllerRevision, error) {
	ds := c.Case.DaemonSet.DeepCopy()
	var crs []*apps.ControllerRevision
	for _, cr := range c.Case.ControllerRevisions {
		crs = append(crs, cr.DeepCopy())
	}
	byName := func(name string) func(*apps.ControllerRevision) bool {
		return func(cr *apps.ControllerRevision) bool { return cr.Name == name }
	}
	for _, a := range c.Expect.Actions {
		switch {
		case a.Resource == "controllerrevisions" && (a.Verb == "create" || a.Verb == "update"):
			var cr apps.ControllerRevision
			if err := json.Unmarshal(a.Object, &cr); err != nil {
				return nil, nil, fmt.Errorf("%s %s: %w", a.Verb, a.Name, err)
			}
			cr.Namespace = a.Namespace
			crs = append(slices.DeleteFunc(crs, byName(cr.Name)), &cr)
		case a.Resource == "controllerrevisions" && a.Verb == "patch":
			i := slices.IndexFunc(crs, byName(a.Name))
			if i < 0 {
				return nil, nil, fmt.Errorf("patch of a missing revision %s", a.Name)
			}
			old, err := json.Marshal(crs[i])
			if err != nil {
				return nil, nil, err
			}
			patched, err := strategicpatch.StrategicMergePatch(old, a.Object, apps.ControllerRevision{})
			if err != nil {
				return nil, nil, fmt.Errorf("patch %s: %w", a.Name, err)
			}
			var cr apps.ControllerRevision
			if err := json.Unmarshal(patched, &cr); err != nil {
				return nil, nil, fmt.Errorf("patch %s: %w", a.Name, err)
			}
			crs[i] = &cr
		case a.Resource == "controllerrevisions" && a.Verb == "delete":
			crs = slices.DeleteFunc(crs, byName(a.Name))
		case a.Resource == "daemonsets" && a.Subresource == "status":
			var written apps.DaemonSet
			if err := json.Unmarshal(a.Object, &written); err != nil {
				return nil, nil, fmt.Errorf("status update: %w", err)
			}
			ds.Status = written.Status
		case a.Resource == "controllerrevisions" || a.Resource == "daemonsets":
			return nil, nil, fmt.Errorf("unexpected write %s %s/%s", a.Verb, a.Resource, a.Subresource)
		}
	}
	return ds, crs, nil
}

// dsViewCounts counts what TestRecordedDaemonSets compared.
type dsViewCounts struct {
	views, revisions, rollbacks, skipped int
}

// TestRecordedDaemonSets runs kubectl's rollout helpers and package
// plan/rollout side by side on the DaemonSet and ControllerRevisions of
// every public DaemonSet recording, as recorded and after its recorded
// sync, and requires identical answers: status, the history table and
// every revision (plus one no revision has), undo to the previous
// revision, to every revision and to a missing one, without and with a
// client dry run (output, error and the patch sent), restart (once more
// with restartedAt already at kubectl's second), pause and resume.
func TestRecordedDaemonSets(t *testing.T) {
	cases := readJSONL[publicDaemonSetCase](t, daemonSetCases)
	if len(cases) != 200 {
		t.Fatalf("%d recorded DaemonSet states, want 200", len(cases))
	}
	var n dsViewCounts
	states := 0
	for _, c := range cases {
		compareDaemonSetViews(t, c.Meta.ID, c.Case.DaemonSet, c.Case.ControllerRevisions, &n)
		ds, crs, err := c.afterSync()
		if err != nil {
			t.Fatalf("%s: %v", c.Meta.ID, err)
		}
		compareDaemonSetViews(t, c.Meta.ID+" after its sync", ds, crs, &n)
		states += 2
	}
	if n.skipped == 0 || n.rollbacks == 0 {
		t.Errorf("no skipped rollback (%d) or no rollback patch (%d)", n.skipped, n.rollbacks)
	}
	if t.Failed() {
		return
	}
	t.Logf("%d states, 0 differences: the 200 recorded DaemonSet states as recorded and after their sync, %d views through kubectl and plan/rollout (%d ControllerRevisions, %d rollback patches, %d skipped rollbacks)",
		states, n.views, n.revisions, n.rollbacks, n.skipped)
}

// compareDaemonSetViews compares every view of one state; id names it in
// failures.
func compareDaemonSetViews(t *testing.T, id string, ds *apps.DaemonSet, crs []*apps.ControllerRevision, n *dsViewCounts) {
	t.Helper()
	s, err := convertDaemonSet(ds, crs)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	n.revisions += len(crs)

	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(ds.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	wantMsg, wantDone, wantErr := (&polymorphichelpers.DaemonSetStatusViewer{}).Status(&unstructured.Unstructured{Object: u}, 0)
	msg, done, err := rollout.DaemonSetStatus(s.ds)
	if msg != wantMsg || done != wantDone || errText(err) != errText(wantErr) {
		t.Errorf("%s status = %q, %v, %q; kubectl %q, %v, %q", id, msg, done, errText(err), wantMsg, wantDone, errText(wantErr))
	}
	n.views++

	numbers := []int64{-1, 0}
	for _, cr := range crs {
		numbers = append(numbers, cr.Revision)
	}
	slices.Sort(numbers)
	numbers = append(slices.Compact(numbers), numbers[len(numbers)-1]+1)
	for _, rev := range numbers {
		hv, err := polymorphichelpers.HistoryViewerFor(daemonSetKind, dsClient(ds, crs))
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := hv.ViewHistory(ds.Namespace, ds.Name, rev)
		got, err := rollout.DaemonSetHistoryRevision(s.ds, s.crs, rev)
		if got != want || errText(err) != errText(wantErr) {
			t.Errorf("%s history --revision=%d =\n%q, %q; kubectl\n%q, %q", id, rev, got, errText(err), want, errText(wantErr))
		}
		n.views++

		api, want, wantErr := kubectlDaemonSetRollback(t, ds, crs, rev, cmdutil.DryRunNone)
		wantType, wantPatch := patchSent(api)
		r, err := rollout.DaemonSetUndo(s.ds, s.crs, rev, appsv1.TemplateJSON)
		if r.Output != want || errText(err) != errText(wantErr) || string(r.Patch) != wantPatch {
			t.Errorf("%s undo --to-revision=%d = %q, %q,\n%s; kubectl %q, %q,\n%s", id, rev, r.Output, errText(err), r.Patch, want, errText(wantErr), wantPatch)
		}
		if wantPatch != "" && wantType != rollout.StrategicMergePatchType {
			t.Errorf("%s: kubectl sent patch type %q", id, wantType)
		}
		switch {
		case wantPatch != "":
			n.rollbacks++
		case wantErr == nil:
			n.skipped++
		}
		n.views++

		_, want, wantErr = kubectlDaemonSetRollback(t, ds, crs, rev, cmdutil.DryRunClient)
		got, err = rollout.DaemonSetUndoDryRun(s.ds, s.crs, rev)
		if got != want || errText(err) != errText(wantErr) {
			t.Errorf("%s undo --dry-run=client --to-revision=%d =\n%q, %q; kubectl\n%q, %q", id, rev, got, errText(err), want, errText(wantErr))
		}
		n.views++
	}

	for _, again := range []bool{false, true} {
		d := ds
		if again {
			// kubectl refuses a second restart within the same second.
			d = ds.DeepCopy()
			if d.Spec.Template.Annotations == nil {
				d.Spec.Template.Annotations = map[string]string{}
			}
			d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = time.Now().Format(time.RFC3339)
		}
		want, got, err := daemonSetRestart(t, d)
		if got != want.patch || errText(err) != errText(want.err) {
			t.Errorf("%s restart(%s) = %s, %q; kubectl %s, %q", id, want.now, got, errText(err), want.patch, errText(want.err))
		}
		n.views++
	}

	for _, c := range []struct {
		name   string
		ours   func() ([]byte, error)
		theirs set.PatchFn
	}{
		{"pause", func() ([]byte, error) { return rollout.DaemonSetPause(s.ds) }, set.PatchFn(polymorphichelpers.ObjectPauserFn)},
		{"resume", func() ([]byte, error) { return rollout.DaemonSetResume(s.ds) }, set.PatchFn(polymorphichelpers.ObjectResumerFn)},
	} {
		want, wantErr := kubectlDaemonSetPatch(ds.DeepCopy(), c.theirs)
		got, err := c.ours()
		if string(got) != want || errText(err) != errText(wantErr) {
			t.Errorf("%s %s = %s, %q; kubectl %s, %q", id, c.name, got, errText(err), want, errText(wantErr))
		}
		n.views++
	}
}
