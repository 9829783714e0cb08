package sim

import (
	"errors"
	"hash/fnv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// runWith runs cfg with the plans' actions turned into the cluster's
// requests by the package's write (rendered false) or by render.Writes
// (rendered true), and returns the trace as JSON.
func runWith(t interface{ Fatal(...any) }, cfg Config, rendered bool) []byte {
	return traceJSON(t, cfg, func(r *runner) {
		if rendered {
			r.write = func(s plan.State, p plan.Plan, i int) (render.Write, error) {
				ws, err := render.Writes(s, p)
				if err != nil {
					return render.Write{}, err
				}
				return ws[i], nil
			}
		}
	})
}

// fnvHasher is a pure hasher other than the default, so that ReplicaSet
// names and the template-hash labels of created ReplicaSets differ from
// the default's.
func fnvHasher(t model.PodTemplate, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write([]byte(t.Spec))
	if collisionCount != nil {
		h.Write([]byte{byte(*collisionCount)})
	}
	return hash.Encode(h.Sum32())
}

// Applying typed actions without rendering whole objects changes nothing:
// at both fidelities, from an empty cluster or a generated one (orphans to
// adopt, ReplicaSets to release), under faults, failures, scripts (template
// changes, rollbacks, scaling), every apply mode and the planner's options,
// the full JSON trace is the one given by applying render.Writes.
func TestTypedWritesKeepTheTrace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var cfg Config
		if rapid.Bool().Draw(t, "generated cluster") {
			s := gen.State(12, 3).Draw(t, "state")
			cfg.Deployment, cfg.ReplicaSets, cfg.Pods, cfg.Start = s.Deployment, s.ReplicaSets, s.Pods, s.Now
			for _, rs := range cfg.ReplicaSets {
				switch rapid.IntRange(0, 2).Draw(t, "owner") {
				case 1: // an orphan the Deployment adopts
					rs.OwnerReferences = nil
				case 2: // a ReplicaSet it no longer selects: released
					rs.Labels = map[string]string{"other": "labels"}
				}
			}
		} else {
			cfg.Deployment = gen.Deployment(12).Draw(t, "deployment")
		}
		cfg.Deployment.Spec.Paused = false
		var opts []plan.Option
		if rapid.Bool().Draw(t, "fnv") {
			opts = append(opts, plan.WithHasher(fnvHasher))
		}
		if rapid.Bool().Draw(t, "terminating") {
			opts = append(opts, plan.WithTerminatingReplicas(true))
		}
		if rapid.Bool().Draw(t, "rollbackWithoutCreate") {
			opts = append(opts, plan.RollbackWithoutCreate())
		}
		cfg.MaxSyncs, cfg.Check, cfg.PlanOptions = 300, true, opts
		cfg.Fidelity = rapid.SampledFrom([]Fidelity{Counts, Pods}).Draw(t, "fidelity")
		drawConditions(t, &cfg)
		typed, rendered := runWith(t, cfg, false), runWith(t, cfg, true)
		require.Equal(t, string(rendered), string(typed), "traces differ")
	})
}

// A user's edit reaches the planner when every write is lost, so the
// cluster's objects stay those of the start until the template changes:
// both ways of applying give the same trace at both fidelities.
func TestTypedWritesWithEveryWriteLost(t *testing.T) {
	for _, fid := range fidelities() {
		cfg := Config{
			Deployment: deployment(3, model.RollingUpdateStrategy, "1", "0"), Fidelity: fid,
			World: World{ReadyAfter: time.Second}, Faults: Faults{DropRate: 1}, MaxSyncs: 12,
			Script: []Event{
				setImage(3, "nginx:1.16.1"),
				{At: 6 * time.Second, Action: Action{Kind: ScaleTo, Replicas: 5}},
				setImage(9, "nginx:1.17"),
			},
		}
		typed, rendered := runWith(t, cfg, false), runWith(t, cfg, true)
		require.Equal(t, string(rendered), string(typed), "%s: traces differ", fid)
	}
}

// write gives the objects render.Writes gives, action by action: on the
// plans of generated states, and on hand-written plans with the changes
// the simulator's runs rarely or never make (a ReplicaSet created and then
// updated in one plan, annotations removed by a status write, an update of
// minReadySeconds on a ReplicaSet without annotations).
func TestWriteRendersLikeRender(t *testing.T) {
	same := func(t require.TestingT, s plan.State, p plan.Plan) {
		want, err := render.Writes(s, p)
		require.NoError(t, err)
		for i := range p.Actions {
			got, err := write(s, p, i)
			require.NoError(t, err)
			if diff := cmp.Diff(want[i], got); diff != "" {
				require.Failf(t, "write differs from render.Writes", "action %d (-render.Writes +write):\n%s", i, diff)
			}
		}
	}
	t.Run("generated", func(t *testing.T) {
		rapid.Check(t, func(t *rapid.T) {
			s := gen.State(12, 4).Draw(t, "state")
			p, err := plan.Sync(s)
			if err != nil && !errors.As(err, new(*plan.SyncError)) {
				require.NoError(t, err)
			}
			same(t, s, p)
		})
	})
	t.Run("hand-written", func(t *testing.T) {
		d := model.Default(deployment(3, model.RollingUpdateStrategy, "1", "0"))
		d.Annotations = map[string]string{model.RevisionAnnotation: "2", model.ChangeCauseAnnotation: "image v2"}
		bare := &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{Name: "nginx-bare", Namespace: "default", UID: "bare-uid"},
			Spec:       model.ReplicaSetSpec{Replicas: model.Int32Ptr(1), Selector: d.Spec.Selector, Template: d.Spec.Template},
		}
		created := bare.DeepCopy()
		created.Name, created.UID, created.Annotations = "nginx-new", "", map[string]string{model.RevisionAnnotation: "3"}
		s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{bare}, Now: plantest.Epoch()}
		ref := func(name string) plan.ObjectRef { return plan.ObjectRef{Namespace: "default", Name: name} }
		same(t, s, plan.Plan{Actions: []plan.Action{
			{Kind: plan.CreateReplicaSet, Object: ref("nginx-new"), ReplicaSet: created},
			{Kind: plan.ScaleReplicaSet, Object: ref("nginx-new"), Update: &plan.ReplicaSetUpdate{FromReplicas: 1, Replicas: 3, Annotations: map[string]string{model.DesiredReplicasAnnotation: "3"}}},
			{Kind: plan.UpdateReplicaSet, Object: ref("nginx-bare"), Update: &plan.ReplicaSetUpdate{FromReplicas: 1, Replicas: 1, MinReadySeconds: model.Int32Ptr(30), Annotations: map[string]string{model.RevisionAnnotation: "1"}}},
			{Kind: plan.ScaleReplicaSet, Object: ref("nginx-bare"), Update: &plan.ReplicaSetUpdate{FromReplicas: 1, Replicas: 0}, Conflict: true},
			{Kind: plan.ReleaseReplicaSet, Object: ref("nginx-bare"), OwnerReference: &model.OwnerReference{UID: d.UID}},
			{Kind: plan.AdoptReplicaSet, Object: ref("nginx-bare"), OwnerReference: new(model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID))},
			{Kind: plan.DeleteReplicaSet, Object: plan.ObjectRef{Namespace: "default", Name: "nginx-bare", UID: "bare-uid"}},
			{Kind: plan.UpdateDeploymentStatus, Object: ref("nginx"), Deployment: &plan.DeploymentUpdate{
				Annotations: map[string]string{model.RevisionAnnotation: "3"}, RemovedAnnotations: []string{model.ChangeCauseAnnotation},
				Status: &model.DeploymentStatus{Replicas: 3, ObservedGeneration: 1},
			}},
			{Kind: plan.UpdateDeployment, Object: ref("nginx"), Deployment: &plan.DeploymentUpdate{
				RemovedAnnotations: []string{model.ChangeCauseAnnotation}, Template: &bare.Spec.Template, Status: &d.Status,
			}},
		}})
	})
}
