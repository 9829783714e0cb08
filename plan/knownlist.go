package plan

import (
	"cmp"
	"slices"
	"unsafe"
)

// knownLists are the lists of a State that passed validation: every
// object in them is valid on its own, no object is listed twice, and no
// two ReplicaSets and no two pods share a name or a UID. So any part of
// them (some of the same objects, in any order) is valid as well.
//
// objs holds, in one allocation, the ReplicaSets and then the pods in the
// State's order. The objects are held as pointers, so they stay alive
// while remembered. Once stored, knownLists are never changed, so they can
// be read outside the Planner's lock.
type knownLists struct {
	nRS  int
	objs []unsafe.Pointer
}

// newKnownLists returns the lists of s, to remember.
func newKnownLists(s State) knownLists {
	objs := make([]unsafe.Pointer, 0, len(s.ReplicaSets)+len(s.Pods))
	objs = append(objs, pointers(s.ReplicaSets)...)
	objs = append(objs, pointers(s.Pods)...)
	return knownLists{nRS: len(s.ReplicaSets), objs: objs}
}

// pointers returns objs as the untyped pointers they are, without copying
// them (a *T and an unsafe.Pointer are laid out alike).
func pointers[T any](objs []*T) []unsafe.Pointer {
	return unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(unsafe.SliceData(objs))), len(objs))
}

func (k knownLists) rss() []unsafe.Pointer { return k.objs[:k.nRS] }

func (k knownLists) pods() []unsafe.Pointer { return k.objs[k.nRS:] }

// same reports whether s lists k's objects in k's order.
func (k knownLists) same(s State) bool {
	return slices.Equal(k.rss(), pointers(s.ReplicaSets)) && slices.Equal(k.pods(), pointers(s.Pods))
}

// misplaced counts the entries of objs that are not k's object at the
// same place, stopping at limit.
func misplaced[T any](known []unsafe.Pointer, objs []*T, limit int) int {
	n := max(0, len(objs)-len(known))
	for i := 0; i < len(objs) && i < len(known) && n < limit; i++ {
		if unsafe.Pointer(objs[i]) != known[i] {
			n++
		}
	}
	return n
}

// maxMisplaced is how many entries of a list may differ from the known
// list at their place (and how many it may have more or fewer) for
// unknown to compare place by place, matching the few entries that differ
// among themselves; beyond it (a list in another order, or shifted) it
// compares the lists sorted by address.
const maxMisplaced = 8

// added appends to rss and pods the indices of the entries of s's lists
// that k's lists do not account for: each entry of s is matched to at most
// one entry of k holding the same object, and the entries left unmatched
// (nil always) are added. When none is, s lists some of k's objects, each
// at most once, and so its lists are valid; otherwise the entries not
// added are valid, and unique among themselves. keys is scratch for
// sorting.
func (k knownLists) added(s State, keys []addressOf, rss, pods []int) ([]int, []int) {
	return appendAdded(rss, k.rss(), s.ReplicaSets, keys), appendAdded(pods, k.pods(), s.Pods, keys)
}

// appendAdded appends to out the indices of the entries of objs that
// known does not account for (see knownLists.added): place by place when
// few entries differ, otherwise by walking both lists sorted by address.
// Either way an entry counts as known only when it is the very object of
// the entry of known matched to it, so the order of the walk decides only
// how many known objects are found, never that an object is known.
func appendAdded[T any](out []int, known []unsafe.Pointer, objs []*T, keys []addressOf) []int {
	if d := len(known) - len(objs); d <= maxMisplaced && -d <= maxMisplaced && misplaced(known, objs, maxMisplaced+1) <= maxMisplaced {
		// The known entries not matched at their place, each to be
		// matched at most once.
		var spareBuf [2 * maxMisplaced]unsafe.Pointer
		spare := append(spareBuf[:0], known[min(len(known), len(objs)):]...)
		for i := range min(len(known), len(objs)) {
			if unsafe.Pointer(objs[i]) != known[i] {
				spare = append(spare, known[i])
			}
		}
		for i, o := range objs {
			if o != nil && i < len(known) && unsafe.Pointer(o) == known[i] {
				continue
			}
			if j := slices.Index(spare, unsafe.Pointer(o)); o != nil && j >= 0 {
				spare[j] = nil
				continue
			}
			out = append(out, i)
		}
		return out
	}
	if cap(keys) < len(known)+len(objs) {
		keys = make([]addressOf, 0, len(known)+len(objs))
	}
	knownKeys := sortedByAddress(keys[:0], known, func(p unsafe.Pointer) unsafe.Pointer { return p })
	objKeys := sortedByAddress(keys[len(knownKeys):len(knownKeys)], objs, func(o *T) unsafe.Pointer { return unsafe.Pointer(o) })
	start := len(out)
	j := 0
	for _, key := range objKeys {
		for j < len(knownKeys) && knownKeys[j].addr < key.addr {
			j++
		}
		o := objs[key.i]
		if o != nil && j < len(knownKeys) && known[knownKeys[j].i] == unsafe.Pointer(o) {
			j++
			continue
		}
		out = append(out, key.i)
	}
	slices.Sort(out[start:])
	return out
}

// addressOf is where entry i of a list lives in memory: the key lists are
// sorted by. It holds no pointer, so sorting moves no pointer (no write
// barrier) and the scratch is not scanned by the collector.
type addressOf struct {
	addr uintptr
	i    int
}

// sortKeysStack is how many entries (of a known list and a State's list
// together) are sorted on the stack.
const sortKeysStack = 64

// sortedByAddress appends to keys the addresses of list's entries, sorted.
func sortedByAddress[E any](keys []addressOf, list []E, ptr func(E) unsafe.Pointer) []addressOf {
	for i, e := range list {
		keys = append(keys, addressOf{uintptr(ptr(e)), i})
	}
	slices.SortFunc(keys, func(a, b addressOf) int { return cmp.Compare(a.addr, b.addr) })
	return keys
}
