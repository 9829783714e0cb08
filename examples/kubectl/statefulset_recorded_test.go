package kubectl

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	apps "k8s.io/api/apps/v1"
)

// statefulSetSeeds is the adapter's copy of the 200 public StatefulSet
// conformance recordings (one sync of the real v1.36.3 controller each).
const statefulSetSeeds = "../appsv1/testdata/conformance/statefulset/public-seed1.jsonl"

// stsSeedLine is one line of the recordings: the state, and the writes
// the controller made in its sync.
type stsSeedLine struct {
	Case   appsv1.StatefulSetCase `json:"case"`
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
		ID       string `json:"id"`
		Category string `json:"category"`
	} `json:"meta"`
}

// afterSync returns the state the recorded sync leaves: its
// ControllerRevision creations, updates and deletions and its status
// update applied (the claims and pods it writes are not read by kubectl's
// StatefulSet helpers).
func (l stsSeedLine) afterSync() (stsWorld, error) {
	w := stsWorld{s: l.Case.StatefulSet.DeepCopy()}
	for _, r := range l.Case.ControllerRevisions {
		w.revs = append(w.revs, r.DeepCopy())
	}
	for _, a := range l.Expect.Actions {
		switch {
		case a.Resource == "controllerrevisions" && (a.Verb == "create" || a.Verb == "update"):
			var r apps.ControllerRevision
			if err := json.Unmarshal(a.Object, &r); err != nil {
				return stsWorld{}, fmt.Errorf("%s %s: %w", a.Verb, a.Name, err)
			}
			r.Namespace = a.Namespace
			w.revs = slices.DeleteFunc(w.revs, func(o *apps.ControllerRevision) bool { return o.Name == r.Name })
			w.revs = append(w.revs, &r)
		case a.Resource == "controllerrevisions" && a.Verb == "delete":
			w.revs = slices.DeleteFunc(w.revs, func(o *apps.ControllerRevision) bool { return o.Name == a.Name })
		case a.Resource == "statefulsets" && a.Subresource == "status":
			var s apps.StatefulSet
			if err := json.Unmarshal(a.Object, &s); err != nil {
				return stsWorld{}, fmt.Errorf("status update: %w", err)
			}
			w.s.Status = s.Status
		}
	}
	return w, nil
}

// TestRecordedStatefulSetViews runs kubectl's StatefulSet helpers and the
// rollout functions on the 200 recorded states, as recorded and after
// their recorded sync: status; the history table and each revision number
// present plus one absent; undo, with and without a client dry run, to
// the previous revision, to each number present, to an absent one and to
// -1; restart, pause and resume. Every answer must be identical.
func TestRecordedStatefulSetViews(t *testing.T) {
	lines := readJSONL[stsSeedLine](t, statefulSetSeeds)
	if len(lines) != 200 {
		t.Fatalf("%d recorded states, want 200", len(lines))
	}
	c := newTally()
	checked := 0
	for _, l := range lines {
		after, err := l.afterSync()
		if err != nil {
			t.Fatalf("%s: %v", l.Meta.ID, err)
		}
		recorded := stsWorld{s: l.Case.StatefulSet, revs: l.Case.ControllerRevisions}
		for _, v := range []struct {
			name string
			w    stsWorld
		}{{"recorded", recorded}, {"after sync", after}} {
			m, err := convertStatefulSet(v.w)
			if err != nil {
				t.Fatalf("%s (%s): %v", l.Meta.ID, v.name, err)
			}
			fail := func(err error) {
				t.Helper()
				t.Errorf("%s (%s, %s): %v", l.Meta.ID, l.Meta.Category, v.name, err)
			}
			note := func(b string, err error) {
				t.Helper()
				checked++
				if err != nil {
					fail(err)
					return
				}
				c.hit(b)
			}
			note(checkStatefulSetStatus(v.w, m))
			var numbers []int64
			for _, r := range v.w.revs {
				if !slices.Contains(numbers, r.Revision) {
					numbers = append(numbers, r.Revision)
				}
			}
			absent := int64(1)
			for slices.Contains(numbers, absent) {
				absent++
			}
			for _, n := range append([]int64{0, absent}, numbers...) {
				b, _, err := checkStatefulSetHistory(v.w, m, n)
				note(b, err)
			}
			for _, n := range append([]int64{-1, 0, absent}, numbers...) {
				note(checkStatefulSetUndo(v.w, m, n))
				note(checkStatefulSetUndoDryRun(v.w, m, n))
			}
			note(checkStatefulSetRestart(v.w, m))
			note(checkStatefulSetPauseResume(v.w, m))
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c.branches)) {
		parts = append(parts, fmt.Sprintf("%q=%d", k, c.branches[k]))
	}
	for _, b := range []string{
		"only available for RollingUpdate", "spec update to be observed", "pods to be ready", "partitioned roll out complete",
		"statefulset rolling update complete", "No rollout history found", "unable to find the specified revision", "REVISION",
		"Pod Template", "will roll back to", "no last revision to roll back to", "unable to find specified revision",
		"skipped rollback", "rolled back", "patch", "refused",
	} {
		if c.branches[b] == 0 {
			t.Errorf("branch %q never reached on the recorded states", b)
		}
	}
	t.Logf("%d recorded views equal on the %d recorded StatefulSet states, as recorded and after their sync; branches: %s",
		checked, len(lines), strings.Join(parts, " "))
}
