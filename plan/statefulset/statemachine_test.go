package statefulset

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// cluster is a small API server with a kubelet and a garbage collector,
// enough to apply plans sync after sync: writes take effect as upstream's
// API server applies them, deleted pods terminate until the kubelet removes
// them, claims whose controller is a pod that is gone are collected.
type cluster struct {
	set    *model.StatefulSet
	pods   map[string]*model.Pod
	revs   map[string]*model.ControllerRevision
	claims map[string]*model.PersistentVolumeClaim
	now    time.Time
	uids   int
}

func newCluster(set *model.StatefulSet) *cluster {
	return &cluster{set: set, pods: map[string]*model.Pod{}, revs: map[string]*model.ControllerRevision{}, claims: map[string]*model.PersistentVolumeClaim{}, now: t0}
}

func (c *cluster) state() State {
	s := State{StatefulSet: c.set.DeepCopy(), Now: c.now}
	for _, k := range slices.Sorted(maps.Keys(c.pods)) {
		s.Pods = append(s.Pods, c.pods[k].DeepCopy())
	}
	for _, k := range slices.Sorted(maps.Keys(c.revs)) {
		s.ControllerRevisions = append(s.ControllerRevisions, c.revs[k].DeepCopy())
	}
	for _, k := range slices.Sorted(maps.Keys(c.claims)) {
		s.Claims = append(s.Claims, c.claims[k].DeepCopy())
	}
	return s
}

func (c *cluster) uid(prefix string) string {
	c.uids++
	return fmt.Sprintf("%s-%d", prefix, c.uids)
}

// apply applies the plan's accepted writes.
func (c *cluster) apply(p Plan) {
	for _, a := range p.Accepted() {
		name := a.Object.Name
		switch a.Kind {
		case AdoptControllerRevision:
			c.revs[name].OwnerReferences = append(c.revs[name].OwnerReferences, *a.OwnerReference)
		case AdoptPod:
			c.pods[name].OwnerReferences = append(c.pods[name].OwnerReferences, *a.OwnerReference)
		case ReleasePod:
			q := c.pods[name]
			q.OwnerReferences = slices.DeleteFunc(q.OwnerReferences, func(r model.OwnerReference) bool { return r.UID == a.OwnerReference.UID })
		case CreateControllerRevision:
			r := a.ControllerRevision.DeepCopy()
			r.Namespace, r.UID, r.CreationTimestamp = "ns", c.uid("rev"), c.now
			c.revs[name] = r
		case UpdateControllerRevision:
			c.revs[name].Revision = a.RevisionUpdate.To
		case DeleteControllerRevision:
			delete(c.revs, name)
		case CreateClaim:
			cl := a.Claim.DeepCopy()
			cl.UID = c.uid("claim")
			c.claims[name] = cl
		case UpdateClaim:
			c.claims[name].OwnerReferences = slices.Clone(a.OwnerReferences)
		case CreatePod:
			q := a.Pod.DeepCopy()
			q.UID, q.CreationTimestamp = c.uid("pod"), c.now
			q.Status = model.PodStatus{Phase: model.PodPending}
			c.pods[name] = q
		case UpdatePod:
			q := c.pods[name]
			u := a.PodUpdate
			if q.Labels == nil {
				q.Labels = map[string]string{}
			}
			maps.Copy(q.Labels, u.Labels)
			if u.Volumes != nil {
				q.Spec.Volumes = slices.Clone(u.Volumes)
			}
		case DeletePod:
			if q := c.pods[name]; q != nil && q.DeletionTimestamp == nil {
				q.DeletionTimestamp = model.TimePtr(c.now)
			}
		case UpdateStatefulSetStatus:
			c.set.Status = a.Status.DeepCopy()
		}
	}
}

// kubelet lets terminating pods go, starts pending ones (Running and
// Ready, or Failed when fail says so), and collects claims whose controller
// pod is gone.
func (c *cluster) kubelet(fail func(name string) bool) {
	for name, q := range c.pods {
		switch {
		case q.DeletionTimestamp != nil || q.IsTerminal() && fail == nil:
			delete(c.pods, name)
		case q.Status.Phase == model.PodPending:
			if fail != nil && fail(name) {
				q.Status = model.PodStatus{Phase: model.PodFailed}
				continue
			}
			q.Status = model.PodStatus{Phase: model.PodRunning, Conditions: []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: c.now}}}
		}
	}
	for name, cl := range c.claims {
		if ref := cl.ControllerRef(); ref != nil && ref.Kind == "Pod" {
			if q := c.pods[ref.Name]; q == nil || q.UID != ref.UID {
				delete(c.claims, name)
			}
		}
	}
}

// sync plans one sync, checks the invariants and applies the plan.
func (c *cluster) sync(t require.TestingT, gate bool) Plan {
	s := c.state()
	p, err := Sync(s, WithMaxUnavailable(gate))
	var se *SyncError
	if err != nil {
		require.ErrorAs(t, err, &se)
	}
	require.Empty(t, invariantViolation(s, p, gate))
	c.apply(p)
	return p
}

// TestStateMachine runs syncs, kubelet steps, clock steps and user edits
// (template changes, scaling, partition changes, pod deletions) in any
// order, checking the invariants at every sync (seed 004's deployment,
// scaling and update guarantees; upstream's maxUnavailable).
func TestStateMachine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opts := []setOpt{claimsFrom("data")}
		if rapid.Bool().Draw(t, "parallel") {
			opts = append(opts, parallel)
		}
		policies := []model.PersistentVolumeClaimRetentionPolicyType{model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType}
		opts = append(opts, retain(rapid.SampledFrom(policies).Draw(t, "whenScaled"), rapid.SampledFrom(policies).Draw(t, "whenDeleted")))
		opts = append(opts, minReady(int32(rapid.SampledFrom([]int{0, 10}).Draw(t, "minReadySeconds"))))
		c := newCluster(mkSet(int32(rapid.IntRange(0, 4).Draw(t, "replicas")), opts...))
		gate := rapid.Bool().Draw(t, "maxUnavailableGate")
		if gate {
			c.set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.FromInt(int32(rapid.IntRange(1, 3).Draw(t, "maxUnavailable"))))
		}
		t.Repeat(map[string]func(*rapid.T){
			"sync": func(t *rapid.T) { c.sync(t, gate) },
			"kubelet": func(t *rapid.T) {
				failures := rapid.Bool().Draw(t, "failures")
				c.kubelet(func(string) bool { return failures && rapid.IntRange(0, 4).Draw(t, "fail") == 0 })
			},
			"clock": func(t *rapid.T) {
				c.now = c.now.Add(time.Duration(rapid.IntRange(1, 30).Draw(t, "seconds")) * time.Second)
			},
			"template": func(t *rapid.T) {
				c.set.Spec.Template = tmplV(rapid.SampledFrom(versions).Draw(t, "version"))
				c.set.Generation++
			},
			"scale": func(t *rapid.T) {
				c.set.Spec.Replicas = model.Int32Ptr(int32(rapid.IntRange(0, 5).Draw(t, "replicas")))
				c.set.Generation++
			},
			"partition": func(t *rapid.T) {
				if ru := c.set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
					ru.Partition = model.Int32Ptr(int32(rapid.IntRange(0, 5).Draw(t, "partition")))
					c.set.Generation++
				}
			},
			"deletePod": func(t *rapid.T) {
				if len(c.pods) == 0 {
					t.Skip("no pod")
				}
				name := rapid.SampledFrom(slices.Sorted(maps.Keys(c.pods))).Draw(t, "pod")
				delete(c.pods, name)
			},
			"": func(t *rapid.T) {
				for _, q := range c.pods {
					if q.Namespace != "ns" {
						t.Fatalf("pod %s outside the namespace", q.Name)
					}
				}
			},
		})
	})
}

// TestRollingUpdateCompletes is the liveness bound: with pods that become
// ready after each sync and no other change, a rolling update of n
// replicas (OrderedReady or Parallel, partition 0) completes within 3n+3
// syncs: every pod at the new revision, and the status's current revision
// the update revision. (A pod takes at most three syncs: it is deleted, the
// kubelet removes it, it is re-created, the kubelet starts it, and the next
// sync moves on.)
func TestRollingUpdateCompletes(t *testing.T) {
	for _, par := range []bool{false, true} {
		for n := 0; n <= 6; n++ {
			opts := []setOpt{claimsFrom("data")}
			if par {
				opts = append(opts, parallel)
			}
			c := newCluster(mkSet(int32(n), opts...))
			settle := func(limit int) int {
				for i := 1; i <= limit; i++ {
					c.sync(t, false)
					c.kubelet(nil)
					if c.done() {
						return i
					}
				}
				return -1
			}
			require.NotEqual(t, -1, settle(3*n+3), "parallel=%v n=%d: the first rollout does not complete", par, n)
			c.set.Spec.Template = tmplV("v2")
			c.set.Generation++
			syncs := settle(3*n + 3)
			require.NotEqual(t, -1, syncs, "parallel=%v n=%d: the rolling update does not complete within %d syncs", par, n, 3*n+3)
			for _, q := range c.pods {
				require.Equal(t, c.set.Status.UpdateRevision, podRevision(q))
			}
		}
	}
}

// done reports whether every replica exists, is ready and is at the
// update revision, and the status says the rollout is complete.
func (c *cluster) done() bool {
	n := int(*c.set.Spec.Replicas)
	st := c.set.Status
	if len(c.pods) != n || st.CurrentRevision != st.UpdateRevision || st.UpdateRevision == "" || int(st.ReadyReplicas) != n {
		return false
	}
	data, _ := EncodeTemplate(c.set.Spec.Template)
	if r := c.revs[st.UpdateRevision]; r == nil || r.Data != data {
		return false
	}
	for _, q := range c.pods {
		if podRevision(q) != st.UpdateRevision || !runningAndReady(q) {
			return false
		}
	}
	return true
}
