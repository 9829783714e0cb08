package rollout

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// Every function leaves its inputs as they were, and nil inputs are errors,
// not panics.
func TestInputsUntouched(t *testing.T) {
	d, rss := nginxHistory()
	d.Spec.Template.Annotations = map[string]string{"a": "b"}
	wantD := d.DeepCopy()
	wantRSs := make([]*model.ReplicaSet, len(rss))
	for i, rs := range rss {
		wantRSs[i] = rs.DeepCopy()
	}
	_, _, _ = Status(d, 3)
	_, _ = History(d, rss)
	for rev := int64(0); rev <= 3; rev++ {
		_, _ = HistoryRevision(d, rss, rev)
		_, _ = Undo(d, rss, rev, nil)
		_, _ = UndoDryRun(d, rss, rev)
	}
	_, _ = Restart(d, time.Now())
	_, _ = Pause(d)
	_, _ = Resume(d)
	_, _ = Lint(d, LintOptions{ReadyAfter: time.Second})
	if diff := cmp.Diff(wantD, d); diff != "" {
		t.Errorf("deployment changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(wantRSs, rss); diff != "" {
		t.Errorf("replica sets changed (-before +after):\n%s", diff)
	}

	if _, _, err := Status(nil, 0); err == nil {
		t.Error("Status(nil) did not fail")
	}
	for name, f := range map[string]func() error{
		"History":         func() error { _, err := History(nil, nil); return err },
		"HistoryRevision": func() error { _, err := HistoryRevision(nil, nil, 1); return err },
		"Undo":            func() error { _, err := Undo(nil, nil, 0, nil); return err },
		"UndoDryRun":      func() error { _, err := UndoDryRun(nil, nil, 0); return err },
		"Restart":         func() error { _, err := Restart(nil, time.Time{}); return err },
		"Pause":           func() error { _, err := Pause(nil); return err },
		"Resume":          func() error { _, err := Resume(nil); return err },
		"Lint":            func() error { _, err := Lint(nil, LintOptions{}); return err },
	} {
		if err := f(); err == nil {
			t.Errorf("%s(nil) did not fail", name)
		}
	}
	if _, err := Lint(d, LintOptions{ReadyAfter: -time.Second}); err == nil {
		t.Error("Lint with a negative delay did not fail")
	}
}
