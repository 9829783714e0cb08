package plan_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
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
	create := func(rs *model.ReplicaSet) plan.Action {
		return plan.Action{Kind: plan.CreateReplicaSet, Name: rs.Name, ReplicaSet: rs}
	}
	update := func(rs *model.ReplicaSet, conflict bool) plan.Action {
		return plan.Action{Kind: plan.UpdateReplicaSet, Name: rs.Name, ReplicaSet: rs, Conflict: conflict}
	}
	status := func(dep *model.Deployment, conflict bool) plan.Action {
		return plan.Action{Kind: plan.UpdateDeploymentStatus, Name: "web", Deployment: dep, Conflict: conflict}
	}
	adopt := plan.Action{Kind: plan.AdoptReplicaSet, Name: "web-a", UID: "uid-web-a", OwnerReference: &ref}
	release := plan.Action{Kind: plan.ReleaseReplicaSet, Name: "web-a", UID: "uid-web-a", OwnerReference: &model.OwnerReference{UID: "uid-web"}}
	del := plan.Action{Kind: plan.DeleteReplicaSet, Name: "web-a", UID: "uid-web-a"}

	type tc struct {
		why
		in   []plan.Action
		want []plan.Action
	}
	cases := []tc{
		{why: why{"create then update", "coalesced mode (upstream writes from its cached copy, so later writes conflict): one create carrying the final replicas and the create's owner reference"},
			in:   []plan.Action{create(rsWith("web-a", 1, ref)), update(rsWith("web-a", 3), false)},
			want: []plan.Action{create(rsWith("web-a", 3, ref))}},
		{why: why{"adopt then updates", "upstream ClaimReplicaSets + upstream writes from its cached copy, so later writes conflict: the update built on the cached orphan gets the adopted owner reference; its conflict flag goes"},
			in:   []plan.Action{adopt, update(rsWith("web-a", 2), true), update(rsWith("web-a", 4), true)},
			want: []plan.Action{update(rsWith("web-a", 4, ref), false)}},
		{why: why{"update then adopt", "Coalesced doc: an adopt after an update is applied to the update's object"},
			in:   []plan.Action{update(rsWith("web-a", 2), false), adopt},
			want: []plan.Action{update(rsWith("web-a", 2, ref), false)}},
		{why: why{"release then update", "upstream ClaimReplicaSets: a release removes the Deployment's reference from the final object"},
			in:   []plan.Action{release, update(rsWith("web-a", 0, ref, model.OwnerReference{UID: "other"}), false)},
			want: []plan.Action{update(rsWith("web-a", 0, model.OwnerReference{UID: "other"}), false)}},
		{why: why{"patch alone", "Coalesced doc: patches alone stay patches"},
			in: []plan.Action{adopt}, want: []plan.Action{adopt}},
		{why: why{"two status writes", "upstream writes from its cached copy, so later writes conflict: the second status write conflicts upstream; coalesced keeps the last, unflagged, at the first one's place"},
			in:   []plan.Action{status(depWith(1), false), update(rsWith("web-b", 8), false), status(depWith(2), true)},
			want: []plan.Action{status(depWith(2), false), update(rsWith("web-b", 8), false)}},
		{why: why{"delete wins", "Coalesced doc: a delete of the ReplicaSet wins over earlier writes"},
			in: []plan.Action{update(rsWith("web-a", 0), false), del}, want: []plan.Action{del}},
		{why: why{"status and full update kept apart", "the status subresource and the full object are separate writes"},
			in:   []plan.Action{status(depWith(1), false), {Kind: plan.UpdateDeployment, Name: "web", Deployment: depWith(1), Conflict: true}},
			want: []plan.Action{status(depWith(1), false), {Kind: plan.UpdateDeployment, Name: "web", Deployment: depWith(1)}}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		in := make([]plan.Action, len(c.in))
		copy(in, c.in)
		got := plan.Plan{Actions: in, ConflictAt: -1}.Coalesced()
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("Coalesced (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(c.in, in); diff != "" {
			t.Errorf("Coalesced modified the plan's actions (-before +after):\n%s", diff)
		}
	})
}

// TestCoalescedSync coalesces real plans: the worked rolling update (10 replicas, maxSurge 25% → 3, maxUnavailable 25% → 2, then a template change) sync 1 and an adoption.
func TestCoalescedSync(t *testing.T) {
	t.Run("walk-through sync 1", func(t *testing.T) {
		d := newDeployment("web", 10, "v2", generation(2), revisionAnn(1),
			withStatus(depStatus(1, 10, 10, 10, 10, 0, availableCond(true, at(-time.Hour)), completeCond)))
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{newRS(d, "v1", 1, 10, at(-2*time.Hour))}, Now: t0}, fixedHash("v2"))
		got := plan.Plan{Actions: p.Coalesced(), ConflictAt: -1}
		if diff := cmp.Diff([]string{
			"CreateReplicaSet web-v2 replicas=3",
			"UpdateDeploymentStatus web",
			"UpdateReplicaSet web-v1 replicas=8",
		}, summary(got)); diff != "" {
			t.Errorf("coalesced (-want +got):\n%s", diff)
		}
		st := got.Actions[1].Deployment
		if st.Annotations[model.RevisionAnnotation] != "2" || st.Status.ObservedGeneration != 2 {
			t.Errorf("the kept status write should be the last one (revision 2, observedGeneration 2), got %q/%d",
				st.Annotations[model.RevisionAnnotation], st.Status.ObservedGeneration)
		}
	})
	t.Run("adoption", func(t *testing.T) {
		d := newDeployment("web", 3, "v2", revisionAnn(1),
			withStatus(depStatus(1, 3, 3, 3, 3, 0, availableCond(true, at(-time.Hour)), completeCond)))
		orphan := newRS(d, "v2", 1, 3, at(-time.Hour))
		orphan.OwnerReferences = nil
		rsAnn(orphan, model.RevisionAnnotation, "")
		p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{orphan}, Now: t0})
		co := p.Coalesced()
		if len(co) == 0 || co[0].Kind != plan.UpdateReplicaSet || co[0].Name != "web-v2" {
			t.Fatalf("coalesced %q, want the adopted RS's update first", summary(plan.Plan{Actions: co}))
		}
		want := []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "uid-web")}
		if diff := cmp.Diff(want, co[0].ReplicaSet.OwnerReferences); diff != "" {
			t.Errorf("owner references (-want +got):\n%s", diff)
		}
		if co[0].ReplicaSet.Annotations[model.RevisionAnnotation] != "1" {
			t.Errorf("revision = %q, want 1", co[0].ReplicaSet.Annotations[model.RevisionAnnotation])
		}
		for _, a := range co {
			if a.Conflict {
				t.Errorf("coalesced write %s is flagged as a conflict", a)
			}
		}
	})
}
