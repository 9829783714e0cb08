package gen

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// EdgeSize draws a size at one of the two edges of int32: from [0, 20] or
// from [2147483647 − 1000, 2147483647].
func EdgeSize() *rapid.Generator[int32] {
	return rapid.Custom(func(t *rapid.T) int32 {
		if rapid.Bool().Draw(t, "high") {
			return rapid.Int32Range(math.MaxInt32-1000, math.MaxInt32).Draw(t, "size")
		}
		return rapid.Int32Range(0, 20).Draw(t, "size")
	})
}

// EdgeBelow draws a size at the edges no larger than limit.
func EdgeBelow(limit int32) *rapid.Generator[int32] {
	return rapid.Custom(func(t *rapid.T) int32 {
		return min(EdgeSize().Draw(t, "n"), limit)
	})
}

// EdgeFencepost draws a maxSurge (maxPercent unbounded) or maxUnavailable
// (maxPercent 100) value apps/v1 validation accepts: an integer up to
// 2147483647 at either edge, or a percentage, for maxSurge also a huge one.
func EdgeFencepost(maxPercent int64) *rapid.Generator[model.IntOrString] {
	return rapid.Custom(func(t *rapid.T) model.IntOrString {
		switch rapid.IntRange(0, 3).Draw(t, "form") {
		case 0, 1:
			return model.FromInt(EdgeSize().Draw(t, "int"))
		case 2:
			return model.FromString(strconv.Itoa(rapid.IntRange(0, int(min(maxPercent, 100))).Draw(t, "pct")) + "%")
		}
		if maxPercent <= 100 {
			return model.FromString(strconv.Itoa(rapid.IntRange(90, 100).Draw(t, "pct")) + "%")
		}
		return model.FromString(strconv.FormatInt(int64(EdgeSize().Draw(t, "bigPct"))+rapid.Int64Range(0, 1).Draw(t, "past"), 10) + "%")
	})
}

// EdgeState draws a snapshot at the int32 edges: replicas, fenceposts,
// ReplicaSet sizes, statuses and annotations from [0, 20] ∪
// [2147483647 − 1000, 2147483647], up to maxSets ReplicaSets (old ones
// with distinct templates), revisions that may sit at the int64 limit, a
// stored status a real API server accepts, and no pods. Every drawn state
// passes plan.State.Validate.
func EdgeState(maxSets int) *rapid.Generator[plan.State] {
	return rapid.Custom(func(t *rapid.T) plan.State {
		d := edgeDeployment().Draw(t, "deployment")
		n := rapid.IntRange(0, maxSets).Draw(t, "sets")
		current := rapid.IntRange(-1, n-1).Draw(t, "current") // which one has d's template
		highRevision := rapid.IntRange(0, 3).Draw(t, "highRevision") == 0
		rss := make([]*model.ReplicaSet, 0, n)
		for i := range n {
			spec := EdgeSize().Draw(t, "spec")
			replicas := EdgeSize().Draw(t, "statusReplicas")
			ready := EdgeBelow(replicas).Draw(t, "ready")
			available := EdgeBelow(ready).Draw(t, "available")
			rev := int64(i + 1)
			if highRevision {
				rev = math.MaxInt64 - int64(n-1-i)
			}
			spec2 := fmt.Sprintf("old-%d", i)
			if i == current {
				spec2 = d.Spec.Template.Spec
			}
			hash := strconv.Itoa(i)
			labels := map[string]string{"app": "web", model.PodTemplateHashLabel: hash}
			name := "web-" + hash
			rs := &model.ReplicaSet{
				ObjectMeta: model.ObjectMeta{
					Name: name, Namespace: "default", UID: name + "-uid", Generation: 1,
					CreationTimestamp: plantest.Epoch().Add(time.Duration(i-n) * time.Minute),
					Labels:            labels,
					Annotations: map[string]string{
						model.RevisionAnnotation:        strconv.FormatInt(rev, 10),
						model.DesiredReplicasAnnotation: strconv.Itoa(int(EdgeSize().Draw(t, "annotatedDesired"))),
						model.MaxReplicasAnnotation:     strconv.Itoa(int(EdgeSize().Draw(t, "annotatedMax"))),
					},
					OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID)},
				},
				Spec: model.ReplicaSetSpec{
					Replicas: model.Int32Ptr(spec), MinReadySeconds: d.Spec.MinReadySeconds,
					Selector: &model.LabelSelector{MatchLabels: labels},
					Template: model.PodTemplate{Labels: labels, Spec: spec2},
				},
				Status: model.ReplicaSetStatus{
					Replicas: replicas, FullyLabeledReplicas: replicas, ReadyReplicas: ready, AvailableReplicas: available,
					ObservedGeneration: 1, TerminatingReplicas: model.Int32Ptr(0),
				},
			}
			rss = append(rss, rs)
		}
		if rapid.Bool().Draw(t, "statusKnown") {
			st := plan.CalculateStatus(rss, plan.FindNewReplicaSet(d, rss), d, plantest.Epoch().Add(-time.Minute), true)
			st.ObservedGeneration = d.Status.ObservedGeneration
			if model.ValidateDeployment(&model.Deployment{ObjectMeta: d.ObjectMeta, Spec: d.Spec, Status: st}) == nil {
				d.Status = st // only a status a server accepts can be stored
			}
		}
		now := plantest.Epoch().Add(time.Duration(rapid.IntRange(0, 900).Draw(t, "seconds")) * time.Second)
		return plan.State{Deployment: d, ReplicaSets: rss, Now: now}
	})
}

func edgeDeployment() *rapid.Generator[*model.Deployment] {
	return rapid.Custom(func(t *rapid.T) *model.Deployment {
		d := &model.Deployment{
			ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid", Generation: 2,
				CreationTimestamp: plantest.Epoch().Add(-time.Hour)},
			Spec: model.DeploymentSpec{
				Replicas: model.Int32Ptr(EdgeSize().Draw(t, "replicas")),
				Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "current"},
				Paused:   rapid.IntRange(0, 9).Draw(t, "paused") == 0,
			},
			Status: model.DeploymentStatus{ObservedGeneration: 1},
		}
		if rapid.IntRange(0, 4).Draw(t, "recreate") == 0 {
			d.Spec.Strategy.Type = model.RecreateStrategy
		} else {
			surge := EdgeFencepost(math.MaxInt64).Draw(t, "maxSurge")
			unav := EdgeFencepost(100).Draw(t, "maxUnavailable")
			if surge.IsZeroLiteral() && unav.IsZeroLiteral() {
				unav = model.FromInt(1)
			}
			d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy,
				RollingUpdate: &model.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unav}}
		}
		d.Spec.RevisionHistoryLimit = model.Int32Ptr(rapid.SampledFrom([]int32{0, 2, 10, model.NoLimit}).Draw(t, "historyLimit"))
		d.Spec.ProgressDeadlineSeconds = model.Int32Ptr(rapid.SampledFrom([]int32{600, model.NoLimit}).Draw(t, "deadline"))
		return model.Default(d)
	})
}
