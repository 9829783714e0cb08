package plan

import (
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/rolloutplan/rolloutplan/internal/conformancefile"
	"github.com/rolloutplan/rolloutplan/model"
)

// TestPlanMemoryListsAreIndependent: lists taken from the plan's memory are
// capped, so appending past one never overwrites the next; a nil memory
// allocates.
func TestPlanMemoryListsAreIndependent(t *testing.T) {
	m := &planMemory{rs: new([rsScratch]*model.ReplicaSet)}
	a, b := rsSlice(2), rsSlice(2)
	x, y, z := &model.ReplicaSet{}, &model.ReplicaSet{}, &model.ReplicaSet{}
	b = append(b, y, y)
	a = append(a, x, x)
	a = append(a, z) // past its room: moves out
	if b[0] != y || b[1] != y || a[2] != z || m.rs[0] != x || m.rs[1] != x || m.rs[2] != y {
		t.Error("lists taken from the scratch overlap")
	}
	u, w := vals(v("a", 1)), vals(v("b", 2))
	u = append(u, v("c", 3))
	if w[0].Name != "b" || len(u) != 2 {
		t.Errorf("values overlap: %v, %v", u, w)
	}
	var none *planMemory
	if got := none.appendRS(nil, x); len(got) != 1 || got[0] != x {
		t.Errorf("nil memory appendRS = %v", got)
	}
	if got := none.vals(v("a", 1)); len(got) != 1 {
		t.Errorf("nil memory vals = %v", got)
	}
	big := rsSlice(2 * rsScratch) // more than the scratch holds
	if cap(big) != 2*rsScratch {
		t.Errorf("cap = %d", cap(big))
	}
}

// TestFinishKeepsNoInput: after a sync, the plan's memory holds nothing of
// the input (the working copy and the scratch lists are cleared), so a
// plan does not keep its input alive; a Planner's plan memory no longer
// points to the scratch that went back to its pool.
func TestFinishKeepsNoInput(t *testing.T) {
	cases := readConformanceStatesFile(t)
	planner := NewPlanner().cfg
	for i, c := range append(cases, cases...) {
		cfg := newConfig(nil)
		if i >= len(cases) {
			cfg = planner // the working copy goes back to the Planner's pool
		}
		sy := newSyncer(c, cfg)
		sy.syncDeployment()
		if sy.hasherErr != nil {
			t.Fatal(sy.hasherErr)
		}
		sy.finish()
		m := sy.mem
		if !reflect.DeepEqual(*sy.d, model.Deployment{}) {
			t.Errorf("state %d: the working copy survives the sync", i)
		}
		for j, rs := range sy.work.rs {
			if rs != nil {
				t.Errorf("state %d: scratch[%d] still holds %s", i, j, rs.Name)
			}
		}
		if cfg.workingCopies != nil && m.rs != nil {
			t.Errorf("state %d: the plan's memory still points to the scratch its Planner took back", i)
		}
	}
}

// TestReplicasAnnotationsCompareWithoutAllocating: checking the replica
// annotations of a ReplicaSet of 1000 replicas (past strconv's cached small
// numbers) makes no string.
func TestReplicasAnnotationsCompareWithoutAllocating(t *testing.T) {
	rs := &model.ReplicaSet{ObjectMeta: model.ObjectMeta{Annotations: map[string]string{
		model.DesiredReplicasAnnotation: "1000", model.MaxReplicasAnnotation: "1250"}}}
	if allocs := testing.AllocsPerRun(100, func() {
		if ReplicasAnnotationsNeedUpdate(rs, 1000, 1250) || SetReplicasAnnotations(rs, 1000, 1250) {
			t.Fatal("the annotations are current")
		}
	}); allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
	if !annotationIs(rs.Annotations, model.DesiredReplicasAnnotation, 1000) || annotationIs(rs.Annotations, model.DesiredReplicasAnnotation, -1000) ||
		annotationIs(rs.Annotations, "missing", 0) {
		t.Error("annotationIs compares wrongly")
	}
}

// readConformanceStatesFile reads the 200 recorded conformance states of
// examples/appsv1 (kube-controller-manager v1.36.3 inputs) converted to
// model types; examples/appsv1's TestConformanceStatesFileCurrent
// regenerates the file and fails when it is stale. The file is decoded once
// per test binary; each caller gets its own list of the shared (read-only)
// states.
func readConformanceStatesFile(tb testing.TB) []State {
	tb.Helper()
	conformanceStates.once.Do(func() { conformanceStates.list, conformanceStates.err = decodeConformanceStates() })
	if conformanceStates.err != nil {
		tb.Fatal(conformanceStates.err)
	}
	return slices.Clone(conformanceStates.list)
}

var conformanceStates struct {
	once sync.Once
	list []State
	err  error
}

func decodeConformanceStates() ([]State, error) {
	cases, err := conformancefile.Read[State]("testdata/conformance-states.json.gz")
	if err != nil {
		return nil, err
	}
	out := make([]State, len(cases))
	for i, c := range cases {
		out[i] = c.State
	}
	return out, nil
}
