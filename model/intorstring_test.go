package model_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestParseIntOrString(t *testing.T) {
	type c struct {
		tc
		in   string
		want model.IntOrString
	}
	runCases(t, []c{
		{tc{"int", "intstr.Parse: a decimal that fits int32 is an integer"}, "3", model.FromInt(3)},
		{tc{"zero", "intstr.Parse: 0 is the integer 0 (maxSurge: 0)"}, "0", model.FromInt(0)},
		{tc{"percent", "the Deployment fields upstream reads: percentages such as 25% are string values"}, "25%", model.FromString("25%")},
		{tc{"zero percent", "apps/v1 validation: 0% is a string value, literally zero"}, "0%", model.FromString("0%")},
		{tc{"negative int", "intstr.Parse uses strconv.ParseInt, which accepts a sign; validation rejects it later"}, "-5", model.FromInt(-5)},
		{tc{"plus sign", "strconv.ParseInt accepts a leading '+'"}, "+5", model.FromInt(5)},
		{tc{"leading zeros", "strconv.ParseInt base 10 accepts leading zeros"}, "007", model.FromInt(7)},
		{tc{"max int32", "int32 upper bound still an integer"}, "2147483647", model.FromInt(2147483647)},
		{tc{"min int32", "int32 lower bound still an integer"}, "-2147483648", model.FromInt(-2147483648)},
		{tc{"above int32", "intstr.Parse: out of int32 range falls back to a string"}, "2147483648", model.FromString("2147483648")},
		{tc{"below int32", "intstr.Parse: out of int32 range falls back to a string"}, "-2147483649", model.FromString("-2147483649")},
		{tc{"empty", "intstr.Parse never fails: unparsable text is a string"}, "", model.FromString("")},
		{tc{"space", "no trimming: ' 3' is not a decimal"}, " 3", model.FromString(" 3")},
		{tc{"hex", "base 10 only"}, "0x10", model.FromString("0x10")},
		{tc{"fraction", "only integers become Int"}, "1.5", model.FromString("1.5")},
		{tc{"garbage percent", "decided at validation, not parsing (apps/v1 validation)"}, "12x%", model.FromString("12x%")},
	}, func(t *testing.T, c c) {
		got := model.ParseIntOrString(c.in)
		if got != c.want {
			t.Fatalf("ParseIntOrString(%q) = %#v, want %#v", c.in, got, c.want)
		}
		if got.Type == model.Int && model.ParseIntOrString(got.String()) != got {
			t.Fatalf("String() %q does not parse back to %#v", got.String(), got)
		}
	})
}

func TestIntOrStringString(t *testing.T) {
	type c struct {
		tc
		in   model.IntOrString
		want string
	}
	runCases(t, []c{
		{tc{"int", "written as in a manifest: a bare number"}, model.FromInt(3), "3"},
		{tc{"negative", "bare number with sign"}, model.FromInt(-3), "-3"},
		{tc{"percent", "written as in a manifest: the string"}, model.FromString("25%"), "25%"},
		{tc{"zero value", "the zero IntOrString is the integer 0 (type doc)"}, model.IntOrString{}, "0"},
		{tc{"numeric string", "a String value is printed as is"}, model.FromString("5"), "5"},
	}, func(t *testing.T, c c) {
		if got := c.in.String(); got != c.want {
			t.Fatalf("%#v.String() = %q, want %q", c.in, got, c.want)
		}
	})
}

func TestIntOrStringMarshalJSON(t *testing.T) {
	type c struct {
		tc
		in   model.IntOrString
		want string
	}
	runCases(t, []c{
		{tc{"int", "apps/v1 IntOrString marshals an integer as a JSON number"}, model.FromInt(5), `5`},
		{tc{"negative int", "JSON number"}, model.FromInt(-3), `-3`},
		{tc{"zero value", "zero value is the integer 0"}, model.IntOrString{}, `0`},
		{tc{"percent", "apps/v1 IntOrString marshals a string as a JSON string"}, model.FromString("25%"), `"25%"`},
		{tc{"numeric string stays string", "the type survives the wire: \"5\" is not 5"}, model.FromString("5"), `"5"`},
		{tc{"html not special", "a JSON string; the exact escaping is encoding/json's"}, model.FromString("a<b"), `"a\u003cb"`},
	}, func(t *testing.T, c c) {
		b, err := json.Marshal(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Fatalf("json.Marshal(%#v) = %s, want %s", c.in, b, c.want)
		}
		var back model.IntOrString
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if back != c.in {
			t.Fatalf("round trip %#v -> %s -> %#v", c.in, b, back)
		}
	})
}

func TestIntOrStringUnmarshalJSON(t *testing.T) {
	type c struct {
		tc
		in      string
		want    model.IntOrString
		wantErr bool
	}
	runCases(t, []c{
		{tc{"number", "apps/v1: a JSON number is an Int"}, `5`, model.FromInt(5), false},
		{tc{"negative number", "apps/v1: a JSON number is an Int; sign is allowed"}, `-5`, model.FromInt(-5), false},
		{tc{"max int32", "fits int32"}, `2147483647`, model.FromInt(2147483647), false},
		{tc{"min int32", "fits int32"}, `-2147483648`, model.FromInt(-2147483648), false},
		{tc{"string percent", "apps/v1: a JSON string is a String"}, `"25%"`, model.FromString("25%"), false},
		{tc{"numeric string", "a JSON string is a String even if it looks like a number"}, `"5"`, model.FromString("5"), false},
		{tc{"escaped string", "JSON escapes are decoded"}, `"2\u0035%"`, model.FromString("25%"), false},
		{tc{"empty string", "an empty JSON string is a String; validation rejects it later"}, `""`, model.FromString(""), false},
		{tc{"above int32", "apps/v1 IntVal is int32: 2^31 does not fit"}, `2147483648`, model.IntOrString{}, true},
		{tc{"below int32", "apps/v1 IntVal is int32"}, `-2147483649`, model.IntOrString{}, true},
		{tc{"fraction", "apps/v1 IntVal is an integer"}, `1.5`, model.IntOrString{}, true},
		{tc{"integral float", "1.0 is not an int32 literal for encoding/json either"}, `1.0`, model.IntOrString{}, true},
		{tc{"exponent", "1e3 is not an int32 literal for encoding/json"}, `1e3`, model.IntOrString{}, true},
		{tc{"bool", "neither a string nor a number"}, `true`, model.IntOrString{}, true},
		{tc{"object", "neither a string nor a number"}, `{}`, model.IntOrString{}, true},
		{tc{"array", "neither a string nor a number"}, `[1]`, model.IntOrString{}, true},
		{tc{"garbage", "not JSON"}, `25%`, model.IntOrString{}, true},
		{tc{"null is a no-op", "encoding/json convention: UnmarshalJSON(null) leaves the value alone"}, `null`, model.IntOrString{}, false},
	}, func(t *testing.T, c c) {
		var got model.IntOrString
		err := json.Unmarshal([]byte(c.in), &got)
		if (err != nil) != c.wantErr {
			t.Fatalf("json.Unmarshal(%s) error = %v, wantErr %v", c.in, err, c.wantErr)
		}
		if err == nil && got != c.want {
			t.Fatalf("json.Unmarshal(%s) = %#v, want %#v", c.in, got, c.want)
		}
		// The method called directly agrees with encoding/json.
		var direct model.IntOrString
		derr := direct.UnmarshalJSON([]byte(c.in))
		if (derr != nil) != c.wantErr || (derr == nil && direct != c.want) {
			t.Fatalf("UnmarshalJSON(%s) = %#v, %v; want %#v, wantErr %v", c.in, direct, derr, c.want, c.wantErr)
		}
	})
}

// TestIntOrStringJSONInStruct checks the wire form of a whole rollingUpdate
// block, where the fields are pointers (absent ⇒ nil, as apps/v1).
func TestIntOrStringJSONInStruct(t *testing.T) {
	in := `{"maxUnavailable":0,"maxSurge":"25%"}`
	var ru model.RollingUpdate
	if err := json.Unmarshal([]byte(in), &ru); err != nil {
		t.Fatal(err)
	}
	want := model.RollingUpdate{MaxUnavailable: ioi(0), MaxSurge: ios("25%")}
	if d := cmp.Diff(want, ru); d != "" {
		t.Fatalf("decoded rollingUpdate (-want +got):\n%s", d)
	}
	out, err := json.Marshal(ru)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("re-encoded %s, want %s", out, in)
	}
	var empty model.RollingUpdate
	if err := json.Unmarshal([]byte(`{"maxSurge":null}`), &empty); err != nil || empty.MaxSurge != nil {
		t.Fatalf("null maxSurge: %v, %#v", err, empty.MaxSurge)
	}
	// A value (non-pointer) field set to null stays as it was.
	var holder struct{ V model.IntOrString }
	holder.V = model.FromString("10%")
	if err := json.Unmarshal([]byte(`{"V":null}`), &holder); err != nil || holder.V != model.FromString("10%") {
		t.Fatalf("null into a value field: %v, %#v", err, holder.V)
	}
	if err := json.Unmarshal([]byte(`{"maxSurge":1.5}`), &empty); err == nil || !strings.Contains(err.Error(), "1.5") {
		t.Fatalf("bad maxSurge: error %v should name the value", err)
	}
}

func TestIsZeroLiteral(t *testing.T) {
	type c struct {
		tc
		in   model.IntOrString
		want bool
	}
	runCases(t, []c{
		{tc{"int zero", "apps/v1 validation: 0 is literally zero"}, model.FromInt(0), true},
		{tc{"zero value", "the zero IntOrString is the integer 0"}, model.IntOrString{}, true},
		{tc{"int one", "apps/v1 validation: non-zero"}, model.FromInt(1), false},
		{tc{"negative", "non-zero (invalid, but not zero)"}, model.FromInt(-1), false},
		{tc{"zero percent", "apps/v1 validation: 0% is literally zero"}, model.FromString("0%"), true},
		{tc{"double zero percent", "apps/v1 getPercentValue: 00% matches ^[0-9]+%$ and is 0; validation treats it as zero"}, model.FromString("00%"), true},
		{tc{"one percent", "apps/v1 validation: 1% only rounds to zero, it is not literally zero"}, model.FromString("1%"), false},
		{tc{"ten percent", "upstream TestResolveFenceposts: rounds to zero with few replicas but is allowed"}, model.FromString("10%"), false},
		{tc{"string zero without percent", "not a valid percentage, so not a zero percentage"}, model.FromString("0"), false},
		{tc{"empty string", "not a number at all"}, model.FromString(""), false},
		{tc{"fraction", "not a valid percentage"}, model.FromString("0.0%"), false},
	}, func(t *testing.T, c c) {
		if got := c.in.IsZeroLiteral(); got != c.want {
			t.Fatalf("%#v.IsZeroLiteral() = %v, want %v", c.in, got, c.want)
		}
	})
}

func TestParsePercent(t *testing.T) {
	type c struct {
		tc
		in      string
		want    int64
		wantErr bool
	}
	runCases(t, []c{
		{tc{"25", "apps/v1 IsValidPercent ^[0-9]+%$"}, "25%", 25, false},
		{tc{"0", "apps/v1 IsValidPercent"}, "0%", 0, false},
		{tc{"00", "leading zeros match ^[0-9]+%$"}, "00%", 0, false},
		{tc{"150", "no upper bound here; maxUnavailable's 100% cap is a separate rule"}, "150%", 150, false},
		{tc{"bare percent", "needs at least one digit"}, "%", 0, true},
		{tc{"no percent", "must end in %"}, "5", 0, true},
		{tc{"minus", "signs rejected"}, "-5%", 0, true},
		{tc{"plus", "signs rejected"}, "+5%", 0, true},
		{tc{"letters", "digits only"}, "12x%", 0, true},
		{tc{"space", "no spaces"}, " 5%", 0, true},
		{tc{"fraction", "no fractions"}, "5.5%", 0, true},
		{tc{"double percent", "exactly one trailing %"}, "5%%", 0, true},
		{tc{"empty", "empty is not a percentage"}, "", 0, true},
	}, func(t *testing.T, c c) {
		got, err := model.ParsePercent(c.in)
		if (err != nil) != c.wantErr || got != c.want {
			t.Fatalf("ParsePercent(%q) = %d, %v; want %d, wantErr %v", c.in, got, err, c.want, c.wantErr)
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error message")
		}
	})
}
