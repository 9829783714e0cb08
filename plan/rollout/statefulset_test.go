package rollout

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// webSpec is the template document of seed 004's web StatefulSet (section
// 3, "Components") at the given image, in the adapter's form.
func webSpec(image string) string {
	return `{"metadata":{},"spec":{"containers":[{"image":"` + image + `","name":"nginx","ports":[{"containerPort":80,"name":"web"}],` +
		`"volumeMounts":[{"mountPath":"/usr/share/nginx/html","name":"www"}]}],"terminationGracePeriodSeconds":10}}`
}

// webSet is seed 004's web StatefulSet: 3 replicas of nginx-slim:image
// behind the headless Service nginx, generation 2, with the given update
// strategy and status.
func webSet(image string, strategy model.StatefulSetUpdateStrategy, st model.StatefulSetStatus) *model.StatefulSet {
	return &model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 2},
		Spec: model.StatefulSetSpec{
			Replicas:       model.Int32Ptr(3),
			Selector:       &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template:       model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: webSpec(image)},
			ServiceName:    "nginx",
			UpdateStrategy: strategy,
		},
		Status: st,
	}
}

func partitioned(p int32) model.StatefulSetUpdateStrategy {
	return model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType,
		RollingUpdate: &model.RollingUpdateStatefulSetStrategy{Partition: model.Int32Ptr(p)}}
}

// webRevision is a ControllerRevision of the web set recording image as
// revision n, its data as the default encoder writes it.
func webRevision(t *testing.T, s *model.StatefulSet, image, hash string, n int64, cause string) *model.ControllerRevision {
	t.Helper()
	tmpl := model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: webSpec(image)}
	data, err := StatefulSetTemplatePatch(tmpl, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &model.ControllerRevision{
		ObjectMeta: model.ObjectMeta{Name: "web-" + hash, Namespace: "default",
			Labels:          map[string]string{"app": "nginx", model.ControllerRevisionHashLabel: hash},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, s.Name, s.UID)}},
		Template: tmpl, Data: string(data), Revision: n,
	}
	if cause != "" {
		r.Annotations = map[string]string{model.ChangeCauseAnnotation: cause}
	}
	return r
}

// Seed 004, section 3 ("Update strategies", "Partitions"): a rolling
// update replaces the pods at or above the partition; pods below it keep
// the old revision, and a partition above spec.replicas propagates no
// update. kubectl's status viewer reports those states as below; the
// other rows are its remaining checks, in its order.
func TestStatefulSetStatus(t *testing.T) {
	onDelete := model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType}
	bare := model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType}
	for _, tc := range []struct {
		name     string
		strategy model.StatefulSetUpdateStrategy
		st       model.StatefulSetStatus
		msg      string
		done     bool
		err      error
	}{
		{"partition 2: web-2 updated", partitioned(2), model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 3, UpdatedReplicas: 1},
			"partitioned roll out complete: 1 new pods have been updated...\n", true, nil},
		{"partition 0: one of three updated", partitioned(0), model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 3, UpdatedReplicas: 1},
			"Waiting for partitioned roll out to finish: 1 out of 3 new pods have been updated...\n", false, nil},
		{"partition 0: all updated", partitioned(0), model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 3, UpdatedReplicas: 3},
			"partitioned roll out complete: 3 new pods have been updated...\n", true, nil},
		{"partition above replicas", partitioned(5), model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 3},
			"partitioned roll out complete: 0 new pods have been updated...\n", true, nil},
		// Seed 004, "Forced rollback": web-2 never becomes Ready, and the
		// rollout waits for it.
		{"a pod never ready", partitioned(0), model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 2, UpdatedReplicas: 1},
			"Waiting for 1 pods to be ready...\n", false, nil},
		{"OnDelete", onDelete, model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 3},
			"", true, ErrStatusNotRollingUpdate},
		{"empty type", model.StatefulSetUpdateStrategy{}, model.StatefulSetStatus{ObservedGeneration: 2},
			"", true, ErrStatusNotRollingUpdate},
		{"unobserved", partitioned(0), model.StatefulSetStatus{ObservedGeneration: 1, ReadyReplicas: 3, UpdatedReplicas: 3},
			"Waiting for statefulset spec update to be observed...\n", false, nil},
		{"no rollingUpdate, updating", bare, model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 3, UpdatedReplicas: 2,
			CurrentRevision: "web-6d4b5f7c9", UpdateRevision: "web-8c7d6b5f4"},
			"waiting for statefulset rolling update to complete 2 pods at revision web-8c7d6b5f4...\n", false, nil},
		{"no rollingUpdate, done", bare, model.StatefulSetStatus{ObservedGeneration: 2, ReadyReplicas: 3, CurrentReplicas: 3,
			CurrentRevision: "web-8c7d6b5f4", UpdateRevision: "web-8c7d6b5f4"},
			"statefulset rolling update complete 3 pods at revision web-8c7d6b5f4...\n", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, done, err := StatefulSetStatus(webSet("nginx-slim:0.9", tc.strategy, tc.st))
			if msg != tc.msg || done != tc.done || !errors.Is(err, tc.err) {
				t.Errorf("StatefulSetStatus = %q, %v, %v; want %q, %v, %v", msg, done, err, tc.msg, tc.done, tc.err)
			}
		})
	}
	// An observedGeneration of 0 is unobserved even at generation 0.
	s := webSet("nginx-slim:0.9", partitioned(0), model.StatefulSetStatus{ReadyReplicas: 3, UpdatedReplicas: 3})
	s.Generation = 0
	if msg, _, _ := StatefulSetStatus(s); msg != "Waiting for statefulset spec update to be observed...\n" {
		t.Errorf("generation 0: %q", msg)
	}
	// No spec.replicas: neither the readiness nor the partition check.
	s = webSet("nginx-slim:0.9", partitioned(0), model.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 1})
	s.Spec.Replicas = nil
	if msg, done, _ := StatefulSetStatus(s); msg != "partitioned roll out complete: 1 new pods have been updated...\n" || !done {
		t.Errorf("nil replicas: %q, %v", msg, done)
	}
	if _, _, err := StatefulSetStatus(nil); err == nil {
		t.Error("StatefulSetStatus(nil) did not fail")
	}
}

// webHistory is the web set at nginx-slim:0.9 with revisions 1 (0.8) and 2
// (0.9), and ControllerRevisions kubectl does not count: one of another
// namespace, one of another set, one without a controller, one the
// selector does not match.
func webHistory(t *testing.T) (*model.StatefulSet, []*model.ControllerRevision) {
	s := webSet("nginx-slim:0.9", partitioned(0), model.StatefulSetStatus{ObservedGeneration: 2})
	other := webRevision(t, s, "nginx-slim:0.7", "7f", 7, "other namespace")
	other.Namespace = "kube-system"
	foreign := webRevision(t, s, "nginx-slim:0.7", "8f", 8, "another set's")
	foreign.OwnerReferences[0].UID = "db-uid"
	orphan := webRevision(t, s, "nginx-slim:0.7", "9f", 9, "no controller")
	orphan.OwnerReferences[0].Controller = false
	unselected := webRevision(t, s, "nginx-slim:0.7", "af", 10, "not selected")
	unselected.Labels["app"] = "db"
	return s, []*model.ControllerRevision{
		webRevision(t, s, "nginx-slim:0.9", "8c7d6b5f4", 2, "kubectl apply --filename=web.yaml"),
		other, foreign, orphan, unselected,
		webRevision(t, s, "nginx-slim:0.8", "6d4b5f7c9", 1, ""),
	}
}

func TestStatefulSetHistory(t *testing.T) {
	s, revs := webHistory(t)
	got, err := StatefulSetHistory(s, revs)
	want := "REVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl apply --filename=web.yaml\n"
	if err != nil || got != want {
		t.Errorf("StatefulSetHistory =\n%q, %v; want\n%q", got, err, want)
	}
	if again, _ := StatefulSetHistoryRevision(s, revs, 0); again != got {
		t.Errorf("StatefulSetHistoryRevision(0) = %q, want the table", again)
	}
	// --revision=2: the template as recorded, without the change cause.
	got, err = StatefulSetHistoryRevision(s, revs, 2)
	want = "Pod Template:\n  Labels:\tapp=nginx\n  Containers:\n   nginx:\n    Image:\tnginx-slim:0.9\n    Port:\t80/ (web)\n" +
		"    Host Port:\t0/ (web)\n    Environment:\t<none>\n    Mounts:\n      /usr/share/nginx/html from www (rw)\n" +
		"  Volumes:\t<none>\n  Node-Selectors:\t<none>\n  Tolerations:\t<none>\n"
	if err != nil || got != want {
		t.Errorf("StatefulSetHistoryRevision(2) =\n%q, %v; want\n%q", got, err, want)
	}
	for _, n := range []int64{3, 7, 8, 9, 10} {
		if _, err := StatefulSetHistoryRevision(s, revs, n); !errors.Is(err, ErrUnknownRevision) {
			t.Errorf("StatefulSetHistoryRevision(%d) = %v, want ErrUnknownRevision", n, err)
		}
	}
	// No history: the message, and no error, for the table and a revision.
	for _, n := range []int64{0, 1} {
		if got, err := StatefulSetHistoryRevision(s, revs[1:5], n); got != NoHistory || err != nil {
			t.Errorf("StatefulSetHistoryRevision(none, %d) = %q, %v", n, got, err)
		}
	}
	// Two revisions numbered 2: the later in name order is shown.
	dup := webRevision(t, s, "nginx-slim:1.0", "9z", 2, "the later")
	got, _ = StatefulSetHistory(s, append([]*model.ControllerRevision{dup}, revs...))
	if !strings.Contains(got, "2         the later\n") {
		t.Errorf("duplicate number: %q", got)
	}
	if got, _ := StatefulSetHistoryRevision(s, append(revs, dup), 2); !strings.Contains(got, "nginx-slim:1.0") {
		t.Errorf("duplicate number, --revision=2: %q", got)
	}
	// A nil selector selects every revision (kubectl lists with "").
	s.Spec.Selector = nil
	if got, _ := StatefulSetHistory(s, revs); !strings.Contains(got, "\n10        not selected\n") {
		t.Errorf("nil selector: %q", got)
	}
	s.Spec.Selector = &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{{Key: "app", Operator: "Among"}}}
	if _, err := StatefulSetHistory(s, revs); err == nil || !strings.HasPrefix(err.Error(), "failed to create selector for StatefulSet web: ") {
		t.Errorf("invalid selector: %v", err)
	}
}

func TestStatefulSetUndo(t *testing.T) {
	s, revs := webHistory(t)
	v1, v2 := revs[5], revs[0]
	for _, tc := range []struct {
		to     int64
		output string
		target *model.ControllerRevision
		err    string
	}{
		{0, RolledBack, v1, ""},
		{1, RolledBack, v1, ""},
		{2, "skipped rollback (current template already matches revision 2)", v2, ""},
		{3, "", nil, "unable to find specified revision 3 in history"},
		{7, "", nil, "unable to find specified revision 7 in history"},
		{-1, "", nil, "unable to find specified revision -1 in history"},
	} {
		r, err := StatefulSetUndo(s, revs, tc.to, nil)
		if r.Output != tc.output || r.Target != tc.target || errText(err) != tc.err {
			t.Errorf("StatefulSetUndo(%d) = %+v, %v; want %q, %v, %q", tc.to, r, err, tc.output, tc.target, tc.err)
			continue
		}
		switch {
		case tc.output == RolledBack && string(r.Patch) != tc.target.Data:
			t.Errorf("StatefulSetUndo(%d) patch %s, want the revision's data %s", tc.to, r.Patch, tc.target.Data)
		case tc.output != RolledBack && r.Patch != nil:
			t.Errorf("StatefulSetUndo(%d) patch %s, want none", tc.to, r.Patch)
		}
		if tc.err != "" && !errors.Is(err, revision.ErrRevisionNotFound) {
			t.Errorf("StatefulSetUndo(%d): %v is not ErrRevisionNotFound", tc.to, err)
		}
	}
	// Undo to the previous revision of a set already back at revision 1:
	// kubectl reports the revision as asked, 0.
	s.Spec.Template.Spec = webSpec("nginx-slim:0.8")
	if r, err := StatefulSetUndo(s, revs, 0, nil); err != nil || r.Output != "skipped rollback (current template already matches revision 0)" || r.Patch != nil {
		t.Errorf("StatefulSetUndo(0) at revision 1 = %+v, %v", r, err)
	}
	// Data that differs only in its bytes is not current: kubectl compares
	// bytes, and patches.
	v1.Data = strings.Replace(v1.Data, `{"spec":`, `{ "spec":`, 1)
	if r, _ := StatefulSetUndo(s, revs, 1, nil); r.Output != RolledBack || string(r.Patch) != v1.Data {
		t.Errorf("re-spaced data: %+v", r)
	}
	// Without data, the patch is the template's.
	v1.Data = ""
	want, _ := StatefulSetTemplatePatch(v1.Template, nil)
	if r, _ := StatefulSetUndo(webSet("nginx-slim:0.9", partitioned(0), model.StatefulSetStatus{}), revs, 1, nil); string(r.Patch) != string(want) {
		t.Errorf("no data: patch %s, want %s", r.Patch, want)
	}
	// One revision: no previous one.
	if _, err := StatefulSetUndo(s, revs[:1], 0, nil); !errors.Is(err, ErrNoLastRevision) {
		t.Errorf("StatefulSetUndo(0) with one revision = %v", err)
	}
	// The encoder's errors are reported.
	boom := errors.New("boom")
	if _, err := StatefulSetUndo(s, revs, 1, func(model.PodTemplate) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("failing encoder: %v", err)
	}
}

// Of revisions sharing the highest numbers, undo to the previous revision
// takes the one kubectl's unstable sort leaves second to last; with up to
// twelve revisions that sort is an insertion sort, so the later in name
// order.
func TestStatefulSetUndoTies(t *testing.T) {
	s, revs := webHistory(t)
	a := webRevision(t, s, "nginx-slim:1.1", "1a", 3, "")
	b := webRevision(t, s, "nginx-slim:1.2", "1b", 3, "")
	r, err := StatefulSetUndo(s, []*model.ControllerRevision{b, revs[0], a}, 0, nil)
	if err != nil || r.Target != a {
		t.Errorf("StatefulSetUndo(0) target %v, %v; want %s", r.Target, err, a.Name)
	}
}

func TestStatefulSetUndoDryRun(t *testing.T) {
	s, revs := webHistory(t)
	got, err := StatefulSetUndoDryRun(s, revs, 0)
	if err != nil || !strings.HasPrefix(got, "will roll back to Pod Template:\n  Labels:\tapp=nginx\n") || !strings.Contains(got, "nginx-slim:0.8") {
		t.Errorf("StatefulSetUndoDryRun(0) = %q, %v", got, err)
	}
	// No check that the template is current.
	if got, err := StatefulSetUndoDryRun(s, revs, 2); err != nil || !strings.Contains(got, "nginx-slim:0.9") {
		t.Errorf("StatefulSetUndoDryRun(2) = %q, %v", got, err)
	}
	if _, err := StatefulSetUndoDryRun(s, revs[:1], 0); !errors.Is(err, ErrNoLastRevision) {
		t.Errorf("StatefulSetUndoDryRun(0) with one revision = %v", err)
	}
	if _, err := StatefulSetUndoDryRun(s, revs, 5); errText(err) != "unable to find specified revision 5 in history" {
		t.Errorf("StatefulSetUndoDryRun(5) = %v", err)
	}
}

// StatefulSetTemplatePatch reads numbers as kubectl does: integers that
// fit int64 exactly, anything else as float64.
func TestStatefulSetTemplatePatch(t *testing.T) {
	enc := func(doc string) TemplateEncoder {
		return func(model.PodTemplate) ([]byte, error) { return []byte(doc), nil }
	}
	for _, tc := range []struct{ doc, want, err string }{
		{`{"spec":{"a":9007199254740993,"b":1.0,"c":1e2,"d":-0,"e":12345678901234567890,"f":1.5}}`,
			`{"spec":{"template":{"$patch":"replace","spec":{"a":9007199254740993,"b":1,"c":100,"d":0,"e":12345678901234567000,"f":1.5}}}}`, ""},
		{`{"metadata":{"annotations":{"x":"<a&b>"}}} `, `{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"x":"\u003ca\u0026b\u003e"}}}}}`, ""},
		{`[1]`, "", "encoded template: not a JSON object"},
		{`{} {}`, "", "encoded template: data after the JSON object"},
		{`{"a":1e999}`, "", `encoded template: number 1e999: strconv.ParseFloat: parsing "1e999": value out of range`},
	} {
		got, err := StatefulSetTemplatePatch(model.PodTemplate{}, enc(tc.doc))
		if string(got) != tc.want || errText(err) != tc.err {
			t.Errorf("StatefulSetTemplatePatch(%s) = %s, %v; want %s, %q", tc.doc, got, err, tc.want, tc.err)
		}
	}
	// The default encoder: labels and annotations under metadata.
	got, err := StatefulSetTemplatePatch(model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: `{"spec":{"containers":[{"name":"web"}]}}`}, nil)
	if want := `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web"}]}}}}`; err != nil || string(got) != want {
		t.Errorf("default encoder: %s, %v; want %s", got, err, want)
	}
}

func TestStatefulSetRestartPauseResume(t *testing.T) {
	s := webSet("nginx-slim:0.9", model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType}, model.StatefulSetStatus{})
	now := time.Date(2026, 3, 1, 10, 30, 0, 0, time.FixedZone("CET", 3600))
	got, err := StatefulSetRestart(s, now)
	if want := `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T10:30:00+01:00"}}}}}`; err != nil || string(got) != want {
		t.Errorf("StatefulSetRestart = %s, %v; want %s", got, err, want)
	}
	s.Spec.Template.Annotations = map[string]string{model.RestartedAtAnnotation: "2026-03-01T10:30:00+01:00"}
	if got, err := StatefulSetRestart(s, now); err != nil || string(got) != "{}" {
		t.Errorf("StatefulSetRestart in the same second = %s, %v", got, err)
	}
	if p, err := StatefulSetPause(s); p != nil || !errors.Is(err, ErrPauseNotSupported) || err.Error() != "pausing is not supported" {
		t.Errorf("StatefulSetPause = %s, %v", p, err)
	}
	if p, err := StatefulSetResume(s); p != nil || !errors.Is(err, ErrResumeNotSupported) || err.Error() != "resuming is not supported" {
		t.Errorf("StatefulSetResume = %s, %v", p, err)
	}
}

// The StatefulSet functions leave their inputs as they were, and nil
// inputs are errors, not panics.
func TestStatefulSetInputsUntouched(t *testing.T) {
	s, revs := webHistory(t)
	s.Spec.Template.Annotations = map[string]string{"a": "b"}
	wantS := s.DeepCopy()
	wantRevs := make([]*model.ControllerRevision, len(revs))
	for i, r := range revs {
		wantRevs[i] = r.DeepCopy()
	}
	order := make([]string, len(revs))
	for i, r := range revs {
		order[i] = r.Name
	}
	_, _, _ = StatefulSetStatus(s)
	_, _ = StatefulSetHistory(s, revs)
	for rev := int64(-1); rev <= 3; rev++ {
		_, _ = StatefulSetHistoryRevision(s, revs, rev)
		_, _ = StatefulSetUndo(s, revs, rev, nil)
		_, _ = StatefulSetUndoDryRun(s, revs, rev)
	}
	_, _ = StatefulSetRestart(s, time.Now())
	_, _ = StatefulSetPause(s)
	_, _ = StatefulSetResume(s)
	if diff := cmp.Diff(wantS, s); diff != "" {
		t.Errorf("statefulset changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(wantRevs, revs); diff != "" {
		t.Errorf("revisions changed (-before +after):\n%s", diff)
	}
	for i, r := range revs {
		if r.Name != order[i] {
			t.Fatalf("revisions reordered: %s at %d, want %s", r.Name, i, order[i])
		}
	}
	for name, f := range map[string]func() error{
		"StatefulSetHistory":         func() error { _, err := StatefulSetHistory(nil, nil); return err },
		"StatefulSetHistoryRevision": func() error { _, err := StatefulSetHistoryRevision(nil, nil, 1); return err },
		"StatefulSetUndo":            func() error { _, err := StatefulSetUndo(nil, nil, 0, nil); return err },
		"StatefulSetUndoDryRun":      func() error { _, err := StatefulSetUndoDryRun(nil, nil, 0); return err },
		"StatefulSetRestart":         func() error { _, err := StatefulSetRestart(nil, time.Time{}); return err },
		"StatefulSetPause":           func() error { _, err := StatefulSetPause(nil); return err },
		"StatefulSetResume":          func() error { _, err := StatefulSetResume(nil); return err },
	} {
		var fe *model.FieldError
		if err := f(); !errors.As(err, &fe) {
			t.Errorf("%s(nil) = %v, want a field error", name, err)
		}
	}
}

// FuzzStatefulSetTemplatePatch feeds the patch builder arbitrary encoder
// output: it must not panic, must be deterministic, and when it succeeds
// its output must be {"spec":{"template":...}} holding the encoder's
// object (numbers aside) plus "$patch":"replace".
func FuzzStatefulSetTemplatePatch(f *testing.F) {
	f.Add(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"web:1"}]}}`)
	f.Add(`{"spec":{"activeDeadlineSeconds":9007199254740993,"x":1.0,"y":-0,"z":1e2}}`)
	f.Add(`{"$patch":"delete"}`)
	f.Add(`[]`)
	f.Add(`{} x`)
	f.Add(`{"a":"<&>\u2028"}`)
	f.Fuzz(func(t *testing.T, doc string) {
		enc := func(model.PodTemplate) ([]byte, error) { return []byte(doc), nil }
		got, err := StatefulSetTemplatePatch(model.PodTemplate{}, enc)
		again, err2 := StatefulSetTemplatePatch(model.PodTemplate{}, enc)
		if string(got) != string(again) || errText(err) != errText(err2) {
			t.Fatalf("not deterministic: %s %v / %s %v", got, err, again, err2)
		}
		if err != nil {
			if got != nil {
				t.Fatalf("output with an error: %s", got)
			}
			return
		}
		var out struct {
			Spec struct {
				Template map[string]any `json:"template"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(got, &out); err != nil {
			t.Fatalf("output is not JSON: %v: %s", err, got)
		}
		if out.Spec.Template["$patch"] != "replace" {
			t.Fatalf("no replace directive: %s", got)
		}
		var in map[string]any
		if err := json.Unmarshal([]byte(doc), &in); err != nil {
			t.Fatalf("accepted input that is not a JSON object: %q", doc)
		}
		in["$patch"] = "replace"
		if diff := cmp.Diff(in, out.Spec.Template); diff != "" {
			t.Fatalf("template changed (-in +out):\n%s", diff)
		}
	})
}
