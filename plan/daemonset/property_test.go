package daemonset_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// cluster is a node pool with one DaemonSet, its pods and revisions, as an
// API server with an instant kubelet would hold them.
type cluster struct {
	ds    *model.DaemonSet
	nodes map[string]*model.Node
	pods  map[string]*model.Pod
	revs  map[string]*model.ControllerRevision
	now   time.Time
	image int
	seq   int
}

func (c *cluster) state() daemonset.State {
	s := daemonset.State{DaemonSet: c.ds.DeepCopy(), Now: c.now}
	for _, k := range slices.Sorted(maps.Keys(c.nodes)) {
		s.Nodes = append(s.Nodes, c.nodes[k].DeepCopy())
	}
	for _, k := range slices.Sorted(maps.Keys(c.pods)) {
		s.Pods = append(s.Pods, c.pods[k].DeepCopy())
	}
	for _, k := range slices.Sorted(maps.Keys(c.revs)) {
		s.ControllerRevisions = append(s.ControllerRevisions, c.revs[k].DeepCopy())
	}
	return s
}

// apply carries out the plan's writes as an API server would, with pods
// bound to their node at once and deleted pods gone at once.
func (c *cluster) apply(t *rapid.T, p daemonset.Plan) {
	for _, a := range p.Actions {
		switch a.Kind {
		case daemonset.CreatePod:
			pod := a.Pod.DeepCopy()
			pod.UID = "uid-" + pod.Name
			pod.CreationTimestamp = c.now
			pod.Spec.NodeName = a.Node
			pod.Status = model.PodStatus{Phase: model.PodPending,
				Conditions: []model.PodCondition{{Type: model.PodReady, Status: model.ConditionFalse, LastTransitionTime: c.now}}}
			if _, dup := c.pods[pod.Name]; dup {
				t.Fatalf("created pod %s exists", pod.Name)
			}
			c.pods[pod.Name] = pod
		case daemonset.DeletePod:
			delete(c.pods, a.Object.Name)
		case daemonset.CreateControllerRevision:
			r := a.Revision.DeepCopy()
			r.UID = "uid-" + r.Name
			r.CreationTimestamp = c.now
			c.revs[r.Name] = r
		case daemonset.UpdateControllerRevision:
			r := c.revs[a.Object.Name]
			maps.Copy(r.Labels, a.RevisionUpdate.Labels)
			r.Revision = a.RevisionUpdate.Revision
		case daemonset.DeleteControllerRevision:
			delete(c.revs, a.Object.Name)
		case daemonset.UpdateDaemonSetStatus:
			c.ds.Status = a.Status.DeepCopy()
		case daemonset.RelabelPod:
			maps.Copy(c.pods[a.Object.Name].Labels, a.Labels)
		default:
			t.Fatalf("unexpected action %s", a)
		}
	}
}

// desiredWithoutAvailable counts the nodes that should run a daemon pod
// and have no available one, ignoring the pods in gone.
func (c *cluster) desiredWithoutAvailable(gone map[string]bool) (n int, desired int32) {
	for _, nd := range c.nodes {
		if !daemonset.NodeShouldRunDaemonPod(nd, c.ds).ShouldRun {
			continue
		}
		desired++
		ok := false
		for _, p := range c.pods {
			if !gone[p.Name] && p.Spec.NodeName == nd.Name && p.DeletionTimestamp == nil && !p.IsTerminal() &&
				model.IsPodReady(p) && !p.Status.Conditions[0].LastTransitionTime.Add(time.Duration(c.ds.Spec.MinReadySeconds)*time.Second).After(c.now) {
				ok = true
			}
		}
		if !ok {
			n++
		}
	}
	return n, desired
}

// updateReasons are the reasons of the deletes the update strategy makes
// (in rollingUpdate, and the surge replacement in podsShouldBeOnNode).
var updateReasons = []daemonset.ReasonCode{daemonset.ReasonReplaceUnavailable, daemonset.ReasonReplaceWithinBudget,
	daemonset.ReasonNewPodAvailable, daemonset.ReasonOldPodNotReady, daemonset.ReasonSurgeMoved}

func newCluster(t *rapid.T) *cluster {
	c := &cluster{nodes: map[string]*model.Node{}, pods: map[string]*model.Pod{}, revs: map[string]*model.ControllerRevision{}, now: t0}
	surge := rapid.Bool().Draw(t, "surge")
	budget := rapid.SampledFrom([]model.IntOrString{model.FromInt(1), model.FromInt(2), model.FromString("50%"), model.FromString("100%")}).Draw(t, "budget")
	edits := []func(*model.DaemonSet){func(ds *model.DaemonSet) {
		ds.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, "minReady")
		ds.Spec.RevisionHistoryLimit = model.Int32Ptr(rapid.Int32Range(0, 3).Draw(t, "historyLimit"))
		if rapid.Bool().Draw(t, "selector") {
			ds.Spec.Scheduling.NodeSelector = map[string]string{"pool": "general"}
		}
	}}
	if surge {
		edits = append(edits, withStrategy(model.FromInt(0), budget))
	} else {
		edits = append(edits, withStrategy(budget, model.FromInt(0)))
	}
	c.ds = fluentd(edits...)
	for i := range rapid.IntRange(1, 7).Draw(t, "nodes") {
		c.addNode(t, fmt.Sprintf("n-%d", i))
	}
	return c
}

func (c *cluster) addNode(t *rapid.T, name string) {
	n := node(name, label("pool", rapid.SampledFrom([]string{"general", "gpu"}).Draw(t, "pool")))
	c.nodes[name] = n
}

// TestRollingUpdateInvariants runs the planner sync after sync over a
// changing node pool (nodes added, removed, tainted, cordoned; pods
// becoming ready or failing; template changes) and checks after every
// sync: never more than maxUnavailable nodes without an available daemon
// pod because of the update, never more than one surge pod per node, never
// a pod created on a node that should not run one nor one left on a node
// that must not keep it; and that each plan is deterministic, independent of
// the input order and leaves its input alone.
func TestRollingUpdateInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCluster(t)
		t.Repeat(map[string]func(*rapid.T){
			"sync": func(t *rapid.T) { c.syncAndCheck(t) },
			"kubelet": func(t *rapid.T) {
				names := slices.Sorted(maps.Keys(c.pods))
				if len(names) == 0 {
					t.Skip("no pods")
				}
				p := c.pods[rapid.SampledFrom(names).Draw(t, "pod")]
				if rapid.IntRange(0, 9).Draw(t, "fail") == 0 {
					p.Status.Phase = model.PodFailed
					p.Status.Conditions[0].Status = model.ConditionFalse
					return
				}
				if p.Status.Phase == model.PodPending {
					p.Status.Phase = model.PodRunning
					p.Status.Conditions[0] = model.PodCondition{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: c.now}
				}
			},
			"tick": func(t *rapid.T) {
				c.now = c.now.Add(time.Duration(rapid.IntRange(1, 10).Draw(t, "seconds")) * time.Second)
			},
			"template": func(t *rapid.T) {
				// A new image, or a rollback to an earlier one (whose
				// revision is renumbered).
				image := rapid.IntRange(0, c.image+1).Draw(t, "image")
				c.image = max(c.image, image)
				c.ds.Spec.Template.Spec = fmt.Sprintf(`{"spec":{"containers":[{"image":"fluentd:v%d","name":"fluentd"}]}}`, image)
				c.ds.Generation++
				c.ds.Annotations[model.DaemonSetTemplateGenerationAnnotation] = fmt.Sprint(c.ds.Generation)
			},
			"node": func(t *rapid.T) {
				names := slices.Sorted(maps.Keys(c.nodes))
				switch rapid.IntRange(0, 4).Draw(t, "change") {
				case 0:
					c.seq++
					c.addNode(t, fmt.Sprintf("m-%d", c.seq))
				case 1:
					if len(names) == 0 {
						return
					}
					gone := rapid.SampledFrom(names).Draw(t, "remove")
					delete(c.nodes, gone)
					for name, p := range c.pods { // the pod GC
						if p.Spec.NodeName == gone {
							delete(c.pods, name)
						}
					}
				default:
					if len(names) == 0 {
						return
					}
					n := c.nodes[rapid.SampledFrom(names).Draw(t, "taint")]
					tt := rapid.SampledFrom([]model.Taint{
						{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule},
						{Key: "dedicated", Value: "infra", Effect: model.TaintEffectNoExecute},
						{Key: model.TaintNodeUnschedulable, Effect: model.TaintEffectNoSchedule},
					}).Draw(t, "which")
					if i := slices.IndexFunc(n.Spec.Taints, func(x model.Taint) bool { return x.Key == tt.Key && x.Effect == tt.Effect }); i >= 0 {
						n.Spec.Taints = slices.Delete(n.Spec.Taints, i, i+1)
					} else {
						n.Spec.Taints = append(n.Spec.Taints, tt)
					}
					n.Spec.Unschedulable = slices.ContainsFunc(n.Spec.Taints, func(x model.Taint) bool { return x.Key == model.TaintNodeUnschedulable })
				}
			},
		})
	})
}

func (c *cluster) syncAndCheck(t *rapid.T) {
	s := c.state()
	before := c.state()
	p, err := daemonset.Sync(s)
	if err != nil {
		t.Fatalf("Sync: %v", err)
	}
	if d := cmp.Diff(before, s); d != "" {
		t.Fatalf("Sync changed its input (-before +after):\n%s", d)
	}
	again, _ := daemonset.Sync(c.state())
	if d := cmp.Diff(p, again); d != "" {
		t.Fatalf("the same state planned twice differs:\n%s", d)
	}
	shuffled := c.state()
	r := rand.New(rand.NewPCG(uint64(len(shuffled.Pods)), 7))
	r.Shuffle(len(shuffled.Nodes), func(i, j int) { shuffled.Nodes[i], shuffled.Nodes[j] = shuffled.Nodes[j], shuffled.Nodes[i] })
	r.Shuffle(len(shuffled.Pods), func(i, j int) { shuffled.Pods[i], shuffled.Pods[j] = shuffled.Pods[j], shuffled.Pods[i] })
	r.Shuffle(len(shuffled.ControllerRevisions), func(i, j int) {
		shuffled.ControllerRevisions[i], shuffled.ControllerRevisions[j] = shuffled.ControllerRevisions[j], shuffled.ControllerRevisions[i]
	})
	if sp, _ := daemonset.Sync(shuffled); cmp.Diff(p, sp) != "" {
		t.Fatalf("the plan depends on the order of the input:\n%s", cmp.Diff(p, sp))
	}

	// The budget bounds what the update deletes. Upstream's clean-up of a
	// node with excess pods keeps the oldest whatever its availability
	// (TestSyncWorkedExamples, "excess old pods at one creation time"):
	// with two template changes during a surge it can delete the available
	// one, so those deletes are not counted here.
	unavailableBefore, desired := c.desiredWithoutAvailable(nil)
	byUpdate := map[string]bool{}
	for _, a := range p.Actions {
		if a.Kind == daemonset.DeletePod && slices.Contains(updateReasons, a.Reason.Code) {
			byUpdate[a.Object.Name] = true
		}
		if a.Kind == daemonset.CreatePod {
			if pl := daemonset.NodeShouldRunDaemonPod(c.nodes[a.Node], c.ds); !pl.ShouldRun {
				t.Fatalf("pod created on node %s, which should not run one: %s", a.Node, pl.Reason)
			}
		}
	}
	unavailableAfter, _ := c.desiredWithoutAvailable(byUpdate)
	c.apply(t, p)
	// A sync takes time: pods created in different syncs never share a
	// creation time.
	c.now = c.now.Add(time.Second)
	surge := daemonset.AllowsSurge(c.ds)
	if surge {
		if unavailableAfter > unavailableBefore {
			t.Fatalf("surge update: nodes without an available pod went from %d to %d", unavailableBefore, unavailableAfter)
		}
	} else {
		maxUnavailable, _ := daemonset.UnavailableCount(c.ds, desired)
		maxUnavailable = max(maxUnavailable, 1)
		if unavailableAfter > max(unavailableBefore, int(maxUnavailable)) {
			t.Fatalf("maxUnavailable %d: nodes without an available pod went from %d to %d", maxUnavailable, unavailableBefore, unavailableAfter)
		}
	}
	perNode := map[string]int{}
	for _, pod := range c.pods {
		if pod.DeletionTimestamp == nil && !pod.IsTerminal() {
			perNode[pod.Spec.NodeName]++
		}
	}
	for name, n := range perNode {
		limit := 1
		if surge {
			limit = 2
		}
		if n > limit {
			t.Fatalf("node %s runs %d daemon pods (limit %d)", name, n, limit)
		}
		if nd := c.nodes[name]; nd != nil && !daemonset.NodeShouldRunDaemonPod(nd, c.ds).ShouldContinueRunning {
			t.Fatalf("node %s keeps a daemon pod it must not run", name)
		}
	}
}
