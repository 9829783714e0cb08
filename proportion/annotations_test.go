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
		{why{"absent", "§17 Ex6: (0, not ok)"}, map[string]string{"other": "3"}, 0, false},
		{why{"invalid", "§17 Ex6: (0, not ok)"}, one("invalid"), 0, false},
		{why{"minus one", "§17 Ex6: sign rejected"}, one("-1"), 0, false},
		{why{"zero", "§17 Ex6: (0, ok)"}, one("0"), 0, true},
		{why{"thirteen", "§17 Ex6: (13, ok)"}, one("13"), 13, true},
		{why{"max int32", "§17 Ex6: (2147483647, ok)"}, one("2147483647"), 2147483647, true},
		{why{"max int32 plus one", "§17 Ex6: out of range"}, one("2147483648"), 0, false},
		{why{"2^32", "§17 Ex6: beyond uint32"}, one("4294967296"), 0, false},
		{why{"plus sign", "§8.7/§18.15: unsigned parser rejects +5"}, one("+5"), 0, false},
		{why{"empty", "§8.7: \"\" rejected"}, one(""), 0, false},
		{why{"space", "§8.7: spaces rejected"}, one(" 5"), 0, false},
		{why{"underscore", "§8.7: base-10 parse rejects separators"}, one("1_0"), 0, false},
		{why{"leading zeros", "§8.7: decimal digits, \"007\" is 7"}, one("007"), 7, true},
		{why{"nil map", "nil map is empty"}, nil, 0, false},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		got, ok := NonNegativeInt32Annotation(c.ann, key)
		if got != c.want || ok != c.wantOK {
			t.Fatalf("NonNegativeInt32Annotation = (%d, %v), want (%d, %v)", got, ok, c.want, c.wantOK)
		}
	})
}
