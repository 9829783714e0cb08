package plan_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// Upstream's NewRSNewReplicas sums spec.replicas in int32. With an old
// ReplicaSet (hand-)sized 2147483647 and the new one at 5 of 10, the total
// wraps to 2147483652 − 2^32 = −2147483644, so the total is "below" the
// 10 + 0 limit, and the room 10 − (−2147483644) = 2147483654 wraps to
// −2147483642: upstream scales the new ReplicaSet to 5 − 2147483642 =
// −2147483637. The API server rejects that write and the sync ends with the
// server's error; the plan still lists it, marked, and accepts nothing.
func TestWrappedScaleIsMarkedInvalid(t *testing.T) {
	d := newDeployment("web", 10, "v2", rolling(intStr(0), intStr(1)), revisionAnn(2), deadline(nil))
	old := newRS(d, "v1", 1, 2147483647, at(-2*time.Hour))
	cur := newRS(d, "v2", 2, 5, at(-time.Hour))
	p, serr := syncChecked(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old, cur}, Now: t0})
	a := actionAt(t, p, 0, plan.ScaleReplicaSet)
	want := `ReplicaSet.apps "web-v2" is invalid: spec.replicas: Invalid value: -2147483637: must be greater than or equal to 0`
	if a.Object.Name != "web-v2" || a.Update.FromReplicas != 5 || a.Update.Replicas != -2147483637 || a.Invalid != want {
		t.Fatalf("first write %s (invalid %q), want web-v2 5→-2147483637 marked %q", a, a.Invalid, want)
	}
	if !a.Rejected() || rejectedAt(p) != 0 || len(p.Accepted()) != 0 || len(p.AcceptedEvents()) != 0 {
		t.Errorf("first rejected %d, %d accepted writes, %d accepted events: want 0, 0, 0", rejectedAt(p), len(p.Accepted()), len(p.AcceptedEvents()))
	}
	require.NotNil(t, serr, "the sync ends without an error")
	assert.Equal(t, want, serr.Message, "the sync's error is the server's")
	assert.ErrorIs(t, serr, &plan.SyncError{Kind: plan.ErrKindInvalid})
}

// A status write whose wrapped sums break apps/v1 status validation is
// marked with every broken rule, in the order the server checks them.
func TestWrappedStatusIsMarkedInvalid(t *testing.T) {
	d := newDeployment("web", 4, "v1", rolling(intStr(0), intStr(1)), revisionAnn(2), deadline(nil))
	a1 := newRS(d, "v1", 2, 2147483647, at(-time.Hour))
	a2 := newRS(d, "v0", 1, 0, at(-2*time.Hour))
	rsStatus(a2, 2, 2, 2)
	// Σ status.replicas = 2147483647 + 2 wraps to −2147483647; the new
	// ReplicaSet alone reports 2147483647 updated pods.
	p, serr := syncChecked(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{a1, a2}, Now: t0})
	var st *plan.Action
	for i := range p.Actions {
		if p.Actions[i].Kind == plan.UpdateDeploymentStatus && p.Actions[i].Invalid != "" {
			st = &p.Actions[i]
			break
		}
	}
	if st == nil {
		t.Fatalf("no status write marked invalid in %v", p.Actions)
	}
	want := `Deployment.apps "web" is invalid: [status.replicas: Invalid value: -2147483647: must be greater than or equal to 0, ` +
		`status.readyReplicas: Invalid value: -2147483647: must be greater than or equal to 0, ` +
		`status.availableReplicas: Invalid value: -2147483647: must be greater than or equal to 0, ` +
		`status.updatedReplicas: Invalid value: 2147483647: cannot be greater than status.replicas]`
	if st.Invalid != want {
		t.Errorf("status write marked\n%s\nwant\n%s", st.Invalid, want)
	}
	// It is the first write the server rejects: the sync ends with its error.
	i, ok := p.Rejected()
	require.True(t, ok, "no action rejected")
	assert.Same(t, &p.Actions[i], st, "the first rejected action is not the invalid status write")
	require.NotNil(t, serr, "the sync ends without an error")
	assert.Equal(t, want, serr.Message, "the sync's error is the server's")
}

// Upstream's next revision is MaxRevision + 1 in int64, which wraps at the
// limit to −9223372036854775808. SetNewReplicaSetAnnotations then finds the
// new ReplicaSet's revision 0 not below it and writes none; the Deployment
// records the wrapped number. Annotation values are free text for the API
// server, so nothing is rejected.
func TestRevisionAtInt64Limit(t *testing.T) {
	d := newDeployment("web", 3, "v2")
	old := rsAnn(newRS(d, "v1", 1, 3, at(-time.Hour)), model.RevisionAnnotation, "9223372036854775807")
	p := mustSync(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{old}, Now: t0}, fixedHash("h"))
	created := actionAt(t, p, 0, plan.CreateReplicaSet)
	if rev, ok := created.ReplicaSet.Annotations[model.RevisionAnnotation]; ok {
		t.Errorf("created ReplicaSet has revision %q, want none", rev)
	}
	rec := actionAt(t, p, 1, plan.UpdateDeploymentStatus)
	if got := rec.Deployment.Annotations[model.RevisionAnnotation]; got != "-9223372036854775808" {
		t.Errorf("Deployment revision %q, want -9223372036854775808", got)
	}
	for _, a := range p.Actions {
		if a.Invalid != "" {
			t.Errorf("%s marked invalid: %s", a, a.Invalid)
		}
	}
}

// The example: scaling 1 → 2147483647 with maxSurge 100%. Upstream's
// int32 replicas + maxSurge is 2147483647 + 2147483647, which wraps to −2, so
// two active ReplicaSets of 1 (max-replicas 2) must "shed" 4: each fraction
// is round(1·(−2)/2) − 1 = −2; the older one goes 1 − 2 = −1, clamped at 0
// (the first share only), the newer one to −1, which the API server
// rejects. The plan lists it, marked, and the sync ends with that error.
func TestWrappedProportionalScaleIsMarkedInvalid(t *testing.T) {
	before := newDeployment("web", 1, "v2", rolling(pct("100%"), intStr(0)))
	d := newDeployment("web", 2147483647, "v2", rolling(pct("100%"), intStr(0)), revisionAnn(2), deadline(nil))
	older := newRS(before, "v1", 1, 1, at(-2*time.Hour))
	newer := newRS(before, "v2", 2, 1, at(-time.Hour))
	p, serr := syncChecked(t, plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{older, newer}, Now: t0})
	first, second := actionAt(t, p, 0, plan.ScaleReplicaSet), actionAt(t, p, 1, plan.ScaleReplicaSet)
	if first.Object.Name != "web-v1" || first.Update.Replicas != 0 || first.Invalid != "" {
		t.Errorf("first write %s (invalid %q), want web-v1 clamped to 0, accepted", first, first.Invalid)
	}
	want := `ReplicaSet.apps "web-v2" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`
	if second.Object.Name != "web-v2" || second.Update.Replicas != -1 || second.Invalid != want {
		t.Errorf("second write %s (invalid %q), want web-v2 to -1 marked %q", second, second.Invalid, want)
	}
	assert.Equal(t, 1, rejectedAt(p), "first rejected action")
	assert.Len(t, p.Accepted(), 1, "accepted actions")
	require.NotNil(t, serr, "the sync ends without an error")
	assert.Equal(t, want, serr.Message, "the sync's error is the server's")
}

// The other example: 10 replicas with maxSurge 2147483640. Upstream's
// int32 10 + 2147483640 wraps to −2147483646, the empty total is "above" it,
// so the new ReplicaSet is created with 0 and max-replicas
// "-2147483646" and never grows. A server accepts that write (annotation
// values are free text), so it is not marked; plantest attributes what
// follows to the int32 wrap quirk.
func TestSurgeNearInt32StallsAsUpstream(t *testing.T) {
	d := newDeployment("web", 10, "v1", rolling(intStr(2147483640), intStr(0)))
	p := mustSync(t, plan.State{Deployment: d, Now: t0}, fixedHash("h"))
	a := actionAt(t, p, 0, plan.CreateReplicaSet)
	if a.ReplicaSet.SpecReplicas() != 0 || a.ReplicaSet.Annotations[model.MaxReplicasAnnotation] != "-2147483646" || a.Invalid != "" {
		t.Fatalf("create %d with max-replicas %q (invalid %q), want 0, \"-2147483646\", accepted",
			a.ReplicaSet.SpecReplicas(), a.ReplicaSet.Annotations[model.MaxReplicasAnnotation], a.Invalid)
	}
	if rejectedAt(p) != 2 || !p.Actions[2].Conflict {
		t.Errorf("first rejected action %d: want only the usual second status write to conflict", rejectedAt(p))
	}
}
