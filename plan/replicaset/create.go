package replicaset

import (
	"fmt"
	"hash/fnv"
	"maps"
	"strconv"

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
// the API server's alphabet, derived from an FNV-1a hash of rsUID and n. It
// looks like a name the API server generates, but is reproducible.
func DefaultPodName(prefix, rsUID string, n int) string {
	if len(prefix) > maxGeneratedPrefix {
		prefix = prefix[:maxGeneratedPrefix]
	}
	h := fnv.New64a()
	h.Write([]byte(rsUID))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(n)))
	x := h.Sum64()
	var suffix [5]byte
	for i := range suffix {
		suffix[i] = nameSuffixAlphabet[x%uint64(len(nameSuffixAlphabet))]
		x /= uint64(len(nameSuffixAlphabet))
	}
	return prefix + string(suffix[:])
}

// namer hands out unique pod names for one sync.
type namer struct {
	prefix string
	rsUID  string
	custom PodNamer
	taken  map[string]bool
	next   int
	budget int
}

func newNamer(rs *model.ReplicaSet, taken map[string]bool, count int, custom PodNamer) *namer {
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
		if s != "" && !n.taken[s] {
			n.taken[s] = true
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
