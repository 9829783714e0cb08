package proportion

import (
	"testing"
)

func TestNonNegativeInt32Annotation(t *testing.T) {
	type tc struct {
		why
		ann    map[string]string
		want   int32
		wantOK bool
	}
	const key = "k"
	one := func(v string) map[string]string { return map[string]string{key: v} }
	cases := []tc{
		{why{"absent", "upstream TestGetNonNegativeInt32FromAnnotation: (0, not ok)"}, map[string]string{"other": "3"}, 0, false},
		{why{"invalid", "upstream TestGetNonNegativeInt32FromAnnotation: (0, not ok)"}, one("invalid"), 0, false},
		{why{"minus one", "upstream TestGetNonNegativeInt32FromAnnotation: sign rejected"}, one("-1"), 0, false},
		{why{"zero", "upstream TestGetNonNegativeInt32FromAnnotation: (0, ok)"}, one("0"), 0, true},
		{why{"thirteen", "upstream TestGetNonNegativeInt32FromAnnotation: (13, ok)"}, one("13"), 13, true},
		{why{"max int32", "upstream TestGetNonNegativeInt32FromAnnotation: (2147483647, ok)"}, one("2147483647"), 2147483647, true},
		{why{"max int32 plus one", "upstream TestGetNonNegativeInt32FromAnnotation: out of range"}, one("2147483648"), 0, false},
		{why{"2^32", "upstream TestGetNonNegativeInt32FromAnnotation: beyond uint32"}, one("4294967296"), 0, false},
		{why{"plus sign", "upstream getNonNegativeInt32FromAnnotation, upstream quirk (inconsistent annotation parsers): unsigned parser rejects +5"}, one("+5"), 0, false},
		{why{"empty", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): \"\" rejected"}, one(""), 0, false},
		{why{"space", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): spaces rejected"}, one(" 5"), 0, false},
		{why{"underscore", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): base-10 parse rejects separators"}, one("1_0"), 0, false},
		{why{"leading zeros", "upstream's annotation parsers (getNonNegativeInt32FromAnnotation): decimal digits, \"007\" is 7"}, one("007"), 7, true},
		{why{"nil map", "nil map is empty"}, nil, 0, false},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		got, ok := NonNegativeInt32Annotation(c.ann, key)
		if got != c.want || ok != c.wantOK {
			t.Fatalf("NonNegativeInt32Annotation = (%d, %v), want (%d, %v)", got, ok, c.want, c.wantOK)
		}
	})
}
