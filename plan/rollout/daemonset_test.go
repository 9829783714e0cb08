package rollout

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// agentSpec is an agent DaemonSet's template document in the adapter's
// form (the template without labels and annotations).
func agentSpec(image string) string {
	return `{"metadata":{},"spec":{"containers":[{"image":"` + image + `","name":"agent"}]}}`
}

// agentData is the ControllerRevision data the DaemonSet controller stores
// for the agent template of image.
func agentData(image string) string {
	return `{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"agent"}},` +
		`"spec":{"containers":[{"image":"` + image + `","name":"agent","resources":{}}]}}}}`
}

// agent returns a RollingUpdate DaemonSet "agent" of image agent:v3 over 3
// nodes, fully rolled out.
func agent() *model.DaemonSet {
	return &model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: "agent", Namespace: "kube-system", UID: "agent-uid", Generation: 3},
		Spec: model.DaemonSetSpec{
			Selector:       &model.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template:       model.PodTemplate{Labels: map[string]string{"app": "agent"}, Spec: agentSpec("agent:v3")},
			UpdateStrategy: model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate},
		},
		Status: model.DaemonSetStatus{ObservedGeneration: 3, DesiredNumberScheduled: 3, CurrentNumberScheduled: 3,
			UpdatedNumberScheduled: 3, NumberReady: 3, NumberAvailable: 3},
	}
}

// agentRevision returns a ControllerRevision named name of the agent
// DaemonSet with number n and data.
func agentRevision(name string, n int64, data string) *model.ControllerRevision {
	return &model.ControllerRevision{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: "kube-system", Labels: map[string]string{"app": "agent"},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DaemonSetKind, "agent", "agent-uid")}},
		Data: data, Revision: n,
	}
}

// agentHistory is revisions 1 to 3 of images agent:v1 to agent:v3, listed
// out of name order.
func agentHistory() []*model.ControllerRevision {
	return []*model.ControllerRevision{
		agentRevision("agent-c3", 3, agentData("agent:v3")),
		agentRevision("agent-a1", 1, agentData("agent:v1")),
		agentRevision("agent-b2", 2, agentData("agent:v2")),
	}
}

func TestDaemonSetStatus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*model.DaemonSet)
		msg    string
		done   bool
		err    error
	}{
		{"rolled out", func(*model.DaemonSet) {}, "daemon set \"agent\" successfully rolled out\n", true, nil},
		{"OnDelete", func(ds *model.DaemonSet) { ds.Spec.UpdateStrategy.Type = model.DaemonSetOnDelete }, "", true, ErrStatusNotRollingUpdate},
		{"strategy not defaulted", func(ds *model.DaemonSet) { ds.Spec.UpdateStrategy.Type = "" }, "", true, ErrStatusNotRollingUpdate},
		{"OnDelete before generation", func(ds *model.DaemonSet) {
			ds.Spec.UpdateStrategy.Type = model.DaemonSetOnDelete
			ds.Generation = 4
		}, "", true, ErrStatusNotRollingUpdate},
		{"not observed", func(ds *model.DaemonSet) { ds.Generation = 4 }, "Waiting for daemon set spec update to be observed...\n", false, nil},
		{"generation 0 observed 0 counts as observed", func(ds *model.DaemonSet) { ds.Generation, ds.Status.ObservedGeneration = 0, 0 },
			"daemon set \"agent\" successfully rolled out\n", true, nil},
		{"observed ahead", func(ds *model.DaemonSet) { ds.Status.ObservedGeneration = 9 }, "daemon set \"agent\" successfully rolled out\n", true, nil},
		{"updating", func(ds *model.DaemonSet) { ds.Status.UpdatedNumberScheduled = 1 },
			"Waiting for daemon set \"agent\" rollout to finish: 1 out of 3 new pods have been updated...\n", false, nil},
		{"updated before available", func(ds *model.DaemonSet) { ds.Status.UpdatedNumberScheduled, ds.Status.NumberAvailable = 1, 0 },
			"Waiting for daemon set \"agent\" rollout to finish: 1 out of 3 new pods have been updated...\n", false, nil},
		{"available", func(ds *model.DaemonSet) { ds.Status.NumberAvailable = 2 },
			"Waiting for daemon set \"agent\" rollout to finish: 2 of 3 updated pods are available...\n", false, nil},
		{"more updated than desired", func(ds *model.DaemonSet) { ds.Status.UpdatedNumberScheduled = 5 },
			"daemon set \"agent\" successfully rolled out\n", true, nil},
		{"no nodes", func(ds *model.DaemonSet) { ds.Status = model.DaemonSetStatus{ObservedGeneration: 3} },
			"daemon set \"agent\" successfully rolled out\n", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := agent()
			tc.change(ds)
			msg, done, err := DaemonSetStatus(ds)
			if msg != tc.msg || done != tc.done || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Errorf("DaemonSetStatus = %q, %v, %v; want %q, %v, %v", msg, done, err, tc.msg, tc.done, tc.err)
			}
		})
	}
}

func TestDaemonSetHistory(t *testing.T) {
	ds := agent()
	revs := agentHistory()
	revs[2].Annotations = map[string]string{model.ChangeCauseAnnotation: "kubectl set image daemonset/agent agent=agent:v2"}
	other := agentRevision("agent-z9", 9, agentData("agent:v9"))
	other.Namespace = "default"
	notOwned := agentRevision("agent-y8", 8, agentData("agent:v8"))
	notOwned.OwnerReferences = []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DaemonSetKind, "x", "x-uid")}
	notSelected := agentRevision("agent-x7", 7, agentData("agent:v7"))
	notSelected.Labels = map[string]string{"app": "other"}
	all := append(revs, nil, other, notOwned, notSelected)

	got, err := DaemonSetHistory(ds, all)
	want := "REVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image daemonset/agent agent=agent:v2\n3         <none>\n"
	if got != want || err != nil {
		t.Errorf("DaemonSetHistory =\n%s%v; want\n%s", got, err, want)
	}
	// n <= 0 is the table too.
	for _, n := range []int64{0, -1} {
		if got, err := DaemonSetHistoryRevision(ds, all, n); got != want || err != nil {
			t.Errorf("DaemonSetHistoryRevision(%d) =\n%s%v; want the table", n, got, err)
		}
	}

	// A nil selector lists every revision; the unselected one shows.
	nilSel := agent()
	nilSel.Spec.Selector = nil
	if got, _ := DaemonSetHistory(nilSel, all); !strings.Contains(got, "\n7 ") || strings.Contains(got, "\n8 ") || strings.Contains(got, "\n9 ") {
		t.Errorf("DaemonSetHistory with a nil selector =\n%s", got)
	}

	// Of two revisions with one number, the later by name is shown.
	dup := append(agentHistory(), agentRevision("agent-d2", 2, agentData("agent:v2b")))
	dup[3].Annotations = map[string]string{model.ChangeCauseAnnotation: "later"}
	if got, _ := DaemonSetHistory(ds, dup); !strings.Contains(got, "2         later\n") {
		t.Errorf("DaemonSetHistory with a repeated number =\n%s", got)
	}
	if got, _ := DaemonSetHistoryRevision(ds, dup, 2); !strings.Contains(got, "agent:v2b") {
		t.Errorf("DaemonSetHistoryRevision(2) with a repeated number =\n%s", got)
	}

	for _, revs := range [][]*model.ControllerRevision{nil, {other, notOwned}} {
		for _, n := range []int64{0, 1} {
			if got, err := DaemonSetHistoryRevision(ds, revs, n); got != NoHistory || err != nil {
				t.Errorf("DaemonSetHistoryRevision(%d) without history = %q, %v", n, got, err)
			}
		}
	}
	if _, err := DaemonSetHistoryRevision(ds, revs, 4); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("DaemonSetHistoryRevision(4) error = %v", err)
	}

	bad := agent()
	bad.Spec.Selector = &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{{Key: "app", Operator: "In"}}}
	if _, err := DaemonSetHistory(bad, revs); err == nil || !strings.HasPrefix(err.Error(), "failed to create selector for DaemonSet agent: ") {
		t.Errorf("DaemonSetHistory with an invalid selector: %v", err)
	}
}

func TestDaemonSetHistoryRevision(t *testing.T) {
	ds := agent()
	describe := func(labels map[string]string, spec string) string {
		out, err := DescribeTemplate(model.PodTemplate{Labels: labels, Spec: spec})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	v1 := describe(map[string]string{"app": "agent"}, agentSpec("agent:v1"))
	own := describe(ds.Spec.Template.Labels, ds.Spec.Template.Spec)
	empty := describe(nil, "")
	for _, tc := range []struct {
		data string
		want string
		err  string
	}{
		{agentData("agent:v1"), v1, ""},
		{`null`, own, ""},
		{`{}`, own, ""},
		{` {"spec":{"minReadySeconds":5}} `, own, ""},
		{`{"spec":null}`, empty, ""},
		{`{"spec":{"template":null}}`, empty, ""},
		{`{"spec":{"template":{"$patch":"delete"}}}`, empty, ""},
		{`{"spec":`, "", "unable to parse history agent-r1"},
		{`[]`, "", "unable to parse history agent-r1"},
		{`{} {}`, "", "unable to parse history agent-r1"},
		{`{"spec":7}`, "", "unable to parse history agent-r1"},
		{`{"spec":{"template":[1]}}`, "", "unable to parse history agent-r1"},
		{`{"spec":{"template":{"$patch":"merge"}}}`, "", "unable to parse history agent-r1"},
		{`{"spec":{"template":{"$patch":"replace","metadata":"x"}}}`, "", "unable to parse history agent-r1"},
		{`{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"a":true}}}}}`, "", "unable to parse history agent-r1"},
		{`{"spec":{"template":{"metadata":{"labels":{"b":"c"}}}}}`, "", "revision 1: controllerrevision agent-r1: data: spec.template without"},
		{`{"$patch":"replace"}`, "", "revision 1: controllerrevision agent-r1: data: directive \"$patch\""},
		{`{"spec":{"$retainKeys":["template"]}}`, "", "revision 1: controllerrevision agent-r1: data: spec directive \"$retainKeys\""},
	} {
		got, err := DaemonSetHistoryRevision(ds, []*model.ControllerRevision{agentRevision("agent-r1", 1, tc.data)}, 1)
		if got != tc.want || (tc.err == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tc.err)) {
			t.Errorf("data %s: DaemonSetHistoryRevision =\n%q, %v; want\n%q, %q", tc.data, got, err, tc.want, tc.err)
		}
		if strings.Contains(tc.err, "without") || strings.Contains(tc.err, "directive") {
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("data %s: %v does not match ErrUnsupported", tc.data, err)
			}
		}
	}
}

func TestDaemonSetRevisionTemplate(t *testing.T) {
	ds := agent()
	// The data's labels and annotations come out of metadata; the rest
	// is the spec document, canonical.
	r := agentRevision("agent-r1", 1, `{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T10:00:00Z"},`+
		`"creationTimestamp":null,"labels":{"app":"agent","tier":"node"}},"spec":{"containers":[{"image":"agent:v1","name":"agent","ports":[{"containerPort":9100}]}]}}}}`)
	got, err := DaemonSetRevisionTemplate(ds, r)
	want := model.PodTemplate{Labels: map[string]string{"app": "agent", "tier": "node"},
		Annotations: map[string]string{model.RestartedAtAnnotation: "2026-03-01T10:00:00Z"},
		Spec:        `{"metadata":{},"spec":{"containers":[{"image":"agent:v1","name":"agent","ports":[{"containerPort":9100}]}]}}`}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("DaemonSetRevisionTemplate = %+v, %v; want %+v", got, err, want)
	}
	// Without data, the revision's Template is its data.
	r = agentRevision("agent-r1", 1, "")
	r.Template = model.PodTemplate{Labels: map[string]string{"app": "agent"}, Spec: agentSpec("agent:v0")}
	if got, err := DaemonSetRevisionTemplate(ds, r); err != nil || !cmp.Equal(got, r.Template) {
		t.Errorf("DaemonSetRevisionTemplate without data = %+v, %v", got, err)
	}
	// kubectl's text for data that is not a JSON object.
	_, err = DaemonSetRevisionTemplate(ds, agentRevision("agent-r1", 1, "not json"))
	var rde *RevisionDataError
	if !errors.As(err, &rde) || rde.Revision != "agent-r1" || !errors.Is(err, ErrInvalidJSONDoc) || err.Error() != "invalid JSON document" {
		t.Errorf("DaemonSetRevisionTemplate of invalid data: %v", err)
	}
	if _, err := DaemonSetRevisionTemplate(nil, r); err == nil {
		t.Error("DaemonSetRevisionTemplate(nil, r) did not fail")
	}
	if _, err := DaemonSetRevisionTemplate(ds, nil); err == nil {
		t.Error("DaemonSetRevisionTemplate(ds, nil) did not fail")
	}
}

func TestDaemonSetUndo(t *testing.T) {
	ds := agent()
	revs := agentHistory()
	// The DaemonSet's own template as data (what the controller writes
	// for it, with the client's encoding): the current revision.
	current, err := StatefulSetTemplatePatch(ds.Spec.Template, nil)
	if err != nil {
		t.Fatal(err)
	}
	revs[0].Data = string(current)
	for _, tc := range []struct {
		name   string
		revs   []*model.ControllerRevision
		to     int64
		output string
		target string
		err    string
	}{
		{"previous", revs, 0, RolledBack, "agent-b2", ""},
		{"to 1", revs, 1, RolledBack, "agent-a1", ""},
		{"to the current", revs, 3, "skipped rollback (current template already matches revision 3)", "agent-c3", ""},
		{"not found", revs, 4, "", "", "unable to find specified revision 4 in history"},
		{"negative", revs, -1, "", "", "unable to find specified revision -1 in history"},
		{"one revision", revs[:1], 0, "", "", "no last revision to roll back to"},
		{"no revision", nil, 0, "", "", "no last revision to roll back to"},
		{"no revision, to 1", nil, 1, "", "", "unable to find specified revision 1 in history"},
		{"previous is current", []*model.ControllerRevision{agentRevision("agent-b", 2, string(current)), agentRevision("agent-c", 3, agentData("agent:v9"))}, 0,
			"skipped rollback (current template already matches revision 0)", "agent-b", ""},
		{"first of a number by name", []*model.ControllerRevision{agentRevision("agent-q", 1, agentData("agent:q")), agentRevision("agent-p", 1, agentData("agent:p"))}, 1,
			RolledBack, "agent-p", ""},
		{"data sent unread", []*model.ControllerRevision{agentRevision("agent-b", 1, "not json"), revs[0]}, 0, RolledBack, "agent-b", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DaemonSetUndo(ds, tc.revs, tc.to, nil)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || r.Target != nil || r.Patch != nil {
					t.Fatalf("DaemonSetUndo = %+v, %v; want error %q", r, err, tc.err)
				}
				return
			}
			if err != nil || r.Output != tc.output || r.Target == nil || r.Target.Name != tc.target {
				t.Fatalf("DaemonSetUndo = %+v, %v; want %q to %s", r, err, tc.output, tc.target)
			}
			switch {
			case r.Output == RolledBack && string(r.Patch) != r.Target.Data:
				t.Errorf("patch %s, want the target's data %s", r.Patch, r.Target.Data)
			case r.Output != RolledBack && r.Patch != nil:
				t.Errorf("skipped rollback with patch %s", r.Patch)
			}
		})
	}
	// A revision without data stands for its template, encoded as ds's.
	r := agentRevision("agent-e", 5, "")
	r.Template = ds.Spec.Template.DeepCopy()
	if got, err := DaemonSetUndo(ds, []*model.ControllerRevision{r}, 5, nil); err != nil || got.Patch != nil ||
		got.Output != (&revision.AlreadyCurrentError{Revision: 5}).Error() {
		t.Errorf("DaemonSetUndo to a data-less current revision = %+v, %v", got, err)
	}
	r.Template.Spec = agentSpec("agent:v5")
	want, _ := StatefulSetTemplatePatch(r.Template, nil)
	if got, err := DaemonSetUndo(ds, []*model.ControllerRevision{r}, 5, nil); err != nil || string(got.Patch) != string(want) {
		t.Errorf("DaemonSetUndo to a data-less revision = %s, %v; want %s", got.Patch, err, want)
	}
	// The encoder decides what counts as current.
	enc := func(model.PodTemplate) ([]byte, error) { return []byte(`{"x":1}`), nil }
	revs = []*model.ControllerRevision{agentRevision("agent-a", 1, `{"spec":{"template":{"$patch":"replace","x":1}}}`)}
	if got, err := DaemonSetUndo(ds, revs, 1, enc); err != nil || got.Patch != nil {
		t.Errorf("DaemonSetUndo with an encoder = %+v, %v", got, err)
	}
	fail := func(model.PodTemplate) ([]byte, error) { return nil, errors.New("boom") }
	if _, err := DaemonSetUndo(ds, revs, 1, fail); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("DaemonSetUndo with a failing encoder: %v", err)
	}
}

func TestDaemonSetUndoDryRun(t *testing.T) {
	ds := agent()
	got, err := DaemonSetUndoDryRun(ds, agentHistory(), 0)
	want, _ := DescribeTemplate(model.PodTemplate{Labels: map[string]string{"app": "agent"}, Spec: agentSpec("agent:v2")})
	if err != nil || got != "will roll back to "+want {
		t.Errorf("DaemonSetUndoDryRun =\n%q, %v; want\n%q", got, err, "will roll back to "+want)
	}
	// Even to the current template: a client dry run does not compare.
	if got, err := DaemonSetUndoDryRun(ds, agentHistory(), 3); err != nil || !strings.Contains(got, "agent:v3") {
		t.Errorf("DaemonSetUndoDryRun(3) = %q, %v", got, err)
	}
	if _, err := DaemonSetUndoDryRun(ds, agentHistory(), 9); err == nil || err.Error() != "unable to find specified revision 9 in history" {
		t.Errorf("DaemonSetUndoDryRun(9): %v", err)
	}
	bad := []*model.ControllerRevision{agentRevision("agent-a", 1, "{"), agentRevision("agent-b", 2, agentData("agent:v2"))}
	if _, err := DaemonSetUndoDryRun(ds, bad, 0); err == nil || err.Error() != "invalid JSON document" {
		t.Errorf("DaemonSetUndoDryRun to invalid data: %v", err)
	}
	unsupported := []*model.ControllerRevision{agentRevision("agent-a", 1, `{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"name":"c","livenessProbe":{"grpc":{"port":1}}}]}}}}`)}
	if _, err := DaemonSetUndoDryRun(ds, unsupported, 1); !errors.Is(err, ErrUnsupported) {
		t.Errorf("DaemonSetUndoDryRun to an undescribable template: %v", err)
	}
}

func TestDaemonSetRestartPauseResume(t *testing.T) {
	ds := agent()
	now := time.Date(2026, 3, 1, 12, 30, 0, 0, time.FixedZone("CET", 3600))
	got, err := DaemonSetRestart(ds, now)
	want := `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T12:30:00+01:00"}}}}}`
	if err != nil || string(got) != want {
		t.Errorf("DaemonSetRestart = %s, %v; want %s", got, err, want)
	}
	ds.Spec.Template.Annotations = map[string]string{model.RestartedAtAnnotation: "2026-03-01T12:30:00+01:00"}
	if got, err := DaemonSetRestart(ds, now); err != nil || string(got) != "{}" {
		t.Errorf("DaemonSetRestart in the same second = %s, %v", got, err)
	}
	if got, err := DaemonSetRestart(ds, now.Add(time.Second)); err != nil || string(got) == "{}" {
		t.Errorf("DaemonSetRestart a second later = %s, %v", got, err)
	}
	if p, err := DaemonSetPause(ds); p != nil || err != ErrPauseNotSupported || err.Error() != "pausing is not supported" {
		t.Errorf("DaemonSetPause = %s, %v", p, err)
	}
	if p, err := DaemonSetResume(ds); p != nil || err != ErrResumeNotSupported || err.Error() != "resuming is not supported" {
		t.Errorf("DaemonSetResume = %s, %v", p, err)
	}
}

// The DaemonSet functions leave their inputs as they were, and a nil
// DaemonSet is an error, not a panic.
func TestDaemonSetInputsUntouched(t *testing.T) {
	ds := agent()
	ds.Spec.Template.Annotations = map[string]string{"a": "b"}
	revs := append(agentHistory(), agentRevision("agent-d2", 2, `{}`), agentRevision("agent-e", 4, ""))
	wantDS := ds.DeepCopy()
	wantRevs := make([]*model.ControllerRevision, len(revs))
	for i, r := range revs {
		wantRevs[i] = r.DeepCopy()
	}
	_, _, _ = DaemonSetStatus(ds)
	_, _ = DaemonSetHistory(ds, revs)
	for n := int64(0); n <= 4; n++ {
		_, _ = DaemonSetHistoryRevision(ds, revs, n)
		_, _ = DaemonSetUndo(ds, revs, n, nil)
		_, _ = DaemonSetUndoDryRun(ds, revs, n)
	}
	for _, r := range revs {
		_, _ = DaemonSetRevisionTemplate(ds, r)
	}
	_, _ = DaemonSetRestart(ds, time.Now())
	if diff := cmp.Diff(wantDS, ds); diff != "" {
		t.Errorf("daemon set changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(wantRevs, revs); diff != "" {
		t.Errorf("revisions changed (-before +after):\n%s", diff)
	}

	if _, _, err := DaemonSetStatus(nil); err == nil {
		t.Error("DaemonSetStatus(nil) did not fail")
	}
	for name, f := range map[string]func() error{
		"DaemonSetHistory":         func() error { _, err := DaemonSetHistory(nil, nil); return err },
		"DaemonSetHistoryRevision": func() error { _, err := DaemonSetHistoryRevision(nil, nil, 1); return err },
		"DaemonSetUndo":            func() error { _, err := DaemonSetUndo(nil, nil, 0, nil); return err },
		"DaemonSetUndoDryRun":      func() error { _, err := DaemonSetUndoDryRun(nil, nil, 0); return err },
		"DaemonSetRestart":         func() error { _, err := DaemonSetRestart(nil, time.Time{}); return err },
		"DaemonSetPause":           func() error { _, err := DaemonSetPause(nil); return err },
		"DaemonSetResume":          func() error { _, err := DaemonSetResume(nil); return err },
	} {
		if err := f(); err == nil || errors.Is(err, ErrPauseNotSupported) || errors.Is(err, ErrResumeNotSupported) {
			t.Errorf("%s(nil) = %v, want the nil error", name, err)
		}
	}
}
