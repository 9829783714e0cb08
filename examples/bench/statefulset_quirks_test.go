package bench

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	appsinternal "k8s.io/kubernetes/pkg/apis/apps"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/controller/history"
)

// The StatefulSet simulation (plan/sim) tags two of the planner's
// behaviours as upstream quirks (plantest.QuirkNilRollingUpdateLoop and
// plantest.QuirkParallelFailedDelete): the planner reproduces them because
// the v1.36.3 controller does the same. These tests check that claim
// against the real controller's sync, on the smallest state showing each,
// built as apps/v1 objects and run through both upstream and
// appsv1.SyncStatefulSet.
//
// Unlike the benchmark's dry-run caseAPI, the API here keeps the writes
// within a sync, as a real server does: a pod created in the sync can be
// deleted in it, and a pod deleted once is gone (a pod never scheduled, or
// in phase Failed, is deleted at once, without a grace period). A status
// update is checked with the API server's own StatefulSet status
// validation and refused when it fails.

var quirkNow = time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)

// quirkTemplate is the defaulted (as stored) template of set "web" running
// image.
func quirkTemplate(image string) core.PodTemplateSpec {
	t := core.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       core.PodSpec{Containers: []core.Container{{Name: "web", Image: image}}},
	}
	appsv1.DefaultPodTemplate(&t)
	return t
}

// quirkSet is StatefulSet default/web at generation 2, Parallel, its
// template at image nginx-slim:0.9 (revision B); strategy is its update
// strategy and status its stored status.
func quirkSet(replicas int32, strategy apps.StatefulSetUpdateStrategy, status apps.StatefulSetStatus) *apps.StatefulSet {
	limit := int32(10)
	return &apps.StatefulSet{
		TypeMeta: metav1.TypeMeta{Kind: "StatefulSet", APIVersion: "apps/v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 2, ResourceVersion: "100",
			Labels: map[string]string{"app": "web"}},
		Spec: apps.StatefulSetSpec{
			Replicas:             &replicas,
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:             quirkTemplate("nginx-slim:0.9"),
			ServiceName:          "nginx",
			PodManagementPolicy:  apps.ParallelPodManagement,
			UpdateStrategy:       strategy,
			RevisionHistoryLimit: &limit,
			PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: apps.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.RetainPersistentVolumeClaimRetentionPolicyType},
		},
		Status: status,
	}
}

// quirkRevisions are the set's revisions A (image nginx-slim:0.8, number 1)
// and B (its template, number 2), made as upstream's newRevision makes
// them: the adapter's StatefulSetPatch is upstream's revision data, and
// history.NewControllerRevision names the revision by its hash.
func quirkRevisions(t *testing.T, set *apps.StatefulSet) (a, b *apps.ControllerRevision) {
	t.Helper()
	rev := func(tmpl core.PodTemplateSpec, number int64) *apps.ControllerRevision {
		data, err := appsv1.StatefulSetPatch(&tmpl)
		require.NoError(t, err)
		cr, err := history.NewControllerRevision(set, apps.SchemeGroupVersion.WithKind("StatefulSet"), tmpl.Labels,
			runtime.RawExtension{Raw: data}, number, new(int32))
		require.NoError(t, err)
		cr.Namespace, cr.UID, cr.ResourceVersion = set.Namespace, k8stypes.UID("uid-"+cr.Name), "10"
		cr.Annotations = map[string]string{}
		return cr
	}
	return rev(quirkTemplate("nginx-slim:0.8"), 1), rev(set.Spec.Template, 2)
}

// quirkPod is web-<ordinal> as upstream's newStatefulSetPod creates it at
// revision rev from tmpl, bound to a node, with status st.
func quirkPod(set *apps.StatefulSet, ordinal int, rev *apps.ControllerRevision, tmpl core.PodTemplateSpec, st core.PodStatus) *core.Pod {
	name := "web-" + strconv.Itoa(ordinal)
	labels := map[string]string{"app": "web", apps.StatefulSetPodNameLabel: name, apps.PodIndexLabel: strconv.Itoa(ordinal),
		apps.ControllerRevisionHashLabelKey: rev.Name}
	p := &core.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, GenerateName: "web-", Namespace: "default", UID: k8stypes.UID("uid-" + name), ResourceVersion: "50",
			Labels: labels, OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(set, apps.SchemeGroupVersion.WithKind("StatefulSet"))}},
		Spec:   *tmpl.Spec.DeepCopy(),
		Status: st,
	}
	p.Spec.Hostname, p.Spec.Subdomain, p.Spec.NodeName = name, set.Spec.ServiceName, "node-1"
	return p
}

// storingAPI is caseAPI keeping what it accepts, as a real API server
// within one sync: created objects exist, deleted ones are gone, updated
// ones are stored; a StatefulSet status that fails the API server's
// validation is refused as Invalid.
type storingAPI struct{ *caseAPI }

func (s storingAPI) react(act k8stesting.Action) (bool, runtime.Object, error) {
	if act.GetVerb() == "update" && act.GetResource().Resource == "statefulsets" {
		set := act.(k8stesting.UpdateAction).GetObject().(*apps.StatefulSet)
		if errs := validStatefulSetStatus(set); len(errs) > 0 {
			s.rejected = append(s.rejected, true)
			return true, nil, apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: "StatefulSet"}, set.Name, errs)
		}
	}
	handled, obj, err := s.caseAPI.react(act)
	if err != nil {
		return handled, obj, err
	}
	res := act.GetResource().Resource
	switch act.GetVerb() {
	case "create", "update":
		if err := s.add(res, obj.DeepCopyObject()); err != nil {
			return true, nil, err
		}
	case "delete":
		delete(s.objects, res+"/"+act.GetNamespace()+"/"+act.(k8stesting.DeleteAction).GetName())
	}
	return handled, obj, err
}

// validStatefulSetStatus runs the API server's validation of a StatefulSet
// status update (apps validation, on the internal type) on set.
func validStatefulSetStatus(set *apps.StatefulSet) field.ErrorList {
	var in appsinternal.StatefulSet
	if err := legacyscheme.Scheme.Convert(set, &in, nil); err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("status"), err)}
	}
	return appsvalidation.ValidateStatefulSetStatus(&in.Status, field.NewPath("status"))
}

// quirkSync is one sync of both sides on the same state.
type quirkSync struct {
	upstream, ours         []string // write keys, without rejection
	upRejected, ourInvalid []bool   // per write: refused by the API server / marked by the planner
	upErr                  error
	next                   appsv1.StatefulSetCase // the namespace after upstream's accepted writes
}

// runQuirkSync runs upstream's sync (through storingAPI) and
// appsv1.SyncStatefulSet on c.
func runQuirkSync(t *testing.T, c appsv1.StatefulSetCase) quirkSync {
	t.Helper()
	ctx := context.Background()
	u, err := newUpstreamStatefulSet(ctx, c)
	require.NoError(t, err)
	defer u.stop()
	store := storingAPI{u.api}
	u.client.PrependReactor("*", "*", store.react)
	ws, upErr := u.run(ctx)
	var qs quirkSync
	qs.upErr = upErr
	qs.upstream = upstreamWorkloadKeys(ws, false)
	for _, w := range ws {
		qs.upRejected = append(qs.upRejected, w.Rejected)
	}
	out, _, err := appsv1.SyncStatefulSet(c.State())
	require.NoError(t, err)
	for _, a := range out.Actions {
		qs.ours = append(qs.ours, workloadWriteKey(a.Verb, a.Resource, a.Subresource, a.Name, a.Object, false))
		qs.ourInvalid = append(qs.ourInvalid, a.Error != "" || a.Invalid != "")
	}
	qs.next = appsv1.StatefulSetCase{Now: c.Now.Add(time.Second)}
	for key, obj := range u.api.objects {
		switch {
		case strings.HasPrefix(key, "statefulsets/"):
			qs.next.StatefulSet = obj.(*apps.StatefulSet)
		case strings.HasPrefix(key, "pods/"):
			qs.next.Pods = append(qs.next.Pods, obj.(*core.Pod))
		case strings.HasPrefix(key, "controllerrevisions/"):
			qs.next.ControllerRevisions = append(qs.next.ControllerRevisions, obj.(*apps.ControllerRevision))
		}
	}
	require.NotNil(t, qs.next.StatefulSet, "the store lost the set")
	return qs
}

// currentReplicasWritten is the status.currentReplicas of each status
// update among keys (the key holds the status as JSON, zero counts
// omitted).
func currentReplicasWritten(keys []string) []string {
	var out []string
	for _, k := range keys {
		if _, st, ok := strings.Cut(k, " status="); ok {
			_, v, found := strings.Cut(st, `"currentReplicas":`)
			n, _, _ := strings.Cut(v, ",")
			if !found {
				n = "0" // omitted when zero
			}
			out = append(out, n)
		}
	}
	return out
}

// quirkViolations are the quirk tags plantest.CheckStatefulSet gives the
// planner's plan of c.
func quirkViolations(t *testing.T, c appsv1.StatefulSetCase) []string {
	t.Helper()
	in, err := c.State().Model()
	require.NoError(t, err)
	p, err := statefulset.Sync(in, statefulSetOptions...)
	require.NoError(t, err)
	var out []string
	for _, v := range plantest.CheckStatefulSet(in, p, plantest.StatefulSetGates{}) {
		out = append(out, v.Quirk)
	}
	return out
}

func podNames(pods []*core.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	return out
}

// TestQuirkNilRollingUpdateLoop: the state of sync 5 of plan/sim's
// TestStatefulSetNilRollingUpdateLivelock (Parallel): a 2-replica OnDelete
// set at revision A got template B, then was scaled to 1 and switched to
// RollingUpdate without a rollingUpdate block; the previous sync deleted
// web-1 (scale-down) and web-0 (rolling update) and wrote currentReplicas
// 1; both pods are gone. Upstream's newVersionedStatefulSetPod creates web-0
// at the current revision A (ordinal 0 < the stored currentReplicas 1),
// the rolling update deletes it in the same sync, and the status carries
// currentReplicas 0 − 1 = −1, which the API server's validation refuses:
// the next sync starts from the same namespace, and does the same again.
func TestQuirkNilRollingUpdateLoop(t *testing.T) {
	set := quirkSet(1, apps.StatefulSetUpdateStrategy{Type: apps.RollingUpdateStatefulSetStrategyType},
		apps.StatefulSetStatus{ObservedGeneration: 2, Replicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, CurrentReplicas: 1, UpdatedReplicas: 0})
	a, b := quirkRevisions(t, set)
	set.Status.CurrentRevision, set.Status.UpdateRevision = a.Name, b.Name
	c := appsv1.StatefulSetCase{Now: quirkNow, StatefulSet: set, ControllerRevisions: []*apps.ControllerRevision{a, b}}

	assert.Contains(t, quirkViolations(t, c), plantest.QuirkNilRollingUpdateLoop, "the planner's plan is tagged with the quirk")
	want := []string{
		"create pods/ web-0 rev=" + a.Name,
		"delete pods/ web-0",
	}
	for sync := range 3 {
		s := runQuirkSync(t, c)
		t.Logf("sync %d: upstream %q (rejected %v, error %v)", sync, s.upstream, s.upRejected, s.upErr)
		t.Logf("sync %d: rolloutplan %q (invalid %v)", sync, s.ours, s.ourInvalid)
		require.Len(t, s.upstream, 3, "sync %d", sync)
		assert.Equal(t, want, s.upstream[:2], "sync %d: upstream creates web-0 at revision A and deletes it", sync)
		assert.Equal(t, []string{"-1"}, currentReplicasWritten(s.upstream), "sync %d: upstream's status", sync)
		assert.Equal(t, []bool{false, false, true}, s.upRejected, "sync %d: the API server refuses only the status", sync)
		assert.Error(t, s.upErr, "sync %d: upstream's sync fails on the refused status", sync)
		assert.Equal(t, s.upstream, s.ours, "sync %d: the writes of upstream and of rolloutplan", sync)
		assert.Equal(t, s.upRejected, s.ourInvalid, "sync %d: the refused writes upstream meets and the planner marks", sync)

		// The namespace after the sync is the one before it: no pod, the
		// stored status unchanged.
		assert.Empty(t, podNames(s.next.Pods), "sync %d: pods left", sync)
		assert.Equal(t, c.StatefulSet.Status, s.next.StatefulSet.Status, "sync %d: the stored status", sync)
		c = s.next
	}

	// With a rollingUpdate block (partition 0) the same namespace is no
	// loop: web-0 is created at the update revision B and kept.
	zero := int32(0)
	c.StatefulSet = c.StatefulSet.DeepCopy()
	c.StatefulSet.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{Partition: &zero}
	assert.NotContains(t, quirkViolations(t, c), plantest.QuirkNilRollingUpdateLoop)
	s := runQuirkSync(t, c)
	require.Len(t, s.upstream, 2)
	assert.Equal(t, "create pods/ web-0 rev="+b.Name, s.upstream[0], "with a partition")
	assert.Equal(t, []string{"0"}, currentReplicasWritten(s.upstream), "with a partition")
	assert.NoError(t, s.upErr, "with a partition")
	assert.Equal(t, s.upstream, s.ours, "with a partition: the writes of upstream and of rolloutplan")
}

// TestQuirkParallelFailedDelete: the smallest state of
// plantest.QuirkParallelFailedDelete (the checker's own example in
// plantest's TestCheckStatefulSetCatches): a Parallel set of 1 replica
// rolling (partition 0) from revision A to B whose web-0, at A, is Failed.
// Upstream's processReplica deletes web-0 to re-create it; the sync goes on
// (Parallel), and the rolling update, reading web-0 from the cache as it
// was, deletes it again (the API server answers NotFound, which upstream
// ignores) and lowers currentReplicas to 0.
func TestQuirkParallelFailedDelete(t *testing.T) {
	zero := int32(0)
	set := quirkSet(1, apps.StatefulSetUpdateStrategy{Type: apps.RollingUpdateStatefulSetStrategyType,
		RollingUpdate: &apps.RollingUpdateStatefulSetStrategy{Partition: &zero}},
		apps.StatefulSetStatus{ObservedGeneration: 2, Replicas: 1, CurrentReplicas: 1})
	a, b := quirkRevisions(t, set)
	set.Status.CurrentRevision, set.Status.UpdateRevision = a.Name, b.Name
	failed := core.PodStatus{Phase: core.PodFailed, Conditions: []core.PodCondition{{Type: core.PodReady, Status: core.ConditionFalse,
		LastTransitionTime: metav1.NewTime(quirkNow.Add(-time.Minute))}}}
	c := appsv1.StatefulSetCase{Now: quirkNow, StatefulSet: set, ControllerRevisions: []*apps.ControllerRevision{a, b},
		Pods: []*core.Pod{quirkPod(set, 0, a, quirkTemplate("nginx-slim:0.8"), failed)}}

	assert.Contains(t, quirkViolations(t, c), plantest.QuirkParallelFailedDelete, "the planner's plan is tagged with the quirk")
	s := runQuirkSync(t, c)
	t.Logf("upstream %q (rejected %v, error %v)", s.upstream, s.upRejected, s.upErr)
	t.Logf("rolloutplan %q (invalid %v)", s.ours, s.ourInvalid)
	require.Len(t, s.upstream, 3)
	assert.Equal(t, []string{"delete pods/ web-0", "delete pods/ web-0"}, s.upstream[:2], "upstream deletes web-0 twice")
	assert.Equal(t, []string{"0"}, currentReplicasWritten(s.upstream), "upstream's status")
	assert.Equal(t, []bool{false, true, false}, s.upRejected, "the second delete finds web-0 gone")
	assert.NoError(t, s.upErr, "upstream ignores the NotFound")
	assert.Equal(t, s.upstream, s.ours, "the writes of upstream and of rolloutplan")
}
