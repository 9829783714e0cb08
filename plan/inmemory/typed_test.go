package inmemory

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// perAction applies a chosen subset of a plan's actions one by one (what a
// simulator's lost writes do), next to the three ApplyModes.
const perAction ApplyMode = -1

// applyRendered is the reference for ApplyPlan and ApplyAction: render s
// and p to upstream's requests, choose them by mode (keep says which
// actions reach the server when mode is perAction) and Apply each.
func applyRendered(c *Cluster, s plan.State, p plan.Plan, mode ApplyMode, keep []bool, now time.Time) []error {
	writes, err := render.Writes(s, p)
	if err != nil {
		return []error{err}
	}
	switch mode {
	case ApplyAccepted:
		writes = render.Accepted(writes)
	case ApplyCoalesced:
		writes = render.Coalesced(writes)
	}
	var errs []error
	for i, w := range writes {
		if mode == perAction && !keep[i] {
			continue
		}
		if err := c.Apply(w, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// applyTyped applies p as applyRendered does, without rendering.
func applyTyped(c *Cluster, s plan.State, p plan.Plan, mode ApplyMode, keep []bool, now time.Time) []error {
	if mode != perAction {
		return c.ApplyPlan(p, mode, now)
	}
	var errs []error
	for i := range p.Actions {
		if !keep[i] {
			continue
		}
		if err := c.ApplyAction(s, p, i, now); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// sameClusters fails unless both clusters hold equal objects (resource
// versions, generations and UIDs included) and handed out the same
// versions and UIDs, and the two ways answered the same errors.
func sameClusters(t require.TestingT, rendered, typed *Cluster, errsRendered, errsTyped []error, what string) {
	if diff := cmp.Diff(rendered, typed, cmp.AllowUnexported(Cluster{})); diff != "" {
		require.Failf(t, "typed actions store other objects than rendered writes", "%s (-rendered +typed):\n%s", what, diff)
	}
	require.Equal(t, errorTexts(errsRendered), errorTexts(errsTyped), "%s: errors", what)
}

func errorTexts(errs []error) []string {
	var out []string
	for _, err := range errs {
		out = append(out, err.Error())
	}
	return out
}

// weakHasher names every template after its collision count alone, so
// that created ReplicaSets collide with each other and with the generated
// ones ("web-0" … "web-4"): creates answered AlreadyExists, collision
// counts bumped.
func weakHasher(_ model.PodTemplate, collisionCount *int32) string {
	if collisionCount == nil {
		return "0"
	}
	return strconv.Itoa(int(*collisionCount))
}

// podsOf returns up to three running pods controlled by rs.
func podsOf(rs *model.ReplicaSet) []*model.Pod {
	var out []*model.Pod
	for k := range min(rs.SpecReplicas(), 3) {
		name := fmt.Sprintf("%s-pod-%d", rs.Name, k)
		out = append(out, &model.Pod{
			ObjectMeta: model.ObjectMeta{Name: name, Namespace: rs.Namespace, UID: name + "-uid", Labels: rs.Spec.Template.Labels,
				OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.ReplicaSetKind, rs.Name, rs.UID)}},
			Status: model.PodStatus{Phase: model.PodRunning},
		})
	}
	return out
}

// Applying typed actions stores exactly the objects that applying their
// rendered writes stores. Each run starts from a generated cluster (with
// orphans to adopt, ReplicaSets to release and pods to collect) and walks
// up to 40 syncs: every plan, made under the planner's options (a hasher
// whose names collide included), is applied both ways to copies of the
// cluster, in a drawn mode or with a drawn subset of its actions from a
// State with lagging statuses, and the two clusters must be equal. Between
// syncs the ReplicaSet controller reports statuses and a user changes the
// template, scales, pauses or asks for a legacy rollback.
func TestTypedActionsStoreWhatRenderedWritesStore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := gen.State(12, 4).Draw(t, "state")
		c := Cluster{Deployment: s.Deployment, ReplicaSets: s.ReplicaSets}
		for _, rs := range c.ReplicaSets {
			switch rapid.IntRange(0, 3).Draw(t, "owner") {
			case 1: // an orphan the Deployment adopts
				rs.OwnerReferences = nil
			case 2: // a ReplicaSet it no longer selects: released
				rs.Labels = map[string]string{"other": "labels"}
			}
			c.Pods = append(c.Pods, podsOf(rs)...)
		}
		var opts []plan.Option
		if rapid.Bool().Draw(t, "weakHasher") {
			opts = append(opts, plan.WithHasher(weakHasher))
		}
		if rapid.Bool().Draw(t, "terminating") {
			opts = append(opts, plan.WithTerminatingReplicas(true))
		}
		if rapid.Bool().Draw(t, "rollbackWithoutCreate") {
			opts = append(opts, plan.RollbackWithoutCreate())
		}
		now := s.Now
		prev := map[string]model.ReplicaSetStatus{} // statuses of the previous sync
		syncs := rapid.IntRange(1, 40).Draw(t, "syncs")
		for sync := range syncs {
			mode := rapid.SampledFrom([]ApplyMode{ApplyAccepted, ApplyAll, ApplyCoalesced, perAction}).Draw(t, "mode")
			s := c.State(now)
			if mode == perAction && rapid.Bool().Draw(t, "stale") {
				// The informer lags: the planner, and the actions, see the
				// previous sync's statuses.
				for i, rs := range s.ReplicaSets {
					if old, ok := prev[rs.Name]; ok {
						cp := rs.DeepCopy()
						cp.Status = old
						s.ReplicaSets[i] = cp
					}
				}
			}
			clear(prev)
			for _, rs := range c.ReplicaSets {
				prev[rs.Name] = rs.Status
			}
			p, err := plan.Sync(s, opts...)
			if err != nil && !errors.As(err, new(*plan.SyncError)) {
				require.NoError(t, err, "sync %d", sync)
			}
			keep := rapid.SliceOfN(rapid.Bool(), len(p.Actions), len(p.Actions)).Draw(t, "keep")
			rendered, typed := clone(c), clone(c)
			errsRendered := applyRendered(&rendered, s, p, mode, keep, now)
			errsTyped := applyTyped(&typed, s, p, mode, keep, now)
			sameClusters(t, &rendered, &typed, errsRendered, errsTyped, fmt.Sprintf("sync %d, mode %s, %s", sync, mode, p))
			c = typed

			// The ReplicaSet controller reports on some ReplicaSets: all
			// pods available, or a drawn lagging status.
			for _, rs := range c.ReplicaSets {
				var st model.ReplicaSetStatus
				switch rapid.IntRange(0, 2).Draw(t, "controller") {
				case 0:
					continue
				case 1:
					n := rs.SpecReplicas()
					st = model.ReplicaSetStatus{Replicas: n, FullyLabeledReplicas: n, ReadyReplicas: n, AvailableReplicas: n, ObservedGeneration: rs.Generation}
				case 2:
					st = gen.ReplicaSetStatus(rs).Draw(t, "status")
				}
				require.NoError(t, c.SetReplicaSetStatus(rs.Name, st))
			}
			userEdit(t, &c)
			now = now.Add(time.Duration(rapid.IntRange(1, 120).Draw(t, "seconds")) * time.Second)
		}
	})
}

// userEdit draws what a user does between two syncs, if anything.
func userEdit(t *rapid.T, c *Cluster) {
	spec := c.Deployment.Spec.DeepCopy()
	var annotations map[string]string
	switch rapid.IntRange(0, 9).Draw(t, "user") {
	case 0:
		spec.Template.Spec = fmt.Sprintf("v%d", rapid.IntRange(0, 4).Draw(t, "template"))
	case 1:
		spec.Replicas = model.Int32Ptr(rapid.Int32Range(0, 12).Draw(t, "replicas"))
	case 2:
		spec.Paused = !spec.Paused
	case 3:
		spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 5, 30}).Draw(t, "minReady")
	case 4:
		annotations = maps.Clone(c.Deployment.Annotations)
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[model.RollbackToAnnotation] = strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "rollbackTo"))
	default:
		return
	}
	c.UpdateDeploymentSpec(spec, annotations)
}

// A hand-written plan with the changes generated runs make rarely or never
// (a ReplicaSet created and then scaled in one plan, minReadySeconds set on
// a ReplicaSet, a conflicting second write, a release then an adoption of
// the same ReplicaSet, annotations removed by a status write and by a full
// update) is applied action by action both ways, for every subset of its
// actions: lost writes make later ones fail (a scale of a ReplicaSet whose
// create was lost is NotFound) the same way.
func TestTypedActionsOfAHandWrittenPlan(t *testing.T) {
	d := testDeployment()
	d.Annotations = map[string]string{model.RevisionAnnotation: "2", model.ChangeCauseAnnotation: "image v2"}
	bare := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: "web-bare", Namespace: "default", UID: "bare-uid", ResourceVersion: "7", Generation: 1},
		Spec:       model.ReplicaSetSpec{Replicas: model.Int32Ptr(1), Selector: d.Spec.Selector, Template: d.Spec.Template},
	}
	created := bare.DeepCopy()
	created.Name, created.UID, created.ResourceVersion, created.Annotations = "web-new", "", "", map[string]string{model.RevisionAnnotation: "3"}
	base := Cluster{Deployment: d, ReplicaSets: []*model.ReplicaSet{bare}, Pods: podsOf(bare)}
	ref := func(name string) plan.ObjectRef { return plan.ObjectRef{Namespace: "default", Name: name} }
	p := plan.Plan{Actions: []plan.Action{
		{Kind: plan.CreateReplicaSet, Object: ref("web-new"), ReplicaSet: created},
		{Kind: plan.ScaleReplicaSet, Object: ref("web-new"), Update: &plan.ReplicaSetUpdate{FromReplicas: 1, Replicas: 3, Annotations: map[string]string{model.DesiredReplicasAnnotation: "3"}}},
		{Kind: plan.UpdateReplicaSet, Object: ref("web-bare"), Update: &plan.ReplicaSetUpdate{FromReplicas: 1, Replicas: 1, MinReadySeconds: model.Int32Ptr(30), Annotations: map[string]string{model.RevisionAnnotation: "1"}}},
		{Kind: plan.ScaleReplicaSet, Object: ref("web-bare"), Update: &plan.ReplicaSetUpdate{FromReplicas: 1, Replicas: 0}, Conflict: true},
		{Kind: plan.ReleaseReplicaSet, Object: ref("web-bare"), OwnerReference: &model.OwnerReference{UID: d.UID}},
		{Kind: plan.AdoptReplicaSet, Object: ref("web-bare"), OwnerReference: new(model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID))},
		{Kind: plan.UpdateDeploymentStatus, Object: ref("web"), Deployment: &plan.DeploymentUpdate{
			Annotations: map[string]string{model.RevisionAnnotation: "3"}, RemovedAnnotations: []string{model.ChangeCauseAnnotation},
			Status: &model.DeploymentStatus{Replicas: 3, ObservedGeneration: 1, Conditions: []model.DeploymentCondition{{Type: model.DeploymentProgressing, Status: model.ConditionTrue}}},
		}},
		{Kind: plan.UpdateDeployment, Object: ref("web"), Deployment: &plan.DeploymentUpdate{
			RemovedAnnotations: []string{model.ChangeCauseAnnotation}, Template: &model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:0"}, Status: &d.Status,
		}},
		{Kind: plan.DeleteReplicaSet, Object: plan.ObjectRef{Namespace: "default", Name: "web-bare", UID: "bare-uid"}},
	}}
	s := base.State(epoch)
	for subset := range 1 << len(p.Actions) {
		keep := make([]bool, len(p.Actions))
		for i := range keep {
			keep[i] = subset&(1<<i) != 0
		}
		rendered, typed := clone(base), clone(base)
		errsRendered := applyRendered(&rendered, s, p, perAction, keep, epoch)
		errsTyped := applyTyped(&typed, s, p, perAction, keep, epoch)
		sameClusters(t, &rendered, &typed, errsRendered, errsTyped, fmt.Sprintf("actions %v", keep))
	}
	for _, mode := range []ApplyMode{ApplyAccepted, ApplyAll, ApplyCoalesced} {
		rendered, typed := clone(base), clone(base)
		errsRendered := applyRendered(&rendered, s, p, mode, nil, epoch)
		errsTyped := applyTyped(&typed, s, p, mode, nil, epoch)
		sameClusters(t, &rendered, &typed, errsRendered, errsTyped, mode.String())
	}
}

// The cluster keeps nothing of the plan it applies: scribbling over every
// map, slice and object of the plan afterwards changes no stored object.
func TestApplyPlanKeepsNothingOfThePlan(t *testing.T) {
	for _, mode := range []ApplyMode{ApplyAccepted, ApplyAll, ApplyCoalesced} {
		t.Run(mode.String(), func(t *testing.T) {
			c, p := rolloutStarted(t)
			require.Empty(t, c.ApplyPlan(p, mode, epoch))
			before := mustJSON(t, c.State(epoch))
			for _, a := range p.Actions {
				scribble(a)
			}
			assert.Equal(t, before, mustJSON(t, c.State(epoch)))
		})
	}
}

// scribble changes every map and slice an action holds.
func scribble(a plan.Action) {
	if rs := a.ReplicaSet; rs != nil {
		for _, m := range []map[string]string{rs.Labels, rs.Annotations, rs.Spec.Template.Labels, rs.Spec.Selector.MatchLabels} {
			for k := range m {
				m[k] = "scribbled"
			}
		}
		*rs.Spec.Replicas = -1
	}
	if u := a.Update; u != nil {
		for k := range u.Annotations {
			u.Annotations[k] = "scribbled"
		}
	}
	if u := a.Deployment; u != nil {
		for k := range u.Annotations {
			u.Annotations[k] = "scribbled"
		}
		if u.Status != nil {
			for i := range u.Status.Conditions {
				u.Status.Conditions[i].Message = "scribbled"
			}
		}
	}
	if r := a.OwnerReference; r != nil {
		r.Name = "scribbled"
	}
}

// A plan that does not fit the State it is applied with is an
// ErrInvalidPlan and writes nothing, whether applied whole or by action.
func TestInvalidPlans(t *testing.T) {
	base, p := rolloutStarted(t)
	ref := func(name string) plan.ObjectRef { return plan.ObjectRef{Namespace: "default", Name: name} }
	for name, a := range map[string]plan.Action{
		"create without object":  {Kind: plan.CreateReplicaSet, Object: ref("x")},
		"scale without update":   {Kind: plan.ScaleReplicaSet, Object: ref(base.ReplicaSets[0].Name)},
		"scale of another":       {Kind: plan.ScaleReplicaSet, Object: ref("elsewhere"), Update: &plan.ReplicaSetUpdate{Replicas: 1}},
		"adopt without ref":      {Kind: plan.AdoptReplicaSet, Object: ref(base.ReplicaSets[0].Name)},
		"status without update":  {Kind: plan.UpdateDeploymentStatus, Object: ref("web")},
		"status of another":      {Kind: plan.UpdateDeploymentStatus, Object: ref("other"), Deployment: &plan.DeploymentUpdate{Status: &model.DeploymentStatus{}}},
		"update in another ns":   {Kind: plan.UpdateDeployment, Object: plan.ObjectRef{Namespace: "kube-system", Name: "web"}, Deployment: &plan.DeploymentUpdate{}},
		"unknown kind of action": {Kind: "PatchReplicaSet", Object: ref("x")},
	} {
		t.Run(name, func(t *testing.T) {
			bad := p
			bad.Actions = append(p.Actions[:1:1], a)
			for _, mode := range []ApplyMode{ApplyAccepted, ApplyAll, ApplyCoalesced} {
				c := clone(base)
				errs := c.ApplyPlan(bad, mode, epoch)
				require.Len(t, errs, 1, mode)
				assert.ErrorIs(t, errs[0], ErrInvalidPlan, mode)
				assert.Equal(t, base.ResourceVersion(), c.ResourceVersion(), "%s: nothing written", mode)
			}
			c := clone(base)
			assert.ErrorIs(t, c.ApplyAction(c.State(epoch), bad, 1, epoch), ErrInvalidPlan)
			assert.Equal(t, base.ResourceVersion(), c.ResourceVersion(), "nothing written")
		})
	}
}
