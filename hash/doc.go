// Package hash computes the pod-template-hash of a [model.PodTemplate]: the
// suffix of a ReplicaSet's name and the value of its pod-template-hash label.
//
// To start: hash.ComputeHash(template, collisionCount) returns the suffix, and
// [ReplicaSetName] joins it to a Deployment's name; see the Example for
// ComputeHash. [model.EqualIgnoreHash] tells whether two templates differ
// only in that label.
//
// The pipeline mirrors the upstream controller's ComputeHash step for step,
// except for the first step, where upstream dumps the k8s.io/api Go struct
// with go-spew and rolloutplan writes its own canonical encoding instead:
//
//  1. encode the template canonically (below, or go-spew for an adapter that
//     holds a real apps/v1 template);
//  2. feed the bytes to 32-bit FNV-1a;
//  3. if the collision count is non-nil, feed 8 more bytes: the count as a
//     little-endian uint32, then four zero bytes;
//  4. format the 32-bit sum in decimal and map every character through the
//     vowel-free alphabet "bcdfghjklmnpqrstvwxz2456789" ([Encode]).
//
// Because step 1 differs, [ComputeHash] does not produce the hash a real
// cluster would give the same pod template; the controller never relies on
// that, since it finds the new ReplicaSet by template equality
// ([model.EqualIgnoreHash]), not by hash. An adapter that needs
// cluster-identical names hashes the go-spew dump of its defaulted
// v1.PodTemplateSpec through steps 2 to 4 and renders the sum with [Encode];
// the apps/v1 adapter in examples/appsv1 does so (its ComputeHash).
//
// # Canonical encoding, version 1
//
// The bytes hashed by [ComputeHash] are exactly these:
//
//	str(s)      = uvarint(len(s)) ‖ s
//	pairs(m)    = uvarint(len(m)) ‖ for each key k of m in ascending byte order: str(k) ‖ str(m[k])
//	encoding(t) = str("rolloutplan.template.v1") ‖ pairs(t.Labels) ‖ pairs(t.Annotations) ‖ str(t.Spec)
//
// where uvarint is the unsigned LEB128 varint of [encoding/binary.AppendUvarint]
// and ‖ is concatenation. Every string is length-prefixed, so the encoding can
// be parsed back unambiguously and two different templates never share one.
// A nil map and an empty map both encode as the single byte 0x00, in line with
// [model.EqualIgnoreHash], which treats them as equal.
//
// All labels are encoded as given, pod-template-hash included: upstream
// hashes the Deployment's template, which does not carry that label, and
// rolloutplan does not second-guess a caller who passes one.
//
// Changing this encoding changes the hash, and so the name, of every
// ReplicaSet created by a program built on rolloutplan; ReplicaSets created
// before the change would no longer carry the hash their Deployment expects
// for the next collision check. It is therefore a breaking change: a new
// encoding must get a new version tag and live beside this one, and the
// golden values in the tests must never be edited to make a change pass.
//
// # Performance
//
// [ComputeHash] feeds the encoding straight into the FNV state without
// building a byte slice, and sorts up to 16 map keys in a stack buffer, so it
// allocates only the returned string. FNV-1a is inherently serial: each byte
// costs one xor and one dependent multiply, about 4 CPU cycles, so the cost
// grows linearly with the size of Spec (about 1.6 ns per byte at 2.6 GHz,
// the same as hash/fnv over a prebuilt buffer).
package hash
