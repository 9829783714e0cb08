package proportion

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestFindActiveOrLatest(t *testing.T) {
	type tc struct {
		why
		newRS *model.ReplicaSet
		old   []*model.ReplicaSet
		want  string // "" = nil
	}
	rs := replicaSet
	cases := []tc{
		{why{"nothing", "worked example of FindActiveOrLatest: no RSs ⇒ nil"}, nil, nil, ""},
		{why{"only new active", "worked example of FindActiveOrLatest: N(3), A(0), B(0) ⇒ N"}, rs("N", 3, minute(9)), []*model.ReplicaSet{rs("A", 0, minute(1)), rs("B", 0, minute(2))}, "N"},
		{why{"none active with new", "worked example of FindActiveOrLatest: nothing active ⇒ the new RS"}, rs("N", 0, minute(9)), []*model.ReplicaSet{rs("A", 0, minute(1)), rs("B", 0, minute(2))}, "N"},
		{why{"none active no new", "worked example of FindActiveOrLatest: nothing active, no new ⇒ newest old"}, nil, []*model.ReplicaSet{rs("A", 0, minute(1)), rs("B", 0, minute(2))}, "B"},
		{why{"newest tie by name", "worked example of FindActiveOrLatest: equal times ⇒ name descending, b before a"}, nil, []*model.ReplicaSet{rs("a", 0, minute(1)), rs("b", 0, minute(1))}, "b"},
		{why{"newest tie by name reversed input", "worked example of FindActiveOrLatest: input order does not matter"}, nil, []*model.ReplicaSet{rs("b", 0, minute(1)), rs("a", 0, minute(1))}, "b"},
		{why{"one old active", "worked example of FindActiveOrLatest: N(0), A(5) ⇒ A"}, rs("N", 0, minute(9)), []*model.ReplicaSet{rs("A", 5, minute(1))}, "A"},
		{why{"two active", "worked example of FindActiveOrLatest: N(2), A(3) ⇒ nil, proportional scaling"}, rs("N", 2, minute(9)), []*model.ReplicaSet{rs("A", 3, minute(1))}, ""},
		{why{"two old active", "upstream FindActiveOrLatest: ≥ 2 active ⇒ nil"}, nil, []*model.ReplicaSet{rs("A", 3, minute(1)), rs("B", 1, minute(2))}, ""},
		{why{"nil entries ignored", "never panic: nil entries skipped, newest real old RS wins"}, nil, []*model.ReplicaSet{nil, rs("A", 0, minute(1)), nil}, "A"},
		{why{"only nils", "upstream FindActiveOrLatest: oldRSs[0] after sorting is nil"}, nil, []*model.ReplicaSet{nil}, ""},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		before := slices.Clone(c.old)
		got := FindActiveOrLatest(c.newRS, c.old)
		name := ""
		if got != nil {
			name = got.Name
		}
		if name != c.want {
			t.Fatalf("FindActiveOrLatest = %q, want %q", name, c.want)
		}
		if !slices.Equal(before, c.old) {
			t.Fatalf("oldRSs reordered: %v, was %v", names(c.old), names(before))
		}
	})
}

func TestOrders(t *testing.T) {
	// v1 oldest, v3 newest; x and y share v2's creation time.
	v1, v2, v3 := replicaSet("v1", 3, minute(1)), replicaSet("v2", 2, minute(2)), replicaSet("v3", 3, minute(3))
	x, y := replicaSet("x", 2, minute(2)), replicaSet("y", 2, minute(2))
	sameInstant := replicaSet("utc", 5, minute(4))
	zoned := replicaSet("zoned", 5, minute(4).In(time.FixedZone("X", 3600)))
	type tc struct {
		why
		compare func(a, b *model.ReplicaSet) int
		in      []*model.ReplicaSet
		want    []string
	}
	cases := []tc{
		{why{"creation oldest first", "upstream ReplicaSetsByCreationTimestamp: time asc, name asc"}, ByCreationTimestamp,
			[]*model.ReplicaSet{v3, y, v1, x, v2}, []string{"v1", "v2", "x", "y", "v3"}},
		{why{"newest first", "upstream FindActiveOrLatest: reverse of the above, name desc on ties"}, NewestFirst,
			[]*model.ReplicaSet{v1, x, v3, y, v2}, []string{"v3", "y", "x", "v2", "v1"}},
		{why{"size older", "upstream BySizeOlder: size desc, then older first, then name asc"}, BySizeOlder,
			[]*model.ReplicaSet{v2, v3, y, v1, x}, []string{"v1", "v3", "v2", "x", "y"}},
		{why{"size newer", "upstream BySizeNewer: size desc, then newer first, then name desc"}, BySizeNewer,
			[]*model.ReplicaSet{v2, v1, x, v3, y}, []string{"v3", "v1", "y", "x", "v2"}},
		{why{"nil last", "never panic: nil entries sort after all ReplicaSets"}, BySizeNewer,
			[]*model.ReplicaSet{nil, v2, nil, v1}, []string{"v1", "v2", "<nil>", "<nil>"}},
		{why{"instants not zones", "time comparison: times compare as instants, so the tie falls to the name"}, ByCreationTimestamp,
			[]*model.ReplicaSet{zoned, sameInstant}, []string{"utc", "zoned"}},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		before := slices.Clone(c.in)
		got := Sorted(c.in, c.compare)
		if diff := cmp.Diff(c.want, names(got)); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
		if !slices.Equal(before, c.in) {
			t.Errorf("Sorted modified its input: %v", names(c.in))
		}
		// Every permutation of the input must sort the same: the orders are total.
		for i := range c.in {
			rot := append(slices.Clone(c.in[i:]), c.in[:i]...)
			slices.Reverse(rot)
			if diff := cmp.Diff(c.want, names(Sorted(rot, c.compare))); diff != "" {
				t.Errorf("order depends on input order (-want +got):\n%s", diff)
			}
		}
	})
}

func TestFilterActiveReplicaSets(t *testing.T) {
	unset := replicaSet("unset", 0, minute(5))
	unset.Spec.Replicas = nil // defaults to 1, so it is active
	type tc struct {
		why
		in   []*model.ReplicaSet
		want []string
	}
	cases := []tc{
		{why{"keeps order", "upstream FilterActiveReplicaSets: rs != nil && spec > 0, order preserved"},
			[]*model.ReplicaSet{replicaSet("c", 1, minute(3)), nil, replicaSet("b", 0, minute(2)), replicaSet("a", 2, minute(1)), unset},
			[]string{"c", "a", "unset"}},
		{why{"none active", "upstream FilterActiveReplicaSets: nothing passes ⇒ nil"}, []*model.ReplicaSet{nil, replicaSet("b", 0, minute(2))}, nil},
		{why{"empty", "upstream FilterActiveReplicaSets"}, nil, nil},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		got := FilterActiveReplicaSets(c.in)
		if c.want == nil && got != nil {
			t.Fatalf("FilterActiveReplicaSets = %v, want nil", names(got))
		}
		if diff := cmp.Diff(c.want, names(got), cmpEmpty); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// TestAppendActiveReplicaSets: appending keeps dst and adds what
// FilterActiveReplicaSets keeps, in the same order, within dst's capacity.
func TestAppendActiveReplicaSets(t *testing.T) {
	x := replicaSet("x", 3, minute(9))
	in := []*model.ReplicaSet{replicaSet("c", 1, minute(3)), nil, replicaSet("b", 0, minute(2)), replicaSet("a", 2, minute(1))}
	buf := make([]*model.ReplicaSet, 1, 8)
	buf[0] = x
	got := AppendActiveReplicaSets(buf, in)
	if diff := cmp.Diff([]string{"x", "c", "a"}, names(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if &got[0] != &buf[0] {
		t.Error("AppendActiveReplicaSets allocated although dst had room")
	}
	if diff := cmp.Diff(names(FilterActiveReplicaSets(in)), names(got[1:])); diff != "" {
		t.Errorf("differs from FilterActiveReplicaSets (-filter +append):\n%s", diff)
	}
}

func TestScaleCandidates(t *testing.T) {
	type tc struct {
		why
		newRS *model.ReplicaSet
		old   []*model.ReplicaSet
		want  []string
	}
	cases := []tc{
		{why{"doc example", "upstream FindActiveOrLatest/scale: active old newest first, then the new RS"}, replicaSet("N", 3, minute(9)),
			[]*model.ReplicaSet{replicaSet("A", 1, minute(1)), replicaSet("B", 0, minute(2)), replicaSet("C", 2, minute(3))},
			[]string{"C", "A", "N"}},
		{why{"new RS inactive", "upstream scale: FilterActive drops a new RS at 0"}, replicaSet("N", 0, minute(9)),
			[]*model.ReplicaSet{replicaSet("A", 1, minute(1)), nil, replicaSet("C", 2, minute(3))},
			[]string{"C", "A"}},
		{why{"no new RS", "upstream scale: append(oldRSs, nil) is filtered"}, nil,
			[]*model.ReplicaSet{replicaSet("a", 1, minute(1)), replicaSet("b", 1, minute(1))},
			[]string{"b", "a"}},
		{why{"nothing", "upstream scale: empty ⇒ nil"}, nil, nil, nil},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		before := slices.Clone(c.old)
		got := ScaleCandidates(c.newRS, c.old)
		if diff := cmp.Diff(c.want, names(got), cmpEmpty); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if !slices.Equal(before, c.old) {
			t.Errorf("oldRSs reordered")
		}
	})
}
