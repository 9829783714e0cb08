package model_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rolloutplan/rolloutplan/model"
)

// Seed corpora live in testdata/fuzz/<FuzzName>/; the f.Add calls below add
// the hand-picked cases of the table tests.

func FuzzParseIntOrString(f *testing.F) {
	for _, s := range []string{"0", "3", "-5", "+5", "007", "25%", "0%", "00%", "12x%", "%", "", " 3",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "1.5", "0x10", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := model.ParseIntOrString(s)
		n, perr := strconv.ParseInt(s, 10, 32)
		switch v.Type {
		case model.Int:
			if perr != nil || v.IntVal != int32(n) || v.StrVal != "" {
				t.Fatalf("ParseIntOrString(%q) = %#v", s, v)
			}
			if model.ParseIntOrString(v.String()) != v {
				t.Fatalf("%#v does not round trip through %q", v, v.String())
			}
		case model.String:
			if perr == nil || v.StrVal != s || v.IntVal != 0 || v.String() != s {
				t.Fatalf("ParseIntOrString(%q) = %#v", s, v)
			}
		default:
			t.Fatalf("ParseIntOrString(%q) has type %d", s, v.Type)
		}
		// IsZeroLiteral agrees with ParsePercent / the integer.
		pct, pctErr := model.ParsePercent(s)
		wantZero := (v.Type == model.Int && v.IntVal == 0) || (v.Type == model.String && pctErr == nil && pct == 0)
		if v.IsZeroLiteral() != wantZero {
			t.Fatalf("%#v.IsZeroLiteral() = %v", v, !wantZero)
		}
		if pctErr == nil {
			// Digits beyond int64 read as math.MaxInt64, as upstream's
			// Atoi-with-ignored-error does; strconv.ParseInt clamps alike.
			digits, hasPct := strings.CutSuffix(s, "%")
			want, err := strconv.ParseInt(digits, 10, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				want = -1 // not a number: ParsePercent should have failed
			}
			if !hasPct || digits == "" || strings.Trim(digits, "0123456789") != "" || pct != want {
				t.Fatalf("ParsePercent(%q) = %d", s, pct)
			}
		} else if pctErr.Error() == "" {
			t.Fatal("ParsePercent error without a message")
		}
		// JSON round trip (JSON cannot carry invalid UTF-8).
		if utf8.ValidString(s) {
			requireJSONRoundTrip(t, v)
		}
	})
}

func FuzzIntOrStringJSON(f *testing.F) {
	for _, s := range []string{`5`, `-5`, `0`, `"25%"`, `"5"`, `""`, `"2\u0035%"`, `2147483648`, `-2147483649`, `1.5`, `1e3`,
		`true`, `{}`, `[1]`, `null`, ` 7 `, `"\ud800"`, `"a`, `25%`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var direct model.IntOrString
		derr := direct.UnmarshalJSON(data)
		var v model.IntOrString
		err := json.Unmarshal(data, &v)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("error without a message")
			}
			return
		}
		// encoding/json only hands valid JSON to the method, which then agrees.
		if derr != nil || direct != v {
			t.Fatalf("UnmarshalJSON(%q) = %#v, %v; json.Unmarshal gave %#v", data, direct, derr, v)
		}
		if v.Type != model.Int && v.Type != model.String {
			t.Fatalf("decoded type %d", v.Type)
		}
		trimmed := bytes.TrimSpace(data)
		if v.Type == model.Int && !bytes.Equal(trimmed, []byte("null")) {
			if n, perr := strconv.ParseInt(string(trimmed), 10, 32); perr != nil || int32(n) != v.IntVal {
				t.Fatalf("%q decoded to int %d", data, v.IntVal)
			}
		}
		if v.Type == model.String && (len(trimmed) == 0 || trimmed[0] != '"') {
			t.Fatalf("%q decoded to a string without being one", data)
		}
		requireJSONRoundTrip(t, v)
	})
}

// FuzzSelectorMatches builds a selector from fuzz strings: a matchLabels pair,
// one expression (key, operator, comma-separated values) and a label set.
// Matching must never panic, must fail exactly when Check does, and must
// agree with NewMatcher and with an independent restatement of the rules.
func FuzzSelectorMatches(f *testing.F) {
	type seed struct {
		mlKey, mlVal, exKey, op, values string
		hasValues                       bool
		labels                          string // k=v,k=v
	}
	for _, s := range []seed{
		{"app", "web", "tier", "In", "fe,be", true, "app=web,tier=fe"},
		{"app", "web", "tier", "NotIn", "fe", true, "app=web,tier=fe"},
		{"", "", "track", "Exists", "", false, "track="},
		{"", "", "track", "DoesNotExist", "", false, "app=web"},
		{"a b", "x", "", "", "", false, "a b=x"},
		{"example.com/app", "web", "k", "In", "", true, "example.com/app=web"},
		{"app", "web", "k", "Exists", "v", true, "app=web"},
		{"app", strings.Repeat("v", 64), "k", "Bogus", "v", true, ""},
		{"app", "", "k", "In", ",", true, "app=,k="},
	} {
		f.Add(s.mlKey, s.mlVal, s.exKey, s.op, s.values, s.hasValues, s.labels)
	}
	f.Fuzz(func(t *testing.T, mlKey, mlVal, exKey, op, values string, hasValues bool, labels string) {
		sel := &model.LabelSelector{}
		if mlKey != "" || mlVal != "" {
			sel.MatchLabels = map[string]string{mlKey: mlVal}
		}
		if exKey != "" || op != "" {
			r := model.LabelSelectorRequirement{Key: exKey, Operator: model.SelectorOperator(op)}
			if hasValues {
				r.Values = strings.Split(values, ",")
			}
			sel.MatchExpressions = []model.LabelSelectorRequirement{r}
		}
		l := map[string]string{}
		if labels != "" {
			for _, kv := range strings.Split(labels, ",") {
				k, v, _ := strings.Cut(kv, "=")
				l[k] = v
			}
		}
		before := snapshot(t, sel)
		ok, err := sel.Matches(l)
		cerr := sel.Check()
		if (err != nil) != (cerr != nil) {
			t.Fatalf("Matches error %v, Check error %v", err, cerr)
		}
		m, merr := model.NewMatcher(sel)
		if (merr != nil) != (cerr != nil) {
			t.Fatalf("NewMatcher error %v, Check error %v", merr, cerr)
		}
		if snapshot(t, sel) != before {
			t.Fatal("matching mutated the selector")
		}
		if err != nil {
			if ok || m.Matches(l) || err.Error() == "" {
				t.Fatalf("invalid selector: Matches=%v Matcher=%v err=%q", ok, m.Matches(l), err)
			}
			return
		}
		if m.Matches(l) != ok || oracleMatches(sel, l) != ok {
			t.Fatalf("Matches=%v Matcher=%v oracle=%v for %+v on %v", ok, m.Matches(l), oracleMatches(sel, l), sel, l)
		}
		// A valid selector only holds valid keys and values.
		for k, v := range sel.MatchLabels {
			if !looksLikeLabel(k, true) || !looksLikeLabel(v, false) {
				t.Fatalf("Check accepted matchLabels %q=%q", k, v)
			}
		}
		for _, r := range sel.MatchExpressions {
			if !looksLikeLabel(r.Key, true) {
				t.Fatalf("Check accepted key %q", r.Key)
			}
			for _, v := range r.Values {
				if !looksLikeLabel(v, false) {
					t.Fatalf("Check accepted value %q", v)
				}
			}
		}
	})
}

// looksLikeLabel is a coarse necessary condition for label keys/values:
// ASCII only, bounded length, no white space; keys non-empty.
func looksLikeLabel(s string, key bool) bool {
	if key && s == "" {
		return false
	}
	limit := 63
	if key {
		limit = 253 + 1 + 63
	}
	if len(s) > limit {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// FuzzValidate builds a Deployment from fuzz inputs. Validation must never
// panic; it returns nil or a *ValidationError whose every entry names a
// field; and when it returns nil, the invariants the planners rely on hold.
func FuzzValidate(f *testing.F) {
	type seed struct {
		replicas               int32
		surge, unav            string
		typeByte               uint8
		selKey, selVal, tplVal string
		minReady, deadline     int32
		strategy               string
		name                   string
	}
	for _, s := range []seed{
		{3, "25%", "25%", 0, "app", "web", "web", 0, 600, "RollingUpdate", "web"},
		{5, "0", "10%", 0, "app", "web", "web", 0, 600, "RollingUpdate", "web"},
		{1, "0", "0", 0, "app", "web", "web", 0, 600, "RollingUpdate", "web"},
		{1, "0%", "00%", 0, "app", "web", "web", 0, 600, "RollingUpdate", "web"},
		{1, "12x%", "101%", 0, "app", "web", "web", 0, 600, "RollingUpdate", "web"},
		{1, "150%", "-1", 0, "app", "web", "db", 10, 10, "RollingUpdate", "Web"},
		{-1, "", "", 0, "", "", "", -1, 0, "Recreate", ""},
		{2, "1", "1", 0, "a b", "x", "x", 0, 600, "Canary", "web"},
		{2, "25%", "25%", 7, "app", "web", "web", 0, 600, "RollingUpdate", "web"},
		{2, "25%", "25%", 0, "example.com/app", "web", "web", 5, 2147483647, "", "a.b"},
	} {
		f.Add(s.replicas, s.surge, s.unav, s.typeByte, s.selKey, s.selVal, s.tplVal, s.minReady, s.deadline, s.strategy, s.name)
	}
	f.Fuzz(func(t *testing.T, replicas int32, surge, unav string, typeByte uint8,
		selKey, selVal, tplVal string, minReady, deadline int32, strategy, name string) {
		d := validDeployment()
		d.Name = name
		d.Spec.Replicas = &replicas
		su, un := model.ParseIntOrString(surge), model.ParseIntOrString(unav)
		if typeByte > 1 { // exercise IntOrString types other than Int and String
			su.Type = model.IntOrStringType(typeByte)
		}
		d.Spec.Strategy = model.Strategy{Type: model.StrategyType(strategy)}
		if strategy != string(model.RecreateStrategy) || typeByte == 1 {
			d.Spec.Strategy.RollingUpdate = &model.RollingUpdate{MaxSurge: &su, MaxUnavailable: &un}
		}
		d.Spec.Selector = &model.LabelSelector{MatchLabels: map[string]string{selKey: selVal}}
		d.Spec.Template.Labels = map[string]string{selKey: tplVal}
		d.Spec.MinReadySeconds = minReady
		d.Spec.ProgressDeadlineSeconds = &deadline
		for _, err := range []error{model.ValidateDeployment(d), model.Validate(d, nil, nil), model.ValidateDeployment(model.Default(d))} {
			checkValidationError(t, err)
			if err != nil && !errors.Is(err, model.ErrInvalid) {
				t.Fatalf("error does not match ErrInvalid: %v", err)
			}
		}
		if model.ValidateDeployment(d) != nil {
			return
		}
		// Accepted ⇒ the invariants of apps/v1 validation hold.
		if replicas < 0 || minReady < 0 || deadline <= minReady || selVal != tplVal {
			t.Fatalf("accepted replicas=%d minReady=%d deadline=%d sel=%q tpl=%q", replicas, minReady, deadline, selVal, tplVal)
		}
		switch d.Spec.Strategy.Type {
		case model.RecreateStrategy:
			if d.Spec.Strategy.RollingUpdate != nil {
				t.Fatal("accepted Recreate with a rollingUpdate block")
			}
		case model.RollingUpdateStrategy:
			s, sOK := literal(su)
			u, uOK := literal(un)
			if !sOK || !uOK || u > 100 && un.Type == model.String || s == 0 && u == 0 {
				t.Fatalf("accepted fenceposts surge=%#v unavailable=%#v", su, un)
			}
		default:
			t.Fatalf("accepted strategy %q", strategy)
		}
		if !looksLikeLabel(selKey, true) || !looksLikeLabel(selVal, false) || name == "" || len(name) > 253 || strings.ToLower(name) != name {
			t.Fatalf("accepted name %q / selector %q=%q", name, selKey, selVal)
		}
	})
}

// literal is an independent reading of a fencepost: a non-negative int, or
// digits followed by "%".
func literal(v model.IntOrString) (int64, bool) {
	switch v.Type {
	case model.Int:
		return int64(v.IntVal), v.IntVal >= 0
	case model.String:
		digits, ok := strings.CutSuffix(v.StrVal, "%")
		if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.ParseInt(digits, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			// Upstream's getPercentValue reads the digits with
			// strconv.Atoi, which clamps: a percent past int64 counts as
			// the largest, not as 0 (found by fuzzing).
			return math.MaxInt64, true
		}
		return n, err == nil
	}
	return 0, false
}

func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":2}`, `{"a":1.0}`, `{"a":12345678901234567890123}`, `{"a":[],"b":null,"c":{}}`,
		`[null,[],{}]`, `{"a":{"b":null}}`, `null`, `"x"`, `{"a":"<&>"}`, `{"a":"\u00e9"}`, `{"a":1,"a":2}`,
		`{} x`, `{"a":1}}`, `[1]]`, `1 2`, ``, `{`, "\"\xff\"", `"\ud800"`, "{}\u00a0"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		out, err := model.CanonicalJSON(data)
		if !bytes.Equal(in, data) {
			t.Fatal("CanonicalJSON modified its input")
		}
		// Valid JSON is rejected only for invalid UTF-8 or a repeated key,
		// with an error saying which and where.
		folds := err != nil && (strings.Contains(err.Error(), "invalid UTF-8 at offset") || strings.Contains(err.Error(), "duplicate key"))
		if err == nil && !json.Valid(data) || err != nil && json.Valid(data) && !folds {
			t.Fatalf("CanonicalJSON(%q) error %v, but json.Valid = %v", data, err, json.Valid(data))
		}
		if folds && !utf8.Valid(data) != strings.Contains(err.Error(), "UTF-8") {
			t.Fatalf("CanonicalJSON(%q): %v", data, err)
		}
		if json.Valid(data) && utf8.Valid(data) {
			if dup := referenceHasDuplicateKey(data); dup != (err != nil) {
				t.Fatalf("CanonicalJSON(%q): error %v, but the reference finds a repeated key: %v", data, err, dup)
			}
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("error without a message (%T)", err)
			}
			return
		}
		if !json.Valid([]byte(out)) {
			t.Fatalf("output is not JSON: %q", out)
		}
		again, err := model.CanonicalJSON([]byte(out))
		if err != nil || again != out {
			t.Fatalf("not idempotent: %q -> %q (%v)", out, again, err)
		}
	})
}

// referenceHasDuplicateKey finds a key repeated within one object of a valid
// document by walking encoding/json's tokens, independently of the
// byte scanner behind CanonicalJSON.
func referenceHasDuplicateKey(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	type frame struct {
		keys   map[string]bool
		object bool
		key    bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := len(stack) - 1
		if k, ok := tok.(string); ok && top >= 0 && stack[top].object && stack[top].key {
			if stack[top].keys[k] {
				return true
			}
			stack[top].keys[k] = true
			stack[top].key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]bool{}, object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
		}
		if top = len(stack) - 1; top >= 0 && stack[top].object {
			stack[top].key = true
		}
	}
}
