package kubectl

import (
	"fmt"
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

var statefulSetKind = schema.GroupKind{Group: "apps", Kind: "StatefulSet"}

// stsModel is a StatefulSet world converted to the model, as the rollout
// functions take it.
type stsModel struct {
	s    *model.StatefulSet
	revs []*model.ControllerRevision
}

// convertStatefulSet converts a StatefulSet and the ControllerRevisions of
// the cluster with the apps/v1 adapter.
func convertStatefulSet(w stsWorld) (stsModel, error) {
	s, err := appsv1.StatefulSetModel(w.s)
	if err != nil {
		return stsModel{}, err
	}
	m := stsModel{s: s}
	for _, r := range w.revs {
		mr, err := appsv1.ControllerRevisionToModel(r, &w.s.Spec.Template)
		if err != nil {
			return stsModel{}, err
		}
		m.revs = append(m.revs, mr)
	}
	return m, nil
}

// stsClient is a fake API holding the world; patches are accepted as sent.
func stsClient(w stsWorld) *fake.Clientset {
	objs := []runtime.Object{w.s.DeepCopy()}
	for _, r := range w.revs {
		objs = append(objs, r.DeepCopy())
	}
	c := fake.NewSimpleClientset(objs...)
	c.PrependReactor("patch", "statefulsets", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, w.s.DeepCopy(), nil
	})
	return c
}

// stsBranch names the branch an output or error of a StatefulSet view
// belongs to.
func stsBranch(out string, err error) string {
	s := out
	if err != nil {
		s = "error: " + err.Error()
	}
	for _, k := range []string{
		"only available for RollingUpdate", "spec update to be observed", "pods to be ready",
		"Waiting for partitioned roll out", "partitioned roll out complete",
		"waiting for statefulset rolling update to complete", "statefulset rolling update complete",
		"No rollout history found", "unable to find the specified revision", "REVISION", "will roll back to", "Pod Template",
		"no last revision to roll back to", "unable to find specified revision", "skipped rollback", "rolled back",
	} {
		if strings.Contains(s, k) {
			return k
		}
	}
	return "other: " + s
}

// The checks below run one kubectl helper and the rollout function that
// answers for it on one world. Each returns the branch reached, or an
// error describing the difference.

func checkStatefulSetStatus(w stsWorld, m stsModel) (string, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(w.s.DeepCopy())
	if err != nil {
		return "", err
	}
	// kubectl's viewer takes a revision and ignores it for StatefulSets.
	wantMsg, wantDone, wantErr := (&polymorphichelpers.StatefulSetStatusViewer{}).Status(&unstructured.Unstructured{Object: u}, 3)
	msg, done, err := rollout.StatefulSetStatus(m.s)
	if msg != wantMsg || done != wantDone || errText(err) != errText(wantErr) {
		return "", fmt.Errorf("StatefulSetStatus = %q, %v, %q; kubectl %q, %v, %q", msg, done, errText(err), wantMsg, wantDone, errText(wantErr))
	}
	return stsBranch(msg, err), nil
}

func checkStatefulSetHistory(w stsWorld, m stsModel, rev int64) (branch, output string, _ error) {
	hv, err := polymorphichelpers.HistoryViewerFor(statefulSetKind, stsClient(w))
	if err != nil {
		return "", "", err
	}
	want, wantErr := hv.ViewHistory(w.s.Namespace, w.s.Name, rev)
	got, err := rollout.StatefulSetHistoryRevision(m.s, m.revs, rev)
	if got != want || errText(err) != errText(wantErr) {
		return "", "", fmt.Errorf("StatefulSetHistoryRevision(%d) =\n%q, %q; kubectl\n%q, %q", rev, got, errText(err), want, errText(wantErr))
	}
	if rev <= 0 {
		table, err := rollout.StatefulSetHistory(m.s, m.revs)
		if table != got || errText(err) != errText(wantErr) {
			return "", "", fmt.Errorf("StatefulSetHistory =\n%q, %q; kubectl\n%q, %q", table, errText(err), want, errText(wantErr))
		}
	}
	return stsBranch(got, err), got, nil
}

// kubectlStatefulSetRollback runs kubectl's StatefulSet rollbacker against
// a fake API holding the world and returns its output, its error and the
// patch it sent (type and body; empty when none).
func kubectlStatefulSetRollback(w stsWorld, rev int64, dryRun cmdutil.DryRunStrategy) (out, patchType, patch string, err error) {
	api := stsClient(w)
	rb, err := polymorphichelpers.RollbackerFor(statefulSetKind, api)
	if err != nil {
		return "", "", "", err
	}
	out, err = rb.Rollback(w.s.DeepCopy(), nil, rev, dryRun)
	patchType, patch = patchSent(api)
	return out, patchType, patch, err
}

func checkStatefulSetUndo(w stsWorld, m stsModel, rev int64) (string, error) {
	want, wantType, wantPatch, wantErr := kubectlStatefulSetRollback(w, rev, cmdutil.DryRunNone)
	r, err := rollout.StatefulSetUndo(m.s, m.revs, rev, appsv1.TemplateJSON)
	if r.Output != want || errText(err) != errText(wantErr) || string(r.Patch) != wantPatch {
		return "", fmt.Errorf("StatefulSetUndo(%d) = %q, %q,\n%s; kubectl %q, %q,\n%s", rev, r.Output, errText(err), r.Patch, want, errText(wantErr), wantPatch)
	}
	if wantPatch != "" && wantType != rollout.StrategicMergePatchType {
		return "", fmt.Errorf("kubectl sent patch type %q", wantType)
	}
	if (r.Target == nil) != (err != nil) {
		return "", fmt.Errorf("StatefulSetUndo(%d): target %v with error %v", rev, r.Target, err)
	}
	return stsBranch(r.Output, err), nil
}

func checkStatefulSetUndoDryRun(w stsWorld, m stsModel, rev int64) (string, error) {
	want, _, patch, wantErr := kubectlStatefulSetRollback(w, rev, cmdutil.DryRunClient)
	if patch != "" {
		return "", fmt.Errorf("kubectl patched in a client dry run: %s", patch)
	}
	got, err := rollout.StatefulSetUndoDryRun(m.s, m.revs, rev)
	if got != want || errText(err) != errText(wantErr) {
		return "", fmt.Errorf("StatefulSetUndoDryRun(%d) =\n%q, %q; kubectl\n%q, %q", rev, got, errText(err), want, errText(wantErr))
	}
	return stsBranch(got, err), nil
}

// kubectlStatefulSetPatch runs one of kubectl's object mutators on a copy
// of s as rollout pause, resume and restart do, and returns the patch, the
// mutated copy and the mutator's error.
func kubectlStatefulSetPatch(s *apps.StatefulSet, fn set.PatchFn) (string, *apps.StatefulSet, error) {
	obj := s.DeepCopy()
	p := &set.Patch{Info: &resource.Info{Object: obj}}
	set.CalculatePatch(p, scheme.DefaultJSONEncoder(), fn)
	return string(p.Patch), obj, p.Err
}

// checkStatefulSetRestart compares the restart patch. kubectl reads its
// own clock, so the time compared is the one it wrote.
func checkStatefulSetRestart(w stsWorld, m stsModel) (string, error) {
	want, after, wantErr := kubectlStatefulSetPatch(w.s, set.PatchFn(polymorphichelpers.ObjectRestarterFn))
	now := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if at, ok := after.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]; ok && wantErr == nil {
		var err error
		if now, err = time.Parse(time.RFC3339, at); err != nil {
			return "", err
		}
	}
	got, err := rollout.StatefulSetRestart(m.s, now)
	if string(got) != want || errText(err) != errText(wantErr) {
		return "", fmt.Errorf("StatefulSetRestart(%s) = %s, %q; kubectl %s, %q", now, got, errText(err), want, errText(wantErr))
	}
	switch {
	case err != nil:
		return "refused", nil
	case want == "{}":
		return "already restarted this second", nil
	}
	return "patch", nil
}

// checkStatefulSetPauseResume compares pause and resume, both refused.
func checkStatefulSetPauseResume(w stsWorld, m stsModel) (string, error) {
	for _, c := range []struct {
		name   string
		ours   func(*model.StatefulSet) ([]byte, error)
		theirs set.PatchFn
	}{
		{"StatefulSetPause", rollout.StatefulSetPause, set.PatchFn(polymorphichelpers.ObjectPauserFn)},
		{"StatefulSetResume", rollout.StatefulSetResume, set.PatchFn(polymorphichelpers.ObjectResumerFn)},
	} {
		want, _, wantErr := kubectlStatefulSetPatch(w.s, c.theirs)
		got, err := c.ours(m.s)
		if string(got) != want || errText(err) != errText(wantErr) {
			return "", fmt.Errorf("%s = %s, %q; kubectl %s, %q", c.name, got, errText(err), want, errText(wantErr))
		}
		if err == nil {
			return "", fmt.Errorf("%s was not refused", c.name)
		}
	}
	return "refused", nil
}

// drawStatefulSetRevision draws the revision asked for: usually one a
// ControllerRevision holds or 0 (the previous one), otherwise a small
// number (-1 included).
func drawStatefulSetRevision(t *rapid.T, w stsWorld) int64 {
	if chance(t, "rev-previous", 20) {
		return 0
	}
	if len(w.revs) > 0 && !rarely(t, "rev-any", 30) {
		return w.revs[rapid.IntRange(0, len(w.revs)-1).Draw(t, "rev-known-index")].Revision
	}
	return int64(rapid.IntRange(-1, 6).Draw(t, "revision"))
}

// stsProperty runs one check on generated worlds and tallies the branches
// it reports through hit; the test fails unless each of want was reached.
func stsProperty(t *testing.T, check func(t *rapid.T, w stsWorld, m stsModel, hit func(string)) error, want ...string) {
	c := newTally()
	rapid.Check(t, func(t *rapid.T) {
		w := genStatefulSetWorld(t)
		if w.restartNow {
			if w.s.Spec.Template.Annotations == nil {
				w.s.Spec.Template.Annotations = map[string]string{}
			}
			w.s.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = time.Now().Format(time.RFC3339)
		}
		m, err := convertStatefulSet(w)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(t, w, m, c.hit); err != nil {
			t.Fatal(err)
		}
		c.checks++
	})
	c.verify(t, want...)
}

// single adapts a check reporting one branch.
func single(check func(*rapid.T, stsWorld, stsModel) (string, error)) func(*rapid.T, stsWorld, stsModel, func(string)) error {
	return func(t *rapid.T, w stsWorld, m stsModel, hit func(string)) error {
		b, err := check(t, w, m)
		hit(b)
		return err
	}
}

// worldFeatures names the parts of a generated world that make kubectl's
// history and rollback choices delicate.
func worldFeatures(w stsWorld, m stsModel) []string {
	var out []string
	var history []*model.ControllerRevision
	for _, r := range m.revs {
		if r.Namespace == m.s.Namespace && r.IsControlledBy(m.s.UID) && r.Labels["app"] == m.s.Labels["app"] {
			history = append(history, r)
		}
	}
	numbers := map[int64]int{}
	for _, r := range history {
		numbers[r.Revision]++
		switch {
		case r.Data == "{}":
			out = append(out, "data without a template")
		case strings.Contains(r.Data, "\n  "):
			out = append(out, "re-indented data")
		}
	}
	for _, n := range numbers {
		if n > 1 {
			out = append(out, "repeated revision numbers")
			break
		}
	}
	if len(history) > 12 {
		out = append(out, "more than twelve revisions")
	}
	if w.s.Spec.Template.Spec.ActiveDeadlineSeconds != nil {
		out = append(out, "integer beyond 2^53")
	}
	for _, r := range w.revs {
		switch {
		case r.Namespace != w.s.Namespace:
			out = append(out, "revision of another namespace")
		case len(r.OwnerReferences) == 1 && r.OwnerReferences[0].Controller == nil:
			out = append(out, "revision owned, not controlled")
		}
	}
	return out
}

func TestDifferentialStatefulSetStatus(t *testing.T) {
	stsProperty(t, single(func(_ *rapid.T, w stsWorld, m stsModel) (string, error) { return checkStatefulSetStatus(w, m) }),
		"only available for RollingUpdate", "spec update to be observed", "pods to be ready",
		"Waiting for partitioned roll out", "partitioned roll out complete",
		"waiting for statefulset rolling update to complete", "statefulset rolling update complete")
}

func TestDifferentialStatefulSetHistory(t *testing.T) {
	stsProperty(t, func(t *rapid.T, w stsWorld, m stsModel, hit func(string)) error {
		b, out, err := checkStatefulSetHistory(w, m, drawStatefulSetRevision(t, w))
		hit(b)
		for _, f := range describerFeatures {
			if strings.Contains(out, f) {
				hit(f)
			}
		}
		return err
	}, append([]string{"No rollout history found", "unable to find the specified revision", "REVISION", "Pod Template"}, describerFeatures...)...)
}

func TestDifferentialStatefulSetUndo(t *testing.T) {
	stsProperty(t, func(t *rapid.T, w stsWorld, m stsModel, hit func(string)) error {
		b, err := checkStatefulSetUndo(w, m, drawStatefulSetRevision(t, w))
		hit(b)
		for _, f := range worldFeatures(w, m) {
			hit(f)
		}
		return err
	}, "no last revision to roll back to", "unable to find specified revision", "skipped rollback", "rolled back",
		"data without a template", "re-indented data", "repeated revision numbers", "more than twelve revisions",
		"integer beyond 2^53", "revision of another namespace", "revision owned, not controlled")
}

func TestDifferentialStatefulSetUndoDryRun(t *testing.T) {
	stsProperty(t, single(func(t *rapid.T, w stsWorld, m stsModel) (string, error) {
		return checkStatefulSetUndoDryRun(w, m, drawStatefulSetRevision(t, w))
	}), "no last revision to roll back to", "unable to find specified revision", "will roll back to")
}

func TestDifferentialStatefulSetRestart(t *testing.T) {
	stsProperty(t, single(func(_ *rapid.T, w stsWorld, m stsModel) (string, error) { return checkStatefulSetRestart(w, m) }),
		"already restarted this second", "patch")
}

func TestDifferentialStatefulSetPauseResume(t *testing.T) {
	stsProperty(t, single(func(_ *rapid.T, w stsWorld, m stsModel) (string, error) { return checkStatefulSetPauseResume(w, m) }),
		"refused")
}
