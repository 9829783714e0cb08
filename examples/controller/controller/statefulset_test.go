package controller_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
)

// web is the seed's "web" set as the API server stores it (defaulted): 3
// replicas, OrderedReady, RollingUpdate, one claim template "www".
func web() *apps.StatefulSet {
	labels := map[string]string{"app": "nginx"}
	s := &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 1, ResourceVersion: "1"},
		Spec: apps.StatefulSetSpec{
			Replicas:    new(int32(3)),
			Selector:    &metav1.LabelSelector{MatchLabels: labels},
			ServiceName: "nginx",
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "nginx", Image: "registry.k8s.io/nginx-slim:0.8"}}},
			},
			VolumeClaimTemplates: []core.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "www"},
				Spec: core.PersistentVolumeClaimSpec{
					AccessModes: []core.PersistentVolumeAccessMode{core.ReadWriteOnce},
					Resources:   core.VolumeResourceRequirements{Requests: core.ResourceList{core.ResourceStorage: resource.MustParse("1Gi")}},
					VolumeMode:  new(core.PersistentVolumeFilesystem),
				},
			}},
			PodManagementPolicy: apps.OrderedReadyPodManagement,
			UpdateStrategy: apps.StatefulSetUpdateStrategy{Type: apps.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &apps.RollingUpdateStatefulSetStrategy{Partition: new(int32(0))}},
			RevisionHistoryLimit: new(int32(10)),
			PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: apps.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.RetainPersistentVolumeClaimRetentionPolicyType},
		},
	}
	appsv1.DefaultPodTemplate(&s.Spec.Template)
	return s
}

var now = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// writes lists the writes a fake clientset received, as "verb
// resource[/subresource] name", leaving out reads and events.
func writes(client *fake.Clientset) []string {
	var out []string
	for _, a := range client.Actions() {
		if a.GetVerb() == "get" || a.GetVerb() == "list" || a.GetVerb() == "watch" || a.GetResource().Resource == "events" {
			continue
		}
		res := a.GetResource().Resource
		if a.GetSubresource() != "" {
			res += "/" + a.GetSubresource()
		}
		name := ""
		switch a := a.(type) {
		case interface{ GetObject() runtime.Object }: // creates and updates
			if m, err := metaOf(a.GetObject()); err == nil {
				name = m.GetName()
			}
		case k8stesting.DeleteAction:
			name = a.GetName()
		case k8stesting.PatchAction:
			name = a.GetName()
		}
		out = append(out, a.GetVerb()+" "+res+" "+name)
	}
	return out
}

func metaOf(obj runtime.Object) (metav1.Object, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, errors.New("no metadata")
	}
	return m, nil
}

func drain(r *record.FakeRecorder) []string {
	var out []string
	for {
		select {
		case e := <-r.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

// The first sync of the seed's "web" set through the controller's
// SyncStatefulSet: revision, claim, pod, status, in that order, and the two
// events upstream records (ExampleSync of plan/statefulset plans the same).
func TestSyncStatefulSetFirstSync(t *testing.T) {
	set := web()
	client := fake.NewClientset(set)
	rec := record.NewFakeRecorder(10)
	res, err := controller.SyncStatefulSet(context.Background(), client, appsv1.StatefulSetState{Now: now, StatefulSet: set}, rec, controller.Options{})
	require.NoError(t, err)
	require.True(t, res.Planned)
	require.Len(t, res.Writes, 4)
	for _, w := range res.Writes {
		assert.Equal(t, appsv1.Accepted, w.Outcome, "%s %s", w.Write.Verb, w.Write.Name)
		assert.True(t, w.Matched())
	}
	rev := res.Writes[0].Write.Name
	assert.Equal(t, []string{
		"create controllerrevisions " + rev,
		"create persistentvolumeclaims www-web-0",
		"create pods web-0",
		"update statefulsets/status web",
	}, writes(client))
	assert.Equal(t, []string{
		"Normal SuccessfulCreate Create Claim www-web-0 Pod web-0 in StatefulSet web success",
		"Normal SuccessfulCreate Create Pod web-0 in StatefulSet web successful",
	}, drain(rec))
	pod, err := client.CoreV1().Pods("default").Get(context.Background(), "web-0", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, rev, pod.Labels[apps.ControllerRevisionHashLabelKey])
	assert.Equal(t, "www-web-0", pod.Spec.Volumes[0].PersistentVolumeClaim.ClaimName)
	got, err := client.AppsV1().StatefulSets("default").Get(context.Background(), "web", metav1.GetOptions{})
	require.NoError(t, err)
	// Upstream counts the pods it read, not the one it has just created.
	assert.Equal(t, int32(0), got.Status.Replicas)
	assert.Equal(t, int64(1), got.Status.ObservedGeneration)
	assert.Equal(t, rev, got.Status.UpdateRevision)
}

// A write the plan did not expect to fail stops the sync there, as
// upstream's does: the writes after it are not sent, the events of the
// writes made are recorded, and the failure gets upstream's warning.
func TestSyncStatefulSetStopsAtUnpredictedError(t *testing.T) {
	set := web()
	client := fake.NewClientset(set)
	client.PrependReactor("create", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "web-0", errors.New("quota exceeded"))
	})
	rec := record.NewFakeRecorder(10)
	res, err := controller.SyncStatefulSet(context.Background(), client, appsv1.StatefulSetState{Now: now, StatefulSet: set}, rec, controller.Options{})
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err), "error %v", err)
	var outcomes []appsv1.Outcome
	for _, w := range res.Writes {
		outcomes = append(outcomes, w.Outcome)
	}
	assert.Equal(t, []appsv1.Outcome{appsv1.Accepted, appsv1.Accepted, appsv1.Failed, appsv1.NotSent}, outcomes)
	assert.False(t, res.Writes[2].Matched())
	events := drain(rec)
	require.Len(t, events, 2)
	assert.Equal(t, "Normal SuccessfulCreate Create Claim www-web-0 Pod web-0 in StatefulSet web success", events[0])
	assert.True(t, strings.HasPrefix(events[1], "Warning FailedCreate Create Pod web-0 in StatefulSet web failed error: "), events[1])
	assert.NotContains(t, writes(client), "update statefulsets/status web")
}

// A rejection the plan predicts does not stop the sync: a pod of another
// owner named web-0 makes upstream's create fail with AlreadyExists, and
// the sync still writes the status and ends with the plan's SyncError.
func TestSyncStatefulSetPredictedRejection(t *testing.T) {
	set := web()
	squatter := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "default", UID: "squatter", ResourceVersion: "5",
		Labels: map[string]string{"app": "other"}}, Status: core.PodStatus{Phase: core.PodRunning}}
	client := fake.NewClientset(set, squatter)
	res, err := controller.SyncStatefulSet(context.Background(), client, appsv1.StatefulSetState{Now: now, StatefulSet: set, Pods: []*core.Pod{squatter}}, nil, controller.Options{})
	var syncErr *statefulset.SyncError
	require.ErrorAs(t, err, &syncErr)
	assert.Equal(t, statefulset.ErrKindAlreadyExists, syncErr.Kind)
	var rejected int
	for _, w := range res.Writes {
		assert.True(t, w.Matched(), "%s %s %s: %s (%v)", w.Write.Verb, w.Write.Resource, w.Write.Name, w.Outcome, w.Err)
		if w.Outcome == appsv1.Failed {
			rejected++
			assert.True(t, apierrors.IsAlreadyExists(w.Err), "%v", w.Err)
		}
	}
	assert.Equal(t, 1, rejected)
	assert.Contains(t, writes(client), "update statefulsets/status web")
}

// Before adopting an orphan, the controller reads the set from the server,
// as upstream does: a set replaced under the same name (another UID) adopts
// nothing.
func TestSyncStatefulSetAdoptionRechecksTheSet(t *testing.T) {
	cached := web()
	replaced := web()
	replaced.UID = "another-uid"
	orphan := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "default", UID: "orphan", ResourceVersion: "5",
		Labels: map[string]string{"app": "nginx"}}, Status: core.PodStatus{Phase: core.PodPending}}
	client := fake.NewClientset(replaced, orphan)
	res, err := controller.SyncStatefulSet(context.Background(), client, appsv1.StatefulSetState{Now: now, StatefulSet: cached, Pods: []*core.Pod{orphan}}, nil, controller.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "can't adopt")
	require.NotEmpty(t, res.Writes)
	i := slices.IndexFunc(res.Writes, func(w controller.StatefulSetWriteResult) bool { return w.Write.Kind == statefulset.AdoptPod })
	require.GreaterOrEqual(t, i, 0, "the plan adopts web-0")
	assert.Equal(t, appsv1.Failed, res.Writes[i].Outcome)
	for _, w := range res.Writes[i+1:] {
		assert.Equal(t, appsv1.NotSent, w.Outcome)
	}
	for _, w := range writes(client) {
		assert.False(t, strings.HasPrefix(w, "patch pods"), "sent %s", w)
	}
}

// In shadow mode the StatefulSet controller prints the writes of a sync and
// sends none.
func TestStatefulSetShadow(t *testing.T) {
	set := web()
	client := fake.NewClientset(set)
	var out syncBuffer
	res, err := controller.SyncStatefulSet(context.Background(), client, appsv1.StatefulSetState{Now: now, StatefulSet: set}, nil, controller.Options{Shadow: true, Out: &out})
	require.NoError(t, err)
	assert.Empty(t, res.Writes)
	assert.Empty(t, writes(client))
	assert.Contains(t, out.String(), "statefulset default/web: create pods default/web-0: MissingPod")
	assert.Contains(t, out.String(), "statefulset default/web: update statefulsets/status default/web")
}

// The Manager with StatefulSets on and the stand-in kubelet brings the
// "web" set up on a fake clientset: web-0, web-1 and web-2 are created one
// after the other, each once its predecessor is ready, with their claims,
// and the status ends at 3 ready replicas.
func TestManagerRunsStatefulSets(t *testing.T) {
	client := fake.NewClientset(web())
	m, err := controller.NewManager(client, controller.ManagerOptions{
		StatefulSets: true, NoDeploymentController: true, NoReplicaSetController: true,
		KubeletDelay: 20 * time.Millisecond, CacheSyncTimeout: 10 * time.Second,
	})
	require.NoError(t, err)
	require.NotNil(t, m.StatefulSets)
	var mu sync.Mutex
	var unpredicted []controller.StatefulSetWriteResult
	m.StatefulSets.OnSync(func(_ appsv1.StatefulSetState, res controller.StatefulSetSync) {
		mu.Lock()
		defer mu.Unlock()
		for _, w := range res.Writes {
			if w.Outcome != appsv1.NotSent && !w.Matched() {
				unpredicted = append(unpredicted, w)
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		assert.NoError(t, m.Run(ctx))
	}()
	defer func() {
		cancel()
		<-done
	}()
	require.Eventually(t, func() bool {
		s, err := client.AppsV1().StatefulSets("default").Get(ctx, "web", metav1.GetOptions{})
		return err == nil && s.Status.ReadyReplicas == 3 && s.Status.Replicas == 3
	}, 20*time.Second, 20*time.Millisecond)
	// Each pod is first created after the status write that made the one
	// below it Running and Ready (the stand-in kubelet's), never before.
	// Unlike the API server, the fake clientset does not give a new pod the
	// phase Pending: until the kubelet's write, upstream takes the pod for
	// one never created and creates it again, and the plans predict the
	// AlreadyExists those creates get. Nor does it give objects
	// resourceVersions, so the controller cannot wait for its caches to see
	// its writes (it does on a real server): a sync on a cache without the
	// pod, claim or revision just created creates it again, and that
	// AlreadyExists is the one kind of answer the plans may not predict
	// here.
	ws := writes(client)
	for o := 1; o < 3; o++ {
		created := slices.Index(ws, "create pods "+statefulset.PodName("web", o))
		ready := slices.Index(ws, "update pods/status "+statefulset.PodName("web", o-1))
		assert.True(t, ready >= 0 && created > ready, "web-%d created at write %d, web-%d ready at write %d: %v", o, created, o-1, ready, ws)
	}
	pvcs, err := client.CoreV1().PersistentVolumeClaims("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, pvcs.Items, 3)
	st := m.StatefulSets.Stats()
	assert.Positive(t, st.Syncs)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, st.Sent, st.Matched+st.Mismatched)
	assert.Equal(t, int(st.Mismatched), len(unpredicted))
	for _, w := range unpredicted {
		assert.True(t, w.Write.Verb == appsv1.VerbCreate && apierrors.IsAlreadyExists(w.Err),
			"unpredicted answer to %s %s %s: %s %v", w.Write.Verb, w.Write.Resource, w.Write.Name, w.Outcome, w.Err)
	}
}
