package kubectl

import (
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// TestRecordedViews checks every view of testdata/kubectl-views-public.jsonl
// (kubectl v0.36.3 on the 200 public conformance states): status for both
// revisions, the history table and each revision, undo without and with a
// client dry run (output, error and the patch bytes sent), and the
// restart, pause and resume patches or errors.
func TestRecordedViews(t *testing.T) {
	cases := map[string]publicCase{}
	for _, c := range readJSONL[publicCase](t, "testdata/public-seed1.jsonl") {
		cases[c.Meta.ID] = c
	}
	views := readJSONL[recordedViews](t, "testdata/kubectl-views-public.jsonl")
	if len(views) != 200 {
		t.Fatalf("%d recorded views, want 200", len(views))
	}
	checked := 0
	for _, v := range views {
		c, ok := cases[v.ID]
		if !ok {
			t.Fatalf("%s: no such case", v.ID)
		}
		s := toModel(t, c.Case)
		for _, want := range v.Views.Status {
			msg, done, err := rollout.Status(s.d, want.Revision)
			if msg != want.Message || done != want.Done || errText(err) != want.Error {
				t.Errorf("%s status(%d) = %q, %v, %q; kubectl %q, %v, %q", v.ID, want.Revision, msg, done, errText(err), want.Message, want.Done, want.Error)
			}
			checked++
		}
		for _, want := range v.Views.History {
			var out string
			var err error
			if want.Query == "table" {
				out, err = rollout.History(s.d, s.rss)
			} else {
				out, err = rollout.HistoryRevision(s.d, s.rss, want.Revision)
			}
			if out != want.Output || errText(err) != want.Error {
				t.Errorf("%s history(%s %d) =\n%q, %q; kubectl\n%q, %q", v.ID, want.Query, want.Revision, out, errText(err), want.Output, want.Error)
			}
			warns, err := rollout.HistoryWarnings(s.d, s.rss)
			if err != nil || strings.Join(warns, "\n") != strings.Join(want.Warnings, "\n") {
				t.Errorf("%s history warnings = %q, %v; kubectl %q", v.ID, warns, err, want.Warnings)
			}
			checked++
		}
		for _, want := range v.Views.Undo {
			var out, patch string
			var err error
			if want.DryRun == "client" {
				out, err = rollout.UndoDryRun(s.d, s.rss, want.ToRevision)
			} else {
				var r rollout.UndoResult
				r, err = rollout.Undo(s.d, s.rss, want.ToRevision, appsv1.TemplateJSON)
				out, patch = r.Output, string(r.Patch)
			}
			wantPatch := ""
			for _, a := range want.Actions {
				if a.Verb == "patch" {
					wantPatch = a.Patch
					if a.PatchType != rollout.JSONPatchType {
						t.Errorf("%s undo patch type %q", v.ID, a.PatchType)
					}
				}
			}
			if out != want.Output || errText(err) != want.Error || patch != wantPatch {
				t.Errorf("%s undo(%d, %s) =\n%q, %q, %s; kubectl\n%q, %q, %s", v.ID, want.ToRevision, want.DryRun, out, errText(err), patch, want.Output, want.Error, wantPatch)
			}
			checked++
		}
		p, err := rollout.Restart(s.d, v.Views.Restart.Now)
		checkPatch(t, v.ID+" restart", p, err, v.Views.Restart)
		p, err = rollout.Pause(s.d)
		checkPatch(t, v.ID+" pause", p, err, v.Views.Pause)
		p, err = rollout.Resume(s.d)
		checkPatch(t, v.ID+" resume", p, err, v.Views.Resume)
		checked += 3
	}
	t.Logf("%d recorded views equal", checked)
}

func checkPatch(t *testing.T, what string, got []byte, err error, want patchView) {
	t.Helper()
	if string(got) != want.Patch || errText(err) != want.Error {
		t.Errorf("%s = %s, %q; kubectl %s, %q", what, got, errText(err), want.Patch, want.Error)
	}
}
