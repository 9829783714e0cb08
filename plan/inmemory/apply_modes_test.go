package inmemory

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// rolloutStarted returns a cluster of testDeployment (4 replicas, maxSurge
// and maxUnavailable 25%, so 1 and 1) whose first ReplicaSet runs 4
// available pods and whose template just changed, and the plan of its next
// sync: create the new ReplicaSet with 1, record revision 2, scale the old
// one 4→3, and a second status write of the same cached Deployment, which
// conflicts.
func rolloutStarted(t *testing.T) (Cluster, plan.Plan) {
	t.Helper()
	c, name := withFirstReplicaSet(t)
	rs := c.ReplicaSet(name)
	require.NoError(t, c.SetReplicaSetStatus(name, model.ReplicaSetStatus{Replicas: 4, FullyLabeledReplicas: 4, ReadyReplicas: 4, AvailableReplicas: 4, ObservedGeneration: rs.Generation}))
	p, err := plan.Sync(c.State(epoch))
	require.NoError(t, err)
	require.Empty(t, c.ApplyPlan(p, ApplyAccepted, epoch))
	spec := c.Deployment.Spec
	spec.Template.Spec = "image: web:2"
	c.UpdateDeploymentSpec(spec, nil)
	p, err = plan.Sync(c.State(epoch))
	require.NoError(t, err)
	kinds := make([]plan.ActionKind, 0, len(p.Actions))
	for _, a := range p.Actions {
		kinds = append(kinds, a.Kind)
	}
	require.Equal(t, []plan.ActionKind{plan.CreateReplicaSet, plan.UpdateDeploymentStatus, plan.ScaleReplicaSet, plan.UpdateDeploymentStatus}, kinds)
	i, rejected := p.Rejected()
	require.True(t, rejected)
	require.Equal(t, 3, i, "the second status write conflicts")
	return c, p
}

// clone returns a cluster that shares the objects of c (they are never
// changed in place) but not its slices.
func clone(c Cluster) Cluster {
	c.ReplicaSets = slices.Clone(c.ReplicaSets)
	c.Pods = slices.Clone(c.Pods)
	return c
}

// sizes maps each stored ReplicaSet's template spec to its spec.replicas.
func sizes(c *Cluster) map[string]int32 {
	out := map[string]int32{}
	for _, rs := range c.ReplicaSets {
		out[rs.Spec.Template.Spec] = rs.SpecReplicas()
	}
	return out
}

// The three modes on the first sync of a rollout: every mode creates the
// new ReplicaSet and scales the old one; ApplyAccepted stops before the
// conflicting status write, so the stored status is the first write's
// (generation 1 observed); ApplyAll applies it too (generation 2
// observed), one write more; ApplyCoalesced sends one write per object and
// ends where ApplyAll does.
func TestApplyPlanModesOnARollout(t *testing.T) {
	base, p := rolloutStarted(t)
	require.Equal(t, int64(2), base.Deployment.Generation)
	wantSizes := map[string]int32{"image: web:1": 3, "image: web:2": 1}

	type result struct {
		c      Cluster
		writes int64
	}
	results := map[ApplyMode]result{}
	for _, mode := range []ApplyMode{ApplyAccepted, ApplyAll, ApplyCoalesced} {
		c := clone(base)
		before := c.ResourceVersion()
		require.Empty(t, c.ApplyPlan(p, mode, epoch.Add(time.Second)), mode)
		assert.Equal(t, wantSizes, sizes(&c), mode)
		assert.Equal(t, "2", c.Deployment.Annotations[model.RevisionAnnotation], mode)
		results[mode] = result{c, c.ResourceVersion() - before}
	}
	assert.Equal(t, int64(3), results[ApplyAccepted].writes, "accepted: create, status, scale")
	assert.Equal(t, int64(4), results[ApplyAll].writes, "all: the conflicting status write too")
	assert.Equal(t, int64(3), results[ApplyCoalesced].writes, "coalesced: one write per object")
	assert.Equal(t, int64(1), results[ApplyAccepted].c.Deployment.Status.ObservedGeneration, "accepted: the first status write, built before the sync's status")
	assert.Equal(t, int64(2), results[ApplyAll].c.Deployment.Status.ObservedGeneration)
	assert.Equal(t, int64(2), results[ApplyCoalesced].c.Deployment.Status.ObservedGeneration)

	// Coalesced ends with the objects ApplyAll leaves, resource versions
	// aside.
	ignoreVersions := cmp.Transformer("noVersion", func(m model.ObjectMeta) model.ObjectMeta {
		m.ResourceVersion = ""
		return m
	})
	all, co := results[ApplyAll].c, results[ApplyCoalesced].c
	if diff := cmp.Diff(all.State(epoch), co.State(epoch), ignoreVersions); diff != "" {
		t.Errorf("coalesced differs from all (-all +coalesced):\n%s", diff)
	}
	// The base cluster, which shares its objects with the copies, is as it was.
	assert.Equal(t, map[string]int32{"image: web:1": 4}, sizes(&base))
	assert.Equal(t, "1", base.Deployment.Annotations[model.RevisionAnnotation])
}

// An orphan the Deployment adopts and then updates from its cached copy:
// a real server applies the adoption only (the update conflicts), a fake
// client without version checks lets the update, built on the orphan,
// drop the owner reference the adoption added, and the coalesced writes
// keep both the owner reference and the update.
func TestApplyPlanModesOnAnAdoption(t *testing.T) {
	c, name := withFirstReplicaSet(t)
	orphan := c.ReplicaSet(name).DeepCopy()
	orphan.OwnerReferences = nil
	delete(orphan.Annotations, model.RevisionAnnotation)
	base := Cluster{Deployment: testDeployment(), ReplicaSets: []*model.ReplicaSet{orphan}}
	p, err := plan.Sync(base.State(epoch))
	require.NoError(t, err)
	require.NotEmpty(t, p.Actions)
	require.Equal(t, plan.AdoptReplicaSet, p.Actions[0].Kind)
	i, rejected := p.Rejected()
	require.True(t, rejected)
	require.Equal(t, 1, i, "the update after the adoption conflicts")
	controller := []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web", "web-uid")}

	type want struct {
		owners   []model.OwnerReference
		revision string
		status   bool // the Deployment's status was written
	}
	for mode, w := range map[ApplyMode]want{
		ApplyAccepted:  {owners: controller},
		ApplyAll:       {owners: nil, revision: "1", status: true},
		ApplyCoalesced: {owners: controller, revision: "1", status: true},
	} {
		t.Run(mode.String(), func(t *testing.T) {
			c := clone(base)
			require.Empty(t, c.ApplyPlan(p, mode, epoch))
			rs := c.ReplicaSet(name)
			require.NotNil(t, rs)
			assert.Equal(t, w.owners, rs.OwnerReferences)
			assert.Equal(t, w.revision, rs.Annotations[model.RevisionAnnotation])
			assert.Equal(t, w.status, c.Deployment != base.Deployment, "Deployment written")
			assert.Equal(t, orphan.UID, rs.UID, "the server keeps the UID")
		})
	}
	assert.Nil(t, orphan.OwnerReferences, "the State's orphan is unchanged")
}

// ApplyPlan answers a failed write with its error and applies the others;
// a plan made from another cluster is an invalid plan and changes nothing.
func TestApplyPlanErrors(t *testing.T) {
	base, p := rolloutStarted(t)
	newName := p.Actions[0].Object.Name

	// Someone else created a ReplicaSet of that name since the sync.
	taken := clone(base)
	squatter := base.ReplicaSets[0].DeepCopy()
	squatter.Name, squatter.UID = newName, "squatter-uid"
	taken.ReplicaSets = append(taken.ReplicaSets, squatter)
	errs := taken.ApplyPlan(p, ApplyAll, epoch)
	require.Len(t, errs, 1)
	assert.EqualError(t, errs[0], `replicasets.apps "`+newName+`" already exists`)
	assert.Equal(t, "squatter-uid", taken.ReplicaSet(newName).UID, "the create did not replace the squatter")
	assert.Equal(t, "2", taken.Deployment.Annotations[model.RevisionAnnotation], "the status write still applied")
	assert.Equal(t, int64(2), taken.Deployment.Status.ObservedGeneration, "the last status write still applied")

	// A cluster without the old ReplicaSet the plan scales.
	other := Cluster{Deployment: base.Deployment}
	before := other.ResourceVersion()
	errs = other.ApplyPlan(p, ApplyCoalesced, epoch)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrInvalidPlan)
	assert.ErrorContains(t, errs[0], "names a ReplicaSet the State does not hold")
	assert.Equal(t, before, other.ResourceVersion(), "nothing written")
	assert.Empty(t, other.ReplicaSets)
}

func TestApplyUnknownKind(t *testing.T) {
	c := Cluster{Deployment: testDeployment()}
	assert.EqualError(t, c.Apply(render.Write{Kind: "PatchReplicaSet", Name: "x"}, epoch), `unknown action kind "PatchReplicaSet"`)
}

func TestApplyModeString(t *testing.T) {
	assert.Equal(t, "accepted", ApplyAccepted.String())
	assert.Equal(t, "all", ApplyAll.String())
	assert.Equal(t, "coalesced", ApplyCoalesced.String())
	assert.Equal(t, "ApplyMode(7)", ApplyMode(7).String())
}
