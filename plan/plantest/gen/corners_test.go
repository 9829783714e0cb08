package gen

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// Generated cases of the six corner classes on which upstream's behaviour
// follows a general rule.

// outcome is what a sync answers for a valid state: the plan, and the error
// upstream's sync ends with, if any.
type outcome struct {
	Plan plan.Plan
	Err  *plan.SyncError
}

// mustPlan plans s, failing on invalid input.
func mustPlan(t *rapid.T, s plan.State) outcome {
	p, err := plan.Sync(s)
	var serr *plan.SyncError
	if err != nil && !errors.As(err, &serr) {
		t.Fatalf("Sync: %v", err)
	}
	return outcome{p, serr}
}

// withoutNote drops the notes of one code.
func withoutNote(o outcome, code plan.ReasonCode) outcome {
	o.Plan.Notes = slices.DeleteFunc(slices.Clone(o.Plan.Notes), func(r plan.Reason) bool { return r.Code == code })
	if len(o.Plan.Notes) == 0 {
		o.Plan.Notes = nil
	}
	return o
}

// ownedPods draws pods controlled by the state's ReplicaSets, some running,
// some finished.
func ownedPods(t *rapid.T, rss []*model.ReplicaSet) []*model.Pod {
	var pods []*model.Pod
	for _, rs := range rss {
		for j := range rapid.IntRange(0, 2).Draw(t, "pods") {
			phase := rapid.SampledFrom([]model.PodPhase{model.PodRunning, model.PodPending, model.PodSucceeded, model.PodFailed}).Draw(t, "phase")
			pods = append(pods, &model.Pod{
				ObjectMeta: model.ObjectMeta{
					Name: fmt.Sprintf("%s-p%d", rs.Name, j), Namespace: rs.Namespace, UID: fmt.Sprintf("%s-p%d", rs.UID, j),
					Labels:          rs.Spec.Template.Labels,
					OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.ReplicaSetKind, rs.Name, rs.UID)},
				},
				Status: model.PodStatus{Phase: phase},
			})
		}
	}
	return pods
}

// C1: ReplicaSets and Pods of other namespaces (the empty one included),
// even ones naming the Deployment as controller or sharing a name with a
// local ReplicaSet, change nothing but a note that counts them, whatever
// the input order.
func TestForeignNamespacesAreIgnored(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := State(12, 4).Draw(t, "state")
		s.Pods = ownedPods(t, s.ReplicaSets)
		base := mustPlan(t, s)
		withForeign := s
		withForeign.ReplicaSets = slices.Clone(s.ReplicaSets)
		withForeign.Pods = slices.Clone(s.Pods)
		foreignRSs, foreignPods := 0, 0
		for i, rs := range s.ReplicaSets {
			if !rapid.Bool().Draw(t, "copy") {
				continue
			}
			c := rs.DeepCopy()
			c.Namespace = rapid.SampledFrom([]string{"", "other", "kube-system"}).Draw(t, "namespace")
			c.UID = fmt.Sprintf("foreign-%d", i)
			c.Spec.Replicas = model.Int32Ptr(rapid.Int32Range(0, 30).Draw(t, "foreignSpec"))
			c.Spec.Template.Spec = rapid.SampledFrom([]string{c.Spec.Template.Spec, s.Deployment.Spec.Template.Spec}).Draw(t, "foreignTemplate")
			withForeign.ReplicaSets = append(withForeign.ReplicaSets, c)
			foreignRSs++
			pod := ownedPods(t, []*model.ReplicaSet{c})
			withForeign.Pods = append(withForeign.Pods, pod...)
			foreignPods += len(pod)
		}
		order := rapid.Permutation(withForeign.ReplicaSets).Draw(t, "order")
		withForeign.ReplicaSets = order
		got := mustPlan(t, withForeign)
		if diff := cmp.Diff(base, withoutNote(got, plan.NoteOtherNamespace)); diff != "" {
			t.Fatalf("foreign objects changed the plan (-without +with):\n%s", diff)
		}
		if foreignRSs+foreignPods == 0 {
			return
		}
		var note *plan.Reason
		for i := range got.Plan.Notes {
			if got.Plan.Notes[i].Code == plan.NoteOtherNamespace {
				note = &got.Plan.Notes[i]
			}
		}
		if s.Deployment.Spec.Selector.IsEmpty() {
			return
		}
		if note == nil {
			t.Fatalf("no %s note for %d ReplicaSets and %d Pods", plan.NoteOtherNamespace, foreignRSs, foreignPods)
		}
		if n, _ := note.Value("replicaSets"); n != int64(foreignRSs) {
			t.Fatalf("note %s, want %d ReplicaSets", note, foreignRSs)
		}
		if n, _ := note.Value("pods"); n != int64(foreignPods) {
			t.Fatalf("note %s, want %d Pods", note, foreignPods)
		}
	})
}

// C2, C3: a pod belongs to a ReplicaSet through its controller reference's
// kind, name and UID alone. Relabelling pods changes no plan; pods whose
// reference has a ReplicaSet's UID but another name or kind count as much
// as pods with no controller at all: nothing.
func TestPodsGroupedByControllerReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := State(8, 3).Draw(t, "state")
		if rapid.Bool().Draw(t, "recreate") {
			s.Deployment.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy}
		}
		s.Pods = ownedPods(t, s.ReplicaSets)
		base := mustPlan(t, s)

		relabelled := s
		relabelled.Pods = make([]*model.Pod, len(s.Pods))
		for i, p := range s.Pods {
			c := p.DeepCopy()
			if rapid.Bool().Draw(t, "relabel") {
				c.Labels = map[string]string{"app": "debug"}
			}
			relabelled.Pods[i] = c
		}
		if diff := cmp.Diff(base, mustPlan(t, relabelled)); diff != "" {
			t.Fatalf("relabelling pods changed the plan:\n%s", diff)
		}

		decoys := s
		decoys.Pods = slices.Clone(s.Pods)
		for i, rs := range s.ReplicaSets {
			ref := model.NewControllerRef(model.AppsV1APIVersion, model.ReplicaSetKind, rs.Name, rs.UID)
			if rapid.Bool().Draw(t, "wrongKind") {
				ref.Kind = "StatefulSet"
			} else {
				ref.Name += "-other"
			}
			decoys.Pods = append(decoys.Pods, &model.Pod{
				ObjectMeta: model.ObjectMeta{Name: fmt.Sprintf("decoy-%d", i), Namespace: rs.Namespace, UID: fmt.Sprintf("decoy-%d", i),
					Labels: rs.Spec.Template.Labels, OwnerReferences: []model.OwnerReference{ref}},
				Status: model.PodStatus{Phase: model.PodRunning},
			})
		}
		if diff := cmp.Diff(base, mustPlan(t, decoys)); diff != "" {
			t.Fatalf("pods referencing a ReplicaSet's UID under another name or kind changed the plan:\n%s", diff)
		}
	})
}

// C4: a resolved maxSurge or maxUnavailable beyond int32 is narrowed with
// int32(...) of upstream's float64 ceil/floor, for sizes at both edges.
func TestFencepostsNarrowLikeUpstream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := EdgeSize().Draw(t, "replicas")
		pct := rapid.Int64Range(0, math.MaxInt32+2).Draw(t, "percent")
		v := model.FromString(fmt.Sprint(pct) + "%")
		s, u, err := proportion.ResolveFenceposts(&v, &v, replicas)
		if err != nil {
			t.Fatal(err)
		}
		up := int64(math.Ceil(float64(pct) * float64(replicas) / 100))
		down := int64(math.Floor(float64(pct) * float64(replicas) / 100))
		if up == 0 && down == 0 {
			down = 1
		}
		if s != int32(up) || u != int32(down) {
			t.Fatalf("%d%% of %d: (%d, %d), want int32 of (%d, %d)", pct, replicas, s, u, up, down)
		}
	})
}

// C5: any run of digits before "%" is a valid maxSurge, read with a 64-bit
// Atoi (clamped at the int64 limit); as maxUnavailable it is valid up to
// 100.
func TestPercentDigitsValidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		digits := rapid.StringMatching(`[0-9]{1,25}`).Draw(t, "digits")
		v := model.FromString(digits + "%")
		n, err := model.ParsePercent(v.StrVal)
		if err != nil {
			t.Fatalf("ParsePercent(%q): %v", v.StrVal, err)
		}
		trimmed := strings.TrimLeft(digits, "0")
		if len(trimmed) > 19 || len(trimmed) == 19 && trimmed > "9223372036854775807" {
			if n != math.MaxInt64 {
				t.Fatalf("ParsePercent(%q) = %d, want the int64 limit", v.StrVal, n)
			}
		}
		d := State(4, 1).Draw(t, "state").Deployment
		one := model.FromInt(1)
		d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{MaxSurge: &v, MaxUnavailable: &one}}
		if err := model.ValidateDeployment(d); err != nil {
			t.Fatalf("maxSurge %q rejected: %v", v.StrVal, err)
		}
		d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxSurge: &one, MaxUnavailable: &v}
		if err := model.ValidateDeployment(d); (err == nil) != (n <= 100) {
			t.Fatalf("maxUnavailable %q (%d): validation error %v", v.StrVal, n, err)
		}
	})
}

// C6: repeating condition types in the stored status is valid, and the
// plan's decisions and the first condition of each type in every status it
// writes are those of the status without the repeats.
func TestRepeatedConditionTypes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := State(8, 3).Draw(t, "state")
		base := mustPlan(t, s)
		dup := s
		dup.Deployment = s.Deployment.DeepCopy()
		for _, c := range s.Deployment.Status.Conditions {
			if rapid.Bool().Draw(t, "repeat") {
				c.Message = "a stale copy"
				dup.Deployment.Status.Conditions = append(dup.Deployment.Status.Conditions, c)
			}
		}
		got, want := mustPlan(t, dup).Plan, base.Plan
		if len(got.Actions) != len(want.Actions) {
			t.Fatalf("%d writes with repeated conditions, %d without", len(got.Actions), len(want.Actions))
		}
		for i := range got.Actions {
			a, b := got.Actions[i], want.Actions[i]
			if a.Kind != b.Kind || a.Object.Name != b.Object.Name || a.Reason.Code != b.Reason.Code {
				t.Fatalf("write %d: %s, without repeats %s", i, a, b)
			}
			if a.Deployment == nil || a.Deployment.Status == nil {
				continue
			}
			if b.Deployment == nil || b.Deployment.Status == nil {
				t.Fatalf("write %d writes a status with repeated conditions only", i)
			}
			if ac, bc := a.Deployment.Status.Conditions, b.Deployment.Status.Conditions; !cmp.Equal(firstOfEach(ac), firstOfEach(bc)) {
				t.Fatalf("write %d: first conditions differ:\n%v\n%v", i, ac, bc)
			}
		}
	})
}

func firstOfEach(conds []model.DeploymentCondition) map[model.DeploymentConditionType]model.DeploymentCondition {
	out := map[model.DeploymentConditionType]model.DeploymentCondition{}
	for _, c := range conds {
		if _, ok := out[c.Type]; !ok {
			out[c.Type] = c
		}
	}
	return out
}
