package hash

import (
	"slices"
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
)

// EncodingVersion is the tag that opens every canonical encoding. It names
// the layout described in the package documentation; a different layout
// would need a different tag.
const EncodingVersion = "rolloutplan.template.v1"

// Alphabet is the set hash characters are drawn from: the digits and
// consonants that remain when vowels (and the look-alikes 0, 1, 3) are
// removed, so that hashes never spell words. It is upstream's alphanums.
const Alphabet = "bcdfghjklmnpqrstvwxz2456789"

// FNV-1a, 32 bit (the constants of hash/fnv).
const (
	fnvOffset32 uint32 = 2166136261
	fnvPrime32  uint32 = 16777619
)

// stackKeys is how many map keys are sorted without a heap allocation.
// Templates rarely carry more than a handful of labels or annotations.
const stackKeys = 16

// ComputeHash returns the pod-template-hash of t: FNV-1a over the canonical
// encoding of t (see the package documentation), the collision count mixed
// in as upstream does (step 3 of the package documentation), rendered by
// [Encode]. The result has 1 to 10 characters
// from "456789bcdf".
//
// collisionCount is the Deployment's status.collisionCount. nil and a
// pointer to 0 give different hashes, as upstream: a non-nil count always
// adds 8 bytes to the hashed input.
//
// ComputeHash reads t only; equal templates (in the sense of equal maps,
// whatever their insertion order, and equal Spec) always hash alike.
func ComputeHash(t model.PodTemplate, collisionCount *int32) string {
	return Encode(sum32(t, collisionCount))
}

// sum32 returns the 32-bit sum behind [ComputeHash], before rendering: FNV-1a
// over the canonical encoding of t followed by the collision-count bytes. It
// allocates nothing for templates with at most 16 labels and 16 annotations.
func sum32(t model.PodTemplate, collisionCount *int32) uint32 {
	h := fnv32a(fnvOffset32)
	h.str(EncodingVersion)
	h.pairs(t.Labels)
	h.pairs(t.Annotations)
	h.str(t.Spec)
	h.collision(collisionCount)
	return uint32(h)
}

// Encode renders a 32-bit sum the way the controller names ReplicaSets: the
// unsigned decimal digits of sum, without padding, each mapped through
// [SafeEncodeString]. The digits 0–9 become "456789bcdf", so 3869868675
// becomes "7dbfdbdbc9" and 610673237 becomes "b54bc767c" (nine
// characters, because the sum has nine digits).
func Encode(sum uint32) string {
	var buf [10]byte // 4294967295 has 10 digits
	b := strconv.AppendUint(buf[:0], uint64(sum), 10)
	for i, c := range b {
		b[i] = Alphabet[int(c)%len(Alphabet)]
	}
	return string(b)
}

// SafeEncodeString maps s onto [Alphabet], as upstream's SafeEncodeString: the
// i-th character (code point) c of s becomes Alphabet[c % 27] at byte
// position i. For ASCII input, which is all the controller ever passes (a
// decimal number), that is one output byte per input byte: "0" becomes "4",
// "9" becomes "f", "a" (97) becomes "v".
//
// For input with multi-byte UTF-8 sequences upstream's quirk is kept: the
// result has len(s) bytes, of which only the first utf8.RuneCountInString(s)
// are set and the rest are zero bytes; an invalid byte counts as U+FFFD.
func SafeEncodeString(s string) string {
	out := make([]byte, len(s))
	i := 0
	for _, r := range s {
		out[i] = Alphabet[int(r)%len(Alphabet)]
		i++
	}
	return string(out)
}

// ReplicaSetName returns the name the controller gives the ReplicaSet of a
// Deployment for a template hash: deploymentName + "-" + hash, with
// deploymentName cut so that the whole name has at most
// [model.MaxNameLength] (253) characters. With a 10-character hash a
// Deployment name of up to 242 characters is kept whole; a 249-character
// name keeps its first 242, with a 9-character hash its first 243.
//
// Evidence: older controllers joined the two without a limit (and a create
// over 253 characters then failed), but the ReplicaSets the v1.36.3
// controller created in the conformance data for a 249-character Deployment
// name are exactly 253 characters long, with the name's first 242 (or 243)
// characters as prefix; the claim that upstream does not guard the length describes the
// older code. The cut is by bytes; Deployment names are ASCII. A hash of 252
// or more characters (never produced by [ComputeHash]) leaves no room and
// yields "-" + hash.
func ReplicaSetName(deploymentName, hash string) string {
	room := model.MaxNameLength - 1 - len(hash)
	if room < 0 {
		room = 0
	}
	if len(deploymentName) > room {
		deploymentName = deploymentName[:room]
	}
	return deploymentName + "-" + hash
}

// fnv32a is an FNV-1a state that the encoder writes into directly. Unlike
// hash/fnv it is a plain value, so hashing does not allocate and the loop
// stays free of interface calls.
type fnv32a uint32

// raw writes the bytes of s, without a length prefix.
func (h *fnv32a) raw(s string) {
	x := uint32(*h)
	for i := 0; i < len(s); i++ {
		x ^= uint32(s[i])
		x *= fnvPrime32
	}
	*h = fnv32a(x)
}

func (h *fnv32a) uvarint(v uint64) {
	x := uint32(*h)
	for v >= 0x80 {
		x ^= uint32(byte(v) | 0x80)
		x *= fnvPrime32
		v >>= 7
	}
	x ^= uint32(byte(v))
	x *= fnvPrime32
	*h = fnv32a(x)
}

func (h *fnv32a) str(s string) {
	h.uvarint(uint64(len(s)))
	h.raw(s)
}

func (h *fnv32a) pairs(m map[string]string) {
	h.uvarint(uint64(len(m)))
	var buf [stackKeys]string
	for _, k := range sortedKeys(m, buf[:0]) {
		h.str(k)
		h.str(m[k])
	}
}

// collision is finish (reference_test.go) on the value state: 8 bytes when cc is non-nil.
func (h *fnv32a) collision(cc *int32) {
	if cc == nil {
		return
	}
	x := uint32(*h)
	v := uint32(*cc)
	for i := 0; i < 4; i++ {
		x ^= v & 0xff
		x *= fnvPrime32
		v >>= 8
	}
	for i := 0; i < 4; i++ {
		x *= fnvPrime32 // xor with a zero byte is a no-op
	}
	*h = fnv32a(x)
}

// sortedKeys appends the keys of m to buf and sorts them bytewise. Sorting is
// what makes the encoding independent of map iteration order.
func sortedKeys(m map[string]string, buf []string) []string {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}
