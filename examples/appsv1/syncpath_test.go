package appsv1_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
)

// allCases is every public case and every scenario step, decoded.
func allCases(t *testing.T) []appsv1.Case {
	t.Helper()
	out := seedCases(t)
	for _, sc := range readScenarios(t) {
		for _, st := range sc.Steps {
			var c appsv1.Case
			if err := json.Unmarshal(st.Case, &c); err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
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
		wantPlan, err := plan.Sync(in, appsv1.WithUpstreamHash())
		if err != nil {
			t.Fatal(err)
		}
		wantOut, err := appsv1.ToOutput(s, wantPlan)
		if err != nil {
			t.Fatal(err)
		}
		gotOut, gotPlan, err := appsv1.Sync(s)
		if err != nil {
			t.Fatal(err)
		}
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

// TestSyncerNewVersions: a Syncer that has planned every case plans each
// again as Sync does after its objects change under new resourceVersions:
// the Deployment's image (a new ReplicaSet to create), the first
// ReplicaSet's replicas, the first pod's phase; and once more after the
// objects go back to their first versions.
func TestSyncerNewVersions(t *testing.T) {
	var c appsv1.Syncer
	for i, cs := range allCases(t) {
		id := fmt.Sprintf("case %d", i)
		orig := cs.State()
		out, p, err := c.Sync(orig)
		wantOut, wantPlan, wantErr := appsv1.Sync(orig)
		requireSameSync(t, id, wantOut, wantPlan, wantErr, out, p, err)

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
		for _, st := range []appsv1.State{changed, changed, orig} {
			out, p, err := c.Sync(st)
			wantOut, wantPlan, wantErr := appsv1.Sync(st)
			requireSameSync(t, id, wantOut, wantPlan, wantErr, out, p, err)
		}
	}
}
