package replicaset

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
)

// The first 27⁵ candidates of one UID are every 5-character suffix exactly
// once. Before, the FNV-derived suffixes repeated: for UID "rs-1" candidate
// 12731 equalled candidate 2069, and Sync failed past ~25 000 pods.
func TestDefaultPodNameIsAPermutationOfTheSuffixes(t *testing.T) {
	if a, b := DefaultPodName("web-", "rs-1", 2069), DefaultPodName("web-", "rs-1", 12731); a == b {
		t.Fatalf("candidates 2069 and 12731 of rs-1 are both %q", a)
	}
	key := fnv64a("rs-1")
	if fnv64a("a") != 0xaf63dc4c8601ec8c { // the FNV-1a test vector for "a"
		t.Fatalf("fnv64a(a) = %#x", fnv64a("a"))
	}
	seen := make([]uint64, suffixSpace/64+1)
	for n := range suffixSpace {
		x := permuteSuffix(key, n)
		if x >= suffixSpace || seen[x/64]&(1<<(x%64)) != 0 {
			t.Fatalf("candidate %d maps to %d, out of range or repeated", n, x)
		}
		seen[x/64] |= 1 << (x % 64)
	}
	// The name spells the permuted value in base 27, least significant
	// character first.
	x := permuteSuffix(key, 12731)
	var want []byte
	for range 5 {
		want = append(want, nameSuffixAlphabet[x%alphabetSize])
		x /= alphabetSize
	}
	if got := DefaultPodName("w-", "rs-1", 12731); got != "w-"+string(want) {
		t.Fatalf("candidate 12731 = %q, want %q", got, "w-"+string(want))
	}
}

// Distinct candidates give distinct names for any UID (empty, long, made of
// the alphabet itself) and any n an int32 allows and beyond; every name is
// the prefix followed by at least 5 characters of the alphabet.
func TestDefaultPodNameInjective(t *testing.T) {
	count := rapid.OneOf(
		rapid.IntRange(0, 100),
		rapid.IntRange(int(suffixSpace)-100, int(suffixSpace)+100),
		rapid.IntRange(0, math.MaxInt32),
		rapid.IntRange(0, math.MaxInt),
	)
	rapid.Check(t, func(t *rapid.T) {
		uid := rapid.OneOf(rapid.String(), rapid.StringMatching(`rs-[0-9]{1,3}`), rapid.StringMatching(`[bcdfg2-9]{0,70}`)).Draw(t, "uid")
		a, b := count.Draw(t, "a"), count.Draw(t, "b")
		na, nb := DefaultPodName("web-", uid, a), DefaultPodName("web-", uid, b)
		if (a == b) != (na == nb) {
			t.Fatalf("candidates %d → %q and %d → %q", a, na, b, nb)
		}
		suffix, ok := strings.CutPrefix(na, "web-")
		if !ok || len(suffix) < 5 || strings.Trim(suffix, nameSuffixAlphabet) != "" || len(na) > model.MaxNameLength {
			t.Fatalf("candidate %d = %q: not the prefix and alphabet characters", a, na)
		}
	})
}

// A ReplicaSet that already has 30 000 pods named by the default namer
// still gets 500 fresh names: before, the namer gave up ("candidate names
// were empty or already in use").
func TestSyncNeverRunsOutOfNames(t *testing.T) {
	rs := mkRS("1", 30_500) // UID "rs-1", the UID of the reported repeat
	pods := make([]*model.Pod, 30_000)
	for i := range pods {
		pods[i] = mkPod(DefaultPodName(GenerateName(rs.Name), rs.UID, i), ownedBy(rs))
		pods[i].UID = pods[i].Name
	}
	p, err := Sync(rs, pods, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, pod := range pods {
		used[pod.Name] = true
	}
	created := names(p, CreatePod)
	if len(created) != BurstReplicas {
		t.Fatalf("created %d pods, want the burst limit %d", len(created), BurstReplicas)
	}
	for _, n := range created {
		if used[n] {
			t.Fatalf("name %q used twice", n)
		}
		used[n] = true
	}
}

// BenchmarkDefaultPodName is one candidate name.
func BenchmarkDefaultPodName(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		_ = DefaultPodName("web-7d97fdb546-", "3f1a9c2e-0b7d-4e53-a3c1-5f0e9d7b2a11", n)
		n++
	}
}
