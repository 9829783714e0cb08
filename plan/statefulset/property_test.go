package statefulset

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

var versions = []string{"v1", "v2", "v3"}

// genState draws a namespace around set "web": a set of up to 6 replicas
// with any management policy, strategy, partition, claim templates and
// retention policy; revisions of up to three templates (some orphaned);
// pods at ordinals 0..8 in every phase, readiness and ownership; claims
// with every kind of owner.
func genState(t *rapid.T) State {
	opts := []setOpt{template(rapid.SampledFrom(versions).Draw(t, "template"))}
	if rapid.Bool().Draw(t, "parallel") {
		opts = append(opts, parallel)
	}
	if rapid.IntRange(0, 4).Draw(t, "onDelete") == 0 {
		opts = append(opts, onDelete)
	} else {
		p := int32(rapid.IntRange(0, 7).Draw(t, "partition"))
		opts = append(opts, partition(p))
		if mu := rapid.SampledFrom([]string{"", "1", "2", "50%", "100%"}).Draw(t, "maxUnavailable"); mu != "" {
			opts = append(opts, func(s *model.StatefulSet) {
				s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.ParseIntOrString(mu))
			})
		}
	}
	if rapid.Bool().Draw(t, "startOrdinal") {
		start := int32(rapid.IntRange(0, 3).Draw(t, "start"))
		opts = append(opts, func(s *model.StatefulSet) { s.Spec.Ordinals = &model.StatefulSetOrdinals{Start: start} })
	}
	opts = append(opts, minReady(int32(rapid.SampledFrom([]int{0, 10, 60}).Draw(t, "minReadySeconds"))))
	templates := rapid.SampledFrom([][]string{nil, {"data"}, {"data", "logs"}}).Draw(t, "claimTemplates")
	opts = append(opts, claimsFrom(templates...))
	policies := []model.PersistentVolumeClaimRetentionPolicyType{model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType}
	opts = append(opts, retain(rapid.SampledFrom(policies).Draw(t, "whenScaled"), rapid.SampledFrom(policies).Draw(t, "whenDeleted")))
	revChoices := append([]string{""}, slices.Collect(func(yield func(string) bool) {
		for _, v := range versions {
			if !yield(revName(v)) {
				return
			}
		}
	})...)
	cur, upd := rapid.SampledFrom(revChoices).Draw(t, "currentRevision"), rapid.SampledFrom(revChoices).Draw(t, "updateRevision")
	n := int32(rapid.IntRange(0, 6).Draw(t, "replicas"))
	opts = append(opts, status(cur, upd, int32(rapid.IntRange(0, 6).Draw(t, "statusReplicas"))))
	opts = append(opts, func(s *model.StatefulSet) {
		s.Spec.RevisionHistoryLimit = model.Int32Ptr(int32(rapid.IntRange(-1, 3).Draw(t, "revisionHistoryLimit")))
		s.Generation = int64(rapid.IntRange(1, 3).Draw(t, "generation"))
		if rapid.IntRange(0, 9).Draw(t, "setDeleting") == 0 {
			s.DeletionTimestamp = model.TimePtr(t0)
		}
	})
	set := mkSet(n, opts...)

	var revs []*model.ControllerRevision
	numbers := rapid.Permutation([]int64{1, 2, 3, 4}).Draw(t, "revisionNumbers")
	for i, v := range versions {
		if !rapid.Bool().Draw(t, "revision-"+v) {
			continue
		}
		r := rev(v, numbers[i])
		if rapid.IntRange(0, 4).Draw(t, "orphanRevision-"+v) == 0 {
			r.OwnerReferences = nil
		}
		revs = append(revs, r)
	}

	var pods []*model.Pod
	for o := 0; o < 9; o++ {
		if !rapid.Bool().Draw(t, fmt.Sprintf("pod-%d", o)) {
			continue
		}
		p := mkPod(o, rapid.SampledFrom(versions).Draw(t, fmt.Sprintf("podVersion-%d", o)), mounts(templates...))
		switch rapid.IntRange(0, 7).Draw(t, fmt.Sprintf("podState-%d", o)) {
		case 0:
			pending(p)
		case 1:
			notReady(p)
		case 2:
			failed(p)
		case 3:
			terminating(p)
		case 4:
			readySince(t0.Add(-time.Duration(rapid.IntRange(0, 90).Draw(t, fmt.Sprintf("readyFor-%d", o))) * time.Second))(p)
		case 5:
			p.Status = model.PodStatus{} // no phase: upstream creates it again
		}
		switch rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("podOwner-%d", o)) {
		case 0:
			orphan(p)
		case 1:
			p.OwnerReferences[0].UID = "another-set"
		case 2:
			p.Labels["app"] = "debug"
		case 3:
			delete(p.Labels, model.StatefulSetPodNameLabel)
		case 4:
			p.Spec.Volumes = nil
		}
		pods = append(pods, p)
	}

	var claims []*model.PersistentVolumeClaim
	for o := 0; o < 9; o++ {
		for _, tn := range templates {
			if !rapid.Bool().Draw(t, fmt.Sprintf("claim-%s-%d", tn, o)) {
				continue
			}
			c := claim(tn, o)
			podRef := model.NewControllerRef("v1", "Pod", PodName("web", o), "pod-"+PodName("web", o))
			switch rapid.IntRange(0, 6).Draw(t, fmt.Sprintf("claimOwner-%s-%d", tn, o)) {
			case 0:
				c.OwnerReferences = []model.OwnerReference{setRef}
			case 1:
				c.OwnerReferences = []model.OwnerReference{podRef}
			case 2:
				podRef.UID = "earlier-pod"
				c.OwnerReferences = []model.OwnerReference{podRef}
			case 3:
				c.OwnerReferences = []model.OwnerReference{model.NewControllerRef("example.com/v1", "Operator", "op", "op-uid")}
			case 4:
				c.DeletionTimestamp = model.TimePtr(t0)
			}
			claims = append(claims, c)
		}
	}
	return State{StatefulSet: set, Pods: pods, ControllerRevisions: revs, Claims: claims, Now: t0}
}

// invariantViolation checks one plan of s against the guarantees of seed 004
// ("Deployment and Scaling Guarantees", "Rolling Updates", "Partitions")
// and upstream's maxUnavailable, and says what it violates ("" for
// nothing).
func invariantViolation(s State, p Plan, gate bool) string {
	set := s.StatefulSet
	start, n := int(set.StartOrdinal()), int(*set.Spec.Replicas)
	monotonic := set.Spec.PodManagementPolicy == model.OrderedReadyPodManagement
	byName := map[string]*model.Pod{}
	for _, q := range s.Pods {
		byName[q.Name] = q
	}
	sy := &syncer{set: set, now: s.Now}
	healthy := func(name string) bool {
		q := byName[name]
		return q != nil && runningAndReady(q) && sy.available(q) && !isTerminating(q)
	}
	if len(p.Actions) == 0 && len(p.Notes) == 0 {
		return "a plan without actions has no note"
	}
	creates, rollDeletes, scaleDeletes := 0, 0, 0
	for _, a := range p.Actions {
		o := a.Ordinal
		switch {
		case a.Kind == CreatePod:
			creates++
			if monotonic {
				for j := start; j < o; j++ {
					if !healthy(PodName("web", j)) {
						return fmt.Sprintf("OrderedReady creates %s while its predecessor %s is not Running, Ready and available", a.Object.Name, PodName("web", j))
					}
				}
			}
		case a.Kind == DeletePod && a.Reason.Code == ReasonRollingUpdate:
			rollDeletes++
			if set.Spec.UpdateStrategy.Type == model.OnDeleteStatefulSetStrategyType {
				return fmt.Sprintf("OnDelete deletes %s for an update", a.Object.Name)
			}
			if o < start+sy.partition() {
				return fmt.Sprintf("the rolling update deletes %s below partition %d", a.Object.Name, sy.partition())
			}
		case a.Kind == DeletePod && a.Reason.Code == ReasonScaleDown:
			scaleDeletes++
			if o >= start && o < start+n {
				return fmt.Sprintf("scale-down deletes %s inside the replicas", a.Object.Name)
			}
			if monotonic {
				for j := start; j < start+n; j++ {
					if !healthy(PodName("web", j)) {
						return fmt.Sprintf("OrderedReady deletes %s while %s is not Running, Ready and available", a.Object.Name, PodName("web", j))
					}
				}
				for _, q := range s.Pods {
					if qo := ordinalOf(q.Name); qo > o && q.IsControlledBy(set.UID) && q.Labels["app"] == "web" && isMemberOf(set, q) {
						return fmt.Sprintf("OrderedReady deletes %s before %s above it is gone", a.Object.Name, q.Name)
					}
				}
			}
		case a.Kind == DeletePod:
			if a.Reason.Code != ReasonFailedPod {
				return fmt.Sprintf("unexpected delete reason %s", a.Reason.Code)
			}
			q := byName[a.Object.Name]
			if q == nil || !q.IsTerminal() {
				return fmt.Sprintf("%s is deleted as failed but is not", a.Object.Name)
			}
		}
	}
	if monotonic && creates > 1 {
		return fmt.Sprintf("OrderedReady creates %d pods in one sync", creates)
	}
	if monotonic && scaleDeletes > 1 {
		return fmt.Sprintf("OrderedReady deletes %d condemned pods in one sync", scaleDeletes)
	}
	if !gate && rollDeletes > 1 {
		return fmt.Sprintf("the rolling update deletes %d pods with maxUnavailable off (at most 1)", rollDeletes)
	}
	if gate && rollDeletes > 0 {
		maxU := 1
		if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.MaxUnavailable != nil {
			v, err := proportion.ScaledValue(ru.MaxUnavailable, int32(n), false)
			if err != nil {
				return err.Error()
			}
			maxU = max(int(v), 1)
		}
		unavailable := 0
		for j := start; j < start+n; j++ {
			if q := byName[PodName("web", j)]; q == nil || !sy.available(q) || isTerminating(q) {
				unavailable++
			}
		}
		if unavailable+rollDeletes > maxU {
			return fmt.Sprintf("%d unavailable and %d deleted for the update exceed maxUnavailable %d", unavailable, rollDeletes, maxU)
		}
	}
	return ""
}

// TestPropertyInvariants plans generated states and checks the invariants,
// determinism (the same plan twice, and for shuffled input) and that the
// input is left unchanged.
func TestPropertyInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genState(t)
		gate := rapid.Bool().Draw(t, "maxUnavailableGate")
		before := deepCopyState(s)
		p, err := Sync(s, WithMaxUnavailable(gate))
		var se *SyncError
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("a generated state is invalid: %v", err)
		}
		if d := cmp.Diff(before, s); d != "" {
			t.Fatalf("Sync changed its input (-before +after):\n%s", d)
		}
		if v := invariantViolation(s, p, gate); v != "" {
			t.Fatal(v)
		}

		again, err2 := Sync(before, WithMaxUnavailable(gate))
		if d := cmp.Diff(p, again); d != "" || fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("the same state planned twice differs:\n%s", d)
		}
		shuffled := deepCopyState(s)
		shuffled.Pods = rapid.Permutation(shuffled.Pods).Draw(t, "podOrder")
		shuffled.ControllerRevisions = rapid.Permutation(shuffled.ControllerRevisions).Draw(t, "revisionOrder")
		shuffled.Claims = rapid.Permutation(shuffled.Claims).Draw(t, "claimOrder")
		perm, _ := Sync(shuffled, WithMaxUnavailable(gate))
		if d := cmp.Diff(p, perm); d != "" {
			t.Fatalf("shuffled input plans differently (-in order +shuffled):\n%s", d)
		}
		// The caller owns the plan: changing it changes nothing in the next.
		for _, a := range p.Actions {
			if a.Pod != nil {
				a.Pod.Labels["mutated"] = "yes"
			}
			if a.ControllerRevision != nil {
				a.ControllerRevision.Labels["mutated"] = "yes"
			}
		}
		if d := cmp.Diff(before, s); d != "" {
			t.Fatalf("changing the plan changed the input:\n%s", d)
		}
	})
}

func deepCopyState(s State) State {
	out := State{StatefulSet: s.StatefulSet.DeepCopy(), Now: s.Now}
	for _, p := range s.Pods {
		out.Pods = append(out.Pods, p.DeepCopy())
	}
	for _, r := range s.ControllerRevisions {
		out.ControllerRevisions = append(out.ControllerRevisions, r.DeepCopy())
	}
	for _, c := range s.Claims {
		out.Claims = append(out.Claims, c.DeepCopy())
	}
	return out
}

// TestInvariantCheckerCatches shows that the invariant check can fail: a
// plan that creates web-1 while web-0 is not ready, one that deletes below
// the partition, and two deletes with maxUnavailable 1.
func TestInvariantCheckerCatches(t *testing.T) {
	ref := func(name string) plan.ObjectRef { return plan.ObjectRef{Namespace: "ns", Name: name} }
	s := state(mkSet(3), []*model.Pod{mkPod(0, "v1", notReady)}, nil)
	bad := Plan{Actions: []Action{{Kind: CreatePod, Ordinal: 1, Object: ref("web-1")}}}
	assert.NotEmpty(t, invariantViolation(s, bad, false), "a create past an unready predecessor")
	s = state(mkSet(3, partition(2)), []*model.Pod{mkPod(0, "v1"), mkPod(1, "v1"), mkPod(2, "v1")}, nil)
	bad = Plan{Actions: []Action{{Kind: DeletePod, Ordinal: 1, Object: ref("web-1"), Reason: Reason{Code: ReasonRollingUpdate}}}}
	assert.NotEmpty(t, invariantViolation(s, bad, false), "a delete below the partition")
	del2 := Action{Kind: DeletePod, Ordinal: 2, Object: ref("web-2"), Reason: Reason{Code: ReasonRollingUpdate}}
	assert.NotEmpty(t, invariantViolation(s, Plan{Actions: []Action{del2, del2}}, true), "two deletes with maxUnavailable 1")
	assert.Empty(t, invariantViolation(s, Plan{Actions: []Action{del2}}, true), "one delete with maxUnavailable 1")
}
