package plantest

import (
	"strconv"
	"strings"
)

// versionBatch formats resourceVersions many at a time: one string holds
// the decimal forms of consecutive versions of the same width, and each
// version is a substring of it. A version costs no allocation of its own,
// and the strings handed out are exactly strconv.FormatInt's.
type versionBatch struct {
	digits string // the versions from, from+1, ... written one after another
	from   int64
	n      int64 // versions in digits
	width  int64
}

// batchSize is the number of versions formatted at once.
const batchSize = 256

// format returns v in decimal.
func (b *versionBatch) format(v int64) string {
	if v <= 0 || v >= 1e18 {
		return strconv.FormatInt(v, 10)
	}
	if i := v - b.from; i < 0 || i >= b.n {
		b.fill(v)
	}
	i := v - b.from
	return b.digits[i*b.width : (i+1)*b.width]
}

// fill formats the versions from v (0 < v < 10¹⁸) on that have v's number
// of digits, at most batchSize of them.
func (b *versionBatch) fill(v int64) {
	width, end := int64(1), int64(10) // end: the first number one digit wider
	for end <= v {
		width++
		end *= 10
	}
	n := min(int64(batchSize), end-v)
	var sb strings.Builder
	sb.Grow(int(n * width))
	var num [19]byte
	for k := range n {
		sb.Write(strconv.AppendInt(num[:0], v+k, 10))
	}
	b.digits, b.from, b.n, b.width = sb.String(), v, n, width
}
