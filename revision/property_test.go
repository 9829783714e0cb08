package revision

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"pgregory.net/rapid"
)

// genRevisionOpt draws revision annotation values: mostly small numbers (so
// that ties happen), sometimes absent, signed, or garbage.
func genRevisionOpt(t *rapid.T, label string) rsOpt {
	switch rapid.IntRange(0, 9).Draw(t, label+"Kind") {
	case 0:
		return func(*model.ReplicaSet) {} // absent
	case 1:
		return rev(rapid.SampledFrom([]string{"", "x", "1.5", "+3", "-2", "007", "99999999999999999999"}).Draw(t, label+"Odd"))
	default:
		return rev(strconv.Itoa(rapid.IntRange(0, 12).Draw(t, label+"Num")))
	}
}

// genOldRSs draws old ReplicaSets with distinct names, small creation-time
// and revision ranges (many ties), and every state cleanup cares about.
func genOldRSs(t *rapid.T) []*model.ReplicaSet {
	n := rapid.IntRange(0, 12).Draw(t, "n")
	out := make([]*model.ReplicaSet, 0, n)
	for i := range n {
		if rapid.IntRange(0, 15).Draw(t, "isNil") == 0 {
			out = append(out, nil)
			continue
		}
		opts := []rsOpt{
			genRevisionOpt(t, "rev"),
			created(time.Duration(rapid.IntRange(0, 4).Draw(t, "age")) * time.Second),
			replicas(rapid.Int32Range(0, 2).Draw(t, "spec"), rapid.Int32Range(0, 2).Draw(t, "status")),
			generation(rapid.Int64Range(1, 3).Draw(t, "gen"), rapid.Int64Range(1, 3).Draw(t, "observed")),
		}
		if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
			opts = append(opts, deleting())
		}
		if rapid.IntRange(0, 7).Draw(t, "idle") == 0 {
			opts = append(opts, replicas(0, 0), generation(1, 1))
		}
		out = append(out, newRS("rs-"+strconv.Itoa(i), opts...))
	}
	return out
}

func genLimit(t *rapid.T) *int32 {
	switch rapid.IntRange(0, 9).Draw(t, "limitKind") {
	case 0:
		return nil
	case 1:
		return model.Int32Ptr(model.NoLimit)
	default:
		return model.Int32Ptr(rapid.Int32Range(0, 14).Draw(t, "limit"))
	}
}

// I7 and the brief's cleanup properties.
func TestPropToDelete(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		old := genOldRSs(t)
		limit := genLimit(t)
		input := slices.Clone(old)
		before := deepCopies(old)

		got := ToDelete(input, limit)

		// Inputs unmodified: same order, same contents.
		for i := range input {
			if input[i] != old[i] {
				t.Fatal("input slice reordered")
			}
		}
		if diff := cmp.Diff(before, deepCopies(old)); diff != "" {
			t.Fatalf("input modified:\n%s", diff)
		}

		cleanable := 0
		for _, rs := range old {
			if rs != nil && rs.DeletionTimestamp == nil {
				cleanable++
			}
		}
		if limit == nil || *limit == model.NoLimit {
			if len(got) != 0 {
				t.Fatalf("no limit but %d deletions", len(got))
			}
			return
		}
		// At most len - limit, so at least limit old ones are kept.
		if most := max(0, cleanable-int(*limit)); len(got) > most {
			t.Fatalf("%d deletions, more than %d candidates − limit %d", len(got), cleanable, *limit)
		}
		seen := map[*model.ReplicaSet]bool{}
		for _, rs := range got {
			if !slices.Contains(old, rs) {
				t.Fatal("returned a ReplicaSet that was not in the input")
			}
			if seen[rs] {
				t.Fatalf("%s returned twice", rs.Name)
			}
			seen[rs] = true
			if rs.SpecReplicas() != 0 || rs.Status.Replicas != 0 {
				t.Fatalf("%s has replicas (%d, %d)", rs.Name, rs.SpecReplicas(), rs.Status.Replicas)
			}
			if rs.Generation > rs.Status.ObservedGeneration {
				t.Fatalf("%s has an unobserved generation", rs.Name)
			}
			if rs.DeletionTimestamp != nil {
				t.Fatalf("%s is already being deleted", rs.Name)
			}
		}

		// Same result for any input order.
		perm := rapid.Permutation(old).Draw(t, "perm")
		if diff := cmp.Diff(names(got), names(ToDelete(perm, limit))); diff != "" {
			t.Fatalf("result depends on input order (-orig +perm):\n%s", diff)
		}
		// And equal to the independent sort.Sort model of upstream.
		if diff := cmp.Diff(names(upstreamCleanup(old, limit)), names(got)); diff != "" {
			t.Fatalf("differs from the upstream model (-upstream +ToDelete):\n%s", diff)
		}
	})
}

func TestPropMaxLastRevision(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss := genOldRSs(t)
		maxRev, last := MaxRevision(rss), LastRevision(rss)
		if maxRev < last {
			t.Fatalf("MaxRevision %d < LastRevision %d", maxRev, last)
		}
		if last < 0 {
			t.Fatalf("LastRevision %d is negative", last)
		}
		// Reference: the parsable revisions, sorted descending, padded with 0s.
		revs := []int64{0, 0}
		for _, rs := range rss {
			if rs == nil {
				continue
			}
			if v, err := Revision(rs.Annotations); err == nil {
				revs = append(revs, v)
			}
		}
		slices.Sort(revs)
		slices.Reverse(revs)
		if maxRev != revs[0] || last != revs[1] {
			t.Fatalf("Max %d Last %d, reference %d %d", maxRev, last, revs[0], revs[1])
		}
		perm := rapid.Permutation(rss).Draw(t, "perm")
		if MaxRevision(perm) != maxRev || LastRevision(perm) != last {
			t.Fatal("result depends on input order")
		}
	})
}

// The cmp functions are antisymmetric; ByCreationTimestamp is a total order
// on distinct names.
func TestPropOrderings(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rss := genOldRSs(t)
		for _, a := range rss {
			for _, b := range rss {
				if sign(ByRevision(a, b)) != -sign(ByRevision(b, a)) {
					t.Fatal("ByRevision is not antisymmetric")
				}
				if sign(byCreationTimestamp(a, b)) != -sign(byCreationTimestamp(b, a)) {
					t.Fatal("ByCreationTimestamp is not antisymmetric")
				}
				if a != nil && b != nil && a != b && byCreationTimestamp(a, b) == 0 {
					t.Fatal("ByCreationTimestamp ties on distinct names")
				}
			}
		}
		sorted := slices.Clone(rss)
		slices.SortFunc(sorted, byCreationTimestamp)
		if !slices.IsSortedFunc(sorted, byCreationTimestamp) {
			t.Fatal("not sorted")
		}
	})
}

// The revision-history annotation stays within the limit as long as every
// revision string fits in it (upstream writes the very first entry without
// checking; see FuzzSetNewReplicaSetAnnotations for the general rule).
func TestPropHistoryWithinLimit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		limit := rapid.IntRange(3, 40).Draw(t, "limit")
		d := webDeployment("web:1")
		rs := newRS("web-1")
		revision := rapid.Int64Range(0, 999).Draw(t, "start")
		steps := rapid.IntRange(1, 30).Draw(t, "steps")
		for range steps {
			// Moves forward (rollbacks re-use the RS) or, sometimes, stays.
			revision += rapid.Int64Range(0, 50).Draw(t, "step")
			s := strconv.FormatInt(revision, 10)
			if len(s) > limit {
				break
			}
			oldRevision := rs.Annotations[model.RevisionAnnotation]
			oldHistory, hadHistory := rs.Annotations[model.RevisionHistoryAnnotation]
			changed := SetNewReplicaSetAnnotations(d, rs, s, limit)
			h := rs.Annotations[model.RevisionHistoryAnnotation]
			if len(h) > limit {
				t.Fatalf("history %q (%d chars) exceeds limit %d", h, len(h), limit)
			}
			cur, _ := Revision(rs.Annotations)
			if cur < revision {
				t.Fatalf("revision %d after setting %d", cur, revision)
			}
			if oldRevision != s && oldRevision != "" && changed {
				// The former revision is the newest history entry.
				entries := strings.Split(h, ",")
				if entries[len(entries)-1] != oldRevision {
					t.Fatalf("history %q does not end with the former revision %q", h, oldRevision)
				}
			}
			if _, hasHistory := rs.Annotations[model.RevisionHistoryAnnotation]; !changed && (hasHistory != hadHistory || h != oldHistory) {
				t.Fatal("history changed although nothing was reported")
			}
		}
	})
}

func TestPropRollbackTarget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := webDeployment("web:" + strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "current")))
		other := webDeployment("x")
		other.UID = "d-other"
		n := rapid.IntRange(0, 8).Draw(t, "n")
		var rss []*model.ReplicaSet
		for i := range n {
			owner := d
			if rapid.IntRange(0, 5).Draw(t, "foreign") == 0 {
				owner = other
			}
			rs := webRS(owner, "rs-"+strconv.Itoa(i), "0", "web:"+strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "image")),
				time.Duration(rapid.IntRange(0, 3).Draw(t, "age"))*time.Second, genRevisionOpt(t, "rev"))
			if rapid.IntRange(0, 6).Draw(t, "stray") == 0 {
				rs.Labels = map[string]string{"app": "other"}
			}
			rss = append(rss, rs)
		}
		to := rapid.Int64Range(-1, 13).Draw(t, "to")
		before := deepCopies(rss)
		got, err := RollbackTarget(d, rss, to)
		if diff := cmp.Diff(before, deepCopies(rss)); diff != "" {
			t.Fatalf("input modified:\n%s", diff)
		}
		perm := rapid.Permutation(rss).Draw(t, "perm")
		got2, err2 := RollbackTarget(d, perm, to)
		if got != got2 || (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
			t.Fatalf("depends on input order: %v/%v vs %v/%v", got, err, got2, err2)
		}
		if got == nil {
			if err == nil {
				t.Fatal("no target and no error")
			}
			return
		}
		if !got.IsControlledBy(d.UID) || got.Labels["app"] != "web" {
			t.Fatalf("target %s is not owned and selected", got.Name)
		}
		if v, err := Revision(got.Annotations); err != nil || (to > 0 && v != to) {
			t.Fatalf("target %s has revision %d (%v), requested %d", got.Name, v, err, to)
		}
	})
}
