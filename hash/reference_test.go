package hash

import (
	"encoding/binary"
	gohash "hash"

	"github.com/rolloutplan/rolloutplan/model"
)

// The functions below compute the hash the slow, obviously correct way
// (byte slices and hash/fnv); the tests compare [ComputeHash] with them.

// appendEncoding appends the canonical version-1 encoding of t to dst and
// returns the extended slice. [ComputeHash] hashes exactly these bytes; the
// tests build the reference hash from them.
func appendEncoding(dst []byte, t model.PodTemplate) []byte {
	dst = appendStr(dst, EncodingVersion)
	dst = appendPairs(dst, t.Labels)
	dst = appendPairs(dst, t.Annotations)
	return appendStr(dst, t.Spec)
}

// appendStr appends s with its length as a uvarint before it.
func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// appendPairs appends the number of pairs of m, then each key and value
// with appendStr, in key order.
func appendPairs(dst []byte, m map[string]string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(m)))
	var buf [stackKeys]string
	for _, k := range sortedKeys(m, buf[:0]) {
		dst = appendStr(dst, k)
		dst = appendStr(dst, m[k])
	}
	return dst
}

// finish mixes collisionCount into h the way the controller does and
// returns h.Sum32(): a nil count writes nothing, a non-nil count writes 8
// bytes, the count as a little-endian uint32 (so -1 becomes ff ff ff ff),
// then four zero bytes. For example, count 1 writes 01 00 00 00 00 00 00 00.
func finish(h gohash.Hash32, collisionCount *int32) uint32 {
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], uint32(*collisionCount))
		h.Write(b[:]) // a hash.Hash never returns an error from Write
	}
	return h.Sum32()
}

// sumString returns FNV-1a of s followed by the collision-count bytes of
// finish: the sum upstream computes when s is the go-spew dump of a
// template. For example sumString("", nil) is 2166136261, the FNV-1a offset
// basis, and Encode of it is "65bb57b6b5".
func sumString(s string, collisionCount *int32) uint32 {
	h := fnv32a(fnvOffset32)
	h.raw(s)
	h.collision(collisionCount)
	return uint32(h)
}
