package controller

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
)

func handlerSet(name, uid string, labels map[string]string, minReady int32) *apps.StatefulSet {
	return &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID(uid)},
		Spec:       apps.StatefulSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, MinReadySeconds: minReady},
	}
}

func handlerPod(rv string, labels map[string]string, owner *apps.StatefulSet, ready bool) *core.Pod {
	p := &core.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-0", UID: "pod-uid", ResourceVersion: rv, Labels: labels}}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(owner, apps.SchemeGroupVersion.WithKind("StatefulSet"))}
	}
	status := core.ConditionFalse
	if ready {
		status = core.ConditionTrue
	}
	p.Status.Conditions = []core.PodCondition{{Type: core.PodReady, Status: status}}
	return p
}

// queued drains the controller's queue (without waiting) and returns the
// keys, sorted.
func queued(c *StatefulSetController) []string {
	var out []string
	for c.w.queue.Len() > 0 {
		k, _ := c.w.queue.Get()
		c.w.queue.Done(k)
		c.w.queue.Forget(k)
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The pod event routing of upstream's StatefulSet controller (addPod,
// updatePod, deletePod in pkg/controller/statefulset/stateful_set.go).
func TestStatefulSetPodEventRouting(t *testing.T) {
	web := handlerSet("web", "web-uid", map[string]string{"app": "web"}, 0)
	slow := handlerSet("slow", "slow-uid", map[string]string{"app": "web"}, 1)
	other := handlerSet("other", "other-uid", map[string]string{"app": "other"}, 0)
	ghost := handlerSet("web", "ghost-uid", map[string]string{"app": "web"}, 0) // a replaced "web"
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	c, err := NewStatefulSetController(fake.NewClientset(), factory, nil, Options{})
	require.NoError(t, err)
	store := factory.Apps().V1().StatefulSets().Informer().GetStore()
	for _, s := range []*apps.StatefulSet{web, slow, other} {
		require.NoError(t, store.Add(s))
	}
	app := map[string]string{"app": "web"}

	c.addPod(handlerPod("1", app, web, false))
	assert.Equal(t, []string{"ns/web"}, queued(c), "a new pod wakes its controller")
	c.addPod(handlerPod("1", app, ghost, false))
	assert.Empty(t, queued(c), "a controller reference of another UID resolves to nothing")
	c.addPod(handlerPod("1", app, nil, false))
	assert.Equal(t, []string{"ns/slow", "ns/web"}, queued(c), "an orphan wakes every set selecting it")
	deleting := handlerPod("1", app, other, false)
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Now()}
	c.addPod(deleting)
	assert.Equal(t, []string{"ns/other"}, queued(c), "a pod seen first being deleted counts as deleted")

	c.updatePod(handlerPod("2", app, web, false), handlerPod("2", app, web, true))
	assert.Empty(t, queued(c), "a resync wakes nobody")
	c.updatePod(handlerPod("2", app, web, false), handlerPod("3", app, web, true))
	assert.Equal(t, []string{"ns/web"}, queued(c))
	c.updatePod(handlerPod("2", app, other, false), handlerPod("3", app, nil, false))
	assert.Equal(t, []string{"ns/other", "ns/slow", "ns/web"}, queued(c), "a released pod wakes its old controller and the sets selecting it")
	c.updatePod(handlerPod("2", app, nil, false), handlerPod("3", app, nil, true))
	assert.Empty(t, queued(c), "an orphan whose labels and controller stay wakes nobody")

	c.deletePod(handlerPod("4", app, nil, false))
	assert.Empty(t, queued(c), "nobody cares about a deleted orphan")
	c.deletePod(cache.DeletedFinalStateUnknown{Key: "ns/web-0", Obj: handlerPod("4", app, web, false)})
	assert.Equal(t, []string{"ns/web"}, queued(c), "a tombstone wakes its controller")

	// A pod of a set with minReadySeconds that becomes ready wakes it now
	// and again minReadySeconds later, when it can be counted available.
	c.updatePod(handlerPod("5", app, slow, false), handlerPod("6", app, slow, true))
	assert.Equal(t, []string{"ns/slow"}, queued(c))
	require.Eventually(t, func() bool { return c.w.queue.Len() == 1 }, 3*time.Second, 20*time.Millisecond)
	assert.Equal(t, []string{"ns/slow"}, queued(c))
}
