package proportion

import (
	"errors"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// fuzzValue builds an IntOrString from fuzzer input; typ beyond the two known
// types exercises ErrUnknownType.
func fuzzValue(typ uint8, i int32, s string) *model.IntOrString {
	return &model.IntOrString{Type: model.IntOrStringType(typ % 3), IntVal: i, StrVal: s}
}

// sentinels lists the errors every failure must wrap one of.
var sentinels = []error{ErrNil, ErrNotPercentage, ErrBadPercentage, ErrUnknownType, ErrOutOfRange, ErrUnsupportedStrategy}

func checkErr(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, model.ErrInvalid) {
		t.Fatalf("error %v does not match model.ErrInvalid", err)
	}
	n := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("error %v matches %d sentinels, want 1", err, n)
	}
}

func FuzzScaledValue(f *testing.F) {
	f.Add(uint8(1), int32(0), "25%", int32(10), true)
	f.Add(uint8(0), int32(-3), "", int32(10), false)
	f.Add(uint8(1), int32(0), "-5%", int32(10), false)
	f.Add(uint8(2), int32(0), "7%", int32(1), true)
	f.Fuzz(func(t *testing.T, typ uint8, i int32, s string, total int32, roundUp bool) {
		v := fuzzValue(typ, i, s)
		got, err := ScaledValue(v, total, roundUp)
		if err != nil {
			checkErr(t, err)
			if got != 0 {
				t.Fatalf("value %d returned with error %v", got, err)
			}
			return
		}
		switch v.Type {
		case model.Int:
			if got != i {
				t.Fatalf("integer %d resolved to %d", i, got)
			}
		case model.String:
			n, aerr := strconv.ParseInt(strings.TrimSuffix(s, "%"), 10, 64)
			if !strings.HasSuffix(s, "%") || aerr != nil {
				t.Fatalf("%q accepted, but it is not an Atoi percentage", s)
			}
			if runtime.GOARCH == "amd64" {
				if want := nativeScaled(n, total, roundUp); int64(got) != want {
					t.Fatalf("%q of %d = %d, upstream's formula %d", s, total, got, want)
				}
			}
			// The other rounding differs by at most one.
			other, err := ScaledValue(v, total, !roundUp)
			if err == nil {
				lo, hi := min(got, other), max(got, other)
				if hi-lo > 1 || roundUp && got != hi || !roundUp && got != lo {
					t.Fatalf("%q of %d: up/down give %d and %d", s, total, got, other)
				}
			}
			if _, perr := model.ParsePercent(s); perr == nil && total >= 0 && got < 0 {
				t.Fatalf("valid %q of %d resolved negative: %d", s, total, got)
			}
		default:
			t.Fatalf("type %d accepted", v.Type)
		}
	})
}

func FuzzResolveFenceposts(f *testing.F) {
	f.Add(uint8(1), int32(0), "25%", uint8(1), int32(0), "25%", int32(10))
	f.Add(uint8(0), int32(0), "", uint8(0), int32(0), "", int32(0))
	f.Add(uint8(1), int32(0), "oops", uint8(1), int32(0), "39%", int32(10))
	f.Add(uint8(1), int32(0), "3000000000%", uint8(0), int32(1), "", int32(100))
	f.Fuzz(func(t *testing.T, st uint8, si int32, ss string, ut uint8, ui int32, us string, desired int32) {
		surge, unav := fuzzValue(st, si, ss), fuzzValue(ut, ui, us)
		s, u, err := ResolveFenceposts(surge, unav, desired)
		rs, serr := ScaledValue(surge, desired, true)
		ru, uerr := ScaledValue(unav, desired, false)
		if err != nil {
			checkErr(t, err)
			var ve *ValueError
			if !errors.As(err, &ve) || ve.Field != FieldMaxSurge && ve.Field != FieldMaxUnavailable {
				t.Fatalf("error %v names no fencepost", err)
			}
			// A value beyond int32 is narrowed, never an error.
			surgeOK := serr == nil || errors.Is(serr, ErrOutOfRange)
			unavOK := uerr == nil || errors.Is(uerr, ErrOutOfRange)
			if ve.Field == FieldMaxSurge && surgeOK || ve.Field == FieldMaxUnavailable && (!surgeOK || unavOK) {
				t.Fatalf("error on %s, but ScaledValue errors are %v / %v", ve.Field, serr, uerr)
			}
			if s != 0 || u != 0 {
				t.Fatalf("values (%d, %d) returned with error", s, u)
			}
			return
		}
		if serr != nil && !errors.Is(serr, ErrOutOfRange) || uerr != nil && !errors.Is(uerr, ErrOutOfRange) {
			t.Fatalf("ResolveFenceposts accepted what ScaledValue rejects: %v / %v", serr, uerr)
		}
		// Upstream's int32(...) narrowing of the Go ints.
		ws, _ := scaled(surge, desired, true, "")
		wu, _ := scaled(unav, desired, false, "")
		if ws == 0 && wu == 0 {
			wu = 1
		}
		if s != int32(ws) || u != int32(wu) || serr == nil && s != rs || uerr == nil && wu != 1 && u != ru {
			t.Fatalf("(%d, %d), want (%d, %d)", s, u, int32(ws), int32(wu))
		}
		fits := serr == nil && uerr == nil
		valid := validFencepost(surge, math.MaxInt32) && validFencepost(unav, 100)
		if fits && valid && desired >= 0 && (s < 0 || u < 0 || s == 0 && u == 0) {
			t.Fatalf("valid %v/%v of %d gave (%d, %d)", surge, unav, desired, s, u)
		}
	})
}

// validFencepost is the apps/v1 rule: a non-negative integer, or a
// percentage of digits at most maxPercent.
func validFencepost(v *model.IntOrString, maxPercent int64) bool {
	switch v.Type {
	case model.Int:
		return v.IntVal >= 0
	case model.String:
		n, err := model.ParsePercent(v.StrVal)
		return err == nil && n <= maxPercent
	}
	return false
}

func FuzzNonNegativeInt32Annotation(f *testing.F) {
	for _, s := range []string{"0", "13", "-1", "+5", "2147483648", "", "007"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := NonNegativeInt32Annotation(map[string]string{"k": s}, "k")
		digits := s != "" && strings.Trim(s, "0123456789") == ""
		if !ok {
			if got != 0 {
				t.Fatalf("%q: (%d, false)", s, got)
			}
			if n, err := strconv.ParseInt(s, 10, 64); digits && err == nil && n <= math.MaxInt32 {
				t.Fatalf("%q rejected", s)
			}
			return
		}
		if !digits || got < 0 || strconv.Itoa(int(got)) != strings.TrimLeft(s, "0") && !(got == 0 && strings.Trim(s, "0") == "") {
			t.Fatalf("%q accepted as %d", s, got)
		}
	})
}
