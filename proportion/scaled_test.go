package proportion

import (
	"errors"
	"math"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestScaledValue(t *testing.T) {
	type tc struct {
		why
		v       *model.IntOrString
		total   int32
		roundUp bool
		want    int32
		err     error
	}
	odd := model.IntOrString{Type: 7, StrVal: "25%"}
	cases := []tc{
		{why: why{"int is returned as is", "upstream GetScaledValueFromIntOrPercent: an Int is not scaled"}, v: intv(7), total: 10, roundUp: true, want: 7},
		{why: why{"negative int passes through", "upstream GetScaledValueFromIntOrPercent: only validation rejects negatives"}, v: intv(-3), total: 10, want: -3},
		{why: why{"25% of 10 up", "upstream GetScaledValueFromIntOrPercent: ceil(2.5) = 3"}, v: strv("25%"), total: 10, roundUp: true, want: 3},
		{why: why{"25% of 10 down", "upstream GetScaledValueFromIntOrPercent: floor(2.5) = 2"}, v: strv("25%"), total: 10, want: 2},
		{why: why{"25% of 1 up", "upstream GetScaledValueFromIntOrPercent: ceil(0.25) = 1"}, v: strv("25%"), total: 1, roundUp: true, want: 1},
		{why: why{"25% of 3 down", "upstream GetScaledValueFromIntOrPercent: floor(0.75) = 0"}, v: strv("25%"), total: 3, want: 0},
		{why: why{"100% exact", "upstream GetScaledValueFromIntOrPercent: 100% of 7 is 7 either way"}, v: strv("100%"), total: 7, want: 7},
		{why: why{"plus sign accepted", "upstream GetScaledValueFromIntOrPercent atoi: \"+5%\" parses as 5; 5% of 100 = 5"}, v: strv("+5%"), total: 100, roundUp: true, want: 5},
		{why: why{"minus sign up", "upstream GetScaledValueFromIntOrPercent atoi: −5% of 10 = −0.5, ceil → 0"}, v: strv("-5%"), total: 10, roundUp: true, want: 0},
		{why: why{"minus sign down", "upstream GetScaledValueFromIntOrPercent atoi: −5% of 10 = −0.5, floor → −1"}, v: strv("-5%"), total: 10, want: -1},
		{why: why{"leading zeros", "upstream GetScaledValueFromIntOrPercent atoi: \"007%\" is 7; 7% of 100 = 7"}, v: strv("007%"), total: 100, want: 7},
		{why: why{"negative total up", "upstream GetScaledValueFromIntOrPercent float ceil: 25% of −10 = −2.5 → −2"}, v: strv("25%"), total: -10, roundUp: true, want: -2},
		{why: why{"negative total down", "upstream GetScaledValueFromIntOrPercent float floor: 25% of −10 = −2.5 → −3"}, v: strv("25%"), total: -10, want: -3},
		{why: why{"largest int32 result", "upstream GetScaledValueFromIntOrPercent: 2147483647% of 100 = 2147483647 fits"}, v: strv("2147483647%"), total: 100, want: math.MaxInt32},
		{why: why{"100% of MinInt32", "upstream GetScaledValueFromIntOrPercent: −2147483648 fits"}, v: strv("100%"), total: math.MinInt32, want: math.MinInt32},
		{why: why{"-1% of MinInt32 up", "upstream GetScaledValueFromIntOrPercent: 21474836.48 → ceil 21474837"}, v: strv("-1%"), total: math.MinInt32, roundUp: true, want: 21474837},
		{why: why{"huge percent of zero", "upstream GetScaledValueFromIntOrPercent: n·0/100 = 0 even for n near 2^63"}, v: strv("9223372036854775807%"), total: 0, want: 0},
		{why: why{"just out of range", "ScaledValue doc: 2147483648% of 100 does not fit int32"}, v: strv("2147483648%"), total: 100, err: ErrOutOfRange},
		{why: why{"negative out of range", "ScaledValue doc: −100% of MinInt32 = 2^31 does not fit"}, v: strv("-100%"), total: math.MinInt32, err: ErrOutOfRange},
		{why: why{"float path out of range", "ScaledValue doc: (2^63−1)% of 1 is far beyond int32"}, v: strv("9223372036854775807%"), total: 1, roundUp: true, err: ErrOutOfRange},
		{why: why{"nil", "upstream GetScaledValueFromIntOrPercent: nil value for IntOrString"}, v: nil, total: 10, err: ErrNil},
		{why: why{"no percent sign", "upstream GetScaledValueFromIntOrPercent: \"5\" is not a percentage"}, v: strv("5"), total: 10, err: ErrNotPercentage},
		{why: why{"oops", "upstream TestResolveFenceposts: \"oops\" is not a percentage"}, v: strv("oops"), total: 10, err: ErrNotPercentage},
		{why: why{"empty string", "upstream GetScaledValueFromIntOrPercent: \"\" has no % suffix"}, v: strv(""), total: 10, err: ErrNotPercentage},
		{why: why{"bare percent", "upstream GetScaledValueFromIntOrPercent atoi(\"\") fails"}, v: strv("%"), total: 10, err: ErrBadPercentage},
		{why: why{"double percent", "upstream GetScaledValueFromIntOrPercent: only one % is stripped, atoi(\"5%\") fails"}, v: strv("5%%"), total: 10, err: ErrBadPercentage},
		{why: why{"junk digits", "model doc: \"12x%\" is rejected"}, v: strv("12x%"), total: 10, err: ErrBadPercentage},
		{why: why{"space", "atoi rejects spaces"}, v: strv(" 5%"), total: 10, err: ErrBadPercentage},
		{why: why{"underscore", "atoi (base 10) rejects digit separators"}, v: strv("1_0%"), total: 10, err: ErrBadPercentage},
		{why: why{"fraction", "atoi rejects \"2.5\""}, v: strv("2.5%"), total: 10, err: ErrBadPercentage},
		{why: why{"beyond int64", "atoi range error on 64-bit"}, v: strv("9223372036854775808%"), total: 0, err: ErrBadPercentage},
		{why: why{"unknown type", "upstream: neither int nor percentage"}, v: &odd, total: 10, err: ErrUnknownType},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		got, err := ScaledValue(c.v, c.total, c.roundUp)
		if c.err != nil {
			if !errors.Is(err, c.err) || !errors.Is(err, model.ErrInvalid) {
				t.Fatalf("ScaledValue = (%d, %v), want error %v (and model.ErrInvalid)", got, err, c.err)
			}
			if got != 0 {
				t.Errorf("value with error = %d, want 0", got)
			}
			return
		}
		if err != nil || got != c.want {
			t.Fatalf("ScaledValue = (%d, %v), want %d", got, err, c.want)
		}
	})
}

func TestValueErrorMessage(t *testing.T) {
	_, _, err := ResolveFenceposts(strv("12x%"), nil, 10)
	const want = `spec.strategy.rollingUpdate.maxSurge: invalid value "12x%": percentage is not an integer`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %s", err, want)
	}
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Field != FieldMaxSurge || ve.Value != "12x%" || ve.Err != ErrBadPercentage {
		t.Fatalf("errors.As gave %+v", ve)
	}
	_, err = ScaledValue(strv("5"), 10, true)
	if err == nil || err.Error() != `invalid value "5": string is not a percentage` {
		t.Fatalf("ScaledValue error without a field = %v", err)
	}
}

func TestResolveFenceposts(t *testing.T) {
	type tc struct {
		why
		surge, unav  *model.IntOrString
		desired      int32
		wantS, wantU int32
		err          error
		field        string
	}
	cases := []tc{
		{why: why{"0% 0% of 0", "upstream TestResolveFenceposts: both resolve to 0 ⇒ unavailable 1"}, surge: strv("0%"), unav: strv("0%"), desired: 0, wantS: 0, wantU: 1},
		{why: why{"39% 39% of 10", "upstream TestResolveFenceposts: ceil(3.9)=4, floor(3.9)=3"}, surge: strv("39%"), unav: strv("39%"), desired: 10, wantS: 4, wantU: 3},
		{why: why{"oops surge", "upstream TestResolveFenceposts: surge \"oops\" errors"}, surge: strv("oops"), unav: strv("39%"), desired: 10, err: ErrNotPercentage, field: FieldMaxSurge},
		{why: why{"urg unavailable", "upstream TestResolveFenceposts: unavailable \"urg\" errors"}, surge: strv("55%"), unav: strv("urg"), desired: 10, err: ErrNotPercentage, field: FieldMaxUnavailable},
		{why: why{"nil surge", "upstream TestResolveFenceposts: nil surge is 0; floor(3.9)=3"}, surge: nil, unav: strv("39%"), desired: 10, wantS: 0, wantU: 3},
		{why: why{"nil unavailable", "upstream TestResolveFenceposts: nil unavailable is 0; ceil(3.9)=4"}, surge: strv("39%"), unav: nil, desired: 10, wantS: 4, wantU: 0},
		{why: why{"nil nil", "upstream TestResolveFenceposts: both nil ⇒ (0, 1)"}, surge: nil, unav: nil, desired: 10, wantS: 0, wantU: 1},
		{why: why{"25% of 10", "upstream ResolveFenceposts: surge 3, unavailable 2"}, surge: strv("25%"), unav: strv("25%"), desired: 10, wantS: 3, wantU: 2},
		{why: why{"25% of 1", "upstream ResolveFenceposts: surge 1, unavailable 0"}, surge: strv("25%"), unav: strv("25%"), desired: 1, wantS: 1, wantU: 0},
		{why: why{"25% of 3", "upstream ResolveFenceposts: surge 1, unavailable 0"}, surge: strv("25%"), unav: strv("25%"), desired: 3, wantS: 1, wantU: 0},
		{why: why{"rounds to zero", "upstream ResolveFenceposts: maxSurge 0, maxUnavailable 10% of 5 = 0.5 → 0 ⇒ unavailable 1"}, surge: intv(0), unav: strv("10%"), desired: 5, wantS: 0, wantU: 1},
		{why: why{"surge beyond int32", "upstream ResolveFenceposts narrows with int32(): 3000000000 − 2^32 = −1294967296"}, surge: strv("3000000000%"), unav: nil, desired: 100, wantS: -1294967296, wantU: 0},
		{why: why{"unavailable beyond int32", "upstream ResolveFenceposts narrows with int32(): −3000000000 + 2^32 = 1294967296"}, surge: nil, unav: strv("-3000000000%"), desired: 100, wantS: 0, wantU: 1294967296},
		{why: why{"C4 regression: 2147483647% of 65536", "ceil(2147483647·65536/100) = 1407374882898; int32() keeps the low 32 bits: −1374390190, so upstream v1.36.3 wrote max-replicas 65536 − 1374390190 = \"-1374324654\""}, surge: strv("2147483647%"), unav: intv(0), desired: 65536, wantS: -1374390190, wantU: 0},
		{why: why{"both zero before narrowing", "upstream checks surge == 0 && unavailable == 0 on the ints: 4294967296 narrows to 0 but is not 0"}, surge: strv("4294967296%"), unav: intv(0), desired: 100, wantS: 0, wantU: 0},
		{why: why{"surge error wins", "upstream ResolveFenceposts: surge is resolved first"}, surge: strv("x"), unav: strv("y"), desired: 1, err: ErrNotPercentage, field: FieldMaxSurge},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		s, u, err := ResolveFenceposts(c.surge, c.unav, c.desired)
		if c.err != nil {
			var ve *ValueError
			if !errors.Is(err, c.err) || !errors.As(err, &ve) || ve.Field != c.field {
				t.Fatalf("ResolveFenceposts = (%d, %d, %v), want %v on %s", s, u, err, c.err, c.field)
			}
			if s != 0 || u != 0 {
				t.Errorf("values with error = (%d, %d), want (0, 0)", s, u)
			}
			return
		}
		if err != nil || s != c.wantS || u != c.wantU {
			t.Fatalf("ResolveFenceposts = (%d, %d, %v), want (%d, %d)", s, u, err, c.wantS, c.wantU)
		}
	})
}
