package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
)

// The StatefulSet end-to-end tests run the StatefulSet controller (and the
// stand-in kubelet) against the real API server. Each test checks three
// things at once:
//
//   - every sync the controller carried out: the plan it sent, against the
//     cache snapshot it planned over, with plantest.CheckStatefulSet
//     (statefulSetSyncs);
//   - every state of the namespace the test observes (polled from the
//     server): the plan a sync would make there, with
//     plantest.CheckStatefulSet, and the test's own checks of the observed
//     pods, which do not trust the planner: ordered creation, one
//     unavailable replica at a time, the partition, scale-down from the top
//     (statefulSetObserver);
//   - the end state: pods, revisions, claims and their owner references,
//     status and events.
//
// The cluster has no kube-controller-manager, so no garbage collector: the
// retention policy is checked on the owner references the controller puts
// on the claims (a claim owned by a deleted pod is what the collector would
// delete), and the test plays the collector where the controller waits
// for it.

// statefulSet is an OrderedReady, RollingUpdate set with one claim template
// "data", as the seed's "web" example.
func statefulSet(ns, name string, replicas int32, image string) *apps.StatefulSet {
	labels := map[string]string{"app": name}
	return &apps.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: apps.StatefulSetSpec{
			Replicas:    new(replicas),
			Selector:    &metav1.LabelSelector{MatchLabels: labels},
			ServiceName: name,
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: core.PodSpec{
					Containers:                    []core.Container{{Name: name, Image: image}},
					TerminationGracePeriodSeconds: new(int64(0)),
				},
			},
			VolumeClaimTemplates: []core.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data"},
				Spec: core.PersistentVolumeClaimSpec{
					AccessModes: []core.PersistentVolumeAccessMode{core.ReadWriteOnce},
					Resources:   core.VolumeResourceRequirements{Requests: core.ResourceList{core.ResourceStorage: resource.MustParse("1Gi")}},
				},
			}},
		},
	}
}

func createStatefulSet(ctx context.Context, t *testing.T, s *apps.StatefulSet) *apps.StatefulSet {
	t.Helper()
	got, err := client.AppsV1().StatefulSets(s.Namespace).Create(ctx, s, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// updateStatefulSet changes the set with f, retrying on conflicts with the
// controller's status writes.
func updateStatefulSet(ctx context.Context, t *testing.T, ns, name string, f func(*apps.StatefulSet)) {
	t.Helper()
	for range 20 {
		s, err := client.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		f(s)
		if _, err = client.AppsV1().StatefulSets(ns).Update(ctx, s, metav1.UpdateOptions{}); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("could not update statefulset %s/%s", ns, name)
}

func getStatefulSet(ctx context.Context, t *testing.T, ns, name string) *apps.StatefulSet {
	t.Helper()
	s, err := client.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitStatefulSet waits until the set's status, for its latest generation,
// satisfies done.
func waitStatefulSet(ctx context.Context, t *testing.T, ns, name, what string, done func(*apps.StatefulSet) bool) *apps.StatefulSet {
	t.Helper()
	var s *apps.StatefulSet
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	err := wait.PollUntilContextCancel(wctx, 100*time.Millisecond, true, func(context.Context) (bool, error) {
		var err error
		s, err = client.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return s.Status.ObservedGeneration >= s.Generation && done(s), nil
	})
	if err != nil {
		t.Fatalf("waiting for %s of statefulset %s/%s: %v; status %+v; a sync now would plan: %s", what, ns, name, err, s.Status, explain(ctx, ns, name))
	}
	return s
}

// explain is the plan of a sync of the live state, with its notes.
func explain(ctx context.Context, ns, name string) string {
	live, err := liveStatefulSet(ctx, ns, name, time.Now())
	if err != nil {
		return err.Error()
	}
	_, p, err := appsv1.SyncStatefulSet(live)
	var notes []string
	for _, n := range p.Notes {
		notes = append(notes, n.String())
	}
	return fmt.Sprintf("%s (error %v), notes: %s", p, err, strings.Join(notes, "; "))
}

// rolledOut reports a finished rollout: every replica updated, ready and
// available, and the update revision made current.
func rolledOut(s *apps.StatefulSet) bool {
	r, st := *s.Spec.Replicas, s.Status
	return st.Replicas == r && st.ReadyReplicas == r && st.AvailableReplicas == r && st.UpdatedReplicas == r &&
		st.CurrentReplicas == r && st.CurrentRevision == st.UpdateRevision
}

func setPods(ctx context.Context, t *testing.T, ns string) map[string]core.Pod {
	t.Helper()
	l, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]core.Pod{}
	for _, p := range l.Items {
		out[p.Name] = p
	}
	return out
}

func claims(ctx context.Context, t *testing.T, ns string) map[string]core.PersistentVolumeClaim {
	t.Helper()
	l, err := client.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]core.PersistentVolumeClaim{}
	for _, c := range l.Items {
		out[c.Name] = c
	}
	return out
}

// liveStatefulSet reads what one sync of the set plans over straight from
// the server: the set, and the pods, revisions and claims of its namespace.
func liveStatefulSet(ctx context.Context, ns, name string, now time.Time) (appsv1.StatefulSetState, error) {
	set, err := client.AppsV1().StatefulSets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return appsv1.StatefulSetState{}, err
	}
	s := appsv1.StatefulSetState{Now: now, StatefulSet: set}
	pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return s, err
	}
	for i := range pods.Items {
		s.Pods = append(s.Pods, &pods.Items[i])
	}
	revs, err := client.AppsV1().ControllerRevisions(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return s, err
	}
	for i := range revs.Items {
		s.ControllerRevisions = append(s.ControllerRevisions, &revs.Items[i])
	}
	pvcs, err := client.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return s, err
	}
	for i := range pvcs.Items {
		s.PVCs = append(s.PVCs, &pvcs.Items[i])
	}
	return s, nil
}

// statefulSetSyncs checks every sync the controller carried out: the plan
// it sent, against the snapshot of its caches, with CheckStatefulSet; and
// counts the writes whose answer the plan did not predict.
type statefulSetSyncs struct {
	mu         sync.Mutex
	syncs      int
	writes     int
	quirks     int
	mismatched []string
	violations []string
}

func (c *statefulSetSyncs) check(s appsv1.StatefulSetState, res controller.StatefulSetSync) {
	in, err := s.Model()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.syncs++
	if err != nil {
		c.violations = append(c.violations, "model: "+err.Error())
		return
	}
	for _, v := range plantest.CheckStatefulSet(in, res.Plan, plantest.StatefulSetGates{}) {
		if v.Quirk != "" {
			c.quirks++
			continue
		}
		if len(c.violations) < 20 {
			c.violations = append(c.violations, fmt.Sprintf("sync of %s carried out %s: %s", s.StatefulSet.ResourceVersion, res.Plan, v))
		}
	}
	for _, w := range res.Writes {
		if w.Outcome == appsv1.NotSent {
			continue
		}
		c.writes++
		if !w.Matched() && len(c.mismatched) < 20 {
			c.mismatched = append(c.mismatched, fmt.Sprintf("%s %s %s: %s (%v)", w.Write.Verb, w.Write.Resource, w.Write.Name, w.Outcome, w.Err))
		}
	}
}

// verify fails the test for any violation in the syncs carried out.
func (c *statefulSetSyncs) verify(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.syncs == 0 {
		t.Fatal("the controller carried out no sync")
	}
	t.Logf("invariants checked on the %d syncs the controller carried out (%d writes, %d answered otherwise than predicted: %v; %d violations attributed to documented upstream quirks)",
		c.syncs, c.writes, len(c.mismatched), c.mismatched, c.quirks)
	for _, v := range c.violations {
		t.Error(v)
	}
}

// startStatefulSets runs the StatefulSet controller alone, with the
// stand-in kubelet (pods Running and Ready 300ms after they appear), on
// namespace ns until the test ends, checking its syncs.
func startStatefulSets(t *testing.T, ns string) *statefulSetSyncs {
	t.Helper()
	m, err := controller.NewManager(client, controller.ManagerOptions{
		Namespace: ns, KubeletDelay: 300 * time.Millisecond, StatefulSets: true,
		NoDeploymentController: true, NoReplicaSetController: true,
		Options: controller.Options{Out: testWriter{t}},
	})
	if err != nil {
		t.Fatal(err)
	}
	syncs := &statefulSetSyncs{}
	m.StatefulSets.OnSync(syncs.check)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := m.Run(ctx); err != nil {
			t.Errorf("manager: %v", err)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		st := m.StatefulSets.Stats()
		sentMu.Lock()
		sent.Sent += st.Sent
		sent.Accepted += st.Accepted
		sent.Conflict += st.Conflict
		sent.Failed += st.Failed
		sentMu.Unlock()
		t.Logf("statefulset controller: %d syncs, %d writes sent, %d accepted, %d rejected as planned or not (%d matched the plans, %d did not)",
			st.Syncs, st.Sent, st.Accepted, st.Sent-st.Accepted, st.Matched, st.Mismatched)
	})
	return syncs
}

// statefulSetObserver polls a namespace's StatefulSet, pods, revisions and
// claims from the server and, at every state it sees, plans a sync there
// and checks the plan with CheckStatefulSet, and runs the test's checks of
// the observed state.
type statefulSetObserver struct {
	observerBase
	notes map[statefulset.ReasonCode]int // the notes of the plans
}

// stateCheck inspects one observed state and returns what is wrong, "" if
// nothing. Checks run one at a time, in the order of the states.
type stateCheck func(appsv1.StatefulSetState) string

func observeStatefulSet(t *testing.T, ns, name string, checks ...stateCheck) *statefulSetObserver {
	o := &statefulSetObserver{notes: map[statefulset.ReasonCode]int{}}
	last := ""
	o.poll(t, 40*time.Millisecond, func(ctx context.Context) {
		s, err := liveStatefulSet(ctx, ns, name, time.Now())
		if err == nil {
			if fp := statefulSetFingerprint(s); fp != last {
				last = fp
				o.check(s, fp, checks)
			}
		}
	})
	return o
}

func (o *statefulSetObserver) check(s appsv1.StatefulSetState, fp string, checks []stateCheck) {
	o.countState()
	in, err := s.Model()
	if err != nil {
		o.add("model: " + err.Error())
		return
	}
	_, p, err := appsv1.SyncStatefulSet(s)
	if err != nil && !errors.As(err, new(*statefulset.SyncError)) {
		o.add("plan: " + err.Error())
		return
	}
	o.mu.Lock()
	for _, n := range p.Notes {
		o.notes[n.Code]++
	}
	o.mu.Unlock()
	o.addViolations(plantest.CheckStatefulSet(in, p, plantest.StatefulSetGates{}), "", fp)
	for _, c := range checks {
		if msg := c(s); msg != "" {
			o.add(msg + " at " + fp)
		}
	}
}

// verify stops the observer and fails the test for any violation.
func (o *statefulSetObserver) verify(t *testing.T) {
	t.Helper()
	o.observerBase.verify(t, 2)
}

// statefulSetFingerprint identifies a state by the resourceVersions in it.
func statefulSetFingerprint(s appsv1.StatefulSetState) string {
	parts := []string{"s" + s.StatefulSet.ResourceVersion}
	parts = appendVersions(parts, "p", s.Pods)
	parts = appendVersions(parts, "r", s.ControllerRevisions)
	parts = appendVersions(parts, "c", s.PVCs)
	slices.Sort(parts[1:])
	return strings.Join(parts, ",")
}

// ordinals returns the set's pods of the state by ordinal.
func ordinals(s appsv1.StatefulSetState) map[int]*core.Pod {
	out := map[int]*core.Pod{}
	for _, p := range s.Pods {
		if parent, o := statefulset.ParseOrdinal(p.Name); parent == s.StatefulSet.Name && o >= 0 {
			out[o] = p
		}
	}
	return out
}

func runningAndReady(p *core.Pod) bool {
	if p == nil || p.Status.Phase != core.PodRunning || p.DeletionTimestamp != nil {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == core.PodReady {
			return c.Status == core.ConditionTrue
		}
	}
	return false
}

// available reports a pod Running and Ready for minReadySeconds at now (by
// its Ready condition's transition time, which the server keeps to the
// second, as upstream reads it).
func available(p *core.Pod, minReadySeconds int32, now time.Time) bool {
	if !runningAndReady(p) {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == core.PodReady {
			return !c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second).After(now)
		}
	}
	return false
}

// orderedCreation is the seed's OrderedReady guarantee, seen from outside:
// a pod first seen not yet ready (just created) has every replica below it
// Running and Ready, and available when the set has minReadySeconds. (The
// stand-in kubelet makes a pod ready 300ms after it appears, much longer
// than the poll.)
func orderedCreation() stateCheck {
	seen := map[types.UID]bool{}
	return func(s appsv1.StatefulSetState) string {
		pods := ordinals(s)
		var bad []string
		for o, p := range pods {
			if seen[p.UID] {
				continue
			}
			seen[p.UID] = true
			if runningAndReady(p) {
				continue // created while the poll looked away: nothing to say
			}
			for j := range o {
				if !available(pods[j], s.StatefulSet.Spec.MinReadySeconds, s.Now) {
					bad = append(bad, fmt.Sprintf("%s was created while %s-%d was not Running and Ready (and available after minReadySeconds %d)", p.Name, s.StatefulSet.Name, j, s.StatefulSet.Spec.MinReadySeconds))
				}
			}
		}
		slices.Sort(bad)
		return strings.Join(bad, "; ")
	}
}

// oneUnavailable holds while on is set: at most one replica is missing,
// being deleted or not Running and Ready (the rolling update replaces one
// pod at a time).
func oneUnavailable(on *atomic.Bool) stateCheck {
	return func(s appsv1.StatefulSetState) string {
		if !on.Load() {
			return ""
		}
		pods := ordinals(s)
		var down []string
		for o := range int(*s.StatefulSet.Spec.Replicas) {
			if !runningAndReady(pods[o]) {
				down = append(down, fmt.Sprintf("%s-%d", s.StatefulSet.Name, o))
			}
		}
		if len(down) > 1 {
			return fmt.Sprintf("%d replicas unavailable at once: %v", len(down), down)
		}
		return ""
	}
}

// partitionHolds holds while *below is set: the pods below the partition
// are the very pods recorded (same UID, same revision).
func partitionHolds(below *atomic.Pointer[map[int]core.Pod]) stateCheck {
	return func(s appsv1.StatefulSetState) string {
		want := below.Load()
		if want == nil {
			return ""
		}
		pods := ordinals(s)
		var bad []string
		for o, w := range *want {
			p := pods[o]
			switch {
			case p == nil:
				bad = append(bad, fmt.Sprintf("%s below the partition is gone", w.Name))
			case p.UID != w.UID || p.DeletionTimestamp != nil:
				bad = append(bad, fmt.Sprintf("%s below the partition was replaced or is being deleted", w.Name))
			case p.Labels[apps.ControllerRevisionHashLabelKey] != w.Labels[apps.ControllerRevisionHashLabelKey]:
				bad = append(bad, fmt.Sprintf("%s below the partition moved from revision %s to %s", w.Name, w.Labels[apps.ControllerRevisionHashLabelKey], p.Labels[apps.ControllerRevisionHashLabelKey]))
			}
		}
		slices.Sort(bad)
		return strings.Join(bad, "; ")
	}
}

// topDown holds while on is set: the set's pods are the ordinals 0 to k-1
// for some k (scale-down removes the highest first, one at a time).
func topDown(on *atomic.Bool) stateCheck {
	return func(s appsv1.StatefulSetState) string {
		if !on.Load() {
			return ""
		}
		pods := ordinals(s)
		for o := range len(pods) {
			if pods[o] == nil {
				var have []int
				for k := range pods {
					have = append(have, k)
				}
				slices.Sort(have)
				return fmt.Sprintf("pods at ordinals %v: ordinal %d is gone before the higher ones", have, o)
			}
		}
		return ""
	}
}

// replacements records, in order, the ordinals whose pod stopped being the
// one first seen there (deleted or replaced).
type replacements struct {
	mu    sync.Mutex
	first map[int]types.UID
	order []int
}

func (r *replacements) check(s appsv1.StatefulSetState) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	pods := ordinals(s)
	if r.first == nil {
		r.first = map[int]types.UID{}
	}
	var changed []int
	for o, uid := range r.first {
		if p := pods[o]; (p == nil || p.UID != uid) && !slices.Contains(r.order, o) {
			changed = append(changed, o)
		}
	}
	slices.Sort(changed)
	slices.Reverse(changed)
	r.order = append(r.order, changed...)
	for o, p := range pods {
		if _, ok := r.first[o]; !ok {
			r.first[o] = p.UID
		}
	}
	return ""
}

func (r *replacements) get() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.order)
}

// want waits a little for the observer to catch up with the server, then
// fails the test unless the ordinals replaced so far are want, in order.
func (r *replacements) want(t *testing.T, what string, want ...int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	got := r.get()
	for len(got) < len(want) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		got = r.get()
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s, in order: %v, want %v", what, got, want)
	}
}

// statefulSetEvents returns the messages of the set's events, each checked
// to come from statefulset-controller.
func statefulSetEvents(ctx context.Context, t *testing.T, ns, name string) []string {
	t.Helper()
	l, err := client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + name + ",involvedObject.kind=StatefulSet"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range l.Items {
		if e.Source.Component != "statefulset-controller" {
			t.Errorf("event %q recorded by %q, want statefulset-controller", e.Message, e.Source.Component)
		}
		out = append(out, e.Message)
	}
	return out
}

// waitEvents waits until the set's events include every message of want.
func waitEvents(ctx context.Context, t *testing.T, ns, name string, want ...string) {
	t.Helper()
	var got []string
	waitFor(ctx, t, "the events of "+name, 15*time.Second, func() (bool, error) {
		got = statefulSetEvents(ctx, t, ns, name)
		for _, w := range want {
			if !slices.Contains(got, w) {
				return false, nil
			}
		}
		return true, nil
	})
}

// The seed's partitioned rolling update, then the full one: 4 replicas
// created in order; a new image with partition 2 replaces web-3 then web-2
// and leaves web-0 and web-1 alone (same pods, old revision) however long
// one waits; partition 0 then replaces web-1 and web-0. One replica at a
// time is unavailable, and the revisions are upstream's names.
func TestStatefulSetPartitionedRollingUpdate(t *testing.T) {
	ctx, ns := setup(t)
	syncs := startStatefulSets(t, ns)
	var rolling atomic.Bool
	var below atomic.Pointer[map[int]core.Pod]
	repl := &replacements{}
	o := observeStatefulSet(t, ns, "web", orderedCreation(), oneUnavailable(&rolling), partitionHolds(&below), repl.check)

	created := createStatefulSet(ctx, t, statefulSet(ns, "web", 4, "nginx:1"))
	s1 := waitStatefulSet(ctx, t, ns, "web", "the first rollout", rolledOut)
	rev1 := s1.Status.UpdateRevision
	if want := "web-" + statefulset.HashRevision(mustPatch(t, created), s1.Status.CollisionCount); rev1 != want {
		t.Errorf("first revision %s, want %s (upstream's name for the template as the server defaulted it)", rev1, want)
	}
	pods := setPods(ctx, t, ns)
	for o := range 4 {
		p := pods[statefulset.PodName("web", o)]
		if p.Labels[apps.ControllerRevisionHashLabelKey] != rev1 || p.Labels[apps.StatefulSetPodNameLabel] != p.Name {
			t.Errorf("%s: labels %v, want revision %s and its name", p.Name, p.Labels, rev1)
		}
		if len(p.Spec.Volumes) == 0 || p.Spec.Volumes[0].PersistentVolumeClaim == nil || p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-"+p.Name {
			t.Errorf("%s: volumes %v, want claim data-%s first", p.Name, p.Spec.Volumes, p.Name)
		}
		if p.Spec.Hostname != p.Name || p.Spec.Subdomain != "web" {
			t.Errorf("%s: hostname %q, subdomain %q", p.Name, p.Spec.Hostname, p.Spec.Subdomain)
		}
	}
	if n := len(claims(ctx, t, ns)); n != 4 {
		t.Errorf("%d claims, want 4", n)
	}

	// Partition 2: web-3 and web-2 move to the new revision, web-0 and web-1
	// stay, checked at every observed state from before the change on.
	keep := map[int]core.Pod{0: pods["web-0"], 1: pods["web-1"]}
	below.Store(&keep)
	rolling.Store(true)
	updateStatefulSet(ctx, t, ns, "web", func(s *apps.StatefulSet) {
		s.Spec.Template.Spec.Containers[0].Image = "nginx:2"
		s.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{Partition: new(int32(2))}
	})
	var overshoot int32
	s2 := waitStatefulSet(ctx, t, ns, "web", "the partitioned rollout", func(s *apps.StatefulSet) bool {
		if s.Status.UpdateRevision != rev1 && s.Status.UpdatedReplicas > 2 {
			overshoot = s.Status.UpdatedReplicas
			return true
		}
		return s.Status.UpdatedReplicas == 2 && s.Status.ReadyReplicas == 4 && s.Status.UpdateRevision != rev1
	})
	if overshoot > 0 {
		o.verify(t)
		t.Fatalf("%d replicas updated under partition 2", overshoot)
	}
	rev2 := s2.Status.UpdateRevision
	time.Sleep(2 * time.Second) // the partition holds however long one waits
	s2 = getStatefulSet(ctx, t, ns, "web")
	if st := s2.Status; st.CurrentRevision != rev1 || st.UpdateRevision != rev2 || st.UpdatedReplicas != 2 || st.CurrentReplicas != 2 {
		t.Errorf("status under the partition: current %s (%d), update %s (%d); want %s (2), %s (2)", st.CurrentRevision, st.CurrentReplicas, st.UpdateRevision, st.UpdatedReplicas, rev1, rev2)
	}
	pods = setPods(ctx, t, ns)
	for o, want := range map[int]string{0: rev1, 1: rev1, 2: rev2, 3: rev2} {
		p := pods[statefulset.PodName("web", o)]
		if got := p.Labels[apps.ControllerRevisionHashLabelKey]; got != want {
			t.Errorf("under the partition %s is at %s, want %s", p.Name, got, want)
		}
	}
	repl.want(t, "pods replaced under the partition", 3, 2)

	// Partition 0: the rest, from the top down.
	below.Store(nil)
	updateStatefulSet(ctx, t, ns, "web", func(s *apps.StatefulSet) {
		s.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateStatefulSetStrategy{Partition: new(int32(0))}
	})
	s3 := waitStatefulSet(ctx, t, ns, "web", "the full rollout", func(s *apps.StatefulSet) bool {
		return rolledOut(s) && s.Status.UpdateRevision == rev2
	})
	rolling.Store(false)
	repl.want(t, "pods replaced", 3, 2, 1, 0)
	revs, err := client.AppsV1().ControllerRevisions(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	numbers := map[string]int64{}
	for _, r := range revs.Items {
		numbers[r.Name] = r.Revision
		if ref := metav1.GetControllerOf(&r); ref == nil || ref.UID != s3.UID {
			t.Errorf("revision %s: controller %v, want the set", r.Name, ref)
		}
	}
	if want := map[string]int64{rev1: 1, rev2: 2}; !maps.Equal(numbers, want) {
		t.Errorf("revisions %v, want %v", numbers, want)
	}
	waitEvents(ctx, t, ns, "web",
		"Create Claim data-web-0 Pod web-0 in StatefulSet web success",
		"Create Pod web-0 in StatefulSet web successful",
		"Create Pod web-3 in StatefulSet web successful",
		"Delete Pod web-3 in StatefulSet web successful",
		"Delete Pod web-0 in StatefulSet web successful")
	o.verify(t)
	syncs.verify(t)
}

// mustPatch is upstream's revision data for the set's template.
func mustPatch(t *testing.T, s *apps.StatefulSet) string {
	t.Helper()
	b, err := appsv1.StatefulSetPatch(&s.Spec.Template)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ownerRefs renders a claim's owner references as "Kind/name(uid)
// controller", sorted.
func ownerRefs(c core.PersistentVolumeClaim) []string {
	var out []string
	for _, r := range c.OwnerReferences {
		s := fmt.Sprintf("%s/%s(%s)", r.Kind, r.Name, r.UID)
		if r.Controller != nil && *r.Controller {
			s += " controller"
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// collectOrphanedClaims plays the garbage collector for claims: it deletes
// those owned by a pod that no longer exists (under the same UID), as the
// collector of a real cluster would; and the pvc-protection controller: it
// removes the kubernetes.io/pvc-protection finalizer the API server's
// admission put on every claim, which that controller drops once no pod
// uses the claim (none does: its pod is gone).
func collectOrphanedClaims(ctx context.Context, t *testing.T, ns string) []string {
	t.Helper()
	live := map[types.UID]bool{}
	for _, p := range setPods(ctx, t, ns) {
		live[p.UID] = true
	}
	var deleted []string
	for name, c := range claims(ctx, t, ns) {
		for _, r := range c.OwnerReferences {
			if r.Kind == "Pod" && !live[r.UID] {
				if err := client.CoreV1().PersistentVolumeClaims(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
				patch := []byte(`{"metadata":{"finalizers":null}}`)
				if _, err := client.CoreV1().PersistentVolumeClaims(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
					t.Fatal(err)
				}
				deleted = append(deleted, name)
				break
			}
		}
	}
	slices.Sort(deleted)
	return deleted
}

// whenScaled: Delete, whenDeleted: Retain. Scaling 5 replicas down to 2
// deletes db-4, db-3 and db-2 from the top, one at a time, and gives each
// one's claim a controller reference to that pod (so the garbage collector
// deletes the claim with the pod); the claims of the remaining replicas
// have no reference to the set or their pods. Scaling up again, the
// controller does not create db-2 while its old claim, owned by the deleted
// pod, is still there (upstream waits for the collector); once the claims
// are collected, db-2 and db-3 come back with new claims.
func TestStatefulSetScaleDownWhenScaledDelete(t *testing.T) {
	ctx, ns := setup(t)
	syncs := startStatefulSets(t, ns)
	var scaling atomic.Bool
	repl := &replacements{}
	o := observeStatefulSet(t, ns, "db", orderedCreation(), topDown(&scaling), repl.check)
	s := statefulSet(ns, "db", 5, "postgres:1")
	s.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: apps.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.DeletePersistentVolumeClaimRetentionPolicyType}
	createStatefulSet(ctx, t, s)
	waitStatefulSet(ctx, t, ns, "db", "the first rollout", rolledOut)
	before := setPods(ctx, t, ns)
	for name, c := range claims(ctx, t, ns) {
		if refs := ownerRefs(c); len(refs) != 0 {
			t.Errorf("claim %s of a replica: owners %v, want none", name, refs)
		}
	}

	scaling.Store(true)
	updateStatefulSet(ctx, t, ns, "db", func(s *apps.StatefulSet) { s.Spec.Replicas = new(int32(2)) })
	waitStatefulSet(ctx, t, ns, "db", "the scale-down", func(s *apps.StatefulSet) bool {
		return s.Status.Replicas == 2 && s.Status.ReadyReplicas == 2
	})
	repl.want(t, "pods deleted", 4, 3, 2)
	cs := claims(ctx, t, ns)
	if len(cs) != 5 {
		t.Errorf("%d claims, want the 5 (nothing collects them here)", len(cs))
	}
	for o := range 5 {
		name := statefulset.ClaimName("data", "db", o)
		var want []string
		if o >= 2 {
			pod := before[statefulset.PodName("db", o)]
			want = []string{fmt.Sprintf("Pod/%s(%s) controller", pod.Name, pod.UID)}
		}
		if got := ownerRefs(cs[name]); !slices.Equal(got, want) {
			t.Errorf("claim %s: owners %v, want %v", name, got, want)
		}
	}

	// Scale up: db-2's claim still belongs to the deleted db-2.
	updateStatefulSet(ctx, t, ns, "db", func(s *apps.StatefulSet) { s.Spec.Replicas = new(int32(4)) })
	time.Sleep(2 * time.Second)
	if _, ok := setPods(ctx, t, ns)["db-2"]; ok {
		t.Errorf("db-2 was created while its claim still belonged to the deleted pod")
	}
	live, err := liveStatefulSet(ctx, ns, "db", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, p, err := appsv1.SyncStatefulSet(live); err != nil || !hasNote(p, statefulset.NoteStaleClaim) {
		t.Errorf("plan while the stale claim exists: notes %v (error %v), want a %s note", p.Notes, err, statefulset.NoteStaleClaim)
	}
	if got, want := collectOrphanedClaims(ctx, t, ns), []string{"data-db-2", "data-db-3", "data-db-4"}; !slices.Equal(got, want) {
		t.Errorf("claims collected %v, want %v", got, want)
	}
	// Upstream watches no claims, and its sync that found the stale claim
	// asked for no retry: the claims' deletion wakes nobody, and db-2 waits
	// for the set's next event (in a cluster, the informer resync at the
	// latest). The test gives it one.
	updateStatefulSet(ctx, t, ns, "db", func(s *apps.StatefulSet) {
		s.Annotations = map[string]string{"e2e.rolloutplan.io/nudge": "claims collected"}
	})
	waitStatefulSet(ctx, t, ns, "db", "the scale-up", rolledOut)
	cs = claims(ctx, t, ns)
	for o := range 4 {
		name := statefulset.ClaimName("data", "db", o)
		c, ok := cs[name]
		if !ok {
			t.Errorf("no claim %s after the scale-up", name)
			continue
		}
		if refs := ownerRefs(c); len(refs) != 0 {
			t.Errorf("claim %s of a replica: owners %v, want none", name, refs)
		}
	}
	if _, ok := cs["data-db-4"]; ok {
		t.Errorf("claim data-db-4 re-created, but db-4 is not a replica")
	}
	o.verify(t)
	syncs.verify(t)
}

func hasNote(p statefulset.Plan, code statefulset.ReasonCode) bool {
	for _, n := range p.Notes {
		if n.Code == code {
			return true
		}
	}
	return false
}

// whenScaled: Retain, whenDeleted: Delete. Every claim gets a controller
// reference to the set (the collector deletes them with the set, not with
// their pods); scaling 4 replicas down to 2 keeps db-2's and db-3's claims,
// still owned by the set; scaling up to 3 brings db-2 back on its old claim
// (same UID). Switching to Retain/Retain then removes the set's reference
// from the claims of the pods the controller manages (db-0 to db-2; db-3's
// claim, whose pod is not a replica, is left as it is, as upstream leaves
// it). The set has minReadySeconds 1: OrderedReady waits for each pod to be
// available, not only ready, before the next, and availableReplicas is
// counted only through the requeues that wait for it (no event comes when a
// ready pod becomes available).
func TestStatefulSetScaleDownWhenDeletedDelete(t *testing.T) {
	ctx, ns := setup(t)
	syncs := startStatefulSets(t, ns)
	var scaling atomic.Bool
	repl := &replacements{}
	o := observeStatefulSet(t, ns, "db", orderedCreation(), topDown(&scaling), repl.check)
	s := statefulSet(ns, "db", 4, "postgres:1")
	s.Spec.MinReadySeconds = 1
	s.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: apps.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.RetainPersistentVolumeClaimRetentionPolicyType}
	set := createStatefulSet(ctx, t, s)
	waitStatefulSet(ctx, t, ns, "db", "the first rollout", rolledOut)
	setRef := []string{fmt.Sprintf("StatefulSet/db(%s) controller", set.UID)}
	checkClaims := func(when string, want map[string][]string) map[string]core.PersistentVolumeClaim {
		t.Helper()
		cs := claims(ctx, t, ns)
		if len(cs) != len(want) {
			t.Errorf("%s: %d claims, want %d", when, len(cs), len(want))
		}
		for name, w := range want {
			if got := ownerRefs(cs[name]); !slices.Equal(got, w) {
				t.Errorf("%s: claim %s: owners %v, want %v", when, name, got, w)
			}
		}
		return cs
	}
	// The owner references are written right after each pod is created.
	waitFor(ctx, t, "the set's references on the claims", 10*time.Second, func() (bool, error) {
		for _, c := range claims(ctx, t, ns) {
			if len(c.OwnerReferences) == 0 {
				return false, nil
			}
		}
		return true, nil
	})
	all := map[string][]string{"data-db-0": setRef, "data-db-1": setRef, "data-db-2": setRef, "data-db-3": setRef}
	checkClaims("after creation", all)

	scaling.Store(true)
	updateStatefulSet(ctx, t, ns, "db", func(s *apps.StatefulSet) { s.Spec.Replicas = new(int32(2)) })
	waitStatefulSet(ctx, t, ns, "db", "the scale-down", func(s *apps.StatefulSet) bool {
		return s.Status.Replicas == 2 && s.Status.ReadyReplicas == 2
	})
	repl.want(t, "pods deleted", 3, 2)
	kept := checkClaims("after the scale-down", all)

	updateStatefulSet(ctx, t, ns, "db", func(s *apps.StatefulSet) { s.Spec.Replicas = new(int32(3)) })
	waitStatefulSet(ctx, t, ns, "db", "the scale-up", rolledOut)
	cs := checkClaims("after the scale-up", all)
	if cs["data-db-2"].UID != kept["data-db-2"].UID {
		t.Errorf("db-2 came back on a new claim; want its retained one")
	}
	if p := setPods(ctx, t, ns)["db-2"]; len(p.Spec.Volumes) == 0 || p.Spec.Volumes[0].PersistentVolumeClaim == nil || p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-db-2" {
		t.Errorf("db-2 volumes %v, want data-db-2", p.Spec.Volumes)
	}

	updateStatefulSet(ctx, t, ns, "db", func(s *apps.StatefulSet) {
		s.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = apps.RetainPersistentVolumeClaimRetentionPolicyType
	})
	want := map[string][]string{"data-db-0": nil, "data-db-1": nil, "data-db-2": nil, "data-db-3": setRef}
	waitFor(ctx, t, "the set's references removed from the replicas' claims", 20*time.Second, func() (bool, error) {
		for name, w := range want {
			if !slices.Equal(ownerRefs(claims(ctx, t, ns)[name]), w) {
				return false, nil
			}
		}
		return true, nil
	})
	checkClaims("after the policy change", want)
	o.verify(t)
	syncs.verify(t)
}
