package plan_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

func names(rss []*model.ReplicaSet) []string {
	var out []string
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

func TestFindNewAndOldReplicaSets(t *testing.T) {
	d := newDeployment("web", 1, "v2")
	// upstream TestFindNewReplicaSet/TestFindOldReplicaSets: newRS (hash label "hash", created now+1m, 1 replica),
	// newRSDup (same template, hash label "different-hash", created now),
	// oldRS (another template, created now−1m, 0 replicas).
	nw := newRS(d, "v2", 2, 1, at(time.Minute))
	nw.Name = "new"
	nw.Spec.Template.Labels[model.PodTemplateHashLabel] = "hash"
	dup := nw.DeepCopy()
	dup.Name, dup.UID, dup.CreationTimestamp = "new-dup", "uid-new-dup", t0
	dup.Spec.Template.Labels[model.PodTemplateHashLabel] = "different-hash"
	old := nw.DeepCopy()
	old.Name, old.UID, old.CreationTimestamp, old.Spec.Template = "old", "uid-old", at(-time.Minute), tmpl("web", "v1")
	old.Spec.Replicas = i32(0)

	type tc struct {
		why
		list         []*model.ReplicaSet
		wantNew      string
		wantAll      []string
		wantRequired []string
	}
	cases := []tc{
		{why{"new and old", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 1"}, []*model.ReplicaSet{nw, old}, "new", []string{"old"}, nil},
		{why{"only old", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 2"}, []*model.ReplicaSet{old}, "", []string{"old"}, nil},
		{why{"duplicate template", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 3: the oldest match (new-dup) wins; new is old and required (1 replica)"},
			[]*model.ReplicaSet{old, nw, dup}, "new-dup", []string{"old", "new"}, []string{"new"}},
		{why{"only new", "upstream TestFindNewReplicaSet/TestFindOldReplicaSets row 4"}, []*model.ReplicaSet{nw}, "new", nil, nil},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		before := append([]*model.ReplicaSet(nil), c.list...)
		got := ""
		if rs := plan.FindNewReplicaSet(d, c.list); rs != nil {
			got = rs.Name
		}
		if got != c.wantNew {
			t.Errorf("FindNewReplicaSet = %q, want %q", got, c.wantNew)
		}
		required, all := plan.FindOldReplicaSets(d, c.list)
		if diff := cmp.Diff(c.wantAll, names(all)); diff != "" {
			t.Errorf("all old (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(c.wantRequired, names(required)); diff != "" {
			t.Errorf("required old (-want +got):\n%s", diff)
		}
		if !cmp.Equal(before, c.list) {
			t.Error("the input list was reordered")
		}
	})
}

// TestFirstSync is upstream TestSyncDeploymentCreatesReplicaSet: a new
// Deployment foo of 1 replica (surge 0 → unavailable 1) and no ReplicaSet.
func TestFirstSync(t *testing.T) {
	d := newDeployment("foo", 1, "v1", rolling(intStr(0), intStr(1)))
	p := mustSync(t, plan.State{Deployment: d, Now: t0})
	name := "foo-" + hash.ComputeHash(d.Spec.Template, nil)
	checkPlan(t, p, []string{
		"CreateReplicaSet " + name + " replicas=1",
		"UpdateDeploymentStatus foo",
		"UpdateDeploymentStatus foo conflict",
	}, []string{"Normal ScalingReplicaSet: Scaled up replica set " + name + " from 0 to 1"}, 2)
	created := actionAt(t, p, 0, plan.CreateReplicaSet).ReplicaSet
	if created.Annotations[model.RevisionAnnotation] != "1" || created.Annotations[model.DesiredReplicasAnnotation] != "1" ||
		created.Annotations[model.MaxReplicasAnnotation] != "1" {
		t.Errorf("created annotations = %v, want revision 1, desired 1, max 1+0", created.Annotations)
	}
	rev := actionAt(t, p, 1, plan.UpdateDeploymentStatus).Deployment
	if rev.Annotations[model.RevisionAnnotation] != "1" {
		t.Errorf("revision annotation = %q, want 1", rev.Annotations[model.RevisionAnnotation])
	}
	wantCreated := progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetCreated, `Created new replica set "`+name+`"`, t0, t0)
	if diff := cmp.Diff([]model.DeploymentCondition{wantCreated}, rev.Status.Conditions); diff != "" {
		t.Errorf("conditions of the revision write (-want +got):\n%s", diff)
	}
	final := actionAt(t, p, 2, plan.UpdateDeploymentStatus).Deployment.Status
	// allRSs still holds the created object (status 0 pods): available 0 ≥
	// 1 − 1 → Available True; unavailable 1 − 0 = 1.
	want := depStatus(1, 0, 0, 0, 0, 1, wantCreated, availableCond(true, t0))
	if diff := cmp.Diff(&want, final); diff != "" {
		t.Errorf("final status (-want +got):\n%s", diff)
	}
	if got := p.Accepted(); len(got) != 2 {
		t.Errorf("Accepted() = %d actions, want the 2 before the conflict", len(got))
	}
}

// TestDeletingDeployment: a Deployment with a deletion timestamp only syncs
// its status (upstream syncStatusOnly; TestSyncDeploymentDontDoAnythingDuringDeletion), and
// neither adopts nor releases (upstream ClaimReplicaSets).
func TestDeletingDeployment(t *testing.T) {
	deleting := func(d *model.Deployment) { d.DeletionTimestamp = model.TimePtr(at(-time.Minute)) }
	t.Run("no ReplicaSets", func(t *testing.T) {
		d := newDeployment("foo", 1, "v1", deleting)
		p := mustSync(t, plan.State{Deployment: d, Now: t0})
		checkPlan(t, p, []string{"UpdateDeploymentStatus foo"}, nil, -1)
		if !hasNote(p, plan.NoteDeleting) {
			t.Errorf("no %s note: %v", plan.NoteDeleting, p.Notes)
		}
	})
	t.Run("new RS annotations still synced", func(t *testing.T) {
		// upstream quirk (deleting Deployments still get annotations): syncStatusOnly runs getAllReplicaSetsAndSyncRevision, so a
		// Deployment annotation is copied to the new RS even while deleting.
		d := newDeployment("foo", 1, "v1", deleting, revisionAnn(1), depAnn("team", "a"))
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 1, at(-time.Hour))}, Now: t0})
		checkPlan(t, p, []string{"UpdateReplicaSet foo-v1 replicas=1", "UpdateDeploymentStatus foo"}, nil, -1)
		if got := p.Actions[0].Update.Annotations["team"]; got != "a" {
			t.Errorf("copied annotation = %q, want a", got)
		}
	})
	t.Run("orphan and mismatched RS untouched", func(t *testing.T) {
		d := newDeployment("foo", 1, "v2", deleting, revisionAnn(2))
		orphan := newRS(d, "v1", 1, 0, at(-time.Hour))
		orphan.OwnerReferences = nil
		mismatched := newRS(d, "v0", 0, 0, at(-2*time.Hour))
		mismatched.Labels = map[string]string{"app": "other"}
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{orphan, mismatched}, Now: t0})
		checkPlan(t, p, []string{"UpdateDeploymentStatus foo"}, nil, -1)
	})
}

// TestSelectingAll: an empty, non-nil selector (upstream syncDeployment step 1) gets a warning
// event and at most an observedGeneration write; nothing is claimed.
func TestSelectingAll(t *testing.T) {
	const msg = "Warning SelectingAll: This deployment is selecting all pods. A non-empty selector is required."
	type tc struct {
		why
		generation, observed int64
		wantActions          []string
	}
	cases := []tc{
		{why{"behind", "upstream syncDeployment: observedGeneration 1 < generation 2 → status write with observedGeneration only"}, 2, 1,
			[]string{"UpdateDeploymentStatus web"}},
		{why{"current", "upstream syncDeployment: observedGeneration already current → no write"}, 2, 2, nil},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		stored := depStatus(c.observed, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)))
		d := newDeployment("web", 3, "v1", generation(c.generation), withStatus(stored))
		d.Spec.Selector = &model.LabelSelector{}
		orphan := newRS(d, "v1", 1, 3, at(-time.Hour))
		orphan.OwnerReferences = nil
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{orphan}, Now: t0})
		checkPlan(t, p, c.wantActions, []string{msg}, -1)
		if len(c.wantActions) == 1 {
			want := stored
			want.ObservedGeneration = c.generation
			if diff := cmp.Diff(&want, lastStatus(t, p)); diff != "" {
				t.Errorf("status written (-want +got); only observedGeneration changes:\n%s", diff)
			}
		}
	})
}

// TestHashCollision: the new ReplicaSet's name is taken by a ReplicaSet with
// another template (upstream getNewReplicaSet (creation)): no create, collisionCount bumped in a status write,
// and the sync ends with AlreadyExists; the next sync hashes with the count.
func TestHashCollision(t *testing.T) {
	progressing := progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-new" has successfully progressed.`, at(-time.Hour), at(-time.Hour))
	type tc struct {
		why
		collisionCount *int32
		taken          func(d *model.Deployment) *model.ReplicaSet
		wantActions    []string
		wantCount      *int32
		wantErr        string
	}
	// The old RS of template v1 is called web-new: the hasher gives the new
	// template the same hash.
	ownOld := func(d *model.Deployment) *model.ReplicaSet {
		rs := newRS(d, "v1", 1, 3, at(-time.Hour))
		rs.Name, rs.UID = "web-new", "uid-web-new"
		return rs
	}
	foreign := func(name string) func(d *model.Deployment) *model.ReplicaSet {
		return func(d *model.Deployment) *model.ReplicaSet {
			rs := newRS(d, "v1", 1, 3, at(-time.Hour))
			rs.Name, rs.UID = name, "uid-"+name
			rs.Labels = map[string]string{"app": "other"}
			rs.OwnerReferences = []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "other", "uid-other")}
			return rs
		}
	}
	cases := []tc{
		{why: why{"nil to 1", "upstream getNewReplicaSet (creation): our old RS (another template) holds web-new → collisionCount nil → 1"},
			taken: ownOld, wantActions: []string{"UpdateDeploymentStatus web"}, wantCount: i32(1),
			wantErr: `replicasets.apps "web-new" already exists`},
		{why: why{"1 to 2", "upstream getNewReplicaSet (creation): count 1 hashes to web-new1, held by another Deployment's RS → 2"},
			collisionCount: i32(1), taken: foreign("web-new1"), wantActions: []string{"UpdateDeploymentStatus web"}, wantCount: i32(2),
			wantErr: `replicasets.apps "web-new1" already exists`},
		{why: why{"free after the bump", "upstream getNewReplicaSet (creation): the next sync hashes with count 1 → web-new1 is free → created"},
			collisionCount: i32(1), taken: ownOld,
			wantActions: []string{"CreateReplicaSet web-new1 replicas=1", "UpdateDeploymentStatus web", "UpdateDeploymentStatus web conflict"},
			wantCount:   i32(1)},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		st := depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), progressing)
		st.CollisionCount = c.collisionCount
		d := newDeployment("web", 3, "v2", generation(2), revisionAnn(1), withStatus(st))
		p, serr := syncChecked(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{c.taken(d)}, Now: t0}, fixedHash("new"))
		if diff := cmp.Diff(c.wantActions, summary(p)); diff != "" {
			t.Errorf("actions (-want +got):\n%s", diff)
		}
		written := lastStatus(t, p)
		if diff := cmp.Diff(c.wantCount, written.CollisionCount); diff != "" {
			t.Errorf("collisionCount written (-want +got):\n%s", diff)
		}
		if c.wantErr == "" {
			assert.Nil(t, serr, "the sync's error")
			return
		}
		want := &plan.SyncError{Kind: plan.ErrKindAlreadyExists, Message: c.wantErr}
		if diff := cmp.Diff(want, serr); diff != "" {
			t.Errorf("the sync's error (-want +got):\n%s", diff)
		}
		assert.ErrorIs(t, serr, &plan.SyncError{Kind: plan.ErrKindAlreadyExists})
		if len(p.Events) != 0 {
			t.Errorf("events %q, want none (upstream records no event for a collision)", events(p))
		}
		if written.Condition(model.DeploymentProgressing).Reason != model.ReasonNewReplicaSetAvailable {
			t.Error("a collision must not touch the Progressing condition")
		}
	})
}

// TestAdoptAndRelease: an orphan matching the selector is adopted and a
// controlled ReplicaSet whose labels no longer match is released (upstream ClaimReplicaSets),
// patches first. The adopted RS then needs its revision (upstream getNewReplicaSet (existing new ReplicaSet)): that update
// is derived from the cached object, which the adopt patch already replaced,
// so it conflicts (upstream writes from its cached copy, so later writes conflict).
func TestAdoptAndRelease(t *testing.T) {
	d := newDeployment("web", 3, "v2", revisionAnn(1),
		withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)),
			progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-v2" has successfully progressed.`, at(-time.Hour), at(-time.Hour)))))
	orphan := newRS(d, "v2", 1, 3, at(-2*time.Hour))
	orphan.OwnerReferences = nil
	rsAnn(orphan, model.RevisionAnnotation, "")
	mismatched := newRS(d, "x", 0, 0, at(-time.Hour))
	mismatched.Labels = map[string]string{"app": "other"}
	deletingOrphan := newRS(d, "v0", 0, 0, at(-3*time.Hour))
	deletingOrphan.OwnerReferences = nil
	deletingOrphan.DeletionTimestamp = model.TimePtr(at(-time.Minute))

	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{mismatched, orphan, deletingOrphan}, Now: t0})
	got := summary(p)
	want := []string{
		"AdoptReplicaSet web-v2",
		"ReleaseReplicaSet web-x",
		"UpdateReplicaSet web-v2 replicas=3 conflict",
	}
	if len(got) < len(want) {
		t.Fatalf("actions %q, want at least %q", got, want)
	}
	if diff := cmp.Diff(want, got[:len(want)]); diff != "" {
		t.Errorf("first actions (-want +got):\n%s", diff)
	}
	assert.Equal(t, 2, rejectedAt(p), "first rejected action")
	adopt := p.Actions[0]
	wantRef := model.NewControllerRef("apps/v1", "Deployment", "web", "uid-web")
	if adopt.Object.UID != "uid-web-v2" || adopt.OwnerReference == nil || *adopt.OwnerReference != wantRef {
		t.Errorf("adopt = uid %q ref %+v, want uid-web-v2 and %+v", adopt.Object.UID, adopt.OwnerReference, wantRef)
	}
	release := p.Actions[1]
	if release.Object.UID != "uid-web-x" || release.OwnerReference == nil || release.OwnerReference.UID != "uid-web" {
		t.Errorf("release = uid %q ref %+v, want uid-web-x removing uid-web", release.Object.UID, release.OwnerReference)
	}
	if rev := p.Actions[2].Update.Annotations[model.RevisionAnnotation]; rev != "1" {
		t.Errorf("adopted RS revision = %q, want 1 (MaxRevision of no old RS + 1)", rev)
	}
	for _, a := range p.Actions {
		if a.Object.Name == "web-v0" {
			t.Errorf("an orphan being deleted must not be adopted: %s", a)
		}
	}
}

// TestRevisionHistoryOnReuse: a template flip-flop (here after a rollback)
// makes an old ReplicaSet the new one again. Its revision is bumped to
// max(old)+1 and its former revision appended to revision-history, trimmed
// from the front to 2000 characters (upstream SetNewReplicaSetAnnotations). The annotation sync runs in
// isScalingEvent and again in the rollout from the cached copy, so the second
// update conflicts (upstream writes from its cached copy, so later writes conflict).
func TestRevisionHistoryOnReuse(t *testing.T) {
	// 400 entries "1000".."1399": 400·4 + 399 commas = 1999 characters.
	var parts []string
	for r := 1000; r < 1400; r++ {
		parts = append(parts, strconv.Itoa(r))
	}
	long := strings.Join(parts, ",")
	type tc struct {
		why
		rev, current int
		history      string
		wantRev      string
		wantHistory  string
	}
	cases := []tc{
		{why{"first reuse", "upstream SetNewReplicaSetAnnotations: no history → history = former revision \"1\"; revision = max(2)+1 = 3"},
			1, 2, "", "3", "1"},
		{why{"appended", "upstream SetNewReplicaSetAnnotations: \"1\" + \"3\" fits → \"1,3\"; revision = max(4)+1 = 5"},
			3, 4, "1", "5", "1,3"},
		{why{"trimmed to 2000 chars", "upstream SetNewReplicaSetAnnotations: 1999 + 1 + 4 = 2004 > 2000 → drop \"1000\" (5) → 1999 fits; revision 5001+1"},
			5000, 5001, long, "5002", strings.Join(append(parts[1:], "5000"), ",")},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		d := newDeployment("web", 3, "v1", generation(5), revisionAnn(c.current),
			withStatus(depStatus(4, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)),
				progressingCond(model.ConditionTrue, model.ReasonNewReplicaSetAvailable, `ReplicaSet "web-v2" has successfully progressed.`, at(-time.Hour), at(-time.Hour)))))
		v1 := newRS(d, "v1", c.rev, 0, at(-2*time.Hour))
		if c.history != "" {
			rsAnn(v1, model.RevisionHistoryAnnotation, c.history)
		}
		v2 := newRS(d, "v2", c.current, 3, at(-time.Hour))
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1, v2}, Now: t0})
		if len(p.Actions) < 2 {
			t.Fatalf("actions %q", summary(p))
		}
		if diff := cmp.Diff([]string{"UpdateReplicaSet web-v1 replicas=0", "UpdateReplicaSet web-v1 replicas=0 conflict"}, summary(p)[:2]); diff != "" {
			t.Errorf("first actions (-want +got):\n%s", diff)
		}
		assert.Equal(t, 1, rejectedAt(p), "first rejected action")
		for i := range 2 {
			ann := p.Actions[i].Update.Annotations
			if ann[model.RevisionAnnotation] != c.wantRev {
				t.Errorf("action %d revision = %q, want %q", i, ann[model.RevisionAnnotation], c.wantRev)
			}
			if ann[model.RevisionHistoryAnnotation] != c.wantHistory {
				t.Errorf("action %d history = %q (len %d), want %q (len %d)", i,
					ann[model.RevisionHistoryAnnotation], len(ann[model.RevisionHistoryAnnotation]), c.wantHistory, len(c.wantHistory))
			}
		}
		if n := len(c.wantHistory); n > model.MaxRevisionHistoryLength {
			t.Fatalf("fixture: expected history has %d characters", n)
		}
	})
}

// TestNewReplicaSetSync: upstream getNewReplicaSet (existing new ReplicaSet). A new ReplicaSet whose annotations or
// minReadySeconds lag the Deployment's is updated, and that happens twice in
// a rollout sync: in isScalingEvent and again in the strategy, from the same
// cached copy, so the second update conflicts (upstream writes from its cached copy, so later writes conflict, upstream quirk (a sync often ends with a conflicting write)).
func TestNewReplicaSetSync(t *testing.T) {
	const cause = "kubernetes.io/change-cause"
	type tc struct {
		why
		minReady     int32
		depCause     string
		rsRevision   string
		wantActions  []string
		wantConflict int
		check        func(t *testing.T, p plan.Plan)
	}
	cases := []tc{
		{why: why{"minReadySeconds", "upstream getNewReplicaSet (existing new ReplicaSet): minReadySeconds 0 ≠ 5 → update, done twice"},
			minReady: 5, rsRevision: "2",
			wantActions: []string{"UpdateReplicaSet web-v2 replicas=3", "UpdateReplicaSet web-v2 replicas=3 conflict"}, wantConflict: 1,
			check: func(t *testing.T, p plan.Plan) {
				for _, a := range p.Actions {
					if m := a.Update.MinReadySeconds; m == nil || *m != 5 {
						t.Errorf("%s: minReadySeconds %v, want 5", a, m)
					}
				}
			}},
		{why: why{"annotation copied", "upstream copyDeploymentAnnotationsToReplicaSet (skipCopyAnnotation): a Deployment annotation missing on the new RS is copied; done twice"},
			depCause: "bump", rsRevision: "2",
			wantActions: []string{"UpdateReplicaSet web-v2 replicas=3", "UpdateReplicaSet web-v2 replicas=3 conflict"}, wantConflict: 1,
			check: func(t *testing.T, p plan.Plan) {
				for _, a := range p.Actions {
					if a.Update.Annotations[cause] != "bump" {
						t.Errorf("%s: change-cause %q, want bump", a, a.Update.Annotations[cause])
					}
				}
			}},
		{why: why{"non-numeric revision", "upstream quirk (a non-numeric revision breaks annotation syncing): revision \"abc\" → SetNewReplicaSetAnnotations reports no change (the copy is lost) and the Deployment records revision \"abc\""},
			depCause: "bump", rsRevision: "abc",
			wantActions: []string{"UpdateDeploymentStatus web"}, wantConflict: -1,
			check: func(t *testing.T, p plan.Plan) {
				if got := p.Actions[0].Deployment.Annotations[model.RevisionAnnotation]; got != "abc" {
					t.Errorf("Deployment revision = %q, want abc", got)
				}
			}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		opts := []depOpt{revisionAnn(2), withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)),
			func(d *model.Deployment) { d.Spec.MinReadySeconds = c.minReady }}
		if c.depCause != "" {
			opts = append(opts, depAnn(cause, c.depCause))
		}
		d := newDeployment("web", 3, "v2", opts...)
		v1 := rsStatus(newRS(d, "v1", 1, 0, at(-2*time.Hour)), 0, 0, 0)
		v2 := rsAnn(newRS(d, "v2", 2, 3, at(-time.Hour)), model.RevisionAnnotation, c.rsRevision)
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{v1, v2}, Now: t0})
		checkPlan(t, p, c.wantActions, nil, c.wantConflict)
		c.check(t, p)
	})
}

func TestSyncRejectsInvalidInput(t *testing.T) {
	// Invalid input returns an error naming the field, usable
	// with errors.As; an unknown strategy is caught there (the Deployment fields upstream reads).
	d := newDeployment("web", 3, "v1", func(d *model.Deployment) { d.Spec.Strategy = model.Strategy{Type: "Canary"} })
	_, err := plan.Sync(plan.State{Deployment: d, Now: t0})
	var verr *model.ValidationError
	if !errors.As(err, &verr) || !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("err = %v, want a *model.ValidationError matching model.ErrInvalid", err)
	}
	if !strings.Contains(err.Error(), "deployment.spec.strategy.type") {
		t.Errorf("err = %q, want it to name deployment.spec.strategy.type", err)
	}
}
