package proportion

import (
	"math"
	"strconv"
)

// NonNegativeInt32Annotation reads annotations[key] as upstream reads the
// desired-replicas and max-replicas annotations: plain decimal digits whose
// value fits a non-negative int32. A missing key, a sign ("+5", "-1"),
// spaces, the empty string or a value above 2147483647 all give (0, false);
// upstream logs such values and otherwise ignores them.
//
// For example "13" gives (13, true), "0" gives (0, true), "2147483648"
// gives (0, false). A nil map behaves as an empty one.
func NonNegativeInt32Annotation(annotations map[string]string, key string) (int32, bool) {
	v, ok := annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}
