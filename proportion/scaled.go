package proportion

import (
	"math"
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// ScaledValue resolves v against total the way upstream's
// GetScaledValueFromIntOrPercent does. An integer is returned as is. A string
// must be a percentage: an integer in strconv.Atoi syntax followed by one "%"
// ("25%", but also "+5%", "-5%" and "007%", which upstream accepts here even
// though validation rejects the signed forms); it resolves to n·total/100,
// rounded up when roundUp is set and down otherwise.
//
// For example, "25%" of 10 is 3 rounded up and 2 rounded down; "25%" of 1 is
// 1 and 0; FromInt(7) is 7 whatever total is.
//
// Errors are *[ValueError] values wrapping [ErrNil] (v is nil),
// [ErrNotPercentage] ("5", "oops"), [ErrBadPercentage] ("12x%"),
// [ErrUnknownType], or [ErrOutOfRange]: upstream returns a Go int, which
// cannot be narrower than int32 here, so a result outside int32 is reported
// instead of being truncated.
func ScaledValue(v *model.IntOrString, total int32, roundUp bool) (int32, error) {
	n, err := scaled(v, total, roundUp, "")
	if err != nil {
		return 0, err
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, &ValueError{Value: v.String(), Err: ErrOutOfRange}
	}
	return int32(n), nil
}

// scaled returns the Go int (64 bits) that upstream computes for v, before
// any narrowing, so that callers can narrow the way upstream narrows: with
// an error in ResolveFenceposts, by silent wrap-around in NewRSNewReplicas.
func scaled(v *model.IntOrString, total int32, roundUp bool, field string) (int64, error) {
	if v == nil {
		return 0, &ValueError{Field: field, Err: ErrNil}
	}
	switch v.Type {
	case model.Int:
		return int64(v.IntVal), nil
	case model.String:
		digits, ok := strings.CutSuffix(v.StrVal, "%")
		if !ok {
			return 0, &ValueError{Field: field, Value: v.StrVal, Err: ErrNotPercentage}
		}
		// Atoi on the 64-bit platforms upstream runs on; spelled as
		// ParseInt so the result does not depend on this machine's int.
		n, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return 0, &ValueError{Field: field, Value: v.StrVal, Err: ErrBadPercentage}
		}
		return percentOf(n, total, roundUp), nil
	}
	return 0, &ValueError{Field: field, Value: v.String(), Err: ErrUnknownType}
}

// exactFloatLimit is 2^53: integers below it are exact in a float64.
const exactFloatLimit = 1 << 53

// percentOf returns ceil or floor of n·total/100 as upstream computes it,
// in float64.
//
// Integer division gives the same answer whenever |n·total| < 2^53, which is
// every input a valid Deployment can produce: both factors and the product
// are then exact floats, and a quotient that is not an integer lies at least
// 0.01 from one while float64 division errs by at most half an ulp, under
// 0.008 for quotients below 2^53/100. Larger products take upstream's float
// path literally, because there the rounding of the product changes the
// answer and exactness to upstream matters more than exactness to arithmetic.
func percentOf(n int64, total int32, roundUp bool) int64 {
	an, at := absU64(n), absU64(int64(total))
	if at == 0 || an < exactFloatLimit/at {
		p := n * int64(total)
		q, r := p/100, p%100 // Go truncates toward zero
		switch {
		case roundUp && r > 0:
			q++
		case !roundUp && r < 0:
			q--
		}
		return q
	}
	f := float64(n) * float64(total) / 100
	if roundUp {
		f = math.Ceil(f)
	} else {
		f = math.Floor(f)
	}
	return float64ToInt64(f)
}

func absU64(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1 // also right for math.MinInt64
	}
	return uint64(v)
}

// float64ToInt64 converts like int64(f) on amd64, where a value out of range
// (or NaN) becomes math.MinInt64; Go leaves that case to the platform.
func float64ToInt64(f float64) int64 {
	if f >= -(1<<63) && f < 1<<63 {
		return int64(f)
	}
	return math.MinInt64
}
