package model

import (
	"math"
	"math/bits"
)

// reportDuplicates reports the objects of a snapshot list whose name (in
// its namespace) or UID repeats an earlier one's.
func reportDuplicates[T comparable](errs *fieldErrs, list, kind string, items []T, meta func(T) *ObjectMeta) {
	names, uids := duplicates(items, meta)
	if names == nil && uids == nil {
		return
	}
	for i, x := range items {
		at := prefix{list: list, index: i}
		if j, dup := names[i]; dup {
			errs.add(at.field("metadata.name"), meta(x).Name, "duplicate %s name (also %s[%d])", kind, list, j)
		}
		if j, dup := uids[i]; dup {
			errs.add(at.field("metadata.uid"), meta(x).UID, "duplicate %s UID (also %s[%d])", kind, list, j)
		}
	}
}

// scanLimit is the longest list duplicates compares pairwise: for up to this
// many items the comparisons, which mostly stop at the last byte, cost less
// than hashing every name and UID.
const scanLimit = 8

// duplicates maps the index of every non-nil item whose name (in its
// namespace) or non-empty UID repeats an earlier item's to that earlier
// item's index. It is linear in len(items): a short list is scanned, a
// long one goes through open-addressing hash tables of item indices. It
// allocates only the maps of the duplicates it finds, and the tables of a
// list longer than maxStackItems.
func duplicates[T comparable](items []T, meta func(T) *ObjectMeta) (names, uids map[int]int) {
	// The tables hold 1 + an index in 32 bits: a list of 2³² − 1 items
	// or more (beyond any real snapshot) is scanned.
	if len(items) > scanLimit && uint64(len(items)) < math.MaxUint32 {
		return duplicatesHashed(items, meta)
	}
	return duplicatesScanned(items, meta)
}

// duplicatesScanned is duplicates for short lists: each item is compared
// with the ones before it.
func duplicatesScanned[T comparable](items []T, meta func(T) *ObjectMeta) (names, uids map[int]int) {
	var zero T
	for i, x := range items {
		if x == zero {
			continue
		}
		m := meta(x)
		sameName, sameUID := -1, -1
		for j, y := range items[:i] {
			if y == zero {
				continue
			}
			name, uid := duplicateOf(meta(y), m)
			if sameName < 0 && name {
				sameName = j
			}
			if sameUID < 0 && uid {
				sameUID = j
			}
		}
		names = noteDuplicate(names, i, sameName)
		uids = noteDuplicate(uids, i, sameUID)
	}
	return names, uids
}

// sameString is a == b, first comparing the lengths and the last bytes,
// where names and UIDs of one list mostly differ, before calling the
// general comparison.
func sameString(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || a[len(a)-1] == b[len(b)-1]) && a == b
}

// maxStackItems is the longest list whose hash tables duplicatesHashed
// keeps on the stack.
const maxStackItems = 128

// duplicatesHashed is duplicates for long lists (shorter than 2³² − 1).
// Each table slot holds 0 (empty) or 1 + the index of the first item with
// that key; a collision probes the next slot. The tables have at least
// twice as many slots as items.
func duplicatesHashed[T comparable](items []T, meta func(T) *ObjectMeta) (names, uids map[int]int) {
	var zero T
	size := 1
	for size < 2*len(items) {
		size <<= 1
	}
	mask := uint64(size - 1)
	var stack [2 * 2 * maxStackItems]uint32
	var slots []uint32
	if 2*size <= len(stack) {
		slots = stack[:2*size]
	} else {
		slots = make([]uint32, 2*size)
	}
	nameSlots, uidSlots := slots[:size], slots[size:]
	for i, x := range items {
		if x == zero {
			continue
		}
		m := meta(x)
		sameName := -1
		// Names are hashed without their namespace: the objects of a
		// snapshot mostly share one, and a hit compares both.
		for h := strHash(m.Name) & mask; ; h = (h + 1) & mask {
			j := int(nameSlots[h]) - 1
			if j < 0 {
				nameSlots[h] = uint32(i + 1)
				break
			}
			if my := meta(items[j]); sameString(my.Name, m.Name) && my.Namespace == m.Namespace {
				sameName = j
				break
			}
		}
		sameUID := -1
		for h := strHash(m.UID) & mask; m.UID != ""; h = (h + 1) & mask {
			j := int(uidSlots[h]) - 1
			if j < 0 {
				uidSlots[h] = uint32(i + 1)
				break
			}
			if sameString(meta(items[j]).UID, m.UID) {
				sameUID = j
				break
			}
		}
		names = noteDuplicate(names, i, sameName)
		uids = noteDuplicate(uids, i, sameUID)
	}
	return names, uids
}

// hashMul is an odd 64-bit multiplier (the golden ratio's fraction) for
// strHash.
const hashMul = 0x9e3779b97f4a7c15

// strHash hashes the bytes of s, eight at a time, each step folding the
// 128-bit product of the state and a constant. It only spreads keys over a
// table: equal strings hash alike, and every hit is confirmed by comparing
// the strings (so that strings differing only in trailing zero bytes may
// share a hash).
func strHash(s string) uint64 {
	var h uint64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		h = mix(h ^ load64(s[i:]))
	}
	switch {
	case i == len(s):
	case len(s) >= 8: // the last eight bytes, overlapping the words already read
		h = mix(h ^ load64(s[len(s)-8:]))
	default:
		var w uint64
		for ; i < len(s); i++ {
			w |= uint64(s[i]) << (8 * i)
		}
		h = mix(h ^ w)
	}
	return h
}

// mix folds the 128-bit product of x and hashMul into 64 bits.
func mix(x uint64) uint64 {
	hi, lo := bits.Mul64(x, hashMul)
	return hi ^ lo
}

func noteDuplicate(dups map[int]int, i, earlier int) map[int]int {
	if earlier < 0 {
		return dups
	}
	if dups == nil {
		dups = map[int]int{}
	}
	dups[i] = earlier
	return dups
}
