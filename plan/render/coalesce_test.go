package render_test

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

func TestCoalesced(t *testing.T) {
	d := newDeployment("web", 3, "v2")
	ref := model.NewControllerRef("apps/v1", "Deployment", "web", "uid-web")
	rsWith := func(name string, replicas int32, refs ...model.OwnerReference) *model.ReplicaSet {
		rs := bareRS(name, replicas, 0, t0)
		rs.OwnerReferences = refs
		return rs
	}
	depWith := func(observed int64) *model.Deployment {
		c := d.DeepCopy()
		c.Status.ObservedGeneration = observed
		return c
	}
	create := func(rs *model.ReplicaSet) render.Write {
		return render.Write{Kind: render.CreateReplicaSet, Namespace: ns, Name: rs.Name, ReplicaSet: rs}
	}
	update := func(rs *model.ReplicaSet, conflict bool) render.Write {
		return render.Write{Kind: render.UpdateReplicaSet, Namespace: ns, Name: rs.Name, ReplicaSet: rs, Conflict: conflict}
	}
	status := func(dep *model.Deployment, conflict bool) render.Write {
		return render.Write{Kind: render.UpdateDeploymentStatus, Namespace: ns, Name: "web", Deployment: dep, Conflict: conflict}
	}
	adopt := render.Write{Kind: render.AdoptReplicaSet, Namespace: ns, Name: "web-a", UID: "uid-web-a", OwnerReference: &ref}
	release := render.Write{Kind: render.ReleaseReplicaSet, Namespace: ns, Name: "web-a", UID: "uid-web-a", OwnerReference: &model.OwnerReference{UID: "uid-web"}}
	del := render.Write{Kind: render.DeleteReplicaSet, Namespace: ns, Name: "web-a", UID: "uid-web-a"}

	type tc struct {
		why
		in   []render.Write
		want []render.Write
	}
	cases := []tc{
		{why: why{"create then update", "coalesced mode (upstream writes from its cached copy, so later writes conflict): one create carrying the final replicas and the create's owner reference"},
			in:   []render.Write{create(rsWith("web-a", 1, ref)), update(rsWith("web-a", 3), false)},
			want: []render.Write{create(rsWith("web-a", 3, ref))}},
		{why: why{"adopt then updates", "upstream ClaimReplicaSets + upstream writes from its cached copy, so later writes conflict: the update built on the cached orphan gets the adopted owner reference; its conflict flag goes"},
			in:   []render.Write{adopt, update(rsWith("web-a", 2), true), update(rsWith("web-a", 4), true)},
			want: []render.Write{update(rsWith("web-a", 4, ref), false)}},
		{why: why{"update then adopt", "Coalesced doc: an adopt after an update is applied to the update's object"},
			in:   []render.Write{update(rsWith("web-a", 2), false), adopt},
			want: []render.Write{update(rsWith("web-a", 2, ref), false)}},
		{why: why{"release then update", "upstream ClaimReplicaSets: a release removes the Deployment's reference from the final object"},
			in:   []render.Write{release, update(rsWith("web-a", 0, ref, model.OwnerReference{UID: "other"}), false)},
			want: []render.Write{update(rsWith("web-a", 0, model.OwnerReference{UID: "other"}), false)}},
		{why: why{"patch alone", "Coalesced doc: patches alone stay patches"},
			in: []render.Write{adopt}, want: []render.Write{adopt}},
		{why: why{"two status writes", "upstream writes from its cached copy, so later writes conflict: the second status write conflicts upstream; coalesced keeps the last, unflagged, at the first one's place"},
			in:   []render.Write{status(depWith(1), false), update(rsWith("web-b", 8), false), status(depWith(2), true)},
			want: []render.Write{status(depWith(2), false), update(rsWith("web-b", 8), false)}},
		{why: why{"delete wins", "Coalesced doc: a delete of the ReplicaSet wins over earlier writes"},
			in: []render.Write{update(rsWith("web-a", 0), false), del}, want: []render.Write{del}},
		{why: why{"status and full update kept apart", "the status subresource and the full object are separate writes"},
			in:   []render.Write{status(depWith(1), false), {Kind: render.UpdateDeployment, Namespace: ns, Name: "web", Deployment: depWith(1), Conflict: true}},
			want: []render.Write{status(depWith(1), false), {Kind: render.UpdateDeployment, Namespace: ns, Name: "web", Deployment: depWith(1)}}},
		{why: why{"no writes", "Coalesced of nothing is nothing"},
			in: nil, want: []render.Write{}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		in := slices.Clone(c.in)
		got := render.Coalesced(in)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Coalesced (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(c.in, in); diff != "" {
			t.Errorf("Coalesced modified its input (-before +after):\n%s", diff)
		}
	})
}

// TestCoalescedSync coalesces the writes of real plans: the worked rolling
// update (10 replicas, maxSurge 25% → 3, maxUnavailable 25% → 2, then a
// template change) sync 1, and an adoption.
func TestCoalescedSync(t *testing.T) {
	t.Run("walk-through sync 1", func(t *testing.T) {
		d := newDeployment("web", 10, "v2", generation(2), revisionAnn(1),
			withStatus(depStatus(1, 10, 10, 10, 10, 0, availableCond(at(-time.Hour)), completeCond)))
		s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 10, at(-2*time.Hour))}, Now: t0}
		got := render.Coalesced(mustRender(t, s, mustSync(t, s, fixedHash("v2"))))
		if diff := cmp.Diff([]string{
			"CreateReplicaSet web-v2 replicas=3",
			"UpdateDeploymentStatus web",
			"UpdateReplicaSet web-v1 replicas=8",
		}, summary(got)); diff != "" {
			t.Errorf("coalesced (-want +got):\n%s", diff)
		}
		// The kept status write is the last one: it records revision 2 and
		// observes generation 2.
		st := got[1].Deployment
		assert.Equal(t, "2", st.Annotations[model.RevisionAnnotation])
		assert.Equal(t, int64(2), st.Status.ObservedGeneration)
	})
	t.Run("adoption", func(t *testing.T) {
		d := newDeployment("web", 3, "v2", revisionAnn(1),
			withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(at(-time.Hour)), completeCond)))
		orphan := newRS(d, "v2", 1, 3, at(-time.Hour))
		orphan.OwnerReferences = nil
		delete(orphan.Annotations, model.RevisionAnnotation)
		s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{orphan}, Now: t0}
		ws := mustRender(t, s, mustSync(t, s))
		co := render.Coalesced(ws)
		require.NotEmpty(t, co)
		require.Equal(t, render.UpdateReplicaSet, co[0].Kind, "coalesced %q: the adopted ReplicaSet's update comes first", summary(co))
		require.Equal(t, "web-v2", co[0].Name)
		want := []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "uid-web")}
		if diff := cmp.Diff(want, co[0].ReplicaSet.OwnerReferences); diff != "" {
			t.Errorf("owner references (-want +got):\n%s", diff)
		}
		assert.Equal(t, "1", co[0].ReplicaSet.Annotations[model.RevisionAnnotation])
		for _, w := range co {
			assert.False(t, w.Conflict, "coalesced write %s %s is flagged as a conflict", w.Kind, w.Name)
		}
		// The plan's own writes: the adoption patch, then the update built on
		// the cached orphan, which has no owner reference.
		require.GreaterOrEqual(t, len(ws), 2)
		assert.Equal(t, render.AdoptReplicaSet, ws[0].Kind)
		assert.Empty(t, ws[1].ReplicaSet.OwnerReferences)
	})
}
