package statefulset

import (
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cases of this file each pin one upstream rule that no recording
// exercises (see the rule tables in the closing note): one small state, the
// writes upstream makes on it, worked out by hand from the function each
// case names.

// actionOf returns the first action of that kind, failing the test when
// there is none.
func actionOf(t *testing.T, p Plan, kind ActionKind) Action {
	t.Helper()
	for _, a := range p.Actions {
		if a.Kind == kind {
			return a
		}
	}
	require.Failf(t, "no action", "no %s among %v", kind, kinds(p))
	return Action{}
}

// orphanRev is rev(v, n) with no owner reference.
func orphanRev(v string, n int64) *model.ControllerRevision {
	r := rev(v, n)
	r.OwnerReferences = nil
	return r
}

// renamed is r under another name, created at the given time.
func renamed(r *model.ControllerRevision, name string, created time.Time) *model.ControllerRevision {
	r.Name, r.CreationTimestamp = name, created
	return r
}

// dataClaims mounts claim template "data".
var dataClaims = claimsFrom("data")

// TestRulesHistory covers the revision rules of a sync that no recording
// reaches.
func TestRulesHistory(t *testing.T) {
	deleting := func(s *model.StatefulSet) { s.DeletionTimestamp = model.TimePtr(t0.Add(-time.Second)) }
	cur := status(revName("v1"), revName("v1"), 1)

	// A revision of template v1 under the name the set's v1 revision
	// hashes to, but labelled for another app: outside the set's history.
	foreignSame := rev("v1", 7)
	foreignSame.Labels = map[string]string{"app": "other"}
	foreignSame.OwnerReferences = nil

	// A revision that another StatefulSet controls, with labels the
	// selector matches.
	foreignCtl := rev("v9", 5)
	foreignCtl.Name = "db-5d4c8b9f7"
	foreignCtl.OwnerReferences = []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "db", "db-uid")}

	runSyncCases(t, []syncCase{
		{name: "H3 a deleting set cannot adopt revisions",
			why:   "stateful_set.go: adoptOrphanRevisions, canAdoptFunc → RecheckDeletionTimestamp: a set being deleted fails the adoption before any pod is claimed",
			state: state(mkSet(1, cur, deleting), []*model.Pod{mkPod(0, "v1")}, []*model.ControllerRevision{orphanRev("v1", 1)}),
			want:  nil, err: ErrKindSetDeleted, notes: []ReasonCode{NoteSyncFailed},
			check: func(t *testing.T, p Plan) {
				require.NotEmpty(t, p.Notes)
				assert.Contains(t, p.Notes[0].Message, "can't adopt ControllerRevisions: ns/web has just been deleted")
			}},
		{name: "H10 a taken name with the same data is reused",
			why:   "controller_history.go: CreateControllerRevision (pkg/controller/history): on AlreadyExists, an existing revision with equal data is returned instead of bumping the collision count",
			state: state(mkSet(1), nil, []*model.ControllerRevision{foreignSame}),
			want:  []string{"CreateControllerRevision " + revName("v1") + " (rejected)", "CreatePod web-0", "UpdateStatefulSetStatus web"},
			check: func(t *testing.T, p Plan) {
				pod := actionOf(t, p, CreatePod)
				assert.Equal(t, revName("v1"), pod.Revision, "the pod is created at the reused revision")
				require.NotNil(t, p.Status)
				assert.Equal(t, revName("v1"), p.Status.UpdateRevision)
				assert.Equal(t, revName("v1"), p.Status.CurrentRevision)
				assert.Equal(t, int32(0), *p.Status.CollisionCount, "no collision: the data is equal")
			}},
		{name: "H1 a revision another controller owns is not history",
			why:   "stateful_set_control.go: ListRevisions → history.ListControllerRevisions keeps only revisions the set controls or that are orphans; the new revision is therefore number 1, not 6",
			state: state(mkSet(1), nil, []*model.ControllerRevision{foreignCtl}),
			want:  []string{"CreateControllerRevision " + revName("v1"), "CreatePod web-0", "UpdateStatefulSetStatus web"},
			check: func(t *testing.T, p Plan) {
				a := actionOf(t, p, CreateControllerRevision)
				assert.Equal(t, int64(1), a.ControllerRevision.Revision)
			}},
		{name: "H4 equal revision numbers: the later creation is the latest",
			why: "history.SortControllerRevisions (byRevision): equal numbers go by creation time before name; web-aaa (v1, created later) is the latest, so it is reused and not rolled back to",
			state: state(mkSet(1, status("web-aaa", "web-aaa", 1)), []*model.Pod{mkPod(0, "v1", func(p *model.Pod) { p.Labels[model.StatefulSetRevisionLabel] = "web-aaa" })},
				[]*model.ControllerRevision{renamed(rev("v1", 2), "web-aaa", t0.Add(-time.Minute)), renamed(rev("v2", 2), "web-bbb", t0.Add(-time.Hour))}),
			want: nil, notes: []ReasonCode{NoteStatusUnchanged}},
		{name: "H4 equal numbers and creation times: the name decides",
			why: "history.SortControllerRevisions (byRevision): with equal numbers and creation times the greater name is the latest; web-bbb (v1) is reused, whatever the listing order",
			state: state(mkSet(1, status("web-bbb", "web-bbb", 1)), []*model.Pod{mkPod(0, "v1", func(p *model.Pod) { p.Labels[model.StatefulSetRevisionLabel] = "web-bbb" })},
				[]*model.ControllerRevision{renamed(rev("v1", 2), "web-bbb", t0.Add(-time.Hour)), renamed(rev("v2", 2), "web-aaa", t0.Add(-time.Hour))}),
			want: nil, notes: []ReasonCode{NoteStatusUnchanged}},
	})
}

// TestRulesClaims covers claim rules no recording reaches.
func TestRulesClaims(t *testing.T) {
	cur := status(revName("v1"), revName("v1"), 1)
	setCtl := setRef
	setNonCtl := setRef
	setNonCtl.Controller = false
	operator := model.NewControllerRef("example.com/v1", "Operator", "op", "op-uid")

	runSyncCases(t, []syncCase{
		{name: "C5 claims fixed right after a pod create",
			why: "stateful_pod_control.go: CreateStatefulPod → UpdatePodClaimForRetentionPolicy: under whenDeleted Delete the retained claim data-web-1 gets the set as controller right after web-1 is created",
			state: state(mkSet(2, dataClaims, retain(model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType), cur),
				[]*model.Pod{mkPod(0, "v1", mounts("data"))}, []*model.ControllerRevision{v1()}, claim("data", 0, setCtl), claim("data", 1)),
			want: []string{"CreatePod web-1", "UpdateClaim data-web-1"}, notes: []ReasonCode{NoteWaitingForCreated},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []model.OwnerReference{setCtl}, p.Actions[1].OwnerReferences)
				require.Len(t, p.Events, 1)
				assert.Equal(t, 2, p.Events[0].AfterWrites, "the pod's event comes after the claim update")
			}},
		{name: "C6 a non-controller reference to the set is rewritten",
			why: "stateful_set_utils.go: isClaimOwnerUpToDate (hasNonControllerOwner → not up to date), updateClaimOwnerRefForSetAndPod: the set's plain reference becomes a controller reference; processReplica → UpdateStatefulPod writes the pod back",
			state: state(mkSet(1, dataClaims, retain(model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType), cur),
				[]*model.Pod{mkPod(0, "v1", mounts("data"))}, []*model.ControllerRevision{v1()}, claim("data", 0, setNonCtl)),
			want: []string{"UpdateClaim data-web-0", "UpdatePod web-0"},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []model.OwnerReference{setCtl}, p.Actions[0].OwnerReferences)
			}},
		{name: "C6 a foreign controller beside the set's reference: the set's reference is dropped",
			why: "stateful_set_utils.go: hasUnexpectedController, isClaimOwnerUpToDate (not up to date while the set is referenced), updateClaimOwnerRefForSetAndPod (references to set and pod removed, none added); UpdatePodClaimForRetentionPolicy warns ConflictingController",
			state: state(mkSet(1, dataClaims, retain(model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType), cur),
				[]*model.Pod{mkPod(0, "v1", mounts("data"))}, []*model.ControllerRevision{v1()}, claim("data", 0, operator, setNonCtl)),
			want: []string{"UpdateClaim data-web-0", "UpdatePod web-0"},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []model.OwnerReference{operator}, p.Actions[0].OwnerReferences)
				require.NotEmpty(t, p.Events)
				assert.Equal(t, EventConflictingController, p.Events[0].Reason)
			}},
		{name: "C6 a stale reference to an earlier set leaves the claim alone",
			why: "stateful_set_utils.go: isClaimOwnerUpToDate returns up to date first when hasStaleOwnerRef finds a reference to an earlier set named web (another UID), even though the claim also references web-0",
			state: state(mkSet(1, dataClaims, retain(model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType), cur),
				[]*model.Pod{mkPod(0, "v1", mounts("data"))}, []*model.ControllerRevision{v1()},
				claim("data", 0, model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "web", "old-set-uid"),
					model.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "web-0", UID: "pod-web-0"})),
			want: nil, notes: []ReasonCode{NoteStatusUnchanged},
			check: func(t *testing.T, p Plan) { assert.Empty(t, p.Events) }},
		{name: "C9 a claim under a foreign controller: warning, no write",
			why: "stateful_pod_control.go: createMissingPersistentVolumeClaims → UpdatePodClaimForRetentionPolicy for a Pending pod: hasUnexpectedController records the ConflictingController warning; isClaimOwnerUpToDate leaves a claim without set or pod references alone",
			state: state(mkSet(1, dataClaims, retain(model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType), status(revName("v1"), revName("v1"), 1), func(s *model.StatefulSet) { s.Status.ReadyReplicas, s.Status.AvailableReplicas = 0, 0 }),
				[]*model.Pod{mkPod(0, "v1", mounts("data"), pending)}, []*model.ControllerRevision{v1()}, claim("data", 0, operator)),
			want: nil, notes: []ReasonCode{NoteWaitingForReady},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []Event{{Type: model.EventTypeWarning, Reason: EventConflictingController, Object: "StatefulSet/web",
					Message: "PersistentVolumeClaim data-web-0 has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim"}}, p.Events)
			}},
		{name: "C10 a replica without its claim volume",
			why:   "stateful_set_control.go: processReplica (storageMatches false) → stateful_pod_control.go: UpdateStatefulPod → updateStorage, createPersistentVolumeClaims: the missing claim is created, then the pod written back with the claim volume",
			state: state(mkSet(1, dataClaims, cur), []*model.Pod{mkPod(0, "v1")}, []*model.ControllerRevision{v1()}),
			want:  []string{"CreateClaim data-web-0", "UpdatePod web-0"},
			check: func(t *testing.T, p Plan) {
				u := p.Actions[1].PodUpdate
				require.NotNil(t, u)
				assert.Equal(t, []model.Volume{{Name: "data", ClaimName: "data-web-0"}}, u.Volumes)
				assert.Equal(t, ReasonPodStorage, p.Actions[1].Reason.Code)
			}},
		{name: "C10+E3 the claim of the rewrite is being deleted",
			why: "stateful_pod_control.go: UpdateStatefulPod → createPersistentVolumeClaims fails (pvc being deleted) → recordPodEvent(update) FailedUpdate, and the sync ends with the error; the pod is not written",
			state: state(mkSet(1, dataClaims, cur), []*model.Pod{mkPod(0, "v1")}, []*model.ControllerRevision{v1()},
				func() *model.PersistentVolumeClaim {
					c := claim("data", 0)
					c.DeletionTimestamp = model.TimePtr(t0.Add(-time.Second))
					return c
				}()),
			want: nil, err: ErrKindClaimDeleting,
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []Event{{Type: model.EventTypeWarning, Reason: EventFailedUpdate, Object: "StatefulSet/web",
					Message: "Update Pod web-0 in StatefulSet web failed error: pvc data-web-0 is being deleted"}}, p.Events)
			}},
		{name: "E3 the rewritten pod does not exist",
			why: "stateful_pod_control.go: UpdateStatefulPod → updateIdentity renames web-01 (ordinal 1) to web-1, the update of web-1 fails NotFound, recordPodEvent(update) records FailedUpdate and the sync ends with the error",
			state: state(mkSet(2, status(revName("v1"), revName("v1"), 2)), []*model.Pod{mkPod(0, "v1"), func() *model.Pod {
				p := mkPod(1, "v1")
				p.Name, p.UID, p.Labels[model.StatefulSetPodNameLabel] = "web-01", "pod-web-01", "web-01"
				return p
			}()}, []*model.ControllerRevision{v1()}),
			want: []string{"UpdatePod web-01 (rejected)"}, err: ErrKindNotFound,
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []Event{{Type: model.EventTypeWarning, Reason: EventFailedUpdate, Object: "StatefulSet/web",
					Message: `Update Pod web-1 in StatefulSet web failed error: pods "web-1" not found`, AfterWrites: 1}}, p.Events)
			}},
	})
}

// TestRulesPods covers pod rules no recording reaches.
func TestRulesPods(t *testing.T) {
	cur := status(revName("v1"), revName("v1"), 1)
	r1 := []*model.ControllerRevision{v1()}
	noPhase := func(p *model.Pod) { p.Status = model.PodStatus{} }
	runSyncCases(t, []syncCase{
		{name: "P12 a pod without a phase is created again",
			why:   "stateful_set_control.go: processReplica (isCreated is false without a phase) → CreateStatefulPod, which the API server refuses as AlreadyExists; the status no longer counts the pod",
			state: state(mkSet(1, cur), []*model.Pod{mkPod(0, "v1", noPhase)}, r1),
			want:  []string{"CreatePod web-0 (rejected)", "UpdateStatefulSetStatus web"}, err: ErrKindAlreadyExists,
			check: func(t *testing.T, p Plan) {
				require.NotNil(t, p.Status)
				assert.Equal(t, int32(0), p.Status.Replicas)
			}},
		{name: "A2 a controlled pod not named for the set is released",
			why: "stateful_set.go: getPodsForStatefulSet, ClaimPods with the isMemberOf filter: web-x has no ordinal, so its parent is not the set and it is released",
			state: state(mkSet(1, cur), []*model.Pod{mkPod(0, "v1"), func() *model.Pod {
				p := mkPod(0, "v1")
				p.Name, p.UID = "web-x", "pod-web-x"
				return p
			}()}, r1),
			want: []string{"ReleasePod web-x"}},
		{name: "A3 a terminating orphan is not adopted",
			why:   "controller_ref_manager.go: ClaimObject ignores an orphan being deleted; web-0 is then missing from the claimed pods and its create is refused as AlreadyExists",
			state: state(mkSet(1, cur), []*model.Pod{mkPod(0, "v1", orphan, terminating)}, r1),
			want:  []string{"CreatePod web-0 (rejected)", "UpdateStatefulSetStatus web"}, err: ErrKindAlreadyExists},
	})
}

// TestRulesStatusDropsConditions pins that the written status replaces the
// stored one (stateful_set_status_updater.go: UpdateStatefulSetStatus sets
// the whole status, computed afresh in updateStatefulSet), so stored
// conditions are not carried over.
func TestRulesStatusDropsConditions(t *testing.T) {
	set := mkSet(2, status(revName("v1"), revName("v1"), 1), func(s *model.StatefulSet) {
		s.Status.Conditions = []model.StatefulSetCondition{{Type: "Example", Status: model.ConditionTrue, LastTransitionTime: t0.Add(-time.Hour)}}
	})
	p, err := Sync(state(set, []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1")}, []*model.ControllerRevision{v1()}))
	require.NoError(t, err)
	a := actionOf(t, p, UpdateStatefulSetStatus)
	assert.Equal(t, int32(2), a.Status.Replicas)
	assert.Empty(t, a.Status.Conditions, "the stored condition is not written back")
	assert.Empty(t, p.Status.Conditions)
}
