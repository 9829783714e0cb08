package enqueue_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
)

// genCache draws a small namespace (plus a second one) where names, UIDs,
// labels and owner references collide often: three Deployments, ReplicaSets
// owned, orphaned or pointing at stale UIDs, and pods in between.
func genCache(t *rapid.T) enqueue.Cache {
	nss := []string{"ns", "ns2"}
	apps := []string{"a", "b"}
	var c enqueue.Cache
	nd := rapid.IntRange(0, 4).Draw(t, "deployments")
	for i := range nd {
		d := dep(fmt.Sprintf("d%d", i), fmt.Sprintf("du%d", i),
			rapid.SampledFrom([]model.StrategyType{model.RecreateStrategy, model.RollingUpdateStrategy}).Draw(t, "strategy"),
			lbl("app", rapid.SampledFrom(apps).Draw(t, "selector")))
		d.Namespace = rapid.SampledFrom(nss).Draw(t, "dns")
		c.Deployments = append(c.Deployments, d)
	}
	nr := rapid.IntRange(0, 5).Draw(t, "replicasets")
	for i := range nr {
		r := rs(fmt.Sprintf("r%d", i), fmt.Sprintf("ru%d", i), "1", genLabels(t, apps), genOwner(t, "Deployment", "d", "du"))
		r.Namespace = rapid.SampledFrom(nss).Draw(t, "rns")
		c.ReplicaSets = append(c.ReplicaSets, r)
	}
	np := rapid.IntRange(0, 5).Draw(t, "pods")
	for i := range np {
		p := pod(fmt.Sprintf("p%d", i), genLabels(t, apps), genOwner(t, "ReplicaSet", "r", "ru"))
		p.Namespace = rapid.SampledFrom(nss).Draw(t, "pns")
		c.Pods = append(c.Pods, p)
	}
	return c
}

func genLabels(t *rapid.T, apps []string) map[string]string {
	if rapid.IntRange(0, 4).Draw(t, "nolabels") == 0 {
		return nil
	}
	return lbl("app", rapid.SampledFrom(apps).Draw(t, "app"))
}

// genOwner: none, or a controller reference of kind to index 0..4 of
// prefix, with the matching UID or a stale one.
func genOwner(t *rapid.T, kind, namePrefix, uidPrefix string) []model.OwnerReference {
	i := rapid.IntRange(-1, 4).Draw(t, "owner")
	if i < 0 {
		return nil
	}
	uid := fmt.Sprintf("%s%d", uidPrefix, i)
	if rapid.IntRange(0, 5).Draw(t, "stale") == 0 {
		uid = "stale"
	}
	return ownedBy(kind, fmt.Sprintf("%s%d", namePrefix, i), uid)
}

func genRS(t *rapid.T, rv string) *model.ReplicaSet {
	r := rs("x", "xu", rv, genLabels(t, []string{"a", "b"}), genOwner(t, "Deployment", "d", "du"))
	return r
}

func shuffled(t *rapid.T, c enqueue.Cache) enqueue.Cache {
	perm := func(n int, label string) []int {
		return rapid.Permutation(func() []int {
			out := make([]int, n)
			for i := range out {
				out[i] = i
			}
			return out
		}()).Draw(t, label)
	}
	var out enqueue.Cache
	for _, i := range perm(len(c.Deployments), "pd") {
		out.Deployments = append(out.Deployments, c.Deployments[i])
	}
	for _, i := range perm(len(c.ReplicaSets), "pr") {
		out.ReplicaSets = append(out.ReplicaSets, c.ReplicaSets[i])
	}
	for _, i := range perm(len(c.Pods), "pp") {
		out.Pods = append(out.Pods, c.Pods[i])
	}
	return out
}

// The work queue is a set: the answer cannot depend on the order the
// informers list objects in (upstream's listers iterate maps).
func TestPropertyOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCache(t)
		s := shuffled(t, c)
		old, cur := genRS(t, "1"), genRS(t, "2")
		if a, b := enqueue.AddReplicaSet(cur, c), enqueue.AddReplicaSet(cur, s); !cmp.Equal(a, b) {
			t.Fatalf("AddReplicaSet: %v vs %v", a, b)
		}
		if a, b := enqueue.UpdateReplicaSet(old, cur, c), enqueue.UpdateReplicaSet(old, cur, s); !cmp.Equal(a, b) {
			t.Fatalf("UpdateReplicaSet: %v vs %v", a, b)
		}
		for _, p := range c.Pods {
			a, _ := enqueue.DeletePod(p, c)
			b, _ := enqueue.DeletePod(p, s)
			if !cmp.Equal(a, b) {
				t.Fatalf("DeletePod(%s): %v vs %v", p.Name, a, b)
			}
		}
	})
}

// A ReplicaSet with a controller reference wakes at most the Deployment it
// points to (name and UID), never a selector match; every key names a
// Deployment of the event's namespace; keys are sorted and distinct; the
// inputs are left as they were.
func TestPropertyControllerRefDecides(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCache(t)
		r := genRS(t, "2")
		before, rBefore := deepCopy(c), r.DeepCopy()
		got := enqueue.AddReplicaSet(r, c)
		if !cmp.Equal(before, c) || !cmp.Equal(rBefore, r) {
			t.Fatal("AddReplicaSet modified its input")
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("keys not sorted and distinct: %v", got)
		}
		for _, k := range got {
			if !strings.HasPrefix(k, "ns/") || !hasDeployment(c, k) {
				t.Fatalf("key %q is not a Deployment of ns", k)
			}
		}
		if ref := r.ControllerRef(); ref != nil {
			if len(got) > 1 {
				t.Fatalf("owned ReplicaSet woke %v", got)
			}
			for _, k := range got {
				d := findDeployment(c, k)
				if d.Name != ref.Name || d.UID != ref.UID {
					t.Fatalf("owned by %s/%s, woke %s (uid %s)", ref.Name, ref.UID, k, d.UID)
				}
			}
		}
	})
}

// A resync (same resourceVersion) never wakes anything; a deleted Pod only
// ever wakes a Recreate Deployment, the one its ReplicaSet belongs to, and
// only when no pod of it remains.
func TestPropertyResyncAndRecreate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genCache(t)
		old, cur := genRS(t, "5"), genRS(t, "5")
		if got := enqueue.UpdateReplicaSet(old, cur, c); len(got) != 0 {
			t.Fatalf("resync woke %v", got)
		}
		if len(c.Pods) == 0 {
			return
		}
		i := rapid.IntRange(0, len(c.Pods)-1).Draw(t, "deleted")
		deleted := c.Pods[i]
		after := c
		after.Pods = slices.Delete(slices.Clone(c.Pods), i, i+1)
		got, err := enqueue.DeletePod(deleted, after)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range got {
			d := findDeployment(c, k)
			if d.Spec.Strategy.Type != model.RecreateStrategy {
				t.Fatalf("woke non-Recreate %s", k)
			}
			if d != enqueue.DeploymentForPod(deleted, c) {
				t.Fatalf("woke %s, not the pod's Deployment", k)
			}
			if n := enqueue.PodCount(d, after); n != 0 {
				t.Fatalf("woke %s with %d pods left", k, n)
			}
		}
	})
}

func findDeployment(c enqueue.Cache, key string) *model.Deployment {
	for _, d := range c.Deployments {
		if enqueue.Key(&d.ObjectMeta) == key {
			return d
		}
	}
	return nil
}

func hasDeployment(c enqueue.Cache, key string) bool { return findDeployment(c, key) != nil }

func deepCopy(c enqueue.Cache) enqueue.Cache {
	var out enqueue.Cache
	for _, d := range c.Deployments {
		out.Deployments = append(out.Deployments, d.DeepCopy())
	}
	for _, r := range c.ReplicaSets {
		out.ReplicaSets = append(out.ReplicaSets, r.DeepCopy())
	}
	for _, p := range c.Pods {
		out.Pods = append(out.Pods, p.DeepCopy())
	}
	return out
}
