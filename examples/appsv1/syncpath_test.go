package appsv1_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// caseGroups is the public cases (one group) and the steps of each
// scenario (a group each), decoded. Objects of one group with the same
// UID and resourceVersion are the same; scenarios, recorded on clusters
// set up alike, reuse UIDs and resourceVersions for other contents.
func caseGroups(t *testing.T) [][]appsv1.Case {
	t.Helper()
	out := [][]appsv1.Case{seedCases(t)}
	for _, sc := range readScenarios(t) {
		var g []appsv1.Case
		for _, st := range sc.Steps {
			var c appsv1.Case
			if err := json.Unmarshal(st.Case, &c); err != nil {
				t.Fatal(err)
			}
			g = append(g, c)
		}
		out = append(out, g)
	}
	return out
}

// allCases is every public case and every scenario step.
func allCases(t *testing.T) []appsv1.Case {
	t.Helper()
	var out []appsv1.Case
	for _, g := range caseGroups(t) {
		out = append(out, g...)
	}
	return out
}

// TestSyncMatchesModelPath: Sync, which skips the pods' spec bodies,
// hashes the Deployment's template from its apps/v1 form and derives the
// written templates from the objects read, gives the Output (as JSON) and
// the Plan of the plain path: plan.Sync over State.Model with
// WithUpstreamHash (a JSON round trip of the template), then ToOutput; on
// every public case and scenario step.
func TestSyncMatchesModelPath(t *testing.T) {
	cases := allCases(t)
	if len(cases) != 260 {
		t.Fatalf("%d cases, want 200 public cases and 60 scenario steps", len(cases))
	}
	for i, c := range cases {
		s := c.State()
		in, err := s.Model()
		if err != nil {
			t.Fatal(err)
		}
		wantPlan, wantErr := plan.Sync(in, appsv1.WithUpstreamHash())
		require.False(t, planningFailed(wantErr), "case %d: %v", i, wantErr)
		wantOut, err := appsv1.ToOutput(s, wantPlan)
		require.NoError(t, err, "case %d", i)
		if wantErr != nil {
			wantOut.Error = wantErr.Error()
		}
		gotOut, gotPlan, err := appsv1.Sync(s)
		require.Equal(t, wantErr, err, "case %d", i)
		if !reflect.DeepEqual(wantPlan, gotPlan) {
			t.Fatalf("case %d: Plan differs from the plain path's:\n%+v\n%+v", i, wantPlan, gotPlan)
		}
		w, _ := json.Marshal(wantOut)
		g, _ := json.Marshal(gotOut)
		if string(w) != string(g) {
			t.Fatalf("case %d: Output differs from the plain path's:\n%s\n%s", i, w, g)
		}
	}
}

// TestSyncerNewVersions: a Syncer that plans every case of a group in
// turn (one Syncer per group) plans each as Sync does, and again after its
// objects change under new resourceVersions: the Deployment's image (a new
// ReplicaSet to create), the first ReplicaSet's replicas, the first pod's
// phase; and once more after the objects go back to their first versions.
func TestSyncerNewVersions(t *testing.T) {
	n := 0
	for gi, g := range caseGroups(t) {
		c := appsv1.NewSyncer()
		for i, cs := range g {
			n++
			id := fmt.Sprintf("group %d case %d", gi, i)
			orig := cs.State()
			changed := orig
			d := orig.Deployment.DeepCopy()
			d.ResourceVersion += "-changed"
			if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
				cs[0].Image += "-changed"
			}
			changed.Deployment = d
			if len(orig.ReplicaSets) > 0 {
				changed.ReplicaSets = append(changed.ReplicaSets[:0:0], orig.ReplicaSets...)
				rs := orig.ReplicaSets[0].DeepCopy()
				rs.ResourceVersion += "-changed"
				rs.Spec.Replicas = new(int32(3))
				changed.ReplicaSets[0] = rs
			}
			if len(orig.Pods) > 0 {
				changed.Pods = append(changed.Pods[:0:0], orig.Pods...)
				pod := orig.Pods[0].DeepCopy()
				pod.ResourceVersion += "-changed"
				pod.Status.Phase = "Failed"
				changed.Pods[0] = pod
			}
			for _, st := range []appsv1.State{orig, orig, changed, changed, orig} {
				out, p, err := c.Sync(st)
				wantOut, wantPlan, wantErr := appsv1.Sync(st)
				requireSameSync(t, id, wantOut, wantPlan, wantErr, out, p, err)
			}
		}
	}
	if n != 260 {
		t.Fatalf("%d cases, want 200 public cases and 60 scenario steps", n)
	}
}

// twice decodes the JSON of c twice: two States with equal, unshared
// objects (DeepCopy is not reflect.DeepEqual to its source for every
// field: a resource.Quantity's cached form).
func twice(t *testing.T, c appsv1.Case) (appsv1.State, appsv1.State) {
	t.Helper()
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var a, b appsv1.Case
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two decodings differ")
	}
	return a.State(), b.State()
}

// TestSyncLeavesStateUnchanged: Sync, a Syncer (cold and warm) and
// ToOutput never modify an object of the State; on every case and step.
func TestSyncLeavesStateUnchanged(t *testing.T) {
	for gi, g := range caseGroups(t) {
		c := appsv1.NewSyncer()
		for i, cs := range g {
			s, want := twice(t, cs)
			_, p, err := appsv1.Sync(s)
			require.False(t, planningFailed(err), "group %d case %d: %v", gi, i, err)
			_, err = appsv1.ToOutput(s, p)
			require.NoError(t, err)
			for range 2 {
				_, _, err := c.Sync(s)
				require.False(t, planningFailed(err), "group %d case %d: %v", gi, i, err)
			}
			require.True(t, reflect.DeepEqual(want, s), "group %d case %d: the State changed", gi, i)
		}
	}
}

// TestSyncHashesTheTemplateHeld: the new ReplicaSet's name is
// ComputeHash of the Deployment's template as the caller holds it, as
// upstream's ComputeHash hashes the object the controller holds; a
// template a JSON round trip would change (an empty, non-nil args list
// dumps otherwise than a nil one) keeps its own hash, for Sync and a
// Syncer alike.
func TestSyncHashesTheTemplateHeld(t *testing.T) {
	s := syncerState()
	s.Deployment.Spec.Template.Spec.Containers[0].Args = []string{}
	roundTrip, err := appsv1.TemplateFromModel(mustTemplate(t, &s.Deployment.Spec.Template))
	if err != nil {
		t.Fatal(err)
	}
	held, trip := appsv1.ComputeHash(&s.Deployment.Spec.Template, nil), appsv1.ComputeHash(&roundTrip, nil)
	if held == trip {
		t.Fatal("the round trip does not change the hash: the test shows nothing")
	}
	want := s.Deployment.Name + "-" + held
	out, _, err := appsv1.Sync(s)
	if err != nil {
		t.Fatal(err)
	}
	var c appsv1.Syncer
	out2, _, err := c.Sync(s)
	if err != nil {
		t.Fatal(err)
	}
	if out.Actions[0].Name != want || out2.Actions[0].Name != want {
		t.Fatalf("created %s (Sync) and %s (Syncer), want %s", out.Actions[0].Name, out2.Actions[0].Name, want)
	}
}

func mustTemplate(t *testing.T, tmpl *core.PodTemplateSpec) model.PodTemplate {
	t.Helper()
	m, err := appsv1.TemplateToModel(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSyncerOldVersionAfterInPlaceChange: a Deployment first planned
// without a new ReplicaSet to create, then changed in place under a new
// resourceVersion; a copy of its first version, planned later, is named
// from the first version's template (the Syncer keeps no reference to the
// objects it is handed: a version's template is hashed from an object of
// that version).
func TestSyncerOldVersionAfterInPlaceChange(t *testing.T) {
	s := syncerState()
	first, _, err := appsv1.Sync(s)
	if err != nil {
		t.Fatal(err)
	}
	created := first.Actions[0].Object.(*apps.ReplicaSet)
	withRS := s
	withRS.ReplicaSets = []*apps.ReplicaSet{created.DeepCopy()}
	withRS.ReplicaSets[0].UID, withRS.ReplicaSets[0].ResourceVersion = "rs-1", "1"
	var c appsv1.Syncer
	out, _, err := c.Sync(withRS) // the ReplicaSet exists: nothing to create
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range out.Actions {
		if a.Kind == plan.CreateReplicaSet {
			t.Fatal("the first sync creates a ReplicaSet: the test shows nothing")
		}
	}
	oldCopy := s.Deployment.DeepCopy()
	s.Deployment.Spec.Template.Spec.Containers[0].Image = "web:changed"
	s.Deployment.ResourceVersion = "8"
	got, _, err := c.Sync(appsv1.State{Now: s.Now, Deployment: oldCopy})
	if err != nil {
		t.Fatal(err)
	}
	if got.Actions[0].Name != first.Actions[0].Name {
		t.Fatalf("created %s, want %s (the first version's name)", got.Actions[0].Name, first.Actions[0].Name)
	}
}
