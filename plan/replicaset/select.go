package replicaset

import (
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// selectKeys builds the keys of the non-nil pods of pods, like rankedKeys,
// but puts only the first m of them into deletion order: keys[:m] (all of
// them when there are fewer) are exactly rankedKeys' first m, the rest
// follow in no particular order. A scale-down deletes at most
// BurstReplicas pods of possibly hundreds of thousands, so ranking them all
// is wasted work.
//
// It takes the keys in the first pass's order (compareFirstPass, a total
// order: names are unique) from a binary heap until it has m of them and
// the next one would not continue the last one's run of the second pass,
// then runs the second pass (rankKeys) on that prefix. A run that straddles
// position m is therefore taken whole and sorted exactly as the full
// ranking sorts it.
//
// With WithUpstreamTieOrder the order depends on the sorting algorithm's
// sequence of comparisons, so that case, like small sets, sorts them all.
func selectKeys(pods []*model.Pod, ranks []int, now time.Time, cfg *config, m int) []*podKey {
	if cfg.upstreamTies || 4*m >= len(pods) {
		return rankedKeys(pods, ranks, now, cfg)
	}
	return partialKeys(pods, ranks, now, cfg, m)
}

// partialKeys is selectKeys through the heap, whatever the sizes (not for
// WithUpstreamTieOrder).
func partialKeys(pods []*model.Pod, ranks []int, now time.Time, cfg *config, m int) []*podKey {
	logScale := !now.IsZero()
	store := make([]podKey, 0, len(pods))
	for i, p := range pods {
		if p != nil {
			store = append(store, makeKey(p, i, ranks[i], now, cfg))
		}
	}
	h := keyHeap{keys: make([]*podKey, len(store)), logScale: logScale}
	for i := range store {
		h.keys[i] = &store[i]
	}
	h.init()
	out := make([]*podKey, 0, len(store))
	for len(h.keys) > 0 {
		next := h.keys[0]
		if len(out) >= m && (len(out) == 0 || !sameRun(out[len(out)-1], next, logScale)) {
			break
		}
		out = append(out, h.pop())
	}
	prefix := len(out)
	out = append(out, h.keys...)
	rankKeys(out[:prefix], logScale, false)
	return out
}

// sameRun reports whether b, right after a in the first pass's order, is in
// a's run of the second pass: both bucketed, the same ready time, the same
// block.
func sameRun(a, b *podKey, logScale bool) bool {
	return a.bucketed && b.bucketed && b.readyTime.Equal(a.readyTime) && compareBlock(a, b, logScale) == 0
}

// keyHeap is a binary min-heap of keys under compareFirstPass.
type keyHeap struct {
	keys     []*podKey
	logScale bool
}

func (h *keyHeap) less(i, j int) bool { return compareFirstPass(h.keys[i], h.keys[j], h.logScale) < 0 }

func (h *keyHeap) init() {
	for i := len(h.keys)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *keyHeap) down(i int) {
	n := len(h.keys)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h.keys[i], h.keys[c] = h.keys[c], h.keys[i]
		i = c
	}
}

// pop removes and returns the least key.
func (h *keyHeap) pop() *podKey {
	top := h.keys[0]
	last := len(h.keys) - 1
	h.keys[0] = h.keys[last]
	h.keys = h.keys[:last]
	h.down(0)
	return top
}
