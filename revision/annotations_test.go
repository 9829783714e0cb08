package revision

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// TestHistoryTrimming is upstream TestAnnotationUtils (deployment_util_test.go:
// TestAnnotationUtils): limit 5 characters, revisions 11..20 applied to an
// RS that starts without annotations.
func TestHistoryTrimming(t *testing.T) {
	d := webDeployment("web:1")
	d.Annotations = map[string]string{model.RevisionAnnotation: "1"}
	rs := newRS("web-1")
	wantHistory := map[int]string{
		11: "",      // first revision: nothing to remember
		12: "11",    // re-used: 11 moves to history
		13: "11,12", // exactly 5 characters, fits
		14: "12,13", // "11" dropped
		15: "13,14",
		16: "14,15",
		17: "15,16",
		18: "16,17",
		19: "17,18",
		20: "18,19",
	}
	for i := 11; i <= 20; i++ {
		next := strconv.Itoa(i)
		if !SetNewReplicaSetAnnotations(d, rs, next, 5) {
			t.Fatalf("revision %d: not reported as changed", i)
		}
		if got := rs.Annotations[model.RevisionAnnotation]; got != next {
			t.Fatalf("revision %d: revision annotation %q", i, got)
		}
		got, ok := rs.Annotations[model.RevisionHistoryAnnotation]
		if want := wantHistory[i]; got != want || ok != (want != "") {
			t.Fatalf("revision %d: history %q (present %v), want %q", i, got, ok, want)
		}
	}
	// The Deployment's own revision annotation is on the skip list.
	if _, copied := rs.Annotations[model.RevisionAnnotation]; !copied || rs.Annotations[model.RevisionAnnotation] == "1" {
		t.Fatal("the Deployment's revision must not be copied")
	}
}

func TestSetNewReplicaSetAnnotations(t *testing.T) {
	type state = map[string]string
	cases := []struct {
		name, reason string
		dAnn         state
		rsAnn        state // nil: no annotations at all
		newRevision  string
		limit        int
		want         state
		changed      bool
	}{
		{"fresh", "upstream SetNewReplicaSetAnnotations: no revision yet counts as 0 and there is no history to record",
			nil, nil, "1", 2000,
			state{model.RevisionAnnotation: "1"}, true},
		{"copy-and-bump", "upstream SetNewReplicaSetAnnotations/copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation): non-skip annotations are copied, the skip list is not",
			state{"team": "shop", model.LastAppliedConfigAnnotation: "{}", model.RevisionAnnotation: "9", model.ChangeCauseAnnotation: "v2"},
			state{model.RevisionAnnotation: "1"}, "2", 2000,
			state{"team": "shop", model.ChangeCauseAnnotation: "v2", model.RevisionAnnotation: "2", model.RevisionHistoryAnnotation: "1"}, true},
		{"same-revision", "upstream SetNewReplicaSetAnnotations: revision not lower than the new one: untouched, nothing changed",
			nil, state{model.RevisionAnnotation: "3"}, "3", 2000,
			state{model.RevisionAnnotation: "3"}, false},
		{"higher-revision", "upstream SetNewReplicaSetAnnotations: the RS's revision is never lowered (old RSs deleted since)",
			nil, state{model.RevisionAnnotation: "7"}, "3", 2000,
			state{model.RevisionAnnotation: "7"}, false},
		{"copy-only", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation): a copied annotation alone reports a change",
			state{"team": "shop"}, state{model.RevisionAnnotation: "3"}, "3", 2000,
			state{"team": "shop", model.RevisionAnnotation: "3"}, true},
		{"copy-equal", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation): an equal value is not a change",
			state{"team": "shop"}, state{"team": "shop", model.RevisionAnnotation: "3"}, "3", 2000,
			state{"team": "shop", model.RevisionAnnotation: "3"}, false},
		{"copy-empty-value", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation): an empty value missing on the RS is copied",
			state{"flag": ""}, state{model.RevisionAnnotation: "3"}, "3", 2000,
			state{"flag": "", model.RevisionAnnotation: "3"}, true},
		{"keep-removed", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation): annotations gone from the Deployment stay on the RS",
			nil, state{"old": "x", model.RevisionAnnotation: "3"}, "3", 2000,
			state{"old": "x", model.RevisionAnnotation: "3"}, false},
		{"garbage-old-revision", "upstream quirk (a non-numeric revision breaks annotation syncing): non-numeric RS revision ⇒ false although the copy changed the map",
			state{"team": "shop"}, state{model.RevisionAnnotation: "abc"}, "4", 2000,
			state{"team": "shop", model.RevisionAnnotation: "abc"}, false},
		{"garbage-new-revision", "upstream SetNewReplicaSetAnnotations: a non-numeric new revision ⇒ false, copies stay in memory",
			state{"team": "shop"}, state{model.RevisionAnnotation: "3"}, "x", 2000,
			state{"team": "shop", model.RevisionAnnotation: "3"}, false},
		{"plus-kept", "the new revision is written as given, sign included",
			nil, nil, "+5", 2000,
			state{model.RevisionAnnotation: "+5"}, true},
		{"empty-old-revision", "present but empty counts as 0, and that empty string becomes the history (upstream)",
			nil, state{model.RevisionAnnotation: ""}, "2", 2000,
			state{model.RevisionAnnotation: "2", model.RevisionHistoryAnnotation: ""}, true},
		{"append", "upstream SetNewReplicaSetAnnotations: the former revision is appended",
			nil, state{model.RevisionAnnotation: "4", model.RevisionHistoryAnnotation: "1,2"}, "6", 2000,
			state{model.RevisionAnnotation: "6", model.RevisionHistoryAnnotation: "1,2,4"}, true},
		{"empty-first-entry", "upstream SetNewReplicaSetAnnotations: a history whose first entry is empty is replaced without a length check",
			nil, state{model.RevisionAnnotation: "4", model.RevisionHistoryAnnotation: ",2"}, "6", 2000,
			state{model.RevisionAnnotation: "6", model.RevisionHistoryAnnotation: "4"}, true},
		{"cannot-fit", "upstream SetNewReplicaSetAnnotations: the former revision alone exceeds the limit: history unchanged, revision still bumped",
			nil, state{model.RevisionAnnotation: "123456", model.RevisionHistoryAnnotation: "1"}, "123457", 5,
			state{model.RevisionAnnotation: "123457", model.RevisionHistoryAnnotation: "1"}, true},
		{"drop-all", "everything old dropped, the former revision alone fits",
			nil, state{model.RevisionAnnotation: "12345", model.RevisionHistoryAnnotation: "1,2,3"}, "12346", 5,
			state{model.RevisionAnnotation: "12346", model.RevisionHistoryAnnotation: "12345"}, true},
		{"first-entry-unchecked", "upstream writes the first history entry without checking the limit",
			nil, state{model.RevisionAnnotation: "1234567"}, "1234568", 5,
			state{model.RevisionAnnotation: "1234568", model.RevisionHistoryAnnotation: "1234567"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			d := webDeployment("web:1")
			d.Annotations = c.dAnn
			dBefore := d.DeepCopy()
			rs := newRS("web-1")
			rs.Annotations = c.rsAnn
			got := SetNewReplicaSetAnnotations(d, rs, c.newRevision, c.limit)
			if got != c.changed {
				t.Errorf("changed = %v, want %v", got, c.changed)
			}
			if diff := cmp.Diff(c.want, rs.Annotations); diff != "" {
				t.Errorf("annotations (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(dBefore, d); diff != "" {
				t.Errorf("the Deployment was modified:\n%s", diff)
			}
		})
	}
	if SetNewReplicaSetAnnotations(webDeployment("x"), nil, "1", 2000) {
		t.Fatal("a nil ReplicaSet cannot change")
	}
	rs := newRS("a")
	if !SetNewReplicaSetAnnotations(nil, rs, "1", 2000) || rs.Annotations[model.RevisionAnnotation] != "1" {
		t.Fatal("a nil Deployment has no annotations to copy but the revision is still set")
	}
}

func TestCopyDeploymentAnnotationsToReplicaSet(t *testing.T) {
	rs := newRS("a")
	if CopyDeploymentAnnotationsToReplicaSet(webDeployment("x"), rs) {
		t.Fatal("nothing to copy, nothing changed")
	}
	if rs.Annotations == nil {
		t.Fatal("upstream leaves an empty, non-nil map")
	}
	d := webDeployment("x")
	d.Annotations = map[string]string{}
	for _, k := range []string{model.LastAppliedConfigAnnotation, model.RevisionAnnotation, model.RevisionHistoryAnnotation,
		model.DesiredReplicasAnnotation, model.MaxReplicasAnnotation, model.RollbackToAnnotation} {
		d.Annotations[k] = "skip"
	}
	if CopyDeploymentAnnotationsToReplicaSet(d, rs) || len(rs.Annotations) != 0 {
		t.Fatalf("skip-list annotations were copied: %v", rs.Annotations)
	}
}

func TestSetDeploymentRevision(t *testing.T) {
	cases := []struct {
		name, reason string
		ann          map[string]string
		revision     string
		changed      bool
	}{
		{"empty-on-nil", "upstream compares with the map lookup, so absent == \"\"", nil, "", false},
		{"set", "absent ⇒ set", nil, "3", true},
		{"same", "equal value ⇒ unchanged", map[string]string{model.RevisionAnnotation: "3"}, "3", false},
		{"garbage", "upstream quirk (a non-numeric revision breaks annotation syncing): any string is copied, numeric or not", map[string]string{model.RevisionAnnotation: "3"}, "abc", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			d := webDeployment("x")
			d.Annotations = c.ann
			if got := SetDeploymentRevision(d, c.revision); got != c.changed {
				t.Fatalf("changed = %v, want %v", got, c.changed)
			}
			if d.Annotations == nil {
				t.Fatal("annotations left nil")
			}
			if c.changed && d.Annotations[model.RevisionAnnotation] != c.revision {
				t.Fatalf("revision = %q", d.Annotations[model.RevisionAnnotation])
			}
		})
	}
	if SetDeploymentRevision(nil, "1") {
		t.Fatal("nil Deployment")
	}
}

func TestSetDeploymentAnnotationsTo(t *testing.T) {
	d := webDeployment("web:5")
	d.Annotations = map[string]string{
		model.RevisionAnnotation:          "5",
		model.LastAppliedConfigAnnotation: "{}",
		"team":                            "a",
		model.ChangeCauseAnnotation:       "v5",
	}
	rs := newRS("web-2", rev("2"), ann(model.ChangeCauseAnnotation, "v2"), ann(model.DesiredReplicasAnnotation, "3"))
	rsBefore := rs.DeepCopy()
	SetDeploymentAnnotationsTo(d, rs)
	want := map[string]string{
		model.RevisionAnnotation:          "5",  // d's skip-list key kept
		model.LastAppliedConfigAnnotation: "{}", // d's skip-list key kept
		model.ChangeCauseAnnotation:       "v2", // from the RS
	} // "team" dropped; the RS's revision and desired-replicas not taken
	if diff := cmp.Diff(want, d.Annotations); diff != "" {
		t.Fatalf("annotations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(rsBefore, rs); diff != "" {
		t.Fatalf("the ReplicaSet was modified:\n%s", diff)
	}
	d2 := webDeployment("x")
	SetDeploymentAnnotationsTo(d2, nil)
	if d2.Annotations == nil || len(d2.Annotations) != 0 {
		t.Fatalf("nil target: %v", d2.Annotations)
	}
	SetDeploymentAnnotationsTo(nil, rs) // must not panic
}
