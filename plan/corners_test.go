package plan_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// The regression cases of six classes where an earlier planner diverged from
// the real v1.36.3 controller on states a real API server accepts. The
// numbers are those the recorded upstream syncs wrote.

// C1: upstream's listers are namespaced. A ReplicaSet of another namespace
// that names the Deployment as controller is never seen: the Deployment
// creates its new ReplicaSet as if it had none.
func TestCornerForeignNamespaceReplicaSetIgnored(t *testing.T) {
	d := newDeployment("ingest", 4, "v1")
	d.Namespace = "prod"
	foreign := newRS(d, "84c777c744", 1, 2, at(-time.Hour))
	foreign.Name = "ingest-84c777c744"
	foreign.Namespace = "elsewhere"
	foreign.Spec.Template = d.Spec.Template.DeepCopy() // the current template: would be the new one
	foreign.Spec.Template.Labels[model.PodTemplateHashLabel] = "84c777c744"
	emptyNS := newRS(d, "x", 2, 3, at(-time.Hour))
	emptyNS.Namespace = ""
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{foreign, emptyNS}, Now: t0}, fixedHash("h"))
	a := actionAt(t, p, 0, plan.CreateReplicaSet)
	if a.Object.Namespace != "prod" || a.ReplicaSet.Namespace != "prod" || a.ReplicaSet.SpecReplicas() != 4 {
		t.Fatalf("first write %s (object namespace %q, replicas %d), want a create of 4 in prod", a, a.ReplicaSet.Namespace, a.ReplicaSet.SpecReplicas())
	}
	for _, a := range p.Actions {
		if a.Object.Name == foreign.Name || a.Object.Name == emptyNS.Name {
			t.Errorf("write to a ReplicaSet of another namespace: %s", a)
		}
	}
	if p.Status == nil || p.Status.UnavailableReplicas != 4 {
		t.Fatalf("status %+v, want unavailableReplicas 4 (upstream's write)", p.Status)
	}
	note := noteOf(t, p, plan.NoteOtherNamespace)
	if n, _ := note.Value("replicaSets"); n != 2 {
		t.Errorf("note %s counts %d ReplicaSets, want 2", note, n)
	}
}

// C1 variant: a local ReplicaSet and a foreign copy of the same name; the
// local one's numbers are used whatever the order (mustSync also plans the
// reversed input).
func TestCornerForeignCopyDoesNotShadowLocal(t *testing.T) {
	d := newDeployment("web", 10, "v2")
	old := newRS(d, "v1", 1, 10, at(-2*time.Hour))
	copyRS := old.DeepCopy()
	copyRS.Namespace = "other"
	copyRS.UID = "uid-elsewhere"
	copyRS.Spec.Replicas = i32(3)
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{copyRS, old}, Now: t0}, fixedHash("h"))
	scaled := false
	for _, a := range p.Actions {
		if a.Object.Namespace != ns || a.ReplicaSet != nil && a.ReplicaSet.Namespace != ns {
			t.Errorf("%s writes an object of another namespace", a)
		}
		if a.Kind == plan.ScaleReplicaSet && a.Object.Name == old.Name {
			scaled = true
			assert.Equal(t, old.UID, a.Object.UID, "the ReplicaSet scaled")
			assert.Equal(t, int32(10), a.Update.FromReplicas, "old ReplicaSet scaled from")
			assert.Equal(t, int32(8), a.Update.Replicas, "old ReplicaSet scaled to 10 − maxUnavailable 2")
		}
	}
	assert.True(t, scaled, "the old ReplicaSet is not scaled: %v", p.Actions)
}

// C2: Recreate groups pods by controller reference only. A pod of the old
// ReplicaSet relabelled out of the selector (quarantined) still runs, so
// upstream keeps waiting: a status write, no new ReplicaSet.
func TestCornerRecreateCountsRelabelledPod(t *testing.T) {
	d := newDeployment("web", 1, "v2", recreate())
	old := rsStatus(newRS(d, "v1", 1, 0, at(-time.Hour)), 0, 0, 0)
	pod := newPod("web-v1-a", old, model.PodRunning, false)
	pod.Labels = map[string]string{"app": "debug"}
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old}, Pods: []*model.Pod{pod}, Now: t0}, fixedHash("h"))
	for _, a := range p.Actions {
		if a.Kind != plan.UpdateDeploymentStatus {
			t.Errorf("unexpected write %s: upstream only writes the status while the old pod runs", a)
		}
	}
	noteOf(t, p, plan.NoteOldPodsRunning)
}

// C3: the key is the controller reference's kind, name and UID. A pod whose
// reference has the old ReplicaSet's UID but another name or kind is not
// that ReplicaSet's, so Recreate goes ahead.
func TestCornerRecreateIgnoresPodWithMismatchedReference(t *testing.T) {
	for _, c := range []struct {
		why
		edit func(*model.OwnerReference)
	}{
		{why{"other name", "upstream's pod index key is kind/name/UID"}, func(r *model.OwnerReference) { r.Name = "web-v0" }},
		{why{"other kind", "upstream's pod index key is kind/name/UID"}, func(r *model.OwnerReference) { r.Kind = "StatefulSet" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDeployment("web", 1, "v2", recreate())
			old := rsStatus(newRS(d, "v1", 1, 0, at(-time.Hour)), 0, 0, 0)
			pod := newPod("web-v1-a", old, model.PodRunning, false)
			c.edit(&pod.OwnerReferences[0])
			p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old}, Pods: []*model.Pod{pod}, Now: t0}, fixedHash("h"))
			a := actionAt(t, p, 0, plan.CreateReplicaSet)
			if a.ReplicaSet.SpecReplicas() != 1 {
				t.Fatalf("created with %d, want 1", a.ReplicaSet.SpecReplicas())
			}
		})
	}
}

// C4: a scaled maxSurge beyond int32 is narrowed with int32(...), as
// upstream's ResolveFenceposts does: 2147483647% of 65536 is
// 1407374882898, narrowed to −1374390190, so max-replicas is
// 65536 − 1374390190 = −1374324654 and the total is already above it.
func TestCornerSurgeBeyondInt32IsNarrowed(t *testing.T) {
	d := newDeployment("web", 65536, "v1", rolling(pct("2147483647%"), intStr(0)))
	p := mustSync(t, plan.State{Deployment: d, Now: t0}, fixedHash("h"))
	a := actionAt(t, p, 0, plan.CreateReplicaSet)
	if got := a.ReplicaSet.Annotations[model.MaxReplicasAnnotation]; got != "-1374324654" {
		t.Errorf("max-replicas %q, want upstream's \"-1374324654\"", got)
	}
	if a.ReplicaSet.SpecReplicas() != 0 {
		t.Errorf("created with %d, want 0 (total 0 ≥ max total −1374324654)", a.ReplicaSet.SpecReplicas())
	}
}

// C5: apps/v1 accepts any digits before "%"; upstream resolves them with a
// 64-bit Atoi. "2147483648%" of 1 is ceil(21474836.48) = 21474837.
func TestCornerPercentAboveInt32(t *testing.T) {
	d := newDeployment("web", 1, "v1", rolling(pct("2147483648%"), intStr(0)))
	p := mustSync(t, plan.State{Deployment: d, Now: t0}, fixedHash("h"))
	a := actionAt(t, p, 0, plan.CreateReplicaSet)
	if got := a.ReplicaSet.Annotations[model.MaxReplicasAnnotation]; got != strconv.Itoa(1+21474837) || a.ReplicaSet.SpecReplicas() != 1 {
		t.Fatalf("created %d with max-replicas %q, want 1 and \"21474838\"", a.ReplicaSet.SpecReplicas(), got)
	}
}

// C5, beyond int64: validation still accepts the digits, and the sync ends
// with upstream's intstr error.
func TestCornerPercentBeyondInt64(t *testing.T) {
	d := newDeployment("web", 1, "v1", rolling(pct("99999999999999999999%"), intStr(1)))
	_, serr := syncChecked(t, plan.State{Deployment: d, Now: t0}, fixedHash("h"))
	want := `invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range`
	require.NotNil(t, serr, "the sync ends without an error")
	assert.Equal(t, want, serr.Message)
	assert.ErrorIs(t, serr, &plan.SyncError{Kind: plan.ErrKindInvalidFencepost})
}

// C6: repeated condition types are valid for the API. Upstream reads the
// first of a type and, setting one, keeps all when the first already has
// the status and reason, else replaces them all.
func TestCornerDuplicateConditionTypes(t *testing.T) {
	d := newDeployment("web", 2, "v1")
	availTrue := availableCond(true, at(-time.Hour))
	availFalse := availableCond(false, at(-2*time.Hour))
	d.Status = depStatus(1, 2, 2, 2, 2, 0, availTrue, availFalse)
	d.Status.Conditions = append(d.Status.Conditions, availTrue)
	rs := newRS(d, "v1", 1, 2, at(-time.Hour))
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{rs}, Now: t0}, fixedHash("h"))
	if p.Status == nil {
		t.Fatal("no status computed")
	}
	n := 0
	for _, c := range p.Status.Conditions {
		if c.Type == model.DeploymentAvailable {
			n++
		}
	}
	if n != 3 {
		t.Errorf("status has %d Available conditions, want the 3 kept (the first already says True/MinimumReplicasAvailable)", n)
	}

	// The first says False: all of them give way to one True.
	d2 := d.DeepCopy()
	d2.Status.Conditions[0], d2.Status.Conditions[1] = availFalse, availTrue
	p = mustSync(t, plan.State{Deployment: d2, ReplicaSets: []*model.ReplicaSet{rs}, Now: t0}, fixedHash("h"))
	n = 0
	for _, c := range p.Status.Conditions {
		if c.Type == model.DeploymentAvailable {
			n++
			if c.Status != model.ConditionTrue {
				t.Errorf("Available condition %+v, want True", c)
			}
		}
	}
	if n != 1 {
		t.Errorf("status has %d Available conditions, want 1", n)
	}
}

func noteOf(t *testing.T, p plan.Plan, code plan.ReasonCode) plan.Reason {
	t.Helper()
	for _, n := range p.Notes {
		if n.Code == code {
			return n
		}
	}
	t.Fatalf("no %s note in %v", code, p.Notes)
	return plan.Reason{}
}
