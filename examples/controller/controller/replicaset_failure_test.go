package controller

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan/replicaset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
)

// testReplicaSet is a defaulted ReplicaSet of the given size.
func testReplicaSet(replicas int32) *apps.ReplicaSet {
	labels := map[string]string{"app": "web"}
	return &apps.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", UID: "rs-1", Generation: 1, ResourceVersion: "1"},
		Spec: apps.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: core.PodSpec{
					Containers:    []core.Container{{Name: "web", Image: "web:1", TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: "IfNotPresent"}},
					RestartPolicy: core.RestartPolicyAlways, DNSPolicy: core.DNSClusterFirst, SchedulerName: "default-scheduler",
					TerminationGracePeriodSeconds: new(int64(30)), SecurityContext: &core.PodSecurityContext{},
				},
			},
		},
	}
}

// rsPod is a running, ready pod of testReplicaSet.
func rsPod(name string) *core.Pod {
	return &core.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name), ResourceVersion: "1",
			Labels:            map[string]string{"app": "web"},
			CreationTimestamp: metav1.Unix(1_700_000_000, 0),
			OwnerReferences:   []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs-1", Controller: new(true)}}},
		Spec: core.PodSpec{NodeName: "node-1", RestartPolicy: core.RestartPolicyAlways,
			Containers: []core.Container{{Name: "web", Image: "web:1"}}},
		Status: core.PodStatus{Phase: core.PodRunning, Conditions: []core.PodCondition{
			{Type: core.PodReady, Status: core.ConditionTrue, LastTransitionTime: metav1.Unix(1_700_000_000, 0)}}},
	}
}

// newTestReplicaSetController builds a ReplicaSet controller over a fake
// client whose informer stores hold objs; refuse decides the answer to
// each pod create (by attempt, from 0) and delete (by name): nil lets it
// through.
func newTestReplicaSetController(t *testing.T, refuseCreate func(attempt int) error, refuseDelete func(name string) error, objs ...runtime.Object) (*ReplicaSetController, *fake.Clientset, *record.FakeRecorder) {
	t.Helper()
	client := fake.NewClientset(objs...)
	attempts := 0
	client.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		p := a.(k8stesting.CreateAction).GetObject().(*core.Pod)
		i := attempts
		attempts++
		if p.Name == "" {
			p.Name = fmt.Sprintf("%s%05d", p.GenerateName, i)
		}
		if err := refuseCreate(i); err != nil {
			return true, nil, err
		}
		return false, nil, nil
	})
	client.PrependReactor("delete", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if err := refuseDelete(a.(k8stesting.DeleteAction).GetName()); err != nil {
			return true, nil, err
		}
		return false, nil, nil
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	rec := record.NewFakeRecorder(100)
	c, err := NewReplicaSetController(client, factory, rec, Options{})
	require.NoError(t, err)
	for _, o := range objs {
		switch o := o.(type) {
		case *apps.ReplicaSet:
			require.NoError(t, factory.Apps().V1().ReplicaSets().Informer().GetStore().Add(o))
		case *core.Pod:
			require.NoError(t, factory.Core().V1().Pods().Informer().GetStore().Add(o))
		}
	}
	return c, client, rec
}

// writes lists the verbs and resources the fake client saw, and the last
// ReplicaSet status written.
func writes(client *fake.Clientset) ([]string, *apps.ReplicaSetStatus) {
	var out []string
	var status *apps.ReplicaSetStatus
	for _, a := range client.Actions() {
		if a.GetVerb() == "list" || a.GetVerb() == "watch" || a.GetVerb() == "get" {
			continue
		}
		w := a.GetVerb() + " " + a.GetResource().Resource
		if a.GetSubresource() != "" {
			w += "/" + a.GetSubresource()
		}
		out = append(out, w)
		if u, ok := a.(k8stesting.UpdateAction); ok && a.GetSubresource() == "status" {
			status = &u.GetObject().(*apps.ReplicaSet).Status
		}
	}
	return out, status
}

func events(rec *record.FakeRecorder) []string {
	var out []string
	for len(rec.Events) > 0 {
		out = append(out, <-rec.Events)
	}
	return out
}

func quotaError(attempt int) error {
	return apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, fmt.Sprintf("web-%05d", attempt),
		errors.New("exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1"))
}

// A create the server refuses unpredicted (a ResourceQuota) ends the slow
// start after its batch and records a ReplicaFailure condition, as
// upstream's manageReplicas and calculateStatus do; the ReplicaSet e2e
// spec "should surface a failure condition on a common issue like
// exceeded quota" checks the condition.
func TestReplicaSetCreateRefusedRecordsReplicaFailure(t *testing.T) {
	rs := testReplicaSet(5)
	// Quota of one pod: attempt 0 (batch 1) passes; attempts 1 and 2
	// (batch 2, both sent as upstream sends a batch at once) are refused;
	// the last batch (2 pods) is never attempted.
	c, client, rec := newTestReplicaSetController(t,
		func(i int) error {
			if i == 0 {
				return nil
			}
			return quotaError(i)
		},
		func(string) error { return nil }, rs)
	_, err := c.syncOne(context.Background(), "default/web", rs, nil, []*apps.ReplicaSet{rs}, false)
	var syncErr *replicaset.SyncError
	require.ErrorAs(t, err, &syncErr)
	assert.Equal(t, replicaset.ErrKindFailedCreate, syncErr.Kind)

	got, status := writes(client)
	assert.Equal(t, []string{"create pods", "create pods", "create pods", "update replicasets/status"}, got)
	require.NotNil(t, status)
	require.Len(t, status.Conditions, 1)
	cond := status.Conditions[0]
	assert.Equal(t, apps.ReplicaSetReplicaFailure, cond.Type)
	assert.Equal(t, core.ConditionTrue, cond.Status)
	assert.Equal(t, "FailedCreate", cond.Reason)
	assert.Equal(t, quotaError(1).Error(), cond.Message)
	assert.Equal(t, []string{
		"Normal SuccessfulCreate Created pod: web-00000",
		"Warning FailedCreate Error creating: " + quotaError(1).Error(),
		"Warning FailedCreate Error creating: " + quotaError(2).Error(),
	}, events(rec))
	// Expectations: one create expected and seen... the four creates not
	// made are taken back, the one made is still awaited.
	c.expMu.Lock()
	e := c.exp["default/web"]
	c.expMu.Unlock()
	require.NotNil(t, e)
	assert.Equal(t, 1, e.adds)
}

// A delete the server refuses records a FailedDelete ReplicaFailure
// condition; every victim is still attempted, as upstream deletes them in
// parallel.
func TestReplicaSetDeleteRefusedRecordsReplicaFailure(t *testing.T) {
	rs := testReplicaSet(1)
	pods := []*core.Pod{rsPod("web-a"), rsPod("web-b"), rsPod("web-c")}
	refused := apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "web-b", errors.New("denied by policy"))
	objs := []runtime.Object{rs}
	for _, p := range pods {
		objs = append(objs, p)
	}
	c, client, rec := newTestReplicaSetController(t, func(int) error { return nil },
		func(name string) error {
			if name == "web-b" {
				return refused
			}
			return nil
		}, objs...)
	_, err := c.syncOne(context.Background(), "default/web", rs, pods, []*apps.ReplicaSet{rs}, false)
	var syncErr *replicaset.SyncError
	require.ErrorAs(t, err, &syncErr)
	assert.Equal(t, replicaset.ErrKindFailedDelete, syncErr.Kind)

	got, status := writes(client)
	assert.Equal(t, []string{"delete pods", "delete pods", "update replicasets/status"}, got)
	require.NotNil(t, status)
	require.Len(t, status.Conditions, 1)
	assert.Equal(t, "FailedDelete", status.Conditions[0].Reason)
	assert.Contains(t, status.Conditions[0].Message, refused.Error())
	evs := events(rec)
	assert.Contains(t, evs, "Warning FailedDelete Error deleting: "+refused.Error())
	assert.Len(t, evs, 2)
}

// Without refusals the sync sends the plan once: one status write.
func TestReplicaSetAllAcceptedSendsPlanOnce(t *testing.T) {
	rs := testReplicaSet(3)
	c, client, _ := newTestReplicaSetController(t, func(int) error { return nil }, func(string) error { return nil }, rs)
	_, err := c.syncOne(context.Background(), "default/web", rs, nil, []*apps.ReplicaSet{rs}, false)
	require.NoError(t, err)
	got, status := writes(client)
	assert.Equal(t, []string{"create pods", "create pods", "create pods", "update replicasets/status"}, got)
	require.NotNil(t, status)
	assert.Empty(t, status.Conditions)
}
