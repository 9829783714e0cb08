package plan

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/proportion"
)

// proportionalReason explains one share of a proportional scale with the
// numbers upstream used: from + proportion + leftover, computed in int32
// (the sum can wrap), and the clamp at 0 of the first share when it fires.

func proportionalReason(dist proportion.Distribution, sh proportion.Share) Reason {
	values := append(make([]Value, 0, 7), v("from", int64(sh.From)), v("to", int64(sh.To)), v("proportion", int64(sh.Proportion)), v("leftover", int64(sh.Leftover)),
		v("allowed", int64(dist.Allowed)), v("current", int64(dist.Current)))
	sum := sh.From + sh.Proportion + sh.Leftover // int32, as upstream
	b := fmt.Appendf(nil, "%s %d→%d: %d %+d (proportion) %+d (leftover)",
		sh.ReplicaSet.Name, sh.From, sh.To, sh.From, sh.Proportion, sh.Leftover)
	if exact := int64(sh.From) + int64(sh.Proportion) + int64(sh.Leftover); exact != int64(sum) {
		b = fmt.Appendf(b, " = %d in int32 (exactly %d)", sum, exact)
	}
	if sum != sh.To {
		values = append(values, v("clamped", int64(sh.To)-int64(sum)))
		b = fmt.Appendf(b, ", below 0 so clamped to %d", sh.To)
	}
	return reasonAfter(string(b), ReasonProportional, values, ", of %+d to reach replicas + maxSurge = %d", dist.ToAdd, dist.Allowed)
}
