package e2e_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
)

// dsPoolLabel marks the nodes of one test; its DaemonSet selects them
// with a nodeSelector, so that nodes another test left behind never count.
const dsPoolLabel = "rolloutplan.test/pool"

// dsTaintKey is the taint the tests put on nodes; the DaemonSets do not
// tolerate it.
const dsTaintKey = "rolloutplan.test/dedicated"

// startDaemonSetManager runs the DaemonSet controller, the stand-in
// scheduler and the stand-in kubelet (pods ready kubeletDelay after their
// binding) on namespace ns, and adds the controller's writes to the
// suite's count when the test ends.
func startDaemonSetManager(t *testing.T, ns string, kubeletDelay time.Duration) *controller.Manager {
	t.Helper()
	m, stop := startManager(t, ns, controller.ManagerOptions{
		DaemonSets: true, Scheduler: true, KubeletDelay: kubeletDelay,
		NoDeploymentController: true, NoReplicaSetController: true,
	})
	t.Cleanup(func() {
		stop()
		st := m.DaemonSets.Stats()
		sentMu.Lock()
		sent.Sent += st.Sent
		sent.Accepted += st.Accepted
		sent.Conflict += st.Conflict
		sent.Failed += st.Failed
		sentMu.Unlock()
		t.Logf("DaemonSet controller: %d syncs, %d writes sent, %d accepted", st.Syncs, st.Sent, st.Accepted)
	})
	return m
}

// dsNodeName names node i of the test of namespace ns (nodes are
// cluster-wide: the namespace keeps tests apart).
func dsNodeName(ns string, i int) string { return fmt.Sprintf("%s-n%d", ns, i) }

// addDaemonSetNode registers a node of the test's pool with the API server,
// Ready with some allocatable resources as a kubelet reports them, and
// deletes it when the test ends.
func addDaemonSetNode(ctx context.Context, t *testing.T, ns, name string) {
	t.Helper()
	n := &core.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
		dsPoolLabel: ns, "kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}}}
	created, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		err := client.CoreV1().Nodes().Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete node %s: %v", name, err)
		}
	})
	now := metav1.Now()
	res := core.ResourceList{
		core.ResourceCPU: resource.MustParse("4"), core.ResourceMemory: resource.MustParse("8Gi"), core.ResourcePods: resource.MustParse("110")}
	created.Status = core.NodeStatus{
		Capacity: res, Allocatable: res,
		Conditions: []core.NodeCondition{{Type: core.NodeReady, Status: core.ConditionTrue, Reason: "KubeletReady",
			Message: "kubelet is posting ready status", LastHeartbeatTime: now, LastTransitionTime: now}},
		NodeInfo: core.NodeSystemInfo{OperatingSystem: "linux", Architecture: "amd64", KubeletVersion: "v1.36.3"},
	}
	_, err = client.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{})
	require.NoError(t, err)
	// The API server taints a new node not-ready (TaintNodesByCondition);
	// the node lifecycle controller, absent here, lifts the taint once the
	// node reports Ready.
	updateDaemonSetNode(ctx, t, name, func(n *core.Node) {
		n.Spec.Taints = slices.DeleteFunc(n.Spec.Taints, func(t core.Taint) bool { return t.Key == core.TaintNodeNotReady })
	})
}

// addDaemonSetNodes registers nodes 1 to n of the test's pool.
func addDaemonSetNodes(ctx context.Context, t *testing.T, ns string, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		addDaemonSetNode(ctx, t, ns, dsNodeName(ns, i))
	}
}

// updateDaemonSetNode changes a node with f, retrying on conflicts.
func updateDaemonSetNode(ctx context.Context, t *testing.T, name string, f func(*core.Node)) {
	t.Helper()
	for range 20 {
		n, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		require.NoError(t, err)
		f(n)
		if _, err = client.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("could not update node %s", name)
}

func taintDaemonSetNode(ctx context.Context, t *testing.T, name string, effect core.TaintEffect) {
	t.Helper()
	updateDaemonSetNode(ctx, t, name, func(n *core.Node) {
		n.Spec.Taints = append(n.Spec.Taints, core.Taint{Key: dsTaintKey, Value: "yes", Effect: effect})
	})
}

// daemonSet is a DaemonSet over the test's node pool with a rolling update
// of maxSurge / maxUnavailable.
func daemonSet(ns, name, image string, surge, unavailable intstr.IntOrString) *apps.DaemonSet {
	labels := map[string]string{"app": name}
	return &apps.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: apps.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: core.PodSpec{
					Containers:                    []core.Container{{Name: name, Image: image}},
					NodeSelector:                  map[string]string{dsPoolLabel: ns},
					TerminationGracePeriodSeconds: new(int64(0)),
				},
			},
			UpdateStrategy: apps.DaemonSetUpdateStrategy{Type: apps.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &apps.RollingUpdateDaemonSet{MaxSurge: &surge, MaxUnavailable: &unavailable}},
		},
	}
}

func createDaemonSet(ctx context.Context, t *testing.T, ds *apps.DaemonSet) {
	t.Helper()
	_, err := client.AppsV1().DaemonSets(ds.Namespace).Create(ctx, ds, metav1.CreateOptions{})
	require.NoError(t, err)
}

// setDaemonSetImage changes the DaemonSet's image, retrying on conflicts
// with the controller's status writes.
func setDaemonSetImage(ctx context.Context, t *testing.T, ns, name, image string) {
	t.Helper()
	for range 20 {
		ds, err := client.AppsV1().DaemonSets(ns).Get(ctx, name, metav1.GetOptions{})
		require.NoError(t, err)
		ds.Spec.Template.Spec.Containers[0].Image = image
		if _, err = client.AppsV1().DaemonSets(ns).Update(ctx, ds, metav1.UpdateOptions{}); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("could not update %s/%s", ns, name)
}

// daemonSetDone reports whether the rollout is over: the status observed
// the last generation, every one of the desired nodes runs an updated and
// available pod, and no pod of an older image is left.
func daemonSetDone(ctx context.Context, ns, name, image string, desired int32) (bool, error) {
	ds, err := client.AppsV1().DaemonSets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return false, err
	}
	s := ds.Status
	if s.ObservedGeneration < ds.Generation || s.DesiredNumberScheduled != desired || s.UpdatedNumberScheduled != desired ||
		s.NumberAvailable != desired || s.CurrentNumberScheduled != desired || s.NumberUnavailable != 0 {
		return false, nil
	}
	pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	for _, p := range pods.Items {
		if p.Spec.Containers[0].Image != image {
			return false, nil
		}
	}
	return true, nil
}

func waitDaemonSetDone(ctx context.Context, t *testing.T, ns, name, image string, desired int32) {
	t.Helper()
	waitFor(ctx, t, fmt.Sprintf("the rollout of %s/%s to %s on %d nodes", ns, name, image, desired), 90*time.Second,
		func() (bool, error) { return daemonSetDone(ctx, ns, name, image, desired) })
}

// daemonPodsByNode returns the live pods (not being deleted) of namespace
// ns by the node they are bound to.
func daemonPodsByNode(ctx context.Context, t *testing.T, ns string) map[string][]core.Pod {
	t.Helper()
	pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	out := map[string][]core.Pod{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil {
			out[p.Spec.NodeName] = append(out[p.Spec.NodeName], p)
		}
	}
	return out
}

// dsObserver follows every state of a namespace's DaemonSet, every node,
// and the namespace's pods and ControllerRevisions: it watches the four
// resources and reads the whole state back as of the resourceVersion of
// each change. At every state it plans a sync and checks the plan with
// plantest.CheckDaemonSet, and checks the state itself:
//
//   - no node holds more live daemon pods (not finished, not being
//     deleted) than the strategy allows: one, or with maxSurge two, one of
//     the current revision and one older (one surge pod per node);
//   - with maxSurge, at most maxSurge nodes whose old pod is available run
//     a new pod that is not yet available beside it (the surge budget);
//   - at most maxUnavailable nodes (0 with maxSurge) that should run a
//     daemon pod and had an available one at an earlier state lack one now
//     (nodes added during the test have not lost anything).
//
// Budgets are integers in these tests.
type dsObserver struct {
	observerBase
	late     int                // versions the watches reported after a later one was checked
	readErrs int                // versions whose state could not be read
	maxLost  int                // the most nodes seen at once without the available pod they had
	maxTwo   int                // the most nodes seen at once with two live pods
	pods     map[string]seenPod // every pod seen, by UID
	hadPod   map[string]bool    // nodes that had an available daemon pod
}

// seenPod is a pod as first seen by the observer.
type seenPod struct {
	name, node, image string
	created           time.Time
}

func observeDaemonSet(t *testing.T, ns, name string) *dsObserver {
	t.Helper()
	o := &dsObserver{pods: map[string]seenPod{}, hadPod: map[string]bool{}}
	ctx := o.begin()
	// Every write to the namespace's pods, DaemonSets and revisions, or to
	// a node, is a new state of the cluster: the watches report the
	// resourceVersion of each, and the state is read back as of exactly
	// that version.
	start, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	from := metav1.ListOptions{ResourceVersion: start.ResourceVersion}
	var watches []watch.Interface
	for _, w := range []func() (watch.Interface, error){
		func() (watch.Interface, error) { return client.CoreV1().Pods(ns).Watch(ctx, from) },
		func() (watch.Interface, error) { return client.CoreV1().Nodes().Watch(ctx, from) },
		func() (watch.Interface, error) { return client.AppsV1().DaemonSets(ns).Watch(ctx, from) },
		func() (watch.Interface, error) { return client.AppsV1().ControllerRevisions(ns).Watch(ctx, from) },
	} {
		wi, err := w()
		require.NoError(t, err)
		watches = append(watches, wi)
	}
	rvs := make(chan dsVersion, 4096)
	var wg sync.WaitGroup
	for _, w := range watches {
		wg.Go(func() {
			for ev := range w.ResultChan() {
				if ev.Type == watch.Error || ev.Type == watch.Bookmark {
					continue
				}
				m, err := apimeta.Accessor(ev.Object)
				if err != nil {
					continue
				}
				if n, err := strconv.ParseUint(m.GetResourceVersion(), 10, 64); err == nil {
					rvs <- dsVersion{n, time.Now()}
				}
			}
		})
	}
	go func() {
		<-ctx.Done()
		for _, w := range watches {
			w.Stop()
		}
		wg.Wait()
		close(rvs)
	}()
	go func() {
		defer close(o.done)
		first, _ := strconv.ParseUint(start.ResourceVersion, 10, 64)
		o.follow(ns, name, dsVersion{first, time.Now()}, rvs)
	}()
	t.Cleanup(o.finish)
	return o
}

// follow checks the state at every resourceVersion rvs reports, in order.
// The watches of the four resources deliver independently, so a version
// is held back 200 ms for lower ones to arrive; a version that arrives
// after a higher one was checked is counted as late and skipped (the
// availability history needs states in order).
func (o *dsObserver) follow(ns, name string, first dsVersion, rvs <-chan dsVersion) {
	pending := []dsVersion{first}
	var last uint64
	lastFP := ""
	process := func(all bool) {
		// Take in what the watches delivered meanwhile: a version checked
		// before a lower one still queued would make that one late.
	drain:
		for {
			select {
			case v, ok := <-rvs:
				if !ok {
					break drain
				}
				pending = append(pending, v)
			default:
				break drain
			}
		}
		slices.SortFunc(pending, func(a, b dsVersion) int { return cmp.Compare(a.rv, b.rv) })
		keep := pending[:0]
		for _, p := range pending {
			switch {
			case p.rv <= last:
				if p.rv < last {
					o.mu.Lock()
					o.late++
					o.mu.Unlock()
				}
			case all || time.Since(p.arrived) >= 200*time.Millisecond:
				last = p.rv
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				s, err := controller.LiveDaemonSetStateAt(ctx, client, ns, name, strconv.FormatUint(p.rv, 10), time.Now())
				cancel()
				switch {
				case err == nil:
					o.check(s, &lastFP)
				case !apierrors.IsNotFound(err):
					o.mu.Lock()
					o.readErrs++
					o.mu.Unlock()
				}
			default:
				keep = append(keep, p)
			}
		}
		pending = keep
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case v, ok := <-rvs:
			if !ok {
				process(true)
				return
			}
			pending = append(pending, v)
		case <-tick.C:
			process(false)
		}
	}
}

// dsVersion is a resourceVersion a watch reported, and when.
type dsVersion struct {
	rv      uint64
	arrived time.Time
}

func (o *dsObserver) check(s appsv1.DaemonSetState, last *string) {
	fp := dsFingerprint(s)
	if fp == *last {
		return
	}
	*last = fp
	in, err := s.Model()
	if err != nil {
		o.add("model: " + err.Error())
		return
	}
	_, p, err := appsv1.SyncDaemonSet(s)
	if err != nil && !errors.As(err, new(*daemonset.SyncError)) {
		o.add("plan: " + err.Error())
		return
	}
	o.countState()
	o.addViolations(plantest.CheckDaemonSet(in, p), "plan: ", fp)
	for _, msg := range o.checkState(in, p) {
		o.add(msg + " at " + fp)
	}
}

// checkState runs the state invariants of dsObserver on one observed state.
func (o *dsObserver) checkState(in daemonset.State, p daemonset.Plan) []string {
	ds := in.DaemonSet
	placement := map[string]daemonset.Placement{}
	var desired int32
	for _, pl := range p.Nodes {
		placement[pl.Node] = pl
		if pl.ShouldRun {
			desired++
		}
	}
	// The budgets as upstream's rollingUpdate resolves them; with maxSurge
	// an available old pod goes only once its replacement is available.
	surge := daemonset.AllowsSurge(ds)
	maxSurge, err1 := daemonset.SurgeCount(ds, desired)
	maxUnavailable, err2 := daemonset.UnavailableCount(ds, desired)
	if err := errors.Join(err1, err2); err != nil {
		return []string{"budget: " + err.Error()}
	}
	if surge {
		maxUnavailable = 0
	} else if maxUnavailable == 0 {
		maxUnavailable = 1
	}
	live := map[string][]*model.Pod{}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, q := range in.Pods {
		node, err := model.TargetNodeName(q, in.PodNodeAffinity[q.Name])
		if err != nil {
			continue
		}
		if _, ok := o.pods[string(q.UID)]; !ok {
			o.pods[string(q.UID)] = seenPod{name: q.Name, node: node, image: dsImage(q), created: q.CreationTimestamp}
		}
		if q.DeletionTimestamp == nil && !q.IsTerminal() {
			live[node] = append(live[node], q)
		}
	}
	var out []string
	var lost, surging int32
	var lostNodes []string
	two := 0
	for _, node := range slices.Sorted(maps.Keys(placement)) {
		pods := live[node]
		var fresh, old []*model.Pod
		for _, q := range pods {
			if q.Labels[model.DaemonSetUniqueLabel] == p.Hash {
				fresh = append(fresh, q)
			} else {
				old = append(old, q)
			}
		}
		switch {
		case !surge && len(pods) > 1:
			out = append(out, fmt.Sprintf("node %s runs %d daemon pods (%s) without maxSurge", node, len(pods), dsPodNames(pods)))
		case surge && (len(fresh) > 1 || len(old) > 1):
			out = append(out, fmt.Sprintf("node %s runs %d new and %d old daemon pods (%s): more than one surge pod", node, len(fresh), len(old), dsPodNames(pods)))
		}
		if len(pods) > 1 {
			two++
		}
		avail := false
		for _, q := range pods {
			avail = avail || model.IsPodAvailable(q, ds.Spec.MinReadySeconds, in.Now)
		}
		if surge && len(fresh) == 1 && len(old) == 1 &&
			model.IsPodAvailable(old[0], ds.Spec.MinReadySeconds, in.Now) && !model.IsPodAvailable(fresh[0], ds.Spec.MinReadySeconds, in.Now) {
			surging++
		}
		switch {
		case avail:
			o.hadPod[node] = true
		case placement[node].ShouldRun && o.hadPod[node]:
			lost++
			lostNodes = append(lostNodes, fmt.Sprintf("%s (%s)", node, dsPodStates(pods, p.Hash)))
		}
	}
	if surge && surging > maxSurge {
		out = append(out, fmt.Sprintf("%d nodes surge beside an available old pod, maxSurge %d", surging, maxSurge))
	}
	if lost > maxUnavailable {
		out = append(out, fmt.Sprintf("%d nodes lost their available daemon pod, maxUnavailable %d: %s", lost, maxUnavailable, strings.Join(lostNodes, ", ")))
	}
	o.maxLost = max(o.maxLost, int(lost))
	o.maxTwo = max(o.maxTwo, two)
	return out
}

// verify stops the observer and fails the test for any violation.
func (o *dsObserver) verify(t *testing.T) {
	t.Helper()
	o.observerBase.verify(t, 1)
	// The follow goroutine has returned: its counts are final.
	t.Logf("%d versions reported late, %d unreadable; at most %d nodes without their available pod, %d with two pods",
		o.late, o.readErrs, o.maxLost, o.maxTwo)
	assert.Zero(t, o.readErrs, "states the observer could not read")
}

// podsCreatedOn returns the pods seen on node, oldest first.
func (o *dsObserver) podsCreatedOn(node string) []seenPod {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []seenPod
	for _, p := range o.pods {
		if p.node == node {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].created.Equal(out[j].created) {
			return out[i].created.Before(out[j].created)
		}
		return out[i].name < out[j].name
	})
	return out
}

func dsImage(p *model.Pod) string {
	var spec core.PodSpec
	if err := json.Unmarshal([]byte(p.Spec.Body), &spec); err != nil || len(spec.Containers) == 0 {
		return ""
	}
	return spec.Containers[0].Image
}

// dsPodStates describes pods for a message: name, revision, readiness.
func dsPodStates(pods []*model.Pod, hash string) string {
	if len(pods) == 0 {
		return "no pod"
	}
	var out []string
	for _, p := range pods {
		rev := "old"
		if p.Labels[model.DaemonSetUniqueLabel] == hash {
			rev = "new"
		}
		out = append(out, fmt.Sprintf("%s %s ready=%t", p.Name, rev, model.IsPodReady(p)))
	}
	return strings.Join(out, "; ")
}

func dsPodNames(pods []*model.Pod) string {
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// dsFingerprint identifies a state by the resourceVersions in it.
func dsFingerprint(s appsv1.DaemonSetState) string {
	parts := []string{"ds" + s.DaemonSet.ResourceVersion}
	parts = appendVersions(parts, "n", s.Nodes)
	parts = appendVersions(parts, "p", s.Pods)
	parts = appendVersions(parts, "r", s.ControllerRevisions)
	slices.Sort(parts[1:])
	return strings.Join(parts, ",")
}

// A maxSurge rollout over four nodes: each node gets its new pod beside
// the old one, which goes once the new one is available; no node is ever
// without an available pod, none ever runs two new or two old pods, and at
// most maxSurge (1) nodes surge at once beside an available old pod.
func TestDaemonSetRollingUpdateMaxSurge(t *testing.T) {
	ctx, ns := setup(t)
	addDaemonSetNodes(ctx, t, ns, 4)
	startDaemonSetManager(t, ns, 500*time.Millisecond)
	o := observeDaemonSet(t, ns, "agent")
	createDaemonSet(ctx, t, daemonSet(ns, "agent", "agent:1", intstr.FromInt32(1), intstr.FromInt32(0)))
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:1", 4)
	before := daemonPodsByNode(ctx, t, ns)
	setDaemonSetImage(ctx, t, ns, "agent", "agent:2")
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:2", 4)
	after := daemonPodsByNode(ctx, t, ns)
	for i := 1; i <= 4; i++ {
		node := dsNodeName(ns, i)
		require.Len(t, before[node], 1, "pods on %s before the update", node)
		require.Len(t, after[node], 1, "pods on %s after the update", node)
		assert.NotEqual(t, before[node][0].UID, after[node][0].UID, "node %s kept its old pod", node)
		assert.NotEmpty(t, after[node][0].Spec.Affinity, "pod %s without its node affinity", after[node][0].Name)
		assert.Equal(t, "agent-", after[node][0].GenerateName)
	}
	o.verify(t)
	assert.Positive(t, o.maxTwo, "no node was seen surging: the test observed nothing of the surge")

	// The controller records upstream's events as daemonset-controller: a
	// SuccessfulCreate per pod, naming the pod the server created (from
	// generateName), and a SuccessfulDelete per old pod.
	var created, deleted []string
	waitFor(ctx, t, "the DaemonSet's events", 10*time.Second, func() (bool, error) {
		l, err := client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=agent"})
		if err != nil {
			return false, err
		}
		created, deleted = nil, nil
		for _, e := range l.Items {
			require.Equal(t, "daemonset-controller", e.Source.Component, "event %s %s", e.Reason, e.Message)
			switch e.Reason {
			case daemonset.EventSuccessfulCreate:
				created = append(created, strings.TrimPrefix(e.Message, "Created pod: "))
			case daemonset.EventSuccessfulDelete:
				deleted = append(deleted, strings.TrimPrefix(e.Message, "Deleted pod: "))
			}
		}
		return len(created) >= 8 && len(deleted) >= 4, nil
	})
	assert.Len(t, created, 8, "4 pods at creation and 4 surge pods")
	assert.Len(t, deleted, 4, "the 4 old pods")
	seen := map[string]bool{}
	for _, p := range o.pods {
		seen[p.name] = true
	}
	for _, name := range created {
		assert.True(t, seen[name], "SuccessfulCreate names %s, a pod the server never had", name)
	}
	for _, pods := range before {
		assert.Contains(t, deleted, pods[0].Name)
	}
}

// A maxUnavailable rollout (2 of 5 nodes): old pods go two at a time and
// are replaced; never more than two nodes lose their available pod.
func TestDaemonSetRollingUpdateMaxUnavailable(t *testing.T) {
	ctx, ns := setup(t)
	addDaemonSetNodes(ctx, t, ns, 5)
	startDaemonSetManager(t, ns, time.Second)
	o := observeDaemonSet(t, ns, "agent")
	createDaemonSet(ctx, t, daemonSet(ns, "agent", "agent:1", intstr.FromInt32(0), intstr.FromInt32(2)))
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:1", 5)
	setDaemonSetImage(ctx, t, ns, "agent", "agent:2")
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:2", 5)
	o.verify(t)
	assert.Equal(t, 2, o.maxLost, "the rollout should use its whole budget of 2 unavailable nodes")
	assert.Zero(t, o.maxTwo, "no node may run two pods without maxSurge")
}

// Taints during a maxUnavailable (1) rollout over five nodes, once node 1
// runs its new pod: node 1 tainted NoSchedule keeps its new pod (a
// NoSchedule taint only stops new pods); node 5, still on the old
// revision, tainted NoSchedule loses its old pod to the rolling update and
// gets no new one; node 3 tainted NoExecute loses its pod at once and gets
// none. The rollout ends on nodes 2 and 4 (desired 2); node 1's pod counts
// as misscheduled.
func TestDaemonSetTaintMidRollout(t *testing.T) {
	ctx, ns := setup(t)
	addDaemonSetNodes(ctx, t, ns, 5)
	startDaemonSetManager(t, ns, time.Second)
	o := observeDaemonSet(t, ns, "agent")
	createDaemonSet(ctx, t, daemonSet(ns, "agent", "agent:1", intstr.FromInt32(0), intstr.FromInt32(1)))
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:1", 5)
	setDaemonSetImage(ctx, t, ns, "agent", "agent:2")
	n1, n3, n5 := dsNodeName(ns, 1), dsNodeName(ns, 3), dsNodeName(ns, 5)
	var n1Pod core.Pod
	waitFor(ctx, t, "node 1's new pod to be ready", 30*time.Second, func() (bool, error) {
		for _, p := range daemonPodsByNode(ctx, t, ns)[n1] {
			if p.Spec.Containers[0].Image == "agent:2" && dsReady(&p) {
				n1Pod = p
				return true, nil
			}
		}
		return false, nil
	})
	require.Equal(t, "agent:1", daemonPodsByNode(ctx, t, ns)[n5][0].Spec.Containers[0].Image,
		"node 5 was updated before its taint: the rollout ran faster than the test assumes")
	taintDaemonSetNode(ctx, t, n1, core.TaintEffectNoSchedule)
	taintDaemonSetNode(ctx, t, n5, core.TaintEffectNoSchedule)
	taintDaemonSetNode(ctx, t, n3, core.TaintEffectNoExecute)
	tainted := time.Now()
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:2", 2)
	waitFor(ctx, t, "node 5's old pod to go", 30*time.Second, func() (bool, error) {
		return len(daemonPodsByNode(ctx, t, ns)[n5]) == 0, nil
	})
	ds, err := client.AppsV1().DaemonSets(ns).Get(ctx, "agent", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(1), ds.Status.NumberMisscheduled, "node 1's pod should count as misscheduled")
	byNode := daemonPodsByNode(ctx, t, ns)
	if assert.Len(t, byNode[n1], 1, "node 1 keeps its pod") {
		assert.Equal(t, n1Pod.UID, byNode[n1][0].UID, "node 1's new pod should stay")
	}
	assert.Empty(t, byNode[n3], "node 3 (NoExecute) keeps no pod")
	assert.Empty(t, byNode[n5], "node 5 (NoSchedule before its update) keeps no pod")
	for _, i := range []int{2, 4} {
		assert.Len(t, byNode[dsNodeName(ns, i)], 1, "node %d", i)
	}
	o.verify(t)
	// No pod was created on a tainted node after the taint (creation
	// times have second precision: a pod of the second after the taint
	// may have been planned before the controller saw it).
	for _, node := range []string{n1, n3, n5} {
		for _, p := range o.podsCreatedOn(node) {
			assert.False(t, p.created.After(tainted.Add(time.Second)), "pod %s created on tainted node %s at %s, tainted at %s",
				p.name, node, p.created.Format(time.RFC3339), tainted.Format(time.RFC3339Nano))
		}
	}
}

// A node added and a node removed during a maxSurge rollout over four
// nodes: the new node gets a pod of the new revision straight away; the
// removed node's pod is garbage-collected (the stand-in's pod GC) and the
// rollout ends on the four remaining nodes.
func TestDaemonSetNodeAddedAndRemovedMidRollout(t *testing.T) {
	ctx, ns := setup(t)
	addDaemonSetNodes(ctx, t, ns, 4)
	startDaemonSetManager(t, ns, time.Second)
	o := observeDaemonSet(t, ns, "agent")
	createDaemonSet(ctx, t, daemonSet(ns, "agent", "agent:1", intstr.FromInt32(1), intstr.FromInt32(0)))
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:1", 4)
	setDaemonSetImage(ctx, t, ns, "agent", "agent:2")
	n1, n4, n5 := dsNodeName(ns, 1), dsNodeName(ns, 4), dsNodeName(ns, 5)
	waitFor(ctx, t, "a new pod on node 1", 30*time.Second, func() (bool, error) {
		for _, p := range daemonPodsByNode(ctx, t, ns)[n1] {
			if p.Spec.Containers[0].Image == "agent:2" {
				return true, nil
			}
		}
		return false, nil
	})
	addDaemonSetNode(ctx, t, ns, n5)
	require.NoError(t, client.CoreV1().Nodes().Delete(ctx, n4, metav1.DeleteOptions{}))
	waitDaemonSetDone(ctx, t, ns, "agent", "agent:2", 4)
	byNode := daemonPodsByNode(ctx, t, ns)
	assert.Empty(t, byNode[n4], "the removed node's pod should be collected")
	if assert.Len(t, byNode[n5], 1, "the added node runs one pod") {
		assert.Equal(t, "agent:2", byNode[n5][0].Spec.Containers[0].Image)
	}
	o.verify(t)
	if seen := o.podsCreatedOn(n5); assert.NotEmpty(t, seen) {
		assert.Equal(t, "agent:2", seen[0].image, "the added node's first pod should be of the new revision")
	}
}

func dsReady(p *core.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == core.PodReady {
			return c.Status == core.ConditionTrue
		}
	}
	return false
}
