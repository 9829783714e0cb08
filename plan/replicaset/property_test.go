package replicaset

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"pgregory.net/rapid"
)

// world is one generated namespace: the ReplicaSet under test, a sibling
// with the same controller, a stranger with another one, and their pods.
type world struct {
	rs       *model.ReplicaSet
	rss      []*model.ReplicaSet
	pods     []*model.Pod
	now      time.Time
	spec     int
	deleting bool
}

var (
	labelChoices = []map[string]string{
		{"app": "web", "hash": "new", "tier": "front"}, // rs, fully labelled
		{"app": "web", "hash": "new"},                  // rs, not fully labelled
		{"app": "web", "hash": "old"},                  // sibling
		{"app": "db"},                                  // stranger
	}
	costChoices = []string{"", "-5", "10", "0", "007", "+1", "x", "-2147483648"}
)

func genTime(t *rapid.T, label string, now time.Time) time.Time {
	return rapid.SampledFrom([]time.Time{
		{}, now, now.Add(time.Minute), now.Add(-5 * time.Second), now.Add(-2 * time.Hour),
		now.Add(-2*time.Hour + time.Minute), now.Add(-5 * time.Hour), now.Add(-8 * time.Hour),
		now.AddDate(0, -1, 0),
	}).Draw(t, label)
}

func genWorld(t *rapid.T, maxPods int) world {
	now := t0
	rs := mkRS("web", 0)
	rs.Spec.Selector.MatchLabels["hash"] = "new"
	rs.Spec.Template.Labels = map[string]string{"app": "web", "hash": "new", "tier": "front"}
	if rapid.Bool().Draw(t, "templateWithinSelector") {
		delete(rs.Spec.Template.Labels, "tier") // the selector requires every template label
	}
	rs.Spec.Replicas = model.Int32Ptr(int32(rapid.IntRange(0, maxPods/2+2).Draw(t, "replicas")))
	rs.Spec.MinReadySeconds = int32(rapid.SampledFrom([]int{0, 10}).Draw(t, "minReadySeconds"))
	rs.Generation = int64(rapid.IntRange(1, 3).Draw(t, "generation"))
	rs.Status.ObservedGeneration = int64(rapid.IntRange(0, 3).Draw(t, "observedGeneration"))
	rs.Status.Replicas = int32(rapid.IntRange(0, 3).Draw(t, "statusReplicas"))
	if rapid.IntRange(0, 9).Draw(t, "rsDeleting") == 0 {
		rs.DeletionTimestamp = model.TimePtr(now)
	}
	if rapid.IntRange(0, 5).Draw(t, "noController") == 0 {
		rs.OwnerReferences = nil
	}
	if rapid.Bool().Draw(t, "hasFailure") {
		rs.Status.Conditions = []model.ReplicaSetCondition{{Type: model.ReplicaSetReplicaFailure, Status: model.ConditionTrue, Reason: "FailedCreate"}}
	}
	sibling := mkRS("web-old", 1)
	sibling.Spec.Selector.MatchLabels["hash"] = "old"
	sibling.Spec.Template.Labels["hash"] = "old"
	stranger := mkRS("db", 1)
	stranger.OwnerReferences = []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "db", "dep-db")}
	stranger.Spec.Selector.MatchLabels["app"] = "db"
	stranger.Spec.Template.Labels["app"] = "db"
	rss := []*model.ReplicaSet{sibling, stranger}
	if rapid.Bool().Draw(t, "rsListed") {
		rss = append(rss, rs.DeepCopy())
	}

	n := rapid.IntRange(0, maxPods).Draw(t, "pods")
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	perm := rapid.Permutation(ids).Draw(t, "uids")
	pods := make([]*model.Pod, n)
	for i := range pods {
		p := &model.Pod{ObjectMeta: model.ObjectMeta{
			Name: fmt.Sprintf("p%02d", i), Namespace: "ns", UID: fmt.Sprintf("u%02d", perm[i]),
			CreationTimestamp: genTime(t, "created", now),
			Labels:            maps.Clone(rapid.SampledFrom(labelChoices).Draw(t, "labels")),
		}}
		switch rapid.IntRange(0, 4).Draw(t, "owner") {
		case 0, 1:
			ownedBy(rs)(p)
		case 2:
			ownedBy(sibling)(p)
		case 3:
			ownedBy(stranger)(p)
		}
		p.Spec.NodeName = rapid.SampledFrom([]string{"", "n1", "n2", "n3"}).Draw(t, "node")
		p.Status.Phase = rapid.SampledFrom([]model.PodPhase{model.PodPending, model.PodRunning, model.PodRunning, model.PodUnknown, "", model.PodSucceeded, model.PodFailed}).Draw(t, "phase")
		if rapid.Bool().Draw(t, "ready") {
			p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: genTime(t, "readySince", now)}}
		}
		if r := rapid.SampledFrom([]int32{0, 0, 1, 3}).Draw(t, "restarts"); r > 0 {
			p.Status.ContainerStatuses = []model.ContainerStatus{{Name: "a", RestartCount: 0}, {Name: "b", RestartCount: r}}
		}
		if c := rapid.SampledFrom(costChoices).Draw(t, "cost"); c != "" {
			p.Annotations = map[string]string{model.PodDeletionCostAnnotation: c}
		}
		if rapid.IntRange(0, 5).Draw(t, "podDeleting") == 0 {
			p.DeletionTimestamp = model.TimePtr(now.Add(-time.Second))
		}
		pods[i] = p
	}
	return world{rs: rs, rss: rss, pods: pods, now: now, spec: int(*rs.Spec.Replicas), deleting: rs.DeletionTimestamp != nil}
}

// claimedActive is an independent statement of which pods the sync counts:
// active pods of the namespace that rs controls and selects, plus selected
// orphans unless rs is being deleted.
func claimedActive(w world) []*model.Pod {
	var out []*model.Pod
	for _, p := range w.pods {
		// The ReplicaSet's namespaced lister sees no other namespace. The
		// selector is evaluated by LabelSelector.Matches, not by the
		// model.Matcher Sync uses.
		if p.Namespace != w.rs.Namespace || !model.IsPodActive(p) {
			continue
		}
		if ok, err := w.rs.Spec.Selector.Matches(p.Labels); !ok || err != nil {
			continue
		}
		ref := p.ControllerRef()
		if ref != nil && ref.UID == w.rs.UID || ref == nil && !w.deleting {
			out = append(out, p)
		}
	}
	return out
}

// acyclic reports whether upstream's comparator, as a relation on pods, has
// no cycle.
func acyclic(pods []*model.Pod, ranks []int, now time.Time) bool {
	n := len(pods)
	less := make([][]bool, n)
	for i := range less {
		less[i] = make([]bool, n)
		for j := range less[i] {
			c, _ := Compare(pods[i], pods[j], ranks[i], ranks[j], now)
			less[i][j] = c < 0
		}
	}
	state := make([]int, n) // 0 new, 1 on stack, 2 done
	var visit func(int) bool
	visit = func(i int) bool {
		state[i] = 1
		for j := range n {
			if !less[i][j] {
				continue
			}
			if state[j] == 1 || state[j] == 0 && !visit(j) {
				return false
			}
		}
		state[i] = 2
		return true
	}
	for i := range n {
		if state[i] == 0 && !visit(i) {
			return false
		}
	}
	return true
}

func TestPropSync(t *testing.T) {
	var consistent, cyclic int
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t, 14)
		podsBefore, rssBefore, rsBefore := deepCopyPods(w.pods), deepCopyRSs(w.rss), w.rs.DeepCopy()
		p, err := Sync(w.rs, w.pods, w.rss, w.now)
		if err != nil {
			t.Fatalf("valid input rejected: %v", err)
		}
		// Inputs unmodified.
		if diff := cmp.Diff(podsBefore, w.pods); diff != "" {
			t.Fatalf("pods modified:\n%s", diff)
		}
		if diff := cmp.Diff(rssBefore, w.rss); diff != "" {
			t.Fatalf("replicaSets modified:\n%s", diff)
		}
		if diff := cmp.Diff(rsBefore, w.rs); diff != "" {
			t.Fatalf("rs modified:\n%s", diff)
		}
		active := claimedActive(w)
		if int(p.Status.Replicas) != len(active) {
			t.Fatalf("status.replicas %d, want %d claimed active pods", p.Status.Replicas, len(active))
		}
		creates, deletes := len(names(p, CreatePod)), len(names(p, DeletePod))
		switch diff := len(active) - w.spec; {
		case w.deleting:
			if creates+deletes != 0 {
				t.Fatalf("a deleting ReplicaSet planned %d creates, %d deletes", creates, deletes)
			}
		case diff > 0:
			if creates != 0 || deletes != min(diff, BurstReplicas) || p.Count(DeletePod) != deletes {
				t.Fatalf("%d over: %d creates, %d deletes", diff, creates, deletes)
			}
		case diff < 0:
			if deletes != 0 || creates != min(-diff, BurstReplicas) || p.Count(CreatePod) != creates {
				t.Fatalf("%d under: %d creates, %d deletes", -diff, creates, deletes)
			}
		default:
			if creates+deletes != 0 {
				t.Fatalf("in sync but %d creates, %d deletes", creates, deletes)
			}
		}
		// fullyLabeledReplicas counts the claimed active pods carrying every
		// template label (upstream's template-label selector).
		fully := 0
		for _, pod := range active {
			all := true
			for k, v := range w.rs.Spec.Template.Labels {
				if got, ok := pod.Labels[k]; !ok || got != v {
					all = false
				}
			}
			if all {
				fully++
			}
		}
		if int(p.Status.FullyLabeledReplicas) != fully {
			t.Fatalf("status.fullyLabeledReplicas %d, want %d", p.Status.FullyLabeledReplicas, fully)
		}
		// Status counts are consistent.
		st := p.Status
		if st.AvailableReplicas > st.ReadyReplicas || st.ReadyReplicas > st.Replicas || st.FullyLabeledReplicas > st.Replicas ||
			st.TerminatingReplicas == nil || *st.TerminatingReplicas < 0 || st.ObservedGeneration != w.rs.Generation {
			t.Fatalf("inconsistent status %+v", st)
		}
		if (p.RequeueAfter != 0) != (w.rs.Spec.MinReadySeconds > 0 && st.ReadyReplicas != st.AvailableReplicas) {
			t.Fatalf("requeue %v with status %+v", p.RequeueAfter, st)
		}
		if len(p.Notes) == 0 {
			t.Fatal("a plan without notes")
		}
		// Victims never rank after a pod kept, whenever upstream's comparator
		// gives a consistent order at all.
		if deletes > 0 {
			ranks := CoLocationRanks(active, RelatedPods(w.rs, w.pods, w.rss))
			if acyclic(active, ranks, w.now) {
				consistent++
				victims := names(p, DeletePod)
				for i, s := range active {
					if slices.Contains(victims, s.Name) {
						continue
					}
					for j, v := range active {
						if !slices.Contains(victims, v.Name) {
							continue
						}
						if c, rule := Compare(s, v, ranks[i], ranks[j], w.now); c < 0 {
							t.Fatalf("kept %s although upstream deletes it before victim %s (%s)", s.Name, v.Name, rule)
						}
					}
				}
			} else {
				cyclic++
			}
		}
		// Permutation invariance.
		pods2 := rapid.Permutation(w.pods).Draw(t, "podOrder")
		rss2 := rapid.Permutation(w.rss).Draw(t, "rsOrder")
		p2, err := Sync(w.rs, pods2, rss2, w.now)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(p, p2); diff != "" {
			t.Fatalf("plan depends on input order:\n%s", diff)
		}
	})
	t.Logf("scale-downs checked against upstream's comparator: %d consistent, %d cyclic", consistent, cyclic)
}

// genCyclePronePods draws ready pods that differ only in UID, two ready
// times of one bucket, restarts and creation times: the configurations where
// upstream's comparator can cycle.
func genCyclePronePods(t *rapid.T) []*model.Pod {
	n := rapid.IntRange(1, 9).Draw(t, "n")
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	perm := rapid.Permutation(ids).Draw(t, "uids")
	pods := make([]*model.Pod, n)
	for i := range pods {
		ready := rapid.SampledFrom([]time.Time{t0.Add(-2 * time.Hour), t0.Add(-2*time.Hour + time.Minute)}).Draw(t, "ready")
		pods[i] = mkPod(fmt.Sprintf("p%d", i), uid(fmt.Sprintf("u%d", perm[i])), running("n", ready),
			restarts(rapid.SampledFrom([]int32{0, 2}).Draw(t, "restarts")),
			created(rapid.SampledFrom([]time.Time{t0.Add(-3 * time.Hour), t0.Add(-30 * time.Hour)}).Draw(t, "created")))
	}
	return pods
}

// TestPropDeletionOrder: DeletionOrder is a permutation of the input that
// does not depend on the input order, and is a linear extension of
// upstream's comparator whenever that comparator is acyclic.
func TestPropDeletionOrder(t *testing.T) {
	var consistent, cyclic int
	rapid.Check(t, func(t *rapid.T) {
		var pods []*model.Pod
		if rapid.Bool().Draw(t, "cycleProne") {
			pods = genCyclePronePods(t)
		} else {
			w := genWorld(t, 10)
			pods = claimedActive(w)
		}
		order := DeletionOrder(pods, pods, t0)
		seen := make([]bool, len(pods))
		for _, i := range order {
			if seen[i] {
				t.Fatalf("index %d twice in %v", i, order)
			}
			seen[i] = true
		}
		if len(order) != len(pods) {
			t.Fatalf("order %v of %d pods", order, len(pods))
		}
		var byName []string
		for _, i := range order {
			byName = append(byName, pods[i].Name)
		}
		shuffled := rapid.Permutation(pods).Draw(t, "order")
		var again []string
		for _, i := range DeletionOrder(shuffled, shuffled, t0) {
			again = append(again, shuffled[i].Name)
		}
		if !slices.Equal(byName, again) {
			t.Fatalf("order %v, after shuffling %v", byName, again)
		}
		ranks := CoLocationRanks(pods, pods)
		if !acyclic(pods, ranks, t0) {
			cyclic++
			return
		}
		consistent++
		for x := range order {
			for y := x + 1; y < len(order); y++ {
				a, b := order[x], order[y]
				if c, rule := Compare(pods[b], pods[a], ranks[b], ranks[a], t0); c < 0 {
					t.Fatalf("%s before %s, but upstream puts %s first (%s)", pods[a].Name, pods[b].Name, pods[b].Name, rule)
				}
			}
		}
	})
	t.Logf("orders checked against upstream's comparator: %d consistent, %d cyclic", consistent, cyclic)
}

// TestPropCreateFaults: with creates failing at random, the planner never
// attempts more than the shortfall (capped at the burst), attempts whole
// batches only up to the first failing one, and reports the failure.
func TestPropCreateFaults(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		want := rapid.IntRange(0, 700).Draw(t, "want")
		failing := map[int]bool{}
		for _, a := range rapid.SliceOfN(rapid.IntRange(0, 600), 0, 3).Draw(t, "failing") {
			failing[a] = true
		}
		rs := mkRS("web", int32(want))
		p, err := Sync(rs, nil, nil, t0, WithCreateFault(func(attempt int, _ *model.Pod) error {
			if failing[attempt] {
				return fmt.Errorf("attempt %d refused", attempt)
			}
			return nil
		}))
		serr := syncError(t, err)
		n := min(want, BurstReplicas)
		attempts := len(names(p, CreatePod))
		if attempts > n || p.Count(CreatePod) > attempts {
			t.Fatalf("%d attempts, %d created for %d missing", attempts, p.Count(CreatePod), want)
		}
		firstFail := -1
		for a := range n {
			if failing[a] {
				firstFail = a
				break
			}
		}
		if firstFail < 0 {
			if attempts != n || serr != nil {
				t.Fatalf("no failure: %d attempts of %d, err %v", attempts, n, serr)
			}
			return
		}
		// The attempts end with the batch holding the first failure.
		end := 0
		for _, b := range SlowStartBatches(n) {
			end += b
			if end > firstFail {
				break
			}
		}
		if attempts != end {
			t.Fatalf("first failure at %d: %d attempts, want %d", firstFail, attempts, end)
		}
		if serr == nil || serr.Message != fmt.Sprintf("attempt %d refused", firstFail) || p.RequeueAfter != 0 {
			t.Fatalf("err %+v, requeue %v", serr, p.RequeueAfter)
		}
		if len(p.Status.Conditions) != 1 || p.Status.Conditions[0].Reason != model.ReasonFailedCreate {
			t.Fatalf("conditions %+v", p.Status.Conditions)
		}
	})
}

// cluster is a tiny API server for the state machine: it applies accepted
// actions the way the real one would.
type cluster struct {
	rs      *model.ReplicaSet
	rss     []*model.ReplicaSet
	pods    []*model.Pod
	now     time.Time
	nextUID int
}

func (c *cluster) apply(p Plan) {
	for _, a := range p.Accepted() {
		switch a.Kind {
		case AdoptPod:
			for _, q := range c.pods {
				if q.Name == a.Name {
					q.OwnerReferences = append(q.OwnerReferences, *a.OwnerReference)
				}
			}
		case ReleasePod:
			for _, q := range c.pods {
				if q.Name == a.Name {
					q.OwnerReferences = slices.DeleteFunc(q.OwnerReferences, func(r model.OwnerReference) bool { return r.UID == c.rs.UID })
				}
			}
		case CreatePod:
			q := a.Pod.DeepCopy()
			c.nextUID++
			q.UID = fmt.Sprintf("sim-%d", c.nextUID)
			q.CreationTimestamp = c.now
			q.Status.Phase = model.PodPending
			c.pods = append(c.pods, q)
		case DeletePod:
			for _, q := range c.pods {
				if q.Name == a.Name {
					q.DeletionTimestamp = model.TimePtr(c.now)
				}
			}
		case UpdateReplicaSetStatus:
			c.rs.Status = *a.Status
		}
	}
}

// TestPropStateMachine drives plan → apply → change the world → plan …; after
// every applied sync, planning again must find nothing to create, delete,
// adopt or release, and the status must count exactly the desired pods.
func TestPropStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := mkRS("web", int32(rapid.IntRange(0, 8).Draw(t, "replicas")))
		c := &cluster{rs: rs, now: t0}
		podByIndex := func(t *rapid.T) *model.Pod {
			if len(c.pods) == 0 {
				t.Skip("no pods")
			}
			return c.pods[rapid.IntRange(0, len(c.pods)-1).Draw(t, "pod")]
		}
		t.Repeat(map[string]func(*rapid.T){
			"sync": func(t *rapid.T) {
				p, err := Sync(c.rs, c.pods, c.rss, c.now)
				if err != nil {
					t.Fatal(err)
				}
				c.apply(p)
				again, err := Sync(c.rs, c.pods, c.rss, c.now)
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range again.Actions {
					if a.Kind != UpdateReplicaSetStatus {
						t.Fatalf("after applying a sync, the next one still plans %s", a)
					}
				}
				if int(again.Status.Replicas) != int(*c.rs.Spec.Replicas) {
					t.Fatalf("%d replicas after convergence, want %d", again.Status.Replicas, *c.rs.Spec.Replicas)
				}
			},
			"scale": func(t *rapid.T) {
				c.rs.Spec.Replicas = model.Int32Ptr(int32(rapid.IntRange(0, 12).Draw(t, "replicas")))
				c.rs.Generation++
			},
			"become-ready": func(t *rapid.T) {
				q := podByIndex(t)
				q.Spec.NodeName = rapid.SampledFrom([]string{"n1", "n2"}).Draw(t, "node")
				q.Status.Phase = model.PodRunning
				q.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: c.now}}
			},
			"crash": func(t *rapid.T) {
				q := podByIndex(t)
				q.Status.ContainerStatuses = []model.ContainerStatus{{Name: "c", RestartCount: int32(rapid.IntRange(1, 5).Draw(t, "restarts"))}}
				q.Status.Conditions = nil
			},
			"finish-termination": func(t *rapid.T) {
				c.pods = slices.DeleteFunc(c.pods, func(q *model.Pod) bool { return q.DeletionTimestamp != nil })
			},
			"complete": func(t *rapid.T) {
				podByIndex(t).Status.Phase = model.PodSucceeded
			},
			"relabel": func(t *rapid.T) {
				podByIndex(t).Labels = map[string]string{"app": "debug"}
			},
			"orphan-appears": func(t *rapid.T) {
				c.nextUID++
				c.pods = append(c.pods, mkPod(fmt.Sprintf("orphan-%d", c.nextUID), uid(fmt.Sprintf("sim-%d", c.nextUID))))
			},
			"tick": func(t *rapid.T) {
				c.now = c.now.Add(time.Duration(rapid.IntRange(1, 7200).Draw(t, "seconds")) * time.Second)
			},
			"": func(t *rapid.T) {
				// Names stay unique however the simulation goes.
				seen := map[string]bool{}
				for _, q := range c.pods {
					if seen[q.Name] {
						t.Fatalf("two pods named %s", q.Name)
					}
					seen[q.Name] = true
				}
			},
		})
	})
}

// TestPropSelectKeys: the partial ranking Sync uses for a scale-down puts
// exactly the pods of the full ranking first, for every prefix length, on
// sets rich in equal ready times (long runs of the second pass) and on the
// cycle-prone sets.
func TestPropSelectKeys(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var pods []*model.Pod
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			pods = genCyclePronePods(t)
		case 1:
			pods = claimedActive(genWorld(t, 40))
		default:
			n := rapid.IntRange(1, 200).Draw(t, "n")
			for i := range n {
				ready := t0.Add(-time.Duration(rapid.IntRange(0, 3).Draw(t, "ready")) * time.Hour)
				p := mkPod(fmt.Sprintf("p%03d", i), uid(fmt.Sprintf("u%03d", rapid.IntRange(0, 999).Draw(t, "uid")*1000+i)),
					running(fmt.Sprintf("n%d", rapid.IntRange(0, 2).Draw(t, "node")), ready),
					restarts(int32(rapid.IntRange(0, 2).Draw(t, "restarts"))),
					created(t0.Add(-time.Duration(rapid.IntRange(4, 6).Draw(t, "created"))*time.Hour)))
				pods = append(pods, p)
			}
		}
		if rapid.Bool().Draw(t, "nil") && len(pods) > 0 {
			pods[rapid.IntRange(0, len(pods)-1).Draw(t, "nilAt")] = nil
		}
		now := t0
		if rapid.IntRange(0, 5).Draw(t, "zeroNow") == 0 {
			now = time.Time{}
		}
		cfg := newConfig(nil)
		ranks := CoLocationRanks(pods, pods)
		full := rankedKeys(pods, ranks, now, &cfg)
		m := rapid.IntRange(0, len(full)+1).Draw(t, "m")
		got := partialKeys(pods, ranks, now, &cfg, m)
		if len(got) != len(full) {
			t.Fatalf("%d keys, want %d", len(got), len(full))
		}
		for i := range min(m, len(full)) {
			if got[i].name != full[i].name {
				t.Fatalf("position %d of %d: %s, want %s", i, m, got[i].name, full[i].name)
			}
		}
	})
}

// ReplicaSetsAndPodsValidated is only the caller's word: on valid worlds
// the plan is the one Sync makes without it.
func TestPropObjectsValidatedPlansTheSame(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t, 14)
		want, wantErr := Sync(w.rs, w.pods, w.rss, w.now)
		got, gotErr := Sync(w.rs, w.pods, w.rss, w.now, ReplicaSetsAndPodsValidated())
		if diff := cmp.Diff(wantErr, gotErr); diff != "" {
			t.Fatalf("errors differ:\n%s", diff)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("plans differ:\n%s", diff)
		}
	})
}
