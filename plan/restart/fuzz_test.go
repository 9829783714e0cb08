package restart

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

// FuzzParseChecksums: the annotation parser never panics, always returns a
// map, fails only with ErrMalformedChecksums, and what it accepts formats
// and parses back to the same map.
func FuzzParseChecksums(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"configmap/ns/a":"189832cc316e7594"}`, `NOPE`, `{"a":1}`, `[]`, ``, `{"\u003c":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		m, err := ParseChecksums(value)
		if m == nil {
			t.Fatal("nil map")
		}
		if err != nil {
			if !errors.Is(err, ErrMalformedChecksums) || len(m) != 0 {
				t.Fatalf("error %v with %v", err, m)
			}
			return
		}
		back, err := ParseChecksums(FormatChecksums(m))
		if err != nil || !maps.Equal(back, m) {
			t.Fatalf("round trip of %v: %v, %v", m, back, err)
		}
	})
}

// FuzzReferences: reference discovery never panics, fails only with
// ErrMalformedPodSpec, returns sorted references in the workload's
// namespace, and the original's set is contained in the default set (names
// aside, which the default skips when empty).
func FuzzReferences(f *testing.F) {
	for _, s := range []string{allKindsSpec, `{}`, `null`, `{"containers":[{"envFrom":[{"configMapRef":{"name":"a"},"secretRef":{"name":"b"}}]}]}`,
		`{"spec":{"volumes":[{"configMap":{"name":"a"}}]}}`, `{"volumes":[{"projected":{"sources":[{"secret":{"name":"s"}}]}}]}`, `{"containers":7}`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		def, _, err := References("ns", spec, false)
		orig, _, err2 := References("ns", spec, true)
		if err != nil || err2 != nil {
			if err != nil && !errors.Is(err, ErrMalformedPodSpec) || err2 != nil && !errors.Is(err2, ErrMalformedPodSpec) {
				t.Fatalf("errors %v / %v", err, err2)
			}
			return
		}
		for _, refs := range [][]Ref{def, orig} {
			if !slices.IsSortedFunc(refs, func(a, b Ref) int { return strings.Compare(a.String(), b.String()) }) {
				t.Fatalf("unsorted %v", refs)
			}
			for _, r := range refs {
				if r.Namespace != "ns" || !r.Kind.IsConfig() {
					t.Fatalf("bad ref %v", r)
				}
			}
		}
		for _, r := range orig {
			if r.Name != "" && !slices.Contains(def, r) {
				t.Fatalf("original ref %v not in default %v", r, def)
			}
		}
	})
}

// FuzzAppendJSONString: the hand-written string encoder of the annotation
// and the patch body agrees with encoding/json byte for byte.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "<b>&", "\u2028\u2029", "\x00\x1f\b\f\n\r\t\"\\", "\xff\xfe", "é日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: %s, want %s", s, got, want)
		}
		m := map[string]string{s: s, "k": s}
		wantMap, _ := json.Marshal(m)
		if got := FormatChecksums(m); got != string(wantMap) {
			t.Fatalf("map %q: %s, want %s", s, got, wantMap)
		}
	})
}
