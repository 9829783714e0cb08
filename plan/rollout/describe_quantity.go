package rollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
)

// quantityText is a resource quantity as the template document writes it:
// a JSON string or number, kept as text.
type quantityText string

func (q *quantityText) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*q = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*q = quantityText(strings.TrimSpace(s))
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("quantity %s: not a string or a number", b)
	}
	*q = quantityText(n.String())
	return nil
}

// quantity is a resource quantity held as the Kubernetes resource package
// holds it after parsing, since its ScaledValue (what kubectl resolves
// resource fields with) depends on the representation: either a scaled
// int64 (small is true: value × 10^scale, not normalized), or an
// arbitrary-precision decimal (unscaled × 10^-decScale) whose magnitude
// was rounded up to whole nano units (decScale 9) and, for binary
// suffixes, capped at the int64 maximum (decScale 0).
type quantity struct {
	small    bool
	value    int64
	scale    int
	unscaled *big.Int
	decScale int
}

var errQuantity = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")

// maxExponent bounds the decimal exponents accepted: the resource package
// builds 10^exponent, which for larger exponents takes unbounded time and
// memory.
const maxExponent = 1000

var bigTen = big.NewInt(10)

func pow10(n int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

// parseQuantity parses a quantity as the resource package's ParseQuantity:
// an optional sign, digits with an optional fraction, and a decimal SI
// suffix (n, u, m, k, M, G, T, P, E), a binary one (Ki … Ei) or a decimal
// exponent (e3, E-2). An empty string is zero.
func parseQuantity(text string) (quantity, error) {
	zero := quantity{small: true}
	s := text
	if s == "" || s == "0" {
		return zero, nil
	}
	negative := false
	switch s[0] {
	case '-':
		negative = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if strings.TrimLeft(s, "0") == "" {
		// Only zeros: the resource package stops here.
		return zero, nil
	}
	num := strings.TrimLeft(s[:i], "0")
	if num == "" {
		num = "0"
	}
	rest := s[i:]
	denom := ""
	if strings.HasPrefix(rest, ".") {
		j := 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		denom, rest = rest[1:j], rest[j:]
	}
	// The suffix: letters of the suffix alphabet, then an optional sign
	// and digits.
	j := 0
	for j < len(rest) && strings.IndexByte("eEinumkKMGTP", rest[j]) >= 0 {
		j++
	}
	k := j
	if k < len(rest) && (rest[k] == '-' || rest[k] == '+') {
		k++
	}
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if k != len(rest) {
		return quantity{}, errQuantity
	}
	exponent, binary, err := quantitySuffix(rest)
	if err != nil {
		return quantity{}, err
	}
	if q, ok := smallQuantity(num, denom, exponent, binary, negative); ok {
		return q, nil
	}
	// The decimal form: digits × 10^-len(denom) × base^exponent, the
	// magnitude rounded up to nano units.
	u, _ := new(big.Int).SetString(num+denom, 10)
	fraction := len(denom)
	if binary {
		u.Lsh(u, uint(exponent))
	} else {
		fraction -= exponent
	}
	// Now |value| = u × 10^-fraction; round up to 9 fractional digits.
	if u.Sign() != 0 {
		if fraction <= 9 {
			u.Mul(u, pow10(9-fraction))
		} else {
			d := pow10(fraction - 9)
			var r big.Int
			u.QuoRem(u, d, &r)
			if r.Sign() != 0 {
				u.Add(u, big.NewInt(1))
			}
		}
		fraction = 9
	}
	q := quantity{unscaled: u, decScale: fraction}
	if binary && u.Cmp(new(big.Int).Mul(big.NewInt(math.MaxInt64), pow10(9))) > 0 {
		q = quantity{unscaled: big.NewInt(math.MaxInt64)}
	}
	if negative {
		q.unscaled.Neg(q.unscaled)
	}
	return q, nil
}

// smallQuantity is the resource package's scaled-int64 form of a quantity,
// when it uses it: few enough digits for the suffix, no fraction below
// nano units, and (for binary suffixes) no fraction and a product that
// fits.
func smallQuantity(num, denom string, exponent int, binary, negative bool) (quantity, bool) {
	var value int64
	scale := 0
	if binary {
		if denom != "" || 15-len(num)-int(float32(exponent)*3/10)-1 < 0 {
			return quantity{}, false
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || (n != 0 && n > math.MaxInt64>>exponent) {
			return quantity{}, false
		}
		value = n << exponent
	} else {
		scale = exponent - len(denom)
		if 18-len(num)-len(denom) < 0 || scale < -9 {
			return quantity{}, false
		}
		n, err := strconv.ParseInt(num+denom, 10, 64)
		if err != nil {
			return quantity{}, false
		}
		value = n
	}
	if negative {
		value = -value
	}
	return quantity{small: true, value: value, scale: scale}, true
}

// quantitySuffix interprets a quantity suffix: the exponent it multiplies
// by (of 2 for binary suffixes, of 10 for the others), and whether it is
// binary.
func quantitySuffix(s string) (exponent int, binary bool, err error) {
	switch s {
	case "n":
		return -9, false, nil
	case "u":
		return -6, false, nil
	case "m":
		return -3, false, nil
	case "":
		return 0, false, nil
	case "k":
		return 3, false, nil
	case "M":
		return 6, false, nil
	case "G":
		return 9, false, nil
	case "T":
		return 12, false, nil
	case "P":
		return 15, false, nil
	case "E":
		return 18, false, nil
	case "Ki":
		return 10, true, nil
	case "Mi":
		return 20, true, nil
	case "Gi":
		return 30, true, nil
	case "Ti":
		return 40, true, nil
	case "Pi":
		return 50, true, nil
	case "Ei":
		return 60, true, nil
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		e, perr := strconv.ParseInt(s[1:], 10, 64)
		if perr != nil {
			return 0, false, errors.New("unable to parse quantity's suffix")
		}
		if e < -maxExponent || e > maxExponent {
			return 0, false, fmt.Errorf("quantity exponent %d beyond ±%d: %w", e, maxExponent, ErrUnsupported)
		}
		return int(e), false, nil
	}
	return 0, false, errors.New("unable to parse quantity's suffix")
}

// Sign is -1, 0 or 1.
func (q quantity) Sign() int {
	if q.small {
		switch {
		case q.value > 0:
			return 1
		case q.value < 0:
			return -1
		}
		return 0
	}
	return q.unscaled.Sign()
}

// int64Of is the low 64 bits of x's magnitude with x's sign, as the
// resource package reads a big integer that does not fit an int64.
func int64Of(x *big.Int) int64 {
	var low uint64
	if words := new(big.Int).Abs(x).Bits(); len(words) > 0 {
		low = uint64(words[0])
		if strconv.IntSize == 32 && len(words) > 1 {
			low |= uint64(words[1]) << 32
		}
	}
	v := int64(low)
	if x.Sign() < 0 {
		v = -v
	}
	return v
}

// scaled is the resource package's ScaledValue: the value in units of
// 10^scale (scale -3 for millis), rounded up, with the package's own
// arithmetic wherever it departs from exact rounding: a scaled int64 is
// rounded away from zero and multiplied up with int64 wrap-around (or
// zero, for scale steps it multiplies one by one); a decimal is rounded
// by truncating and adding one (which for a negative value lands above
// the truncation), and read back with the low 64 bits where it does not
// fit.
func (q quantity) scaled(scale int) int64 {
	if q.small {
		if q.scale < scale {
			return scaleDownInt64(q.value, scale-q.scale)
		}
		return scaleUpInt64(q.value, q.scale-scale)
	}
	dif := q.decScale + scale // the decimal's scale minus the wanted one
	switch {
	case dif == 0:
		return int64Of(q.unscaled)
	case dif < 0:
		return int64Of(q.unscaled) * int64(math.Pow10(-dif))
	case q.unscaled.Cmp(big.NewInt(math.MaxInt64)) < 0 && dif < 19:
		u, d := int64Of(q.unscaled), int64(math.Pow10(dif))
		if u%d != 0 {
			return u/d + 1
		}
		return u / d
	}
	r := new(big.Int)
	n, _ := new(big.Int).DivMod(q.unscaled, pow10(dif), r)
	if r.Sign() != 0 {
		return int64Of(n) + 1
	}
	return int64Of(n)
}

// scaleDownInt64 divides v by 10^steps, rounding away from zero, as the
// resource package does (a value that reaches zero with a fraction left
// is one away from zero).
func scaleDownInt64(v int64, steps int) int64 {
	base, fraction := v, false
	for range steps {
		if !fraction && v%10 != 0 {
			fraction = true
		}
		v /= 10
		if v == 0 {
			break
		}
	}
	if fraction {
		if base > 0 {
			return v + 1
		}
		return v - 1
	}
	return v
}

// scaleUpInt64 multiplies v by 10^steps as the resource package does: by
// 10, 100, 1000, 10^6 or 10^9 at once with int64 wrap-around, or by 10 at a
// time giving zero on the first overflow.
func scaleUpInt64(v int64, steps int) int64 {
	mul := func(a, b int64) (int64, bool) {
		if a == 0 || a == 1 {
			return a * b, true
		}
		if a == math.MinInt64 {
			return 0, false
		}
		c := a * b
		return c, c/b == a
	}
	switch steps {
	case 0:
		return v
	case 1, 2, 3, 6, 9:
		c, _ := mul(v, int64(math.Pow10(steps)))
		return c
	}
	for range steps {
		var ok bool
		if v, ok = mul(v, 10); !ok {
			return 0
		}
	}
	return v
}

// containerResourceValue is kubectl's ExtractContainerResourceValue with
// its describer's touches: the container's limit or request named by
// resource (cpu in millis, memory, ephemeral storage and huge pages in
// units), divided by the divisor (zero means one) and rounded up, through
// the same float64 arithmetic; "node allocatable" for a zero cpu or memory
// limit; the empty string for a resource kubectl does not resolve.
func containerResourceValue(resource string, divisor quantityText, res resourcesDoc) (string, error) {
	div, err := parseQuantity(string(divisor))
	if err != nil {
		return "", quantityError("divisor", divisor, err)
	}
	if div.Sign() == 0 {
		div = quantity{small: true, value: 1}
	}
	list, name, ok := res.Requests, strings.TrimPrefix(resource, "requests."), true
	if strings.HasPrefix(resource, "limits.") {
		list, name = res.Limits, strings.TrimPrefix(resource, "limits.")
	} else if !strings.HasPrefix(resource, "requests.") {
		ok = false
	}
	scale := 0
	switch {
	case !ok:
		return "", nil
	case name == "cpu":
		scale = -3
	case name == "memory", name == "ephemeral-storage", strings.HasPrefix(name, "hugepages-"):
	default:
		return "", nil
	}
	amount, err := parseQuantity(string(list[name]))
	if err != nil {
		return "", quantityError(resource, list[name], err)
	}
	value := strconv.FormatInt(int64(math.Ceil(float64(amount.scaled(scale))/float64(div.scaled(scale)))), 10)
	if value == "0" && (resource == "limits.cpu" || resource == "limits.memory") {
		value = "node allocatable"
	}
	return value, nil
}

// quantityError is the error for a quantity kubectl could not have read:
// its decoder fails on the template (a field error), or building its value
// would not end (ErrUnsupported).
func quantityError(what string, q quantityText, err error) error {
	if errors.Is(err, ErrUnsupported) {
		return fmt.Errorf("%s %q: %w", what, q, err)
	}
	return &model.FieldError{Field: what, Detail: fmt.Sprintf("quantity %q: %v", q, err)}
}
