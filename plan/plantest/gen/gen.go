// Package gen holds rapid generators of valid Deployments, ReplicaSet
// histories, statuses and whole planner states, for property tests of code
// that plans or applies rollouts. It is the only package of the module that
// imports rapid, so importing the simulator or the checker never adds rapid's
// command-line flags to a program.
//
// To start: inside rapid.Check, draw a whole planner input with
// gen.State(maxReplicas, maxSets).Draw(t, "state") and pass it to plan.Sync;
// [EdgeState] draws states near the int32 limits and other edges.
// [StatefulSetState] draws the input of the StatefulSet planner
// (statefulset.Sync), to check with plantest.CheckStatefulSet.
package gen

import (
	"fmt"
	"strconv"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// Fencepost draws a maxSurge or maxUnavailable value: an integer up to max
// or a percentage up to 100%.
func Fencepost(max int32) *rapid.Generator[model.IntOrString] {
	return rapid.Custom(func(t *rapid.T) model.IntOrString {
		if rapid.Bool().Draw(t, "percent") {
			return model.FromString(strconv.Itoa(rapid.IntRange(0, 100).Draw(t, "pct")) + "%")
		}
		return model.FromInt(rapid.Int32Range(0, max).Draw(t, "int"))
	})
}

// Deployment draws a valid, defaulted Deployment named "web" with up to
// maxReplicas replicas. It randomises what the planner reads: replicas, the
// strategy and its fenceposts (never both literally zero), minReadySeconds,
// revisionHistoryLimit, progressDeadlineSeconds, pause, generation and a
// stored status; the template is "v<N>".
func Deployment(maxReplicas int32) *rapid.Generator[*model.Deployment] {
	return rapid.Custom(func(t *rapid.T) *model.Deployment {
		d := &model.Deployment{
			ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid",
				Generation: rapid.Int64Range(1, 5).Draw(t, "generation"), CreationTimestamp: plantest.Epoch().Add(-time.Hour)},
			Spec: model.DeploymentSpec{
				Replicas:        model.Int32Ptr(rapid.Int32Range(0, maxReplicas).Draw(t, "replicas")),
				Selector:        &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template:        model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: fmt.Sprintf("v%d", rapid.IntRange(0, 4).Draw(t, "template"))},
				MinReadySeconds: rapid.SampledFrom([]int32{0, 0, 5, 30}).Draw(t, "minReady"),
				Paused:          rapid.IntRange(0, 9).Draw(t, "paused") == 0,
			},
		}
		if rapid.IntRange(0, 3).Draw(t, "recreate") == 0 {
			d.Spec.Strategy.Type = model.RecreateStrategy
		} else {
			surge := Fencepost(maxReplicas+2).Draw(t, "maxSurge")
			unav := Fencepost(maxReplicas+2).Draw(t, "maxUnavailable")
			if surge.IsZeroLiteral() && unav.IsZeroLiteral() {
				unav = model.FromInt(1)
			}
			d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy,
				RollingUpdate: &model.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unav}}
		}
		d.Spec.RevisionHistoryLimit = model.Int32Ptr(rapid.SampledFrom([]int32{0, 1, 2, 10, model.NoLimit}).Draw(t, "historyLimit"))
		d.Spec.ProgressDeadlineSeconds = model.Int32Ptr(rapid.SampledFrom([]int32{60, 600, model.NoLimit}).Draw(t, "deadline"))
		d.Status.ObservedGeneration = rapid.Int64Range(0, d.Generation).Draw(t, "observedGeneration")
		if rapid.Bool().Draw(t, "collided") {
			d.Status.CollisionCount = model.Int32Ptr(rapid.Int32Range(0, 3).Draw(t, "collisionCount"))
		}
		return model.Default(d)
	})
}

// ReplicaSets draws up to maxSets ReplicaSets owned by d, as the controller
// leaves them: one per template "v0".."v4" (so d's template may or may not
// have one), increasing revisions and creation times, sizes up to
// 2·replicas, replica annotations from the current or an earlier replicas
// (max-replicas never below the ReplicaSet's size),
// and statuses that lag their spec a little (available ≤ ready ≤ replicas).
func ReplicaSets(d *model.Deployment, maxSets int) *rapid.Generator[[]*model.ReplicaSet] {
	return rapid.Custom(func(t *rapid.T) []*model.ReplicaSet {
		n := rapid.IntRange(0, maxSets).Draw(t, "sets")
		templates := rapid.SliceOfNDistinct(rapid.IntRange(0, 4), n, n, rapid.ID[int]).Draw(t, "templates")
		desired := d.DesiredReplicas()
		var out []*model.ReplicaSet
		for i, tmpl := range templates {
			name := fmt.Sprintf("web-%d", tmpl)
			hash := strconv.Itoa(tmpl)
			labels := map[string]string{"app": "web", model.PodTemplateHashLabel: hash}
			spec := rapid.Int32Range(0, 2*desired+1).Draw(t, "spec")
			annotatedFor := rapid.SampledFrom([]int32{desired, desired, max(0, desired-2), desired + 3}).Draw(t, "annotatedFor")
			rs := &model.ReplicaSet{
				ObjectMeta: model.ObjectMeta{
					Name: name, Namespace: "default", UID: name + "-uid",
					CreationTimestamp: plantest.Epoch().Add(time.Duration(i-n) * time.Minute),
					Generation:        rapid.Int64Range(1, 3).Draw(t, "rsGeneration"),
					Labels:            labels,
					Annotations: map[string]string{
						model.RevisionAnnotation:        strconv.Itoa(i + 1),
						model.DesiredReplicasAnnotation: strconv.Itoa(int(annotatedFor)),
						// The controller sizes a ReplicaSet within replicas + maxSurge and
						// records that bound, so spec never exceeds it (except after hand
						// edits, which can make upstream's proportions move against a change).
						model.MaxReplicasAnnotation: strconv.Itoa(int(max(spec, annotatedFor+rapid.Int32Range(0, 3).Draw(t, "annotatedSurge")))),
					},
					OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID)},
				},
				Spec: model.ReplicaSetSpec{
					Replicas: model.Int32Ptr(spec), MinReadySeconds: d.Spec.MinReadySeconds,
					Selector: &model.LabelSelector{MatchLabels: labels},
					Template: model.PodTemplate{Labels: labels, Spec: fmt.Sprintf("v%d", tmpl)},
				},
			}
			rs.Status = ReplicaSetStatus(rs).Draw(t, "status")
			out = append(out, rs)
		}
		return out
	})
}

// ReplicaSetStatus draws a status the ReplicaSet controller could report for
// rs: replicas near spec (it lags), ready ≤ replicas, available ≤ ready, an
// observed generation at most the current one.
func ReplicaSetStatus(rs *model.ReplicaSet) *rapid.Generator[model.ReplicaSetStatus] {
	return rapid.Custom(func(t *rapid.T) model.ReplicaSetStatus {
		spec := rs.SpecReplicas()
		replicas := max(0, spec+rapid.Int32Range(-2, 2).Draw(t, "lag"))
		ready := rapid.Int32Range(0, replicas).Draw(t, "ready")
		available := rapid.Int32Range(0, ready).Draw(t, "available")
		terminating := rapid.Int32Range(0, 2).Draw(t, "terminating")
		return model.ReplicaSetStatus{
			Replicas: replicas, FullyLabeledReplicas: replicas, ReadyReplicas: ready, AvailableReplicas: available,
			ObservedGeneration:  rapid.Int64Range(0, rs.Generation).Draw(t, "observed"),
			TerminatingReplicas: &terminating,
		}
	})
}

// State draws a whole snapshot: a Deployment from [Deployment], its
// ReplicaSets from [ReplicaSets], a stored status consistent with them, no
// pods, and a clock within the progress deadline or past it.
func State(maxReplicas int32, maxSets int) *rapid.Generator[plan.State] {
	return rapid.Custom(func(t *rapid.T) plan.State {
		d := Deployment(maxReplicas).Draw(t, "deployment")
		rss := ReplicaSets(d, maxSets).Draw(t, "replicaSets")
		newRS := plan.FindNewReplicaSet(d, rss)
		if rapid.Bool().Draw(t, "statusKnown") {
			st := plan.CalculateStatus(rss, newRS, d, plantest.Epoch().Add(-time.Minute), true)
			st.ObservedGeneration = d.Status.ObservedGeneration
			st.CollisionCount = d.Status.CollisionCount
			d.Status = st
		}
		now := plantest.Epoch().Add(time.Duration(rapid.IntRange(0, 900).Draw(t, "seconds")) * time.Second)
		return plan.State{Deployment: d, ReplicaSets: rss, Now: now}
	})
}
