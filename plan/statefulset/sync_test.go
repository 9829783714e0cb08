package statefulset

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyncNewSetWholePlan pins a whole plan: the seed's "web" example (seed
// 004, StatefulSet, "Components": 3 replicas, a claim template "www") on its
// first sync; the shape of recording sts-s1-0000.
func TestSyncNewSetWholePlan(t *testing.T) {
	set := mkSet(3, claimsFrom("www"))
	p, err := Sync(state(set, nil, nil))
	require.NoError(t, err)

	data, err := EncodeTemplate(tmplV("v1"))
	require.NoError(t, err)
	name := revName("v1")
	hash := name[len("web-"):]
	newRev := &model.ControllerRevision{
		ObjectMeta: model.ObjectMeta{Name: name, Labels: map[string]string{"app": "web", model.ControllerRevisionHashLabel: hash},
			Annotations: map[string]string{}, OwnerReferences: []model.OwnerReference{setRef}},
		Template: tmplV("v1"), Data: data, Revision: 1,
	}
	pod := &model.Pod{
		ObjectMeta: model.ObjectMeta{Name: "web-0", Namespace: "ns",
			Labels:          map[string]string{"app": "web", model.StatefulSetPodNameLabel: "web-0", model.PodIndexLabel: "0", model.StatefulSetRevisionLabel: name},
			OwnerReferences: []model.OwnerReference{setRef}},
		Spec: model.PodSpec{Body: tmplV("v1").Spec, Hostname: "web-0", Subdomain: "nginx", Volumes: []model.Volume{{Name: "www", ClaimName: "www-web-0"}}},
	}
	st := &model.StatefulSetStatus{ObservedGeneration: 1, CurrentRevision: name, UpdateRevision: name, CollisionCount: model.Int32Ptr(0)}
	claim := &model.PersistentVolumeClaim{ObjectMeta: model.ObjectMeta{Name: "www-web-0", Namespace: "ns", Labels: map[string]string{"app": "web"}}, Spec: `{"spec":{"accessModes":["ReadWriteOnce"]}}`}
	setObj := plan.ObjectRef{Namespace: "ns", Name: "web", UID: "set-uid", ResourceVersion: "10"}
	want := Plan{
		Actions: []Action{
			{Kind: CreateControllerRevision, Object: plan.ObjectRef{Namespace: "ns", Name: name}, ControllerRevision: newRev,
				Reason: Reason{Code: ReasonNewRevision, Message: "no revision records the set's template: revision 1", Values: []Value{{Name: "revision", Value: 1}, {Name: "collisionCount", Value: 0}}}},
			{Kind: CreateClaim, Object: plan.ObjectRef{Namespace: "ns", Name: "www-web-0"}, Claim: claim,
				Reason: Reason{Code: ReasonMissingClaim, Message: "web-0 needs claim www-web-0 (template www), which does not exist", Values: []Value{{Name: "ordinal", Value: 0}}}},
			{Kind: CreatePod, Object: plan.ObjectRef{Namespace: "ns", Name: "web-0"}, Pod: pod, Revision: name, Claims: []string{"www-web-0"},
				Reason: Reason{Code: ReasonMissingPod, Message: "ordinal 0 of 3 replicas has no pod: web-0 is created at revision " + name, Values: []Value{{Name: "ordinal", Value: 0}, {Name: "replicas", Value: 3}}}},
			{Kind: UpdateStatefulSetStatus, Object: setObj, Status: st,
				Reason: Reason{Code: ReasonStatus, Message: "the status changed (observedGeneration, currentRevision, updateRevision)",
					Values: []Value{{Name: "replicas", Value: 0}, {Name: "readyReplicas", Value: 0}, {Name: "availableReplicas", Value: 0}, {Name: "currentReplicas", Value: 0}, {Name: "updatedReplicas", Value: 0}}}},
		},
		Events: []Event{
			{Type: "Normal", Reason: "SuccessfulCreate", Message: "Create Claim www-web-0 Pod web-0 in StatefulSet web success", Object: "StatefulSet/web", AfterWrites: 2},
			{Type: "Normal", Reason: "SuccessfulCreate", Message: "Create Pod web-0 in StatefulSet web successful", Object: "StatefulSet/web", AfterWrites: 3},
		},
		Status: st,
		Notes:  []Reason{{Code: NoteWaitingForCreated, Message: "web-0 is created; OrderedReady waits for it to be Running and Ready before creating web-1", Values: []Value{{Name: "ordinal", Value: 0}}}},
	}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("plan (-want +got):\n%s", d)
	}
}

// syncCase is one worked example: a name, where it comes from, the state,
// and what the plan must hold.
type syncCase struct {
	name, why string
	state     State
	opts      []Option
	want      []string     // kinds and names of the actions, in order
	notes     []ReasonCode // notes that must be among the plan's
	err       ErrorKind    // the SyncError's kind, "" for none
	check     func(t *testing.T, p Plan)
}

func runSyncCases(t *testing.T, cases []syncCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NotEmpty(t, c.why, "every case says where it comes from")
			p, err := Sync(c.state, c.opts...)
			if c.err == "" {
				require.NoError(t, err, c.why)
			} else {
				var se *SyncError
				require.True(t, errors.As(err, &se), "want a *SyncError, got %v", err)
				assert.Equal(t, c.err, se.Kind, c.why)
			}
			assert.Equal(t, c.want, kinds(p), c.why)
			for _, n := range c.notes {
				assert.Contains(t, noteCodes(p), n, "%s: notes %v", c.why, p.Notes)
			}
			if c.check != nil {
				c.check(t, p)
			}
		})
	}
}

// v1, v2 are the revisions of templates v1 and v2.
func v1() *model.ControllerRevision { return rev("v1", 1) }
func v2() *model.ControllerRevision { return rev("v2", 2) }

// TestSyncOrderedReady covers the seed's deployment and scaling guarantees
// (seed 004, StatefulSet, "Deployment and Scaling Guarantees"): pods are
// created in order 0..N-1, each only once its predecessors are Running and
// Ready, and removed in order N-1..0, each only once its successors are
// gone.
func TestSyncOrderedReady(t *testing.T) {
	r1 := []*model.ControllerRevision{v1()}
	cur := status(revName("v1"), revName("v1"), 1)
	runSyncCases(t, []syncCase{
		{name: "web-1 after a ready web-0", why: "seed 004: web-1 is deployed once web-0 is Running and Ready",
			state: state(mkSet(3, cur), []*model.Pod{mkPod(0, "v1")}, r1),
			want:  []string{"CreatePod web-1"}, notes: []ReasonCode{NoteWaitingForCreated, NoteStatusUnchanged}},
		{name: "web-0 pending", why: "seed 004: web-1 is never deployed before web-0 is Running and Ready",
			state: state(mkSet(3, cur), []*model.Pod{mkPod(0, "v1", pending)}, r1),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteWaitingForReady},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, "web-0 is not Running and Ready (phase Pending); OrderedReady waits before creating web-1", p.Notes[0].Message)
			}},
		{name: "web-0 running but not ready", why: "seed 004: Running and Ready, not Running alone",
			state: state(mkSet(3, status(revName("v1"), revName("v1"), 1), func(s *model.StatefulSet) { s.Status.ReadyReplicas, s.Status.AvailableReplicas = 0, 0 }), []*model.Pod{mkPod(0, "v1", notReady)}, r1),
			want:  nil, notes: []ReasonCode{NoteWaitingForReady, NoteStatusUnchanged}},
		{name: "ready but not available", why: "upstream processReplica: OrderedReady also waits for minReadySeconds (recording sts-s1-0089 requeues)",
			state: state(mkSet(3, minReady(30), cur), []*model.Pod{mkPod(0, "v1", readySince(t0.Add(-10*time.Second)))}, r1),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteWaitingForAvailable, NoteRequeueMinReady},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, plan.Requeue{Kind: plan.RequeueAfter, After: 20 * time.Second}, p.Requeue)
			}},
		{name: "a failed web-0 is deleted first", why: "seed 004: if web-0 fails, web-2 is not launched until web-0 is relaunched; upstream deletes failed pods so they are re-created",
			state: state(mkSet(3, cur), []*model.Pod{mkPod(0, "v1", failed), mkPod(1, "v1")}, r1),
			want:  []string{"DeletePod web-0", "UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteWaitingForFailedPod}},
		{name: "scale down from the top", why: "seed 004: on replicas=1, web-2 is terminated first",
			state: state(mkSet(1, status(revName("v1"), revName("v1"), 3)), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1")}, r1),
			want:  []string{"DeletePod web-2"}},
		{name: "scale down waits for termination", why: "seed 004: web-1 is not terminated until web-2 is fully shut down and deleted",
			state: state(mkSet(1, status(revName("v1"), revName("v1"), 3)), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1", terminating)}, r1),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteScaleDownWaiting}},
		{name: "scale down waits for an unhealthy web-0", why: "seed 004: if web-0 fails after web-2 is gone, web-1 is not terminated until web-0 is Running and Ready",
			state: state(mkSet(1, status(revName("v1"), revName("v1"), 2)), []*model.Pod{mkPod(0, "v1", notReady), mkPod(1, "v1")}, r1),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteWaitingForReady}},
		{name: "scale down deletes the first unhealthy pod", why: "upstream processCondemned: an unhealthy condemned pod is deleted when it is the first unhealthy pod",
			state: state(mkSet(1, status(revName("v1"), revName("v1"), 2)), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1", notReady)}, r1),
			want:  []string{"DeletePod web-1", "UpdateStatefulSetStatus web"}},
		{name: "a terminating replica blocks", why: "upstream processReplica: OrderedReady waits for a terminating pod to be gone",
			state: state(mkSet(3, cur), []*model.Pod{mkPod(0, "v1", terminating)}, r1),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteWaitingForTermination}},
		{name: "start ordinal", why: "spec.ordinals.start: pods are numbered from start",
			state: state(mkSet(2, func(s *model.StatefulSet) { s.Spec.Ordinals = &model.StatefulSetOrdinals{Start: 5} }, cur), []*model.Pod{mkPod(5, "v1"), mkPod(0, "v1")}, r1),
			want:  []string{"CreatePod web-6", "UpdateStatefulSetStatus web"}},
	})
}

// TestSyncParallel covers Parallel management (seed 004, "Parallel Pod
// Management": pods are launched or terminated without waiting).
func TestSyncParallel(t *testing.T) {
	r1 := []*model.ControllerRevision{v1()}
	cur := status(revName("v1"), revName("v1"), 1)
	runSyncCases(t, []syncCase{
		{name: "all missing pods at once", why: "seed 004: Parallel launches pods without waiting; recording sts-s1-0046",
			state: state(mkSet(3, parallel, cur), []*model.Pod{mkPod(0, "v1", pending)}, r1),
			want:  []string{"CreatePod web-1", "CreatePod web-2", "UpdateStatefulSetStatus web"}},
		{name: "all condemned pods at once", why: "seed 004: Parallel terminates pods without waiting; recording sts-s1-0006",
			state: state(mkSet(1, parallel, status(revName("v1"), revName("v1"), 3)), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1", notReady), mkPod(2, "v1")}, r1),
			want:  []string{"DeletePod web-2", "DeletePod web-1", "UpdateStatefulSetStatus web"}},
		{name: "a taken name stops after its batch", why: "upstream slowStartBatch: a failed create ends the sync after its batch; recording sts-s1-0024",
			state: state(mkSet(4, parallel, cur), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1", func(p *model.Pod) { p.OwnerReferences[0].UID = "old-set" })}, r1),
			want:  []string{"CreatePod web-1 (rejected)", "CreatePod web-2"},
			err:   ErrKindAlreadyExists,
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, `pods "web-1" already exists`, p.Actions[0].Error)
			}},
	})
}

// TestSyncUpdates covers the update strategies (seed 004, "Update
// Strategies", "Partitions", "Forced Rollback").
func TestSyncUpdates(t *testing.T) {
	both := []*model.ControllerRevision{v1(), v2()}
	rolling := status(revName("v1"), revName("v2"), 3)
	runSyncCases(t, []syncCase{
		{name: "highest ordinal first", why: "seed 004: RollingUpdate updates pods in reverse ordinal order, one at a time",
			state: state(mkSet(3, template("v2"), rolling), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1")}, both),
			want:  []string{"DeletePod web-2", "UpdateStatefulSetStatus web"}},
		{name: "waits for the updated pod", why: "seed 004: the controller waits for an updated pod to be Running and Ready before updating its predecessor",
			state: state(mkSet(3, template("v2"), rolling), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v2", notReady)}, both),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteWaitingForReady}},
		{name: "next one down", why: "seed 004: one pod at a time, from the top",
			state: state(mkSet(3, template("v2"), rolling), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v2")}, both),
			want:  []string{"DeletePod web-1", "UpdateStatefulSetStatus web"}},
		{name: "partition keeps lower pods", why: "seed 004: pods with an ordinal below the partition are not updated",
			state: state(mkSet(3, template("v2"), partition(2), rolling), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v2")}, both),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NotePartition, NoteUpdated}},
		{name: "partition re-creates at the old revision", why: "seed 004: a deleted pod below the partition is re-created at the previous version",
			state: state(mkSet(3, template("v2"), partition(2), rolling), []*model.Pod{mkPod(0, "v1"), mkPod(2, "v2")}, both),
			want:  []string{"CreatePod web-1", "UpdateStatefulSetStatus web"},
			check: func(t *testing.T, p Plan) { assert.Equal(t, revName("v1"), p.Actions[0].Revision) }},
		{name: "partition above replicas", why: "seed 004: a partition greater than replicas propagates no template change",
			state: state(mkSet(3, template("v2"), partition(5), rolling), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1")}, both),
			want:  []string{"UpdateStatefulSetStatus web"}},
		{name: "OnDelete leaves pods", why: "seed 004: OnDelete does not update pods automatically; recordings category ondelete",
			state: state(mkSet(3, template("v2"), onDelete, rolling), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1")}, both),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteOnDelete}},
		{name: "OnDelete re-creates at the update revision", why: "seed 004: the user deletes pods to get the new template",
			state: state(mkSet(3, template("v2"), onDelete, rolling), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1")}, both),
			want:  []string{"CreatePod web-2", "UpdateStatefulSetStatus web"},
			check: func(t *testing.T, p Plan) { assert.Equal(t, revName("v2"), p.Actions[0].Revision) }},
		{name: "maxUnavailable with the gate", why: "upstream updateStatefulSetAfterInvariantEstablished: outdated pods from the top while fewer than maxUnavailable are unavailable",
			state: state(mkSet(4, template("v2"), rolling, func(s *model.StatefulSet) {
				s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromString("50%"))
			}), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1"), mkPod(3, "v1")}, both),
			opts: []Option{WithMaxUnavailable(true)},
			want: []string{"DeletePod web-3", "DeletePod web-2", "UpdateStatefulSetStatus web"}},
		{name: "maxUnavailable ignored without the gate", why: "the MaxUnavailableStatefulSet gate is off by default in v1.36 (beta, disabled)",
			state: state(mkSet(4, template("v2"), rolling, func(s *model.StatefulSet) {
				s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromString("50%"))
			}), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1"), mkPod(3, "v1")}, both),
			want: []string{"DeletePod web-3", "UpdateStatefulSetStatus web"}},
	})
}

// TestSyncForcedRollback is the seed's caveat (seed 004, "Forced
// Rollback"): with OrderedReady, a template whose pods never become ready
// stops the rollout; reverting the template is not enough, because the
// controller waits for the broken pod to become ready; once a person
// deletes the broken pod, it is re-created from the reverted template.
func TestSyncForcedRollback(t *testing.T) {
	good, bad := rev("v1", 1), rev("v2", 2)
	// The user reverted the template to v1; web-2 runs the broken v2.
	set := mkSet(3, status(revName("v1"), revName("v2"), 3))
	broken := []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v2", notReady)}
	p, err := Sync(state(set, broken, []*model.ControllerRevision{good, bad}))
	require.NoError(t, err)
	assert.Equal(t, []string{"UpdateControllerRevision " + revName("v1"), "UpdateStatefulSetStatus web"}, kinds(p),
		"the revert renumbers v1 (a rollback) and deletes nothing")
	require.Contains(t, noteCodes(p), NoteWaitingForReady)
	assert.Contains(t, p.Notes[0].Message, "web-2 is not Running and Ready")

	// After a person deletes web-2, the next sync re-creates it at v1.
	good3 := rev("v1", 3)
	set = mkSet(3, status(revName("v1"), revName("v1"), 2))
	p, err = Sync(state(set, broken[:2], []*model.ControllerRevision{bad, good3}))
	require.NoError(t, err)
	require.Equal(t, []string{"CreatePod web-2"}, kinds(p))
	assert.Equal(t, revName("v1"), p.Actions[0].Revision)
}

// TestSyncRevisions covers history: rollback renumbering, collisions,
// adoption and the history limit.
func TestSyncRevisions(t *testing.T) {
	cur := status(revName("v1"), revName("v1"), 1)
	taken := rev("other", 7)
	taken.Name = revName("v2") // another template's revision holds v2's name
	taken.OwnerReferences = nil
	taken.Labels = map[string]string{"app": "other"}
	orphanV1 := v1()
	orphanV1.OwnerReferences = nil
	runSyncCases(t, []syncCase{
		{name: "rollback bumps the revision", why: "upstream getStatefulSetRevisions: an older equal revision gets the next number; recording sts-s1-0013",
			state: state(mkSet(1, cur), []*model.Pod{mkPod(0, "v1")}, []*model.ControllerRevision{v1(), v2()}),
			want:  []string{"UpdateControllerRevision " + revName("v1")},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, &RevisionUpdate{From: 1, To: 3}, p.Actions[0].RevisionUpdate)
			}},
		{name: "hash collision", why: "upstream CreateControllerRevision: a taken name bumps collisionCount; recording sts-s1-0027",
			state: state(mkSet(1, template("v2"), cur), []*model.Pod{mkPod(0, "v1")}, []*model.ControllerRevision{v1(), taken}),
			want:  []string{"CreateControllerRevision " + revName("v2") + " (rejected)", "CreateControllerRevision " + RevisionName("web", mustHash(t, "v2", 1)), "DeletePod web-0", "UpdateStatefulSetStatus web"},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, int32(1), *p.Status.CollisionCount)
				assert.Equal(t, p.Actions[1].ControllerRevision.Labels[model.ControllerRevisionHashLabel], revName("v2")[len("web-"):], "the hash label keeps the first hash")
			}},
		{name: "orphan revision adopted", why: "upstream adoptOrphanRevisions; recording sts-s1-0124",
			state: state(mkSet(1, cur), []*model.Pod{mkPod(0, "v1")}, []*model.ControllerRevision{orphanV1}),
			want:  []string{"AdoptControllerRevision " + revName("v1")}},
		{name: "history limit", why: "upstream truncateHistory: revisions no pod uses beyond revisionHistoryLimit go, oldest first",
			state: state(mkSet(1, template("v3"), status(revName("v3"), revName("v3"), 1), func(s *model.StatefulSet) { s.Spec.RevisionHistoryLimit = model.Int32Ptr(1) }),
				[]*model.Pod{mkPod(0, "v3")}, []*model.ControllerRevision{v1(), v2(), rev("v3", 3)}),
			want: []string{"DeleteControllerRevision " + revName("v1")}},
	})
}

func mustHash(t *testing.T, v string, cc int32) string {
	t.Helper()
	data, err := EncodeTemplate(tmplV(v))
	require.NoError(t, err)
	return HashRevision(data, &cc)
}

// TestSyncClaims covers claims and the retention policy (recordings
// category pvc-retention).
func TestSyncClaims(t *testing.T) {
	r1 := []*model.ControllerRevision{v1()}
	cur := status(revName("v1"), revName("v1"), 1)
	del := model.DeletePersistentVolumeClaimRetentionPolicyType
	keep := model.RetainPersistentVolumeClaimRetentionPolicyType
	podRef := func(ordinal int, uid string) model.OwnerReference {
		return model.NewControllerRef("v1", "Pod", PodName("web", ordinal), uid)
	}
	runSyncCases(t, []syncCase{
		{name: "a pending pod gets its missing claim", why: "upstream processReplica: a Pending pod triggers createMissingPersistentVolumeClaims",
			state: state(mkSet(1, claimsFrom("data"), cur), []*model.Pod{mkPod(0, "v1", pending, mounts("data"))}, r1),
			want:  []string{"CreateClaim data-web-0", "UpdateStatefulSetStatus web"}},
		{name: "whenDeleted Delete: the set owns the claims", why: "upstream isClaimOwnerUpToDate; recording sts-s1-0037",
			state: state(mkSet(1, claimsFrom("data"), retain(keep, del), cur), []*model.Pod{mkPod(0, "v1", mounts("data"))}, r1, claim("data", 0)),
			want:  []string{"UpdateClaim data-web-0", "UpdatePod web-0"},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []model.OwnerReference{setRef}, p.Actions[0].OwnerReferences)
				assert.Equal(t, &PodUpdate{}, p.Actions[1].PodUpdate, "the pod is written back unchanged")
			}},
		{name: "whenScaled Delete: the condemned pod owns its claim", why: "upstream fixPodClaim before the scale-down; recording sts-s1-0006",
			state: state(mkSet(1, claimsFrom("data"), retain(del, keep), status(revName("v1"), revName("v1"), 2)),
				[]*model.Pod{mkPod(0, "v1", mounts("data")), mkPod(1, "v1", mounts("data"))}, r1, claim("data", 0), claim("data", 1)),
			want: []string{"UpdateClaim data-web-1", "DeletePod web-1"},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, []model.OwnerReference{podRef(1, "pod-web-1")}, p.Actions[0].OwnerReferences)
			}},
		{name: "a stale claim blocks the pod", why: "upstream PodClaimIsStale: a claim still owned by an earlier pod of the name",
			state: state(mkSet(2, claimsFrom("data"), retain(del, keep), cur), []*model.Pod{mkPod(0, "v1", mounts("data"))}, r1, claim("data", 0), claim("data", 1, podRef(1, "gone"))),
			want:  nil, notes: []ReasonCode{NoteStaleClaim}},
		{name: "a claim being deleted fails the create", why: "upstream createPersistentVolumeClaims: pvc is being deleted",
			state: state(mkSet(2, claimsFrom("data"), cur), []*model.Pod{mkPod(0, "v1", mounts("data"))}, r1, claim("data", 0),
				func() *model.PersistentVolumeClaim {
					c := claim("data", 1)
					c.DeletionTimestamp = model.TimePtr(t0)
					return c
				}()),
			want: nil, err: ErrKindClaimDeleting,
			check: func(t *testing.T, p Plan) {
				require.Len(t, p.Events, 1)
				assert.Equal(t, "Create Pod web-1 in StatefulSet web failed error: pvc data-web-1 is being deleted", p.Events[0].Message)
			}},
	})
}

// TestSyncClaimsAndIdentity covers pod adoption, release and identity.
func TestSyncClaimsAndIdentity(t *testing.T) {
	r1 := []*model.ControllerRevision{v1()}
	cur := status(revName("v1"), revName("v1"), 2)
	runSyncCases(t, []syncCase{
		{name: "orphan adopted", why: "upstream ClaimPods: an orphan named for the set and selected is adopted; recording sts-s1-0124",
			state: state(mkSet(2, cur), []*model.Pod{mkPod(0, "v1", orphan), mkPod(1, "v1")}, r1),
			want:  []string{"AdoptPod web-0"}},
		{name: "relabelled pod released and re-created", why: "upstream ClaimPods then a create of a taken name; recording sts-s1-0151",
			state: state(mkSet(2, cur), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1", func(p *model.Pod) { p.Labels["app"] = "debug" })}, r1),
			want:  []string{"ReleasePod web-1", "CreatePod web-1 (rejected)", "UpdateStatefulSetStatus web"}, err: ErrKindAlreadyExists},
		{name: "missing pod-name label", why: "upstream identityMatches; recording sts-s1-0051",
			state: state(mkSet(2, cur), []*model.Pod{mkPod(0, "v1", func(p *model.Pod) { delete(p.Labels, model.StatefulSetPodNameLabel) }), mkPod(1, "v1")}, r1),
			want:  []string{"UpdatePod web-0"},
			check: func(t *testing.T, p Plan) {
				assert.Equal(t, map[string]string{model.StatefulSetPodNameLabel: "web-0"}, p.Actions[0].PodUpdate.Labels)
			}},
		{name: "other namespaces ignored", why: "upstream lists pods of the set's namespace",
			state: state(mkSet(2, cur), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1", func(p *model.Pod) { p.Namespace = "other" })}, r1),
			want:  []string{"CreatePod web-1", "UpdateStatefulSetStatus web"}},
		{name: "being deleted", why: "upstream updateStatefulSet: a set being deleted only syncs its status",
			state: state(mkSet(3, cur, func(s *model.StatefulSet) { s.DeletionTimestamp = model.TimePtr(t0) }), []*model.Pod{mkPod(0, "v1")}, r1),
			want:  []string{"UpdateStatefulSetStatus web"}, notes: []ReasonCode{NoteDeleting}},
	})
}

// TestSyncInvalidInput checks that invalid input is rejected with field
// paths and a zero Plan.
func TestSyncInvalidInput(t *testing.T) {
	set := mkSet(1)
	set.Spec.Replicas = model.Int32Ptr(-1)
	p, err := Sync(State{StatefulSet: set, Pods: []*model.Pod{{}}})
	var verr *model.ValidationError
	require.True(t, errors.As(err, &verr), "got %v", err)
	var fields []string
	for _, fe := range verr.Errors {
		fields = append(fields, fe.Field)
	}
	assert.Equal(t, []string{"now", "statefulSet.spec.replicas", "pods[0].metadata.name"}, fields)
	assert.Equal(t, Plan{}, p)

	_, err = Sync(state(mkSet(1), nil, nil), WithEncoder(func(model.PodTemplate) (string, error) { return "", errors.New("no") }))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "encoding the template")
}

// TestHashRevisionRecorded checks the hash against a name the real
// controller gave (recording sts-s1-0000: data below, collision count 0,
// name mysql-7c5b9978bd).
func TestHashRevisionRecorded(t *testing.T) {
	data := `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"mysql"}},"spec":{"containers":[{"image":"registry.example.com/mysql:1.1.6","imagePullPolicy":"IfNotPresent","name":"mysql","ports":[{"containerPort":9092,"name":"tcp","protocol":"TCP"}],"readinessProbe":{"failureThreshold":3,"periodSeconds":10,"successThreshold":1,"tcpSocket":{"port":"tcp"},"timeoutSeconds":1},"resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}}}`
	assert.Equal(t, "7c5b9978bd", HashRevision(data, model.Int32Ptr(0)))
	assert.NotEqual(t, HashRevision(data, model.Int32Ptr(0)), HashRevision(data, model.Int32Ptr(1)))
	assert.NotEqual(t, HashRevision(data, nil), HashRevision(data, model.Int32Ptr(0)), "nil and 0 hash differently")
	long := make([]byte, 300)
	for i := range long {
		long[i] = 'a'
	}
	assert.Len(t, RevisionName(string(long), "abc"), 223+4)
}

// TestParseOrdinal pins upstream's getParentNameAndOrdinal.
func TestParseOrdinal(t *testing.T) {
	for _, c := range []struct {
		name, parent string
		ordinal      int
	}{
		{"web-0", "web", 0}, {"web-12", "web", 12}, {"web-01", "web", 1}, {"my-web-3", "my-web", 3},
		{"web", "", -1}, {"web-", "", -1}, {"web-x1", "", -1}, {"-5", "", 5}, {"7", "", -1},
		{"web-99999999999", "web", -1}, {"web-2147483647", "web", 2147483647}, {"a\nweb-2", "web", 2},
	} {
		parent, o := ParseOrdinal(c.name)
		assert.Equal(t, c.parent, parent, c.name)
		assert.Equal(t, c.ordinal, o, c.name)
	}
}
