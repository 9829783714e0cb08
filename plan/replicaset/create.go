package replicaset

import (
	"fmt"
	"maps"

	"github.com/rolloutplan/rolloutplan/model"
)

// SlowStartBatches returns the batch sizes upstream creates n pods in: 1, 2,
// 4, … doubling, the last batch cut to what remains. n <= 0 returns nil. It
// does not apply the burst limit; [Sync] caps n at [BurstReplicas] first.
//
//	SlowStartBatches(1)   → [1]
//	SlowStartBatches(7)   → [1 2 4]
//	SlowStartBatches(10)  → [1 2 4 3]
//	SlowStartBatches(500) → [1 2 4 8 16 32 64 128 245]
func SlowStartBatches(n int) []int {
	var out []int
	for size := min(n, 1); size > 0; size = min(2*size, n) {
		out = append(out, size)
		n -= size
	}
	return out
}

// maxGeneratedPrefix is the API server's limit on the part of a generated
// name taken from generateName: 63 characters minus the 5 random ones.
const maxGeneratedPrefix = 58

// nameSuffixAlphabet is the API server's alphabet for generated names: no
// vowels, no look-alike digits.
const nameSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// GenerateName returns the generateName upstream gives the pods of a
// ReplicaSet named name: name + "-", or name alone when the dash would make
// it an invalid name prefix (a 253-character name).
func GenerateName(name string) string {
	if len(name)+1 > model.MaxNameLength {
		return name
	}
	return name + "-"
}

// DefaultPodName is the name the planner gives the n-th candidate for a pod
// of the ReplicaSet with UID rsUID and generateName prefix: the prefix (cut
// to 58 characters, as the API server cuts it) followed by 5 characters from
// the API server's alphabet, like the names the API server generates, but
// reproducible.
//
// For a given prefix and UID it is injective in n, so candidates never
// repeat and a namer that tries them in turn never runs out: the first
// 27⁵ = 14 348 907 candidates are a permutation of every 5-character suffix
// (a keyed Feistel network over 24 bits, walked until it lands below 27⁵,
// keyed by an FNV-1a hash of rsUID); candidate n ≥ 27⁵ takes the suffix of
// n mod 27⁵ and appends the digits of n / 27⁵ in the same alphabet, so it
// has more than 5 characters and no two candidates are equal. Negative n
// are read as their 64-bit two's complement, which keeps the map injective.
func DefaultPodName(prefix, rsUID string, n int) string {
	if len(prefix) > maxGeneratedPrefix {
		prefix = prefix[:maxGeneratedPrefix]
	}
	key := fnv64a(rsUID)
	u := uint64(n)
	x := permuteSuffix(key, u%suffixSpace)
	buf := make([]byte, 0, len(prefix)+5+14)
	buf = append(buf, prefix...)
	for range 5 {
		buf = append(buf, nameSuffixAlphabet[x%alphabetSize])
		x /= alphabetSize
	}
	for q := u / suffixSpace; q > 0; q /= alphabetSize {
		buf = append(buf, nameSuffixAlphabet[q%alphabetSize])
	}
	return string(buf)
}

const (
	alphabetSize = uint64(len(nameSuffixAlphabet))
	// suffixSpace is the number of 5-character suffixes: 27⁵.
	suffixSpace = alphabetSize * alphabetSize * alphabetSize * alphabetSize * alphabetSize
)

// permuteSuffix maps x < suffixSpace to a value < suffixSpace, a bijection
// for each key: a 4-round Feistel network on 24 bits (2²⁴ > 27⁵) applied
// again while the result is out of range (cycle walking, which stays a
// bijection on the smaller range).
func permuteSuffix(key, x uint64) uint64 {
	for {
		l, r := x>>12, x&0xfff
		for round := range uint64(4) {
			l, r = r, l^(mix(key^(round<<32)^r)&0xfff)
		}
		x = l<<12 | r
		if x < suffixSpace {
			return x
		}
	}
}

// fnv64a is the 64-bit FNV-1a hash of s.
func fnv64a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(s) {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// mix is the splitmix64 finaliser: a cheap 64-bit scramble.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// namer hands out unique pod names for one sync.
type namer struct {
	prefix string
	rsUID  string
	custom PodNamer
	taken  map[string]int // names in use (the value does not matter)
	next   int
	budget int
}

func newNamer(rs *model.ReplicaSet, taken map[string]int, count int, custom PodNamer) *namer {
	return &namer{prefix: GenerateName(rs.Name), rsUID: rs.UID, custom: custom, taken: taken, budget: len(taken) + count + 1}
}

func (n *namer) name() (string, error) {
	for n.next < n.budget {
		k := n.next
		n.next++
		var s string
		if n.custom != nil {
			s = n.custom(n.prefix, k)
		} else {
			s = DefaultPodName(n.prefix, n.rsUID, k)
		}
		if _, used := n.taken[s]; s != "" && !used {
			n.taken[s] = -1
			return s, nil
		}
	}
	return "", fmt.Errorf("pod namer: %d candidate names were empty or already in use", n.budget)
}

// newPod is the pod upstream sends for rs (GetPodFromTemplate): labels and
// annotations copied from the template, the template's spec, a controller
// reference to rs, in rs's namespace.
func newPod(rs *model.ReplicaSet, name string) *model.Pod {
	return &model.Pod{
		ObjectMeta: model.ObjectMeta{
			Name:            name,
			Namespace:       rs.Namespace,
			Labels:          maps.Clone(rs.Spec.Template.Labels),
			Annotations:     maps.Clone(rs.Spec.Template.Annotations),
			OwnerReferences: []model.OwnerReference{controllerRef(rs)},
		},
		Spec: model.PodSpec{Body: rs.Spec.Template.Spec},
	}
}

func controllerRef(rs *model.ReplicaSet) model.OwnerReference {
	return model.NewControllerRef("apps/v1", "ReplicaSet", rs.Name, rs.UID)
}
