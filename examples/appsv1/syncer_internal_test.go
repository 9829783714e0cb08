package appsv1

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func syncerInternalState() State {
	d := &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "d", ResourceVersion: "1"}}
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	// Containers in every template and pod, and a ReplicaSet template its
	// selector selects: the API server holds no object without them.
	containers := []core.Container{{Name: "web", Image: "nginx:1.27"}}
	d.Spec.Template.Spec.Containers = containers
	d.Spec.Replicas = new(int32(1))
	d.Spec.Strategy.Type = apps.RecreateDeploymentStrategyType
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: "ns", UID: "r", ResourceVersion: "2"}}
	rs.Spec.Replicas = new(int32(0))
	rs.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
	rs.Spec.Template.Labels = map[string]string{"app": "other"}
	rs.Spec.Template.Spec.Containers = containers
	pod := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "p", ResourceVersion: "3"}, Spec: core.PodSpec{Containers: containers}}
	noRV := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns", UID: "q"}, Spec: core.PodSpec{Containers: containers}}
	return State{Deployment: d, ReplicaSets: []*apps.ReplicaSet{rs}, Pods: []*core.Pod{pod, noRV}, Now: time.Unix(0, 0)}
}

// cached counts the conversions c holds.
func (c *Syncer) cached() int { return len(c.cur) + len(c.prev) }

// TestSyncerKeepsWhatItUsed: after a sync, the Deployment, ReplicaSet and
// Pod with a UID and a resourceVersion are cached, the Deployment's with
// its hash state; an object without a resourceVersion is not; the next
// call (with the same objects or copies of them) hands the planner the
// same conversions, and a new resourceVersion gets a new one.
func TestSyncerKeepsWhatItUsed(t *testing.T) {
	s := syncerInternalState()
	var c Syncer
	_, _, err := c.Sync(s)
	require.NoError(t, err)
	require.Equal(t, 3, c.cached(), "the deployment, the replicaset and the pod with a resourceVersion")
	e := c.cur[syncerKey{'d', "d", "1"}]
	require.NotNil(t, e)
	assert.NotZero(t, e.hash.v.Load()&(1<<32), "the Deployment's hash state is kept")

	first, _, _, err := c.model(s)
	require.NoError(t, err)
	second, _, _, err := c.model(s)
	require.NoError(t, err)
	assert.Same(t, first.Deployment, second.Deployment)
	assert.Same(t, first.ReplicaSets[0], second.ReplicaSets[0])
	assert.Same(t, first.Pods[0], second.Pods[0])
	assert.NotSame(t, first.Pods[1], second.Pods[1], "the pod without a resourceVersion is converted at every call")

	s.Deployment = s.Deployment.DeepCopy() // another object, the same version
	s.ReplicaSets[0].ResourceVersion = "9" // the same object, a new version
	third, _, _, err := c.model(s)
	require.NoError(t, err)
	assert.Same(t, second.Deployment, third.Deployment, "a copy with the same UID and resourceVersion")
	assert.NotSame(t, second.ReplicaSets[0], third.ReplicaSets[0], "a new resourceVersion is converted again")
	assert.Equal(t, "9", third.ReplicaSets[0].ResourceVersion)

	s.Deployment.ResourceVersion = "2"
	fourth, _, _, err := c.model(s)
	require.NoError(t, err)
	assert.NotSame(t, third.Deployment, fourth.Deployment)
	assert.Equal(t, "2", fourth.Deployment.ResourceVersion)
	assert.Same(t, third.ReplicaSets[0], fourth.ReplicaSets[0], "only the Deployment is converted again")
	assert.Equal(t, 5, c.cached(), "two versions of the Deployment and of the ReplicaSet, the pod")
}

// TestSyncerForgets: once the current generation holds the limit, a new one
// starts; a conversion used again moves to the current generation, and
// those the generation before did not use are dropped. (A limit of 4
// stands for minSyncerMemory.)
func TestSyncerForgets(t *testing.T) {
	base := syncerInternalState()
	states := make([]State, 8)
	for i := range states {
		d := base.Deployment.DeepCopy()
		d.Name, d.UID = fmt.Sprint("web", i), types.UID(fmt.Sprint("d", i))
		states[i] = State{Deployment: d, Now: base.Now}
	}
	c := Syncer{limit: 4}
	model := func(i int) {
		t.Helper()
		_, _, _, err := c.model(states[i])
		require.NoError(t, err)
	}
	first, _, _, err := c.model(states[0])
	require.NoError(t, err)
	for i := 1; i < 4; i++ {
		model(i)
	}
	assert.Equal(t, 4, len(c.cur))
	model(4) // the current generation is full: states 0 to 3 move to prev
	assert.Equal(t, 1, len(c.cur))
	assert.Equal(t, 4, len(c.prev))
	again, _, _, err := c.model(states[0]) // used again: back to cur
	require.NoError(t, err)
	assert.Same(t, first.Deployment, again.Deployment)
	assert.Equal(t, 2, len(c.cur))
	assert.Equal(t, 3, len(c.prev))
	model(5)
	model(6)
	model(7) // full again: states 1 to 3, unused for a generation, are dropped
	assert.Equal(t, 1, len(c.cur))
	assert.Equal(t, 4, len(c.prev))
	for i, want := range []bool{true, false, false, false, true, true, true, true} {
		_, inPrev := c.prev[syncerKey{'d', types.UID(fmt.Sprint("d", i)), "1"}]
		_, inCur := c.cur[syncerKey{'d', types.UID(fmt.Sprint("d", i)), "1"}]
		assert.Equal(t, want, inPrev || inCur, "state %d cached", i)
	}
}

// TestSyncerLimitFollowsTheLargestState: the limit is at least four times
// the objects of the largest State planned, so one State's conversions
// never push each other out.
func TestSyncerLimitFollowsTheLargestState(t *testing.T) {
	s := syncerInternalState()
	for i := range 10 {
		s.Pods = append(s.Pods, &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("x", i), Namespace: "ns", UID: types.UID(fmt.Sprint("x", i)), ResourceVersion: "1"}})
	}
	c := Syncer{limit: 4}
	_, _, _, err := c.model(s)
	require.NoError(t, err)
	assert.Equal(t, 4*(2+len(s.Pods)), c.limit)
	assert.Equal(t, 13, len(c.cur), "the Deployment, the ReplicaSet and the 11 pods with a resourceVersion")
	assert.Empty(t, c.prev)
}

// TestSyncerUnchangedTemplates: a new version of a Deployment whose
// template did not change (a status write) takes the converted Spec of a
// cached ReplicaSet with the same template but for labels and annotations,
// the Spec encoding the template gives; a changed template is not taken.
func TestSyncerUnchangedTemplates(t *testing.T) {
	base := syncerInternalState()
	d := base.Deployment
	d.Spec.Template.Spec.Containers = []core.Container{{Name: "web", Image: "web:1"}}
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "ns", UID: "r1", ResourceVersion: "1"}}
	rs.Spec.Replicas = new(int32(1))
	rs.Spec.Selector = d.Spec.Selector
	rs.Spec.Template = *d.Spec.Template.DeepCopy()
	rs.Spec.Template.Labels = map[string]string{"app": "web", "pod-template-hash": "1"}
	s := State{Deployment: d, ReplicaSets: []*apps.ReplicaSet{rs}, Now: base.Now}

	var c Syncer
	_, _, _, err := c.model(s)
	require.NoError(t, err)
	_, rsEntries, _ := c.lookup(s)
	require.NotNil(t, rsEntries[0])
	want, err := TemplateToModel(&d.Spec.Template)
	require.NoError(t, err)
	got, from := templateOfReplicaSets(s, rsEntries)
	require.Same(t, rsEntries[0], from, "the ReplicaSet has the Deployment's template")
	assert.Equal(t, want, got)

	d2 := d.DeepCopy()
	d2.ResourceVersion = "2"
	d2.Spec.Template.Spec.Containers[0].Image = "web:2"
	s2 := State{Deployment: d2, ReplicaSets: []*apps.ReplicaSet{rs}, Now: base.Now}
	_, from = templateOfReplicaSets(s2, rsEntries)
	assert.Nil(t, from, "a changed template")
	in, _, _, err := c.model(s2)
	require.NoError(t, err)
	want2, err := TemplateToModel(&d2.Spec.Template)
	require.NoError(t, err)
	assert.Equal(t, want2, in.Deployment.Spec.Template)
}
