package upstreamdiff_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	appsinformers "k8s.io/client-go/informers/apps/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/controller/deployment"
)

// capture is an informer that keeps the handler registered on it instead
// of running it, so the test can call upstream's handlers directly.
type capture struct {
	cache.SharedIndexInformer
	handler cache.ResourceEventHandler
}

func (c *capture) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	c.handler = h
	return nil, nil
}

type dInformer struct {
	appsinformers.DeploymentInformer
	c *capture
}

func (i dInformer) Informer() cache.SharedIndexInformer { return i.c }

type rsInformer struct {
	appsinformers.ReplicaSetInformer
	c *capture
}

func (i rsInformer) Informer() cache.SharedIndexInformer { return i.c }

type podInformer struct {
	coreinformers.PodInformer
	c *capture
}

func (i podInformer) Informer() cache.SharedIndexInformer { return i.c }

// world is one namespace pair's objects, as the informer stores hold them
// when a handler runs.
type world struct {
	deployments []*apps.Deployment
	replicaSets []*apps.ReplicaSet
	pods        []*core.Pod
}

// upstream builds the real controller over w and returns its handlers and
// a function draining the keys it enqueued.
func upstream(t *testing.T, w world) (d, rs, pod cache.ResourceEventHandler, drain func() []string) {
	t.Helper()
	var objs []runtime.Object
	for _, r := range w.replicaSets {
		objs = append(objs, r.DeepCopy()) // deletePod lists ReplicaSets from the API
	}
	client := fake.NewClientset(objs...)
	f := informers.NewSharedInformerFactory(client, 0)
	dc, rc, pc := &capture{SharedIndexInformer: f.Apps().V1().Deployments().Informer()},
		&capture{SharedIndexInformer: f.Apps().V1().ReplicaSets().Informer()},
		&capture{SharedIndexInformer: f.Core().V1().Pods().Informer()}
	ctrl, err := deployment.NewDeploymentController(context.Background(),
		dInformer{f.Apps().V1().Deployments(), dc}, rsInformer{f.Apps().V1().ReplicaSets(), rc}, podInformer{f.Core().V1().Pods(), pc}, client)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range w.deployments {
		_ = dc.GetIndexer().Add(o)
	}
	for _, o := range w.replicaSets {
		_ = rc.GetIndexer().Add(o)
	}
	for _, o := range w.pods {
		_ = pc.GetIndexer().Add(o)
	}
	// The work queue is unexported; read it to see what the handlers added.
	v := reflect.ValueOf(ctrl).Elem().FieldByName("queue")
	q := reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Interface().(workqueue.TypedRateLimitingInterface[string])
	drain = func() []string {
		var out []string
		for q.Len() > 0 {
			k, _ := q.Get()
			out = append(out, k)
			q.Done(k)
		}
		slices.Sort(out)
		return out
	}
	return dc.handler, rc.handler, pc.handler, drain
}

func (w world) cache(t *testing.T) enqueue.Cache {
	t.Helper()
	var c enqueue.Cache
	for _, d := range w.deployments {
		c.Deployments = append(c.Deployments, must(appsv1.DeploymentToModel(d)))
	}
	for _, r := range w.replicaSets {
		c.ReplicaSets = append(c.ReplicaSets, must(appsv1.ReplicaSetToModel(r)))
	}
	for _, p := range w.pods {
		c.Pods = append(c.Pods, must(appsv1.PodToModel(p)))
	}
	return c
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// gen draws objects whose names, UIDs, labels and owners collide often.
// With noise off (half of the worlds) everything lives in one namespace and
// owner references are right but for a few, so that the deep cases (an
// orphan matched by several Deployments, the last pod of a Recreate
// rollout) come up often.
type gen struct {
	r     *rand.Rand
	noise *bool
}

// rare is true with probability 1/n, or 1/(4n) without noise.
func (g gen) rare(n int) bool {
	if !*g.noise {
		n *= 4
	}
	return g.r.IntN(n) == 0
}

func (g gen) ns() string {
	if g.rare(3) {
		return "ns2"
	}
	return "ns"
}

func (g gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g gen) labels() map[string]string {
	switch g.r.IntN(5) {
	case 0:
		return nil
	case 1:
		return map[string]string{}
	case 2:
		return map[string]string{"app": "a", "tier": "web"}
	}
	return map[string]string{"app": g.pick("a", "b")}
}

func (g gen) owner(kind, prefix string, n int) []metav1.OwnerReference {
	if g.rare(4) {
		return nil
	}
	i := g.r.IntN(n)
	uid := fmt.Sprintf("%su%d", prefix, i)
	if g.rare(6) {
		uid = "stale"
	}
	k := kind
	if g.rare(8) {
		k = "StatefulSet"
	}
	ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: k, Name: fmt.Sprintf("%s%d", prefix, i), UID: types.UID(uid),
		Controller: new(!g.rare(10)), BlockOwnerDeletion: new(g.r.IntN(2) == 0)}
	return []metav1.OwnerReference{ref}
}

func (g gen) selector() *metav1.LabelSelector {
	switch g.r.IntN(8) {
	case 0:
		return &metav1.LabelSelector{}
	case 1:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"a", "b"}}}}
	case 2:
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpExists}}}
	}
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": g.pick("a", "b")}}
}

func (g gen) deployment(i int) *apps.Deployment {
	strategy := apps.RollingUpdateDeploymentStrategyType
	if g.r.IntN(2) == 0 {
		strategy = apps.RecreateDeploymentStrategyType
	}
	return &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: g.ns(), Name: fmt.Sprintf("d%d", i), UID: types.UID(fmt.Sprintf("du%d", i)), ResourceVersion: "1"},
		Spec:       apps.DeploymentSpec{Selector: g.selector(), Strategy: apps.DeploymentStrategy{Type: strategy}},
	}
}

func (g gen) replicaSet(i int, rv string) *apps.ReplicaSet {
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Namespace: g.ns(), Name: fmt.Sprintf("r%d", i),
		UID: types.UID(fmt.Sprintf("ru%d", i)), ResourceVersion: rv, Labels: g.labels(), OwnerReferences: g.owner("Deployment", "d", 4)}}
	if g.rare(10) {
		rs.DeletionTimestamp = &metav1.Time{}
	}
	return rs
}

func (g gen) pod(i int) *core.Pod {
	return &core.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: g.ns(), Name: fmt.Sprintf("p%d", i),
		UID: types.UID(fmt.Sprintf("pu%d", i)), ResourceVersion: "1", Labels: g.labels(), OwnerReferences: g.owner("ReplicaSet", "r", 5)}}
}

func (g gen) world() world {
	*g.noise = g.r.IntN(2) == 0
	var w world
	for i := range 1 + g.r.IntN(4) {
		w.deployments = append(w.deployments, g.deployment(i))
	}
	for i := range 1 + g.r.IntN(5) {
		w.replicaSets = append(w.replicaSets, g.replicaSet(i, "1"))
	}
	for i := range g.r.IntN(6) {
		w.pods = append(w.pods, g.pod(i))
	}
	return w
}

// TestEnqueueMatchesUpstream replays random ReplicaSet, Pod and Deployment
// events through the real v1.36 controller's informer handlers and through
// plan/enqueue, and compares the keys each puts on the work queue.
func TestEnqueueMatchesUpstream(t *testing.T) {
	g := gen{r: rand.New(rand.NewPCG(10, 36)), noise: new(true)}
	counts := map[string]int{}
	nonEmpty := 0
	woke := map[string]int{}
	for i := range 3000 {
		w := g.world()
		dH, rsH, podH, drain := upstream(t, w)
		c := w.cache(t)
		var want []string
		var got []string
		var kind string
		switch g.r.IntN(6) {
		case 0: // add ReplicaSet (also in the store, as after an add)
			kind = "addReplicaSet"
			rs := g.replicaSet(9, "1")
			rsH.OnAdd(rs, false)
			got = enqueue.AddReplicaSet(must(appsv1.ReplicaSetToModel(rs)), c)
		case 1:
			kind = "updateReplicaSet"
			old := g.replicaSet(9, "1")
			cur := g.replicaSet(9, g.pick("1", "2"))
			if g.r.IntN(3) == 0 { // same owner and labels, other version
				cur = old.DeepCopy()
				cur.ResourceVersion = "2"
			}
			cur.Namespace = old.Namespace
			rsH.OnUpdate(old, cur)
			got = enqueue.UpdateReplicaSet(must(appsv1.ReplicaSetToModel(old)), must(appsv1.ReplicaSetToModel(cur)), c)
		case 2:
			kind = "deleteReplicaSet"
			rs := g.replicaSet(9, "1")
			m := must(appsv1.ReplicaSetToModel(rs))
			var err error
			if g.r.IntN(2) == 0 {
				rsH.OnDelete(cache.DeletedFinalStateUnknown{Key: rs.Namespace + "/" + rs.Name, Obj: rs})
				got, err = enqueue.DeleteReplicaSet(enqueue.Tombstone{Key: rs.Namespace + "/" + rs.Name, Obj: m}, c)
			} else {
				rsH.OnDelete(rs)
				got, err = enqueue.DeleteReplicaSet(m, c)
			}
			if err != nil {
				t.Fatal(err)
			}
		case 3, 4:
			kind = "deletePod"
			p := g.pod(9)
			m := must(appsv1.PodToModel(p))
			var err error
			if g.r.IntN(2) == 0 {
				podH.OnDelete(cache.DeletedFinalStateUnknown{Key: p.Namespace + "/" + p.Name, Obj: p})
				got, err = enqueue.DeletePod(enqueue.Tombstone{Key: p.Namespace + "/" + p.Name, Obj: m}, c)
			} else {
				podH.OnDelete(p)
				got, err = enqueue.DeletePod(m, c)
			}
			if err != nil {
				t.Fatal(err)
			}
		default:
			kind = "deployment events"
			if len(w.deployments) == 0 {
				continue
			}
			d := w.deployments[g.r.IntN(len(w.deployments))]
			m := must(appsv1.DeploymentToModel(d))
			dH.OnAdd(d, false)
			dH.OnUpdate(d, d)
			dH.OnDelete(cache.DeletedFinalStateUnknown{Key: d.Namespace + "/" + d.Name, Obj: d})
			del, err := enqueue.DeleteDeployment(enqueue.Tombstone{Obj: m})
			if err != nil {
				t.Fatal(err)
			}
			got = slices.Concat(enqueue.AddDeployment(m), enqueue.UpdateDeployment(m, m), del)
			slices.Sort(got)
			got = slices.Compact(got)
		}
		want = drain()
		counts[kind]++
		if len(want) > 0 {
			nonEmpty++
			woke[kind]++
		}
		if !slices.Equal(got, want) {
			t.Fatalf("case %d (%s): plan/enqueue %v, upstream %v\nworld: %s", i, kind, got, want, describe(w))
		}
	}
	t.Logf("events replayed: %v; %d woke at least one Deployment: %v", counts, nonEmpty, woke)
}

func describe(w world) string {
	s := ""
	for _, d := range w.deployments {
		s += fmt.Sprintf("\n  deployment %s/%s uid=%s selector=%v strategy=%s", d.Namespace, d.Name, d.UID, d.Spec.Selector, d.Spec.Strategy.Type)
	}
	for _, r := range w.replicaSets {
		s += fmt.Sprintf("\n  replicaset %s/%s uid=%s labels=%v owners=%v", r.Namespace, r.Name, r.UID, r.Labels, r.OwnerReferences)
	}
	for _, p := range w.pods {
		s += fmt.Sprintf("\n  pod %s/%s labels=%v owners=%v", p.Namespace, p.Name, p.Labels, p.OwnerReferences)
	}
	return s
}
