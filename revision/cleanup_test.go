package revision

import (
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// TestToDeleteCases is upstream TestDeploymentController_cleanupDeployment (sync_test.go:
// TestDeploymentController_cleanupDeployment), with the deleted names spelled
// out, plus derived cases for the rules of upstream cleanupDeployment.
func TestToDeleteCases(t *testing.T) {
	idle := func(name string, opts ...rsOpt) *model.ReplicaSet { return newRS(name, opts...) }
	cases := []struct {
		name, reason string
		old          []*model.ReplicaSet
		limit        *int32
		want         []string
	}{
		{"three-idle-limit-1", "upstream TestDeploymentController_cleanupDeployment row 1: no revisions, equal times ⇒ name order, first 2 of 3 deleted",
			[]*model.ReplicaSet{idle("foo-1"), idle("foo-2"), idle("foo-3")}, model.Int32Ptr(1), []string{"foo-1", "foo-2"}},
		{"only-empty-one", "upstream TestDeploymentController_cleanupDeployment row 2: (0,0),(0,1),(1,0),(1,1) limit 0 ⇒ only foo-1",
			[]*model.ReplicaSet{idle("foo-1"), idle("foo-2", replicas(0, 1)), idle("foo-3", replicas(1, 0)), idle("foo-4", replicas(1, 1))},
			model.Int32Ptr(0), []string{"foo-1"}},
		{"two-idle-limit-0", "upstream TestDeploymentController_cleanupDeployment row 3: both deleted",
			[]*model.ReplicaSet{idle("foo-1"), idle("foo-2")}, model.Int32Ptr(0), []string{"foo-1", "foo-2"}},
		{"two-busy-limit-0", "upstream TestDeploymentController_cleanupDeployment row 4: (1,1),(1,1) ⇒ none",
			[]*model.ReplicaSet{idle("foo-1", replicas(1, 1)), idle("foo-2", replicas(1, 1))}, model.Int32Ptr(0), nil},
		{"already-deleting", "upstream TestDeploymentController_cleanupDeployment row 5: a ReplicaSet with deletionTimestamp is not a candidate",
			[]*model.ReplicaSet{idle("foo-1", deleting())}, model.Int32Ptr(0), nil},
		{"unlimited", "upstream TestDeploymentController_cleanupDeployment row 6: MaxInt32 means no limit",
			[]*model.ReplicaSet{idle("foo-1"), idle("foo-2"), idle("foo-3")}, model.Int32Ptr(math.MaxInt32), nil},
		{"nil-limit", "upstream cleanupDeployment: nil revisionHistoryLimit means no cleanup",
			[]*model.ReplicaSet{idle("foo-1")}, nil, nil},
		{"within-limit", "upstream cleanupDeployment: diff ≤ 0 ⇒ nothing",
			[]*model.ReplicaSet{idle("foo-1"), idle("foo-2")}, model.Int32Ptr(2), nil},
		{"by-revision", "upstream cleanupDeployment: lowest revision first, not oldest creation: rev 2 (newer) goes before rev 10",
			[]*model.ReplicaSet{idle("a", rev("10"), created(-time.Hour)), idle("b", rev("2")), idle("c", rev("11"))},
			model.Int32Ptr(2), []string{"b"}},
		{"skip-not-replaced", "upstream cleanupDeployment: the busy lowest revision is skipped and the loop stops at diff, rev 3 not examined",
			[]*model.ReplicaSet{idle("r1", rev("1"), replicas(1, 1)), idle("r2", rev("2")), idle("r3", rev("3"))},
			model.Int32Ptr(1), []string{"r2"}},
		{"unobserved", "upstream cleanupDeployment: generation > observedGeneration is skipped",
			[]*model.ReplicaSet{idle("r1", rev("1"), generation(2, 1)), idle("r2", rev("2"), generation(2, 2))},
			model.Int32Ptr(0), []string{"r2"}},
		{"deleting-not-counted", "upstream cleanupDeployment: a deleting RS is not cleanable, so it does not count towards diff",
			[]*model.ReplicaSet{idle("r1", rev("1"), deleting()), idle("r2", rev("2")), idle("r3", rev("3"))},
			model.Int32Ptr(1), []string{"r2"}},
		{"nil-entries", "nil entries are ignored (upstream filters them)",
			[]*model.ReplicaSet{nil, idle("r1", rev("1")), nil}, model.Int32Ptr(0), []string{"r1"}},
		{"nil-spec-replicas", "nil spec.replicas defaults to 1, so never idle (upstream would panic)",
			[]*model.ReplicaSet{idle("r1", rev("1"), func(rs *model.ReplicaSet) { rs.Spec.Replicas = nil })}, model.Int32Ptr(0), nil},
		{"negative-limit", "validation rejects it; treated like 0 (upstream would index past the end)",
			[]*model.ReplicaSet{idle("r1", rev("1")), idle("r2", rev("2"))}, model.Int32Ptr(-3), []string{"r1", "r2"}},
		{"equal-revisions", "upstream cleanupDeployment: equal revisions fall back to creation time",
			[]*model.ReplicaSet{idle("late", rev("4"), created(time.Minute)), idle("early", rev("4"))}, model.Int32Ptr(1), []string{"early"}},
		{"unparsable-by-time", "upstream cleanupDeployment: an unparsable revision compares by creation time with everything",
			[]*model.ReplicaSet{idle("garbage", rev("x")), idle("r1", rev("1"), created(time.Minute))}, model.Int32Ptr(1), []string{"garbage"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			input := slices.Clone(c.old)
			before := deepCopies(c.old)
			got := ToDelete(input, c.limit)
			if diff := cmp.Diff(c.want, names(got)); len(got)+len(c.want) > 0 && diff != "" {
				t.Fatalf("deleted (-want +got):\n%s", diff)
			}
			for i := range input {
				if input[i] != c.old[i] {
					t.Fatal("the input slice was reordered")
				}
			}
			if diff := cmp.Diff(before, deepCopies(c.old)); diff != "" {
				t.Fatalf("the input was modified:\n%s", diff)
			}
		})
	}
}

// upstreamCleanup is an independent model of the upstream code path, built
// from sort.Sort (as upstream) rather than slices.SortFunc: the list is
// first sorted by creation time and name (FindOldReplicaSets), then the
// cleanable ones by revision, then the first diff are examined.
func upstreamCleanup(old []*model.ReplicaSet, limit *int32) []*model.ReplicaSet {
	if limit == nil || *limit == math.MaxInt32 {
		return nil
	}
	// Upstream's lists never hold nil; drop them before its creation sort.
	var list []*model.ReplicaSet
	for _, rs := range old {
		if rs != nil {
			list = append(list, rs)
		}
	}
	sort.Sort(lessSorter{list, func(a, b *model.ReplicaSet) bool {
		if a.CreationTimestamp.Equal(b.CreationTimestamp) {
			if a.Name == b.Name {
				return a.UID < b.UID
			}
			return a.Name < b.Name
		}
		return a.CreationTimestamp.Before(b.CreationTimestamp)
	}})
	var cleanable []*model.ReplicaSet
	for _, rs := range list {
		if rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := len(cleanable) - int(*limit)
	if diff <= 0 {
		return nil
	}
	sort.Sort(lessSorter{cleanable, func(a, b *model.ReplicaSet) bool {
		ra, ea := Revision(a.Annotations)
		rb, eb := Revision(b.Annotations)
		if ea != nil || eb != nil || ra == rb {
			if a.CreationTimestamp.Equal(b.CreationTimestamp) {
				return a.Name < b.Name
			}
			return a.CreationTimestamp.Before(b.CreationTimestamp)
		}
		return ra < rb
	}})
	var out []*model.ReplicaSet
	for i := 0; i < diff; i++ {
		rs := cleanable[i]
		if rs.Status.Replicas != 0 || *rs.Spec.Replicas != 0 || rs.Generation > rs.Status.ObservedGeneration || rs.DeletionTimestamp != nil {
			continue
		}
		out = append(out, rs)
	}
	return out
}

type lessSorter struct {
	s    []*model.ReplicaSet
	less func(a, b *model.ReplicaSet) bool
}

func (l lessSorter) Len() int           { return len(l.s) }
func (l lessSorter) Less(i, j int) bool { return l.less(l.s[i], l.s[j]) }
func (l lessSorter) Swap(i, j int)      { l.s[i], l.s[j] = l.s[j], l.s[i] }

// TestToDeleteNonTransitive pins a case where an unparsable revision makes
// the revision order cyclic: b(3) < a(5) by revision, but c(garbage) sits
// after both by time and d(1) after c by time, while d(1) < b(3) by
// revision. The result then depends on the sort's starting order; upstream
// starts from creation order a, b, c, d, where insertion sort (n ≤ 12)
// swaps only a and b, giving b, a, c, d. Started from d, c, b, a it would
// give c, d, b, a instead. ToDelete must give upstream's answer for every
// input order.
func TestToDeleteNonTransitive(t *testing.T) {
	old := []*model.ReplicaSet{
		newRS("a", rev("5")),
		newRS("b", rev("3"), created(time.Minute)),
		newRS("c", rev("garbage"), created(2*time.Minute)),
		newRS("d", rev("1"), created(3*time.Minute)),
	}
	limit := int32(2)
	perms := [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}, {1, 3, 0, 2}, {3, 0, 1, 2}}
	for _, p := range perms {
		in := make([]*model.ReplicaSet, len(p))
		for i, j := range p {
			in[i] = old[j]
		}
		if got := names(ToDelete(in, &limit)); !slices.Equal(got, []string{"b", "a"}) {
			t.Fatalf("order %v: ToDelete %v, want [b a] (hand-run insertion sort from creation order)", p, got)
		}
	}
	for _, l := range []int32{0, 1, 2, 3} {
		if got, want := names(ToDelete(old, &l)), names(upstreamCleanup(old, &l)); !slices.Equal(got, want) {
			t.Fatalf("limit %d: ToDelete %v, upstream model %v", l, got, want)
		}
	}
}
