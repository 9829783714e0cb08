package proportion

import "math"

// RoundToInt32 rounds x to the nearest integer, halves away from zero, and
// converts it to int32: 2.5 → 3, −2.5 → −3, 59.09 → 59, 42.3 → 42.
//
// A value outside the int32 range (or NaN) gives math.MinInt32, which is what
// Go's conversion produces on amd64; Go leaves the case to the platform (arm64
// saturates), and this package prefers one answer everywhere.
func RoundToInt32(x float64) int32 {
	r := math.Round(x)
	if r >= math.MinInt32 && r <= math.MaxInt32 {
		return int32(r)
	}
	return math.MinInt32
}
