package plantest_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

var stsNow = plantest.Epoch()

// stsState is set "web" of n replicas (template "v1") with the given pods.
func stsState(n int32, adjust func(*model.StatefulSet), pods ...*model.Pod) statefulset.State {
	set := &model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 1},
		Spec: model.StatefulSetSpec{
			Replicas: model.Int32Ptr(n),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "v1"},
		},
	}
	set = model.DefaultStatefulSet(set)
	if adjust != nil {
		adjust(set)
	}
	return statefulset.State{StatefulSet: set, Pods: pods, Now: stsNow}
}

// stsPod is web-<o> at revision rev, Running and Ready for an hour, unless
// adjusted.
func stsPod(o int, rev string, adjust ...func(*model.Pod)) *model.Pod {
	name := statefulset.PodName("web", o)
	p := &model.Pod{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name,
			Labels:          map[string]string{"app": "web", model.StatefulSetPodNameLabel: name, model.PodIndexLabel: strconv.Itoa(o), model.StatefulSetRevisionLabel: rev},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "web", "web-uid")}},
		Status: model.PodStatus{Phase: model.PodRunning, Conditions: []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: stsNow.Add(-time.Hour)}}},
	}
	for _, a := range adjust {
		a(p)
	}
	return p
}

func pending(p *model.Pod)     { p.Status = model.PodStatus{Phase: model.PodPending} }
func failed(p *model.Pod)      { p.Status = model.PodStatus{Phase: model.PodFailed} }
func terminating(p *model.Pod) { p.DeletionTimestamp = model.TimePtr(stsNow.Add(-time.Second)) }
func foreign(p *model.Pod)     { p.OwnerReferences[0].UID = "another-uid" }

func withParallel(s *model.StatefulSet) { s.Spec.PodManagementPolicy = model.ParallelPodManagement }

func withPartition(p int32) func(*model.StatefulSet) {
	return func(s *model.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = model.Int32Ptr(p) }
}

func withMaxUnavailable(v string) func(*model.StatefulSet) {
	return func(s *model.StatefulSet) {
		s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = model.IntOrStringPtr(model.ParseIntOrString(v))
	}
}

func withOnDelete(s *model.StatefulSet) {
	s.Spec.UpdateStrategy = model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType}
}

func withNilRollingUpdate(s *model.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate = nil }

func withStatus(current, update string) func(*model.StatefulSet) {
	return func(s *model.StatefulSet) { s.Status.CurrentRevision, s.Status.UpdateRevision = current, update }
}

func both(fs ...func(*model.StatefulSet)) func(*model.StatefulSet) {
	return func(s *model.StatefulSet) {
		for _, f := range fs {
			f(s)
		}
	}
}

// withRevisions gives the state the set's ControllerRevisions of those
// names, numbered in order.
func withRevisions(s statefulset.State, names ...string) statefulset.State {
	for i, name := range names {
		s.ControllerRevisions = append(s.ControllerRevisions, &model.ControllerRevision{
			ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Labels: map[string]string{"app": "web"},
				OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "web", "web-uid")}},
			Revision: int64(i + 1),
		})
	}
	return s
}

func ref(name string) plan.ObjectRef { return plan.ObjectRef{Namespace: "default", Name: name} }

func create(o int, rev string) statefulset.Action {
	name := statefulset.PodName("web", o)
	return statefulset.Action{Kind: statefulset.CreatePod, Object: ref(name), Ordinal: o, Revision: rev, Reason: plan.Reason{Code: statefulset.ReasonMissingPod}}
}

func del(o int, code statefulset.ReasonCode) statefulset.Action {
	return statefulset.Action{Kind: statefulset.DeletePod, Object: ref(statefulset.PodName("web", o)), Ordinal: o, Reason: plan.Reason{Code: code}}
}

// withPlanStatus gives a hand-made plan the revisions the planner's status
// would name.
func withPlanStatus(current, update string, actions ...statefulset.Action) statefulset.Plan {
	return statefulset.Plan{Actions: actions, Status: &model.StatefulSetStatus{CurrentRevision: current, UpdateRevision: update}}
}

// Each StatefulSet invariant can fail: hand-made plans that break them, the
// guarantee of the seed (004, "Deployment and Scaling Guarantees", "Rolling
// Updates", "Partitions") or upstream's rule each breaks, and the
// violation the checker reports; and sound plans that pass.
func TestCheckStatefulSetCatches(t *testing.T) {
	const a, b = "web-a", "web-b"
	gateOn := plantest.StatefulSetGates{MaxUnavailable: true}
	for _, tc := range []struct {
		name  string
		state statefulset.State
		plan  statefulset.Plan
		gates plantest.StatefulSetGates
		want  string // "S1: message fragment"; "" for a sound plan
		quirk string
	}{
		{"S1 web-1 before web-0 is ready (seed 004:1383)", stsState(3, nil, stsPod(0, a, pending)),
			withPlanStatus(a, a, create(1, a)), plantest.StatefulSetGates{}, "S1: OrderedReady creates web-1 while its predecessor web-0 (phase Pending)", ""},
		{"S1 web-1 while web-0 is missing", stsState(3, nil),
			withPlanStatus(a, a, create(1, a)), plantest.StatefulSetGates{}, "S1: OrderedReady creates web-1 while its predecessor web-0 (missing)", ""},
		{"S1 two creates in one sync", stsState(3, nil),
			withPlanStatus(a, a, create(0, a), create(1, a)), plantest.StatefulSetGates{}, "S1: OrderedReady creates 2 pods in one sync", ""},
		{"S1 Parallel may create all at once (seed 004:1402)", stsState(3, withParallel),
			withPlanStatus(a, a, create(0, a), create(1, a), create(2, a)), plantest.StatefulSetGates{}, "", ""},
		{"S2 a rolling delete below the partition (seed 004:1418)", stsState(3, withPartition(2), stsPod(0, a), stsPod(1, a), stsPod(2, a)),
			withPlanStatus(a, b, del(1, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S2: the rolling update deletes web-1, index 1 below partition 2", ""},
		{"S2 a rolling delete under OnDelete (seed 004:1410)", stsState(2, withOnDelete, stsPod(0, a), stsPod(1, a)),
			withPlanStatus(a, b, del(1, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S2: web-1 is deleted for a rolling update under OnDelete", ""},
		{"S2 a rolling delete of an updated pod", stsState(2, nil, stsPod(0, a), stsPod(1, b)),
			withPlanStatus(a, b, del(1, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S2: the rolling update deletes web-1, which is at the update revision", ""},
		{"S2 a pod below the partition created at the update revision (seed 004:1418)", withRevisions(stsState(3, both(withPartition(2), withStatus(a, b)), stsPod(1, a), stsPod(2, b)), a, b),
			withPlanStatus(a, b, create(0, b)), plantest.StatefulSetGates{}, "S2: web-0 (index 0) is created at revision web-b, not web-a (below partition 2)", ""},
		{"S2 a pod from the partition up created at the old revision", stsState(3, both(withPartition(1), withStatus(a, b)), stsPod(0, a), stsPod(1, a)),
			withPlanStatus(a, b, create(2, a)), plantest.StatefulSetGates{}, "S2: web-2 (index 2) is created at revision web-a, not web-b (from the partition up)", ""},
		{"S3 two rolling deletes with the gate off (seed 004:1414)", stsState(3, withParallel, stsPod(0, a), stsPod(1, a), stsPod(2, a)),
			withPlanStatus(a, b, del(2, statefulset.ReasonRollingUpdate), del(1, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S3: the rolling update deletes 2 pods in one sync with the MaxUnavailableStatefulSet gate off", ""},
		{"S3 over maxUnavailable with the gate on", stsState(4, both(withParallel, withMaxUnavailable("2")), stsPod(0, a, pending), stsPod(1, a), stsPod(2, a), stsPod(3, a)),
			withPlanStatus(a, b, del(3, statefulset.ReasonRollingUpdate), del(2, statefulset.ReasonRollingUpdate)), gateOn, "S3: 1 replicas are unavailable and the rolling update deletes 2 more: over maxUnavailable 2", ""},
		{"S3 within maxUnavailable with the gate on", stsState(4, both(withParallel, withMaxUnavailable("50%")), stsPod(0, a), stsPod(1, a), stsPod(2, a), stsPod(3, a)),
			withPlanStatus(a, b, del(3, statefulset.ReasonRollingUpdate), del(2, statefulset.ReasonRollingUpdate)), gateOn, "", ""},
		{"S3 OrderedReady rolls while a replica is not ready (seed 004:1414)", stsState(3, nil, stsPod(0, a, pending), stsPod(1, a), stsPod(2, a)),
			withPlanStatus(a, b, del(2, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S3: OrderedReady deletes web-2 for the rolling update while web-0 (phase Pending)", ""},
		{"S4 a scale-down delete inside the replicas", stsState(2, withParallel, stsPod(0, a), stsPod(1, a)),
			withPlanStatus(a, a, del(1, statefulset.ReasonScaleDown)), plantest.StatefulSetGates{}, "S4: scale-down deletes web-1, one of ordinals [0, 2)", ""},
		{"S4 web-1 before web-2 is gone (seed 004:1384)", stsState(1, nil, stsPod(0, a), stsPod(1, a), stsPod(2, a, terminating)),
			withPlanStatus(a, a, del(1, statefulset.ReasonScaleDown)), plantest.StatefulSetGates{}, "S4: OrderedReady deletes web-1 while web-2 above it still exists", ""},
		{"S4 two scale-down deletes", stsState(1, nil, stsPod(0, a), stsPod(1, a), stsPod(2, a)),
			withPlanStatus(a, a, del(2, statefulset.ReasonScaleDown), del(1, statefulset.ReasonScaleDown)), plantest.StatefulSetGates{}, "S4: OrderedReady deletes 2 pods in one sync for a scale-down", ""},
		{"S4 scale-down while web-0 is not ready (seed 004:1390)", stsState(1, nil, stsPod(0, a, pending), stsPod(1, a)),
			withPlanStatus(a, a, del(1, statefulset.ReasonScaleDown)), plantest.StatefulSetGates{}, "S4: OrderedReady deletes web-1 while web-0 (phase Pending)", ""},
		{"S4 Parallel scales down at once", stsState(0, withParallel, stsPod(0, a), stsPod(1, a)),
			withPlanStatus(a, a, del(1, statefulset.ReasonScaleDown), del(0, statefulset.ReasonScaleDown)), plantest.StatefulSetGates{}, "", ""},
		{"S7 a running pod deleted as failed", stsState(1, nil, stsPod(0, a)),
			withPlanStatus(a, a, del(0, statefulset.ReasonFailedPod)), plantest.StatefulSetGates{}, "S7: web-0 is deleted as failed but is in phase Running", ""},
		{"S7 a failed pod deleted", stsState(1, nil, stsPod(0, a, failed)),
			withPlanStatus(a, a, del(0, statefulset.ReasonFailedPod)), plantest.StatefulSetGates{}, "", ""},
		{"S7 a terminating pod deleted", stsState(1, nil, stsPod(0, a, failed, terminating)),
			withPlanStatus(a, a, del(0, statefulset.ReasonFailedPod)), plantest.StatefulSetGates{}, "S7: web-0 is deleted while already being deleted", ""},
		{"S7 another controller's pod deleted", stsState(1, withParallel, stsPod(0, a), stsPod(1, a, foreign)),
			withPlanStatus(a, a, del(1, statefulset.ReasonScaleDown)), plantest.StatefulSetGates{}, "S7: web-1 is deleted (ScaleDown) but is not a pod of the set", ""},
		{"S7 a pod deleted twice", stsState(1, nil, stsPod(0, a, failed)),
			withPlanStatus(a, b, del(0, statefulset.ReasonFailedPod), del(0, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S7: web-0 is deleted twice in one sync (FailedPod, then RollingUpdate)", ""},
		{"S7 Parallel deletes a failed pod twice: upstream", stsState(1, withParallel, stsPod(0, a, failed)),
			withPlanStatus(a, b, del(0, statefulset.ReasonFailedPod), del(0, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S7: web-0 is deleted twice in one sync", plantest.QuirkParallelFailedDelete},
		{"S7 Parallel without a rollingUpdate block deletes the pod it creates: upstream", stsState(1, both(withParallel, withNilRollingUpdate, withStatus(a, b)), stsPod(1, a)),
			withPlanStatus(a, b, create(0, a), del(0, statefulset.ReasonRollingUpdate)), plantest.StatefulSetGates{}, "S7: web-0 is deleted (RollingUpdate) in the sync that creates it", plantest.QuirkNilRollingUpdateLoop},
		{"S7 a delete for an unknown reason", stsState(1, nil, stsPod(0, a)),
			withPlanStatus(a, a, del(0, statefulset.ReasonStatus)), plantest.StatefulSetGates{}, "S7: web-0 is deleted for an unexpected reason SyncStatus", ""},
		{"S7 a create outside the replicas", stsState(1, withParallel, stsPod(0, a)),
			withPlanStatus(a, a, create(1, a)), plantest.StatefulSetGates{}, "S7: web-1 is created outside ordinals [0, 1)", ""},
		{"S7 an accepted create of a taken name", stsState(2, withParallel, stsPod(0, a), stsPod(1, a, foreign)),
			withPlanStatus(a, a, create(1, a)), plantest.StatefulSetGates{}, "S7: web-1 is created while a pod of that name exists", ""},
		{"S7 a rejected create of a taken name", stsState(2, withParallel, stsPod(0, a), stsPod(1, a, foreign)),
			withPlanStatus(a, a, func() statefulset.Action { c := create(1, a); c.Error = "already exists"; return c }()), plantest.StatefulSetGates{}, "", ""},
		{"S7 pod writes while the set is being deleted", stsState(1, func(s *model.StatefulSet) { s.DeletionTimestamp = model.TimePtr(stsNow) }),
			withPlanStatus(a, a, create(0, a)), plantest.StatefulSetGates{}, "S7: web-0 is created while the StatefulSet is being deleted", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := plantest.CheckStatefulSet(tc.state, tc.plan, tc.gates)
			if tc.want == "" {
				for _, v := range got {
					t.Errorf("a sound plan: %s", v)
				}
				return
			}
			inv, msg, _ := strings.Cut(tc.want, ": ")
			for _, v := range got {
				if v.Invariant == inv && strings.Contains(v.Message, msg) {
					if v.Quirk != tc.quirk {
						t.Errorf("%s: quirk %q, want %q", v, v.Quirk, tc.quirk)
					}
					return
				}
			}
			t.Errorf("no violation %q among %v", tc.want, got)
		})
	}
}

// The checker passes the planner's own plans for the seed's situations, in
// both policies and with the gate on and off.
func TestCheckStatefulSetPlanner(t *testing.T) {
	const a = "web-a"
	for _, tc := range []struct {
		name  string
		state statefulset.State
	}{
		{"a new set", stsState(3, nil)},
		{"web-0 pending", stsState(3, nil, stsPod(0, a, pending))},
		{"a scale-down", stsState(1, nil, stsPod(0, a), stsPod(1, a), stsPod(2, a))},
		{"a failed pod", stsState(2, withParallel, stsPod(0, a, failed), stsPod(1, a))},
		{"pods of an unknown revision", stsState(3, both(withParallel, withMaxUnavailable("2")), stsPod(0, a), stsPod(1, a), stsPod(2, a))},
		{"a partition", stsState(3, withPartition(2), stsPod(0, a), stsPod(1, a), stsPod(2, a))},
	} {
		for _, gate := range []bool{false, true} {
			p, err := statefulset.Sync(tc.state, statefulset.WithMaxUnavailable(gate))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			for _, v := range plantest.CheckStatefulSet(tc.state, p, plantest.StatefulSetGates{MaxUnavailable: gate}) {
				t.Errorf("%s (gate %v): %s\nplan: %v", tc.name, gate, v, p)
			}
			for _, v := range plantest.CheckStatefulSetDeterminism(tc.state, statefulset.WithMaxUnavailable(gate)) {
				t.Errorf("%s: %s", tc.name, v)
			}
		}
	}
	if v := plantest.CheckStatefulSet(statefulset.State{}, statefulset.Plan{}, plantest.StatefulSetGates{}); v != nil {
		t.Errorf("a state without a set: %v", v)
	}
	// An invalid state fails the same way in every order: no violation.
	bad := stsState(1, nil)
	bad.Now = time.Time{}
	if v := plantest.CheckStatefulSetDeterminism(bad); len(v) != 0 {
		t.Errorf("an invalid state: %v", v)
	}
}
