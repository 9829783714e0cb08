package plan

import (
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
//
// inNS is set when every object of the lists is in namespace ns (the
// namespace of the Deployment of the State they were taken from): so is
// every object of any part of them.
type knownLists struct {
	nRS  int
	objs []unsafe.Pointer
	ns   string
	inNS bool
}

// newKnownLists returns the lists of s, to remember.
func newKnownLists(s State) knownLists {
	objs := make([]unsafe.Pointer, 0, len(s.ReplicaSets)+len(s.Pods))
	objs = append(objs, pointers(s.ReplicaSets)...)
	objs = append(objs, pointers(s.Pods)...)
	ns := s.Deployment.Namespace
	return knownLists{nRS: len(s.ReplicaSets), objs: objs, ns: ns, inNS: foreignReplicaSets(s.ReplicaSets, ns)+foreignPods(s.Pods, ns) == 0}
}

// sameReplicaSets reports whether k and o list the same ReplicaSets in the
// same order.
func (k knownLists) sameReplicaSets(o knownLists) bool {
	return slices.Equal(k.rss(), o.rss())
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

// misplaced counts the entries of objs that are not known's entry at the
// same place (those past known's end included), stopping at limit.
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
// appendAdded to compare place by place, matching the few entries that
// differ among themselves; beyond it (a list in another order, or
// shifted) it looks the entries up by address.
const maxMisplaced = 8

// added appends to rss and pods the indices of the entries of s's lists
// that k's lists do not account for: each entry of s is matched to at most
// one entry of k holding the same object, and the entries left unmatched
// (nil always) are added. When none is, s lists some of k's objects, each
// at most once, and so its lists are valid; otherwise the entries not
// added are valid, and unique among themselves. slots is scratch for a
// table of addresses.
func (k knownLists) added(s State, slots []int32, rss, pods []int) ([]int, []int) {
	return appendAdded(rss, k.rss(), s.ReplicaSets, slots), appendAdded(pods, k.pods(), s.Pods, slots)
}

// appendAdded appends to out, in order, the indices of the entries of
// objs that known does not account for (see knownLists.added): place by
// place when few entries differ, otherwise through a table of known's
// entries by address. Either way an entry counts as known only when it is
// the very object of the entry of known matched to it.
func appendAdded[T any](out []int, known []unsafe.Pointer, objs []*T, slots []int32) []int {
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
	if len(known) >= 1<<30 { // beyond any snapshot: all checked
		for i := range objs {
			out = append(out, i)
		}
		return out
	}
	// Each entry of objs is looked up in an open-addressing table of
	// known's entries, by address, an entry of known being used up by the
	// first entry of objs it matches.
	size, shift := 1, uint(64)
	for size < 2*len(known) {
		size, shift = size<<1, shift-1
	}
	if cap(slots) < size {
		slots = make([]int32, size)
	}
	slots = slots[:size]
	clear(slots)
	mask := size - 1
	for i, k := range known {
		h := slot(k, shift)
		for slots[h] != 0 {
			h = (h + 1) & mask
		}
		slots[h] = int32(i + 1)
	}
	for i, o := range objs {
		matched := false
		for h := slot(unsafe.Pointer(o), shift); o != nil && slots[h] != 0; h = (h + 1) & mask {
			if k := slots[h]; k > 0 && known[k-1] == unsafe.Pointer(o) {
				slots[h], matched = -k, true
				break
			}
		}
		if !matched {
			out = append(out, i)
		}
	}
	return out
}

// slot is where an object's address starts its search in a table of
// 2^(64-shift) slots (Fibonacci hashing: the top bits of the address times
// the golden ratio's fraction; a shift of 64 leaves slot 0).
func slot(p unsafe.Pointer, shift uint) int {
	return int(uint64(uintptr(p)) * 0x9e3779b97f4a7c15 >> shift)
}

// tableStack is how many slots of the table of a known list are on the
// stack.
const tableStack = 128
