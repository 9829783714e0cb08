package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// This file checks Validate on whole snapshots against a reference built
// from parts: the object validators run one by one, their paths prefixed,
// and a plain pairwise search for repeated names and UIDs. Validate's cheap
// checks for valid input (the character table, the word-at-a-time UID test,
// the hashed duplicate search and its early return, the unsorted label and
// annotation passes) must never let an error through nor invent one, and the
// errors must come in the same order with the same text.

// snapshotReference is the list of field errors Validate must return.
func snapshotReference(d *Deployment, rss []*ReplicaSet, pods []*Pod) []FieldError {
	var want []FieldError
	add := func(err error, at string, nilPath string) {
		if err == nil {
			return
		}
		var ve *ValidationError
		if !errors.As(err, &ve) {
			panic(fmt.Sprintf("%T is not a *ValidationError", err))
		}
		for _, fe := range ve.Errors {
			e := *fe
			if e.Field == nilPath {
				e.Field = strings.TrimSuffix(at, ".")
			} else {
				e.Field = at + e.Field
			}
			want = append(want, e)
		}
	}
	add(ValidateDeployment(d), "deployment.", "deployment")
	for i, rs := range rss {
		add(ValidateReplicaSet(rs), "replicaSets["+strconv.Itoa(i)+"].", "replicaSet")
	}
	want = append(want, pairwiseDuplicates("replicaSets", "ReplicaSet", metas(rss, func(rs *ReplicaSet) *ObjectMeta { return &rs.ObjectMeta }))...)
	for i, p := range pods {
		add(ValidatePod(p), "pods["+strconv.Itoa(i)+"].", "pod")
	}
	want = append(want, pairwiseDuplicates("pods", "Pod", metas(pods, func(p *Pod) *ObjectMeta { return &p.ObjectMeta }))...)
	return want
}

func metas[T *ReplicaSet | *Pod](items []T, meta func(T) *ObjectMeta) []*ObjectMeta {
	out := make([]*ObjectMeta, len(items))
	for i, x := range items {
		if x != nil {
			out[i] = meta(x)
		}
	}
	return out
}

// pairwiseDuplicates reports, for every object, the first earlier one with
// the same namespace and name, and the first earlier one with the same
// non-empty UID.
func pairwiseDuplicates(list, kind string, ms []*ObjectMeta) []FieldError {
	var out []FieldError
	for i, m := range ms {
		if m == nil {
			continue
		}
		for j := range i {
			if ms[j] != nil && ms[j].Namespace == m.Namespace && ms[j].Name == m.Name {
				out = append(out, FieldError{Field: fmt.Sprintf("%s[%d].metadata.name", list, i), Value: m.Name,
					Detail: fmt.Sprintf("duplicate %s name (also %s[%d])", kind, list, j)})
				break
			}
		}
		for j := range i {
			if m.UID != "" && ms[j] != nil && ms[j].UID == m.UID {
				out = append(out, FieldError{Field: fmt.Sprintf("%s[%d].metadata.uid", list, i), Value: m.UID,
					Detail: fmt.Sprintf("duplicate %s UID (also %s[%d])", kind, list, j)})
				break
			}
		}
	}
	return out
}

// checkSnapshotAgrees fails t when Validate differs from the reference.
func checkSnapshotAgrees(t interface {
	Helper()
	Fatalf(string, ...any)
}, d *Deployment, rss []*ReplicaSet, pods []*Pod) (valid bool) {
	t.Helper()
	want := snapshotReference(d, rss, pods)
	err := Validate(d, rss, pods)
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("Validate: %v; the objects alone and the pairwise search find nothing", err)
		}
		return true
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate returned %v, want %d field errors, the first %v", err, len(want), &want[0])
	}
	for i := range max(len(want), len(ve.Errors)) {
		if i >= len(want) || i >= len(ve.Errors) || *ve.Errors[i] != want[i] {
			t.Fatalf("Validate returned %d errors, the reference %d; they differ at %d:\n got: %v\nwant: %v", len(ve.Errors), len(want), i, at(ve.Errors, i), at(want, i))
		}
	}
	return false
}

func at[E any](list []E, i int) any {
	if i < len(list) {
		return list[i]
	}
	return "(none)"
}

var (
	snapshotsOnce sync.Once
	snapshots     []ConformanceSnapshot
)

// sharedSnapshots reads the conformance states once per test binary; the
// tests only read them (mutateSnapshot copies).
func sharedSnapshots(tb testing.TB) []ConformanceSnapshot {
	snapshotsOnce.Do(func() { snapshots = ReadConformanceSnapshots(tb) })
	if len(snapshots) == 0 {
		tb.Fatal("no conformance states")
	}
	return snapshots
}

// TestValidateSnapshotSweep checks 4 000 mutated conformance snapshots
// (a fixed sequence of edits; every seventh has its pod list repeated three
// times, which makes it long and full of duplicates) and requires both
// valid and invalid ones in numbers.
func TestValidateSnapshotSweep(t *testing.T) {
	states := sharedSnapshots(t)
	valid := 0
	const n = 4000
	for i := range n {
		s := states[i%len(states)]
		c := lcg(i)
		d, rss, pods := mutateSnapshot(&c, s.Deployment, s.ReplicaSets, s.Pods)
		if i%7 == 0 {
			pods = append(append(pods, pods...), pods...)
		}
		if checkSnapshotAgrees(t, d, rss, pods) {
			valid++
		}
	}
	if valid < n/5 || valid > n*4/5 {
		t.Fatalf("%d of %d snapshots valid: the mutations test too little", valid, n)
	}
}

// rapidChooser draws the choices of a mutation with rapid, which shrinks a
// failure to few, early edits.
type rapidChooser struct{ t *rapid.T }

func (c rapidChooser) intn(n int) int { return rapid.IntRange(0, n-1).Draw(c.t, "choice") }

func TestPropValidateSnapshot(t *testing.T) {
	states := sharedSnapshots(t)
	rapid.Check(t, func(t *rapid.T) {
		s := states[rapid.IntRange(0, len(states)-1).Draw(t, "state")]
		d, rss, pods := mutateSnapshot(rapidChooser{t}, s.Deployment, s.ReplicaSets, s.Pods)
		checkSnapshotAgrees(t, d, rss, pods)
	})
}

// FuzzValidateSnapshot edits a conformance snapshot as the fuzz input
// says (its first byte picks the state) and checks Validate against the
// reference.
func FuzzValidateSnapshot(f *testing.F) {
	for _, seed := range [][]byte{{0}, {5, 1, 0, 0, 0}, {17, 3, 1, 2, 3, 4, 5, 6, 7}, {42, 2, 3, 0, 1, 9, 9}, {199, 3, 2, 1, 1, 1, 1, 1, 1, 1}} {
		f.Add(seed)
	}
	states := sharedSnapshots(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		s := states[int(data[0])%len(states)]
		c := byteChooser(data[1:])
		d, rss, pods := mutateSnapshot(&c, s.Deployment, s.ReplicaSets, s.Pods)
		checkSnapshotAgrees(t, d, rss, pods)
	})
}
