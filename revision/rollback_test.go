package revision

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// example32 is the setting of the worked example of kubectl rollout undo target
// selection: Deployment "web" at revision
// 3, with ReplicaSets for revisions 1, 2 and 3.
func example32() (*model.Deployment, []*model.ReplicaSet) {
	d := webDeployment("web:3")
	return d, []*model.ReplicaSet{
		webRS(d, "web-3", "3", "web:3", 0),
		webRS(d, "web-1", "1", "web:1", -2*time.Hour),
		webRS(d, "web-2", "2", "web:2", -time.Hour),
	}
}

func TestRollbackTarget(t *testing.T) {
	cases := []struct {
		name, reason string
		setup        func() (*model.Deployment, []*model.ReplicaSet)
		toRevision   int64
		want         string // target name, "" for none
		wantErr      error  // sentinel
		wantMsg      string
	}{
		{"previous", "worked example of kubectl rollout undo target selection: undo ⇒ revision 2", example32, 0, "web-2", nil, ""},
		{"to-1", "worked example of kubectl rollout undo target selection: --to-revision=1 ⇒ revision 1", example32, 1, "web-1", nil, ""},
		{"to-3", "worked example of kubectl rollout undo target selection: --to-revision=3 is the current template ⇒ skipped", example32, 3, "web-3", ErrAlreadyCurrent,
			"skipped rollback (current template already matches revision 3)"},
		{"to-7", "worked example of kubectl rollout undo target selection: unknown revision", example32, 7, "", ErrRevisionNotFound, "unable to find specified revision 7 in history"},
		{"negative", "kubectl rollout undo: a negative revision is reported as not found", example32, -1, "", ErrRevisionNotFound,
			"unable to find specified revision -1 in history"},
		{"single", "worked example of kubectl rollout undo target selection: a single RS has no previous revision", func() (*model.Deployment, []*model.ReplicaSet) {
			d := webDeployment("web:1")
			return d, []*model.ReplicaSet{webRS(d, "web-1", "1", "web:1", 0)}
		}, 0, "", ErrNoRolloutHistory, `no rollout history found for deployment "web"`},
		{"none", "kubectl rollout undo: no owned RSs at all", func() (*model.Deployment, []*model.ReplicaSet) {
			return webDeployment("web:1"), nil
		}, 0, "", ErrNoRolloutHistory, `no rollout history found for deployment "web"`},
		{"not-owned", "kubectl rollout undo: an RS controlled by another Deployment is invisible", func() (*model.Deployment, []*model.ReplicaSet) {
			d, rss := example32()
			other := webDeployment("x")
			other.UID = "d-other"
			return d, append(rss, webRS(other, "other-9", "9", "web:9", 0))
		}, 9, "", ErrRevisionNotFound, "unable to find specified revision 9 in history"},
		{"selector", "kubectl rollout undo: an owned RS whose labels miss the selector is invisible", func() (*model.Deployment, []*model.ReplicaSet) {
			d, rss := example32()
			return d, append(rss, webRS(d, "stray-9", "9", "web:9", 0, labels("app", "other")))
		}, 9, "", ErrRevisionNotFound, "unable to find specified revision 9 in history"},
		{"previous-after-rollback", "kubectl rollout undo: the current template is the oldest match (revision 4 after a rollback to 1); previous is 3",
			func() (*model.Deployment, []*model.ReplicaSet) {
				d := webDeployment("web:1")
				return d, []*model.ReplicaSet{
					webRS(d, "web-1", "4", "web:1", -3*time.Hour),
					webRS(d, "web-2", "2", "web:2", -2*time.Hour),
					webRS(d, "web-3", "3", "web:3", -time.Hour),
				}
			}, 0, "web-3", nil, ""},
		{"duplicate-latest", "kubectl rollout undo loop: with two RSs at the top revision the later in kubectl order is 'previous'",
			func() (*model.Deployment, []*model.ReplicaSet) {
				d := webDeployment("web:9")
				return d, []*model.ReplicaSet{
					webRS(d, "dup-a", "3", "web:a", -2*time.Hour),
					webRS(d, "dup-b", "3", "web:b", -time.Hour),
				}
			}, 0, "dup-b", nil, ""},
		{"duplicate-requested", "kubectl rollout undo: --to-revision takes the first match in kubectl order (older first)",
			func() (*model.Deployment, []*model.ReplicaSet) {
				d := webDeployment("web:9")
				return d, []*model.ReplicaSet{
					webRS(d, "dup-b", "2", "web:b", -time.Hour),
					webRS(d, "dup-a", "2", "web:a", -2*time.Hour),
				}
			}, 2, "dup-a", nil, ""},
		{"missing-annotation", "kubectl rollout undo: no annotation counts as revision 0, which is a valid 'previous'",
			func() (*model.Deployment, []*model.ReplicaSet) {
				d := webDeployment("web:2")
				bare := webRS(d, "web-0", "0", "web:0", -time.Hour)
				delete(bare.Annotations, model.RevisionAnnotation)
				return d, []*model.ReplicaSet{bare, webRS(d, "web-2", "2", "web:2", 0)}
			}, 0, "web-0", nil, ""},
		{"unparsable-skipped", "kubectl rollout undo: RSs with unparsable revisions are not candidates",
			func() (*model.Deployment, []*model.ReplicaSet) {
				d := webDeployment("web:2")
				return d, []*model.ReplicaSet{webRS(d, "web-x", "x", "web:x", -time.Hour), webRS(d, "web-2", "2", "web:2", 0)}
			}, 0, "", ErrNoRolloutHistory, `no rollout history found for deployment "web"`},
		{"new-rs-last", "kubectl rollout undo: the new RS goes last, so with equal top revisions an old RS is 'latest' and the new one 'previous'",
			func() (*model.Deployment, []*model.ReplicaSet) {
				d := webDeployment("web:new")
				return d, []*model.ReplicaSet{
					webRS(d, "newrs", "5", "web:new", -2*time.Hour), // oldest, but the new RS
					webRS(d, "oldrs", "5", "web:old", -time.Hour),
				}
			}, 0, "newrs", ErrAlreadyCurrent, "skipped rollback (current template already matches revision 0)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			d, rss := c.setup()
			dBefore, rssBefore := d.DeepCopy(), deepCopies(rss)
			got, err := RollbackTarget(d, rss, c.toRevision)
			gotName := ""
			if got != nil {
				gotName = got.Name
			}
			if gotName != c.want {
				t.Fatalf("target %q, want %q (err %v)", gotName, c.want, err)
			}
			if !errors.Is(err, c.wantErr) || (err == nil) != (c.wantErr == nil) {
				t.Fatalf("error %v, want %v", err, c.wantErr)
			}
			if err != nil && err.Error() != c.wantMsg {
				t.Fatalf("message %q, want %q", err, c.wantMsg)
			}
			if diff := cmp.Diff(dBefore, d); diff != "" {
				t.Fatalf("Deployment modified:\n%s", diff)
			}
			if diff := cmp.Diff(rssBefore, rss); diff != "" {
				t.Fatalf("ReplicaSets modified or reordered:\n%s", diff)
			}
		})
	}
}

func TestRollbackTargetErrorsAreTyped(t *testing.T) {
	d, rss := example32()
	_, err := RollbackTarget(d, rss, 7)
	var nf *RevisionNotFoundError
	if !errors.As(err, &nf) || nf.Revision != 7 {
		t.Fatalf("%v is not a *RevisionNotFoundError{7}", err)
	}
	_, err = RollbackTarget(d, rss[:1], 0)
	var nh *NoRolloutHistoryError
	if !errors.As(err, &nh) || nh.Deployment != "web" {
		t.Fatalf("%v is not a *NoRolloutHistoryError{web}", err)
	}
	_, err = RollbackTarget(d, rss, 3)
	var ac *AlreadyCurrentError
	if !errors.As(err, &ac) || ac.Revision != 3 {
		t.Fatalf("%v is not an *AlreadyCurrentError{3}", err)
	}
	d.Spec.Selector = &model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}}
	if _, err = RollbackTarget(d, rss, 0); err == nil {
		t.Fatal("an invalid selector must be an error")
	}
	if _, err = RollbackTarget(nil, rss, 0); err == nil {
		t.Fatal("a nil Deployment must be an error")
	}
	// kubectl lists with the string form of a nil selector, "", which selects
	// everything the Deployment controls.
	d2, rss2 := example32()
	d2.Spec.Selector = nil
	if got, err := RollbackTarget(d2, rss2, 1); err != nil || got.Name != "web-1" {
		t.Fatalf("nil selector: %v, %v", got, err)
	}
}

// TestKubectlOrder checks the new-RS choice and the old/new order
// kubectl uses against upstream TestFindNewReplicaSet/TestFindOldReplicaSets (deployment_util_test.go:
// TestFindNewReplicaSet / TestFindOldReplicaSets).
func TestKubectlOrder(t *testing.T) {
	d := webDeployment("nginx")
	newRS := webRS(d, "newRS", "2", "nginx", time.Minute, replicas(1, 1))
	newRSDup := webRS(d, "newRSDup", "2", "nginx", 0)
	oldRS := webRS(d, "oldRS", "1", "old", -time.Minute)
	cases := []struct {
		name, reason string
		in           []*model.ReplicaSet
		want         []string // old ones in creation order, then the new one
	}{
		{"new-and-old", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 1: new = newRS", []*model.ReplicaSet{newRS, oldRS}, []string{"oldRS", "newRS"}},
		{"old-only", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 2: no new RS", []*model.ReplicaSet{oldRS}, []string{"oldRS"}},
		{"duplicate", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 3: the oldest match newRSDup is new; newRS is old", []*model.ReplicaSet{oldRS, newRS, newRSDup}, []string{"oldRS", "newRS", "newRSDup"}},
		{"new-only", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 4", []*model.ReplicaSet{newRS}, []string{"newRS"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			got, err := kubectlReplicaSets(d, c.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, names(got)); diff != "" {
				t.Fatalf("order (-want +got):\n%s", diff)
			}
		})
	}
	// Missing UIDs do not make every ReplicaSet look like the new one.
	a, b := webRS(d, "a", "1", "old", 0), webRS(d, "b", "2", "nginx", time.Minute)
	a.UID, b.UID = "", ""
	got, _ := kubectlReplicaSets(d, []*model.ReplicaSet{b, a})
	if diff := cmp.Diff([]string{"a", "b"}, names(got)); diff != "" {
		t.Fatalf("empty UIDs (-want +got):\n%s", diff)
	}
}

func TestRollbackTemplate(t *testing.T) {
	d, rss := example32()
	target := rss[1] // web-1
	before := target.DeepCopy()
	got := RollbackTemplate(target)
	if diff := cmp.Diff(webTemplate("web:1"), got); diff != "" {
		t.Fatalf("template (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, target); diff != "" {
		t.Fatalf("target modified:\n%s", diff)
	}
	got.Labels["x"] = "y"
	if _, shared := target.Spec.Template.Labels["x"]; shared {
		t.Fatal("the returned template shares its label map with the target")
	}
	if !model.EqualIgnoreHash(RollbackTemplate(rss[0]), d.Spec.Template) {
		t.Fatal("rolling back to the current RS restores the Deployment's template")
	}
	if diff := cmp.Diff(model.PodTemplate{}, RollbackTemplate(nil)); diff != "" {
		t.Fatal("nil target")
	}
}

func TestUndo(t *testing.T) {
	d, rss := example32()
	d.Annotations = map[string]string{
		model.RevisionAnnotation:          "3",
		model.LastAppliedConfigAnnotation: "{...}",
		model.ChangeCauseAnnotation:       "deploy v3",
		"team":                            "shop",
	}
	rss[1].Annotations[model.ChangeCauseAnnotation] = "deploy v1"
	rss[1].Annotations[model.DesiredReplicasAnnotation] = "3"

	p, err := Undo(d, rss, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := UndoPatch{
		Target:   rss[1],
		Template: webTemplate("web:1"),
		// kubectl rollout undo/upstream quirk (kubectl undo replaces the annotation map wholesale): d's skip-list keys + the target's other keys; "team" is gone.
		Annotations: map[string]string{
			model.RevisionAnnotation:          "3",
			model.LastAppliedConfigAnnotation: "{...}",
			model.ChangeCauseAnnotation:       "deploy v1",
		},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Fatalf("patch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.Annotations, UndoAnnotations(d, rss[1])); diff != "" {
		t.Fatalf("UndoAnnotations (-want +got):\n%s", diff)
	}

	// kubectl's order: selection errors, then paused, then already-current.
	d.Spec.Paused = true
	if _, err := Undo(d, rss, 7); !errors.Is(err, ErrRevisionNotFound) {
		t.Fatalf("paused + unknown revision: %v, want not found first", err)
	}
	if _, err := Undo(d, rss, 3); !errors.Is(err, ErrPaused) {
		t.Fatalf("paused + current revision: %v, want paused before skipped", err)
	}
	if _, err := Undo(d, rss, 1); err == nil || err.Error() != "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again" {
		t.Fatalf("paused: %v", err)
	}
	d.Spec.Paused = false
	p, err = Undo(d, rss, 3)
	if !errors.Is(err, ErrAlreadyCurrent) || p.Target != rss[0] || p.Annotations != nil {
		t.Fatalf("already current: %+v, %v", p, err)
	}
	if _, err := Undo(nil, rss, 0); err == nil {
		t.Fatal("nil Deployment")
	}
}

func TestHistory(t *testing.T) {
	d := webDeployment("web:3")
	rss := []*model.ReplicaSet{
		webRS(d, "web-3", "3", "web:3", 0, ann(model.ChangeCauseAnnotation, "kubectl set image deployment/web web=web:3")),
		webRS(d, "web-1", "1", "web:1", -3*time.Hour),
		webRS(d, "web-x", "garbage", "web:x", -2*time.Hour),
		webRS(d, "web-2", "2", "web:2", -time.Hour),
	}
	// A change cause only on the pod template is kubectl's fallback.
	rss[3].Spec.Template.Annotations = map[string]string{model.ChangeCauseAnnotation: "from template"}
	other := webDeployment("x")
	other.UID = "d-other"
	rss = append(rss, webRS(other, "other-1", "1", "web:o", 0))

	got, err := History(d, rss)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Revision: 1, ChangeCause: "", ReplicaSet: rss[1]},
		{Revision: 2, ChangeCause: "from template", ReplicaSet: rss[3]},
		{Revision: 3, ChangeCause: "kubectl set image deployment/web web=web:3", ReplicaSet: rss[0]},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("history (-want +got):\n%s", diff)
	}

	// kubectl rollout history: with duplicate revisions the later one in kubectl order wins;
	// the new RS is last.
	dup := []*model.ReplicaSet{
		webRS(d, "new", "4", "web:3", -2*time.Hour, ann(model.ChangeCauseAnnotation, "new")),
		webRS(d, "old", "4", "web:1", -time.Hour, ann(model.ChangeCauseAnnotation, "old")),
	}
	got, _ = History(d, dup)
	if len(got) != 1 || got[0].ReplicaSet.Name != "new" || got[0].ChangeCause != "new" {
		t.Fatalf("duplicates: %+v", got)
	}
	if got, _ := History(d, nil); len(got) != 0 {
		t.Fatalf("no RSs: %+v", got)
	}
}
