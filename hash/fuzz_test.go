package hash

import (
	"bytes"
	"hash/fnv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rolloutplan/rolloutplan/model"
)

// FuzzEncoding builds three templates from the same fuzzed strings, cut at
// different places (the classic way to break a delimiter-based encoding),
// and checks that ComputeHash never panics, that every encoding decodes back
// to its template, and that two encodings are equal exactly when the
// templates are.
func FuzzEncoding(f *testing.F) {
	// More seeds live in testdata/fuzz/FuzzEncoding.
	f.Add("app", "web", "tier", "frontend", "team", "shop", `{"containers":[]}`)
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, ak, av, spec string) {
		a := model.PodTemplate{
			Labels:      map[string]string{k1: v1, k2: v2},
			Annotations: map[string]string{ak: av},
			Spec:        spec,
		}
		b := model.PodTemplate{
			Labels:      map[string]string{k1 + v1: k2, v2: ak},
			Annotations: map[string]string{av + spec: ""},
		}
		c := model.PodTemplate{
			Labels:      map[string]string{k1: v1 + k2 + v2},
			Annotations: map[string]string{ak + av: spec[:len(spec)/2]},
			Spec:        spec[len(spec)/2:],
		}
		if ak == "" && av == "" && spec == "" {
			c.Annotations = nil // empty vs nil maps must still encode alike
		}
		ts := []model.PodTemplate{a, b, c}
		encs := make([][]byte, len(ts))
		for i, tmpl := range ts {
			encs[i] = appendEncoding(nil, tmpl)
			got, err := decode(encs[i])
			if err != nil {
				t.Fatalf("template %d does not decode: %v", i, err)
			}
			if !sameTemplate(got, tmpl) {
				t.Fatalf("template %d round trip:\n got %#v\nwant %#v", i, got, tmpl)
			}
			h := fnv.New32a()
			h.Write(encs[i])
			cc := int32(len(spec))
			if want, got := finish(h, &cc), sum32(tmpl, &cc); got != want {
				t.Fatalf("template %d: Sum32 %d, stdlib %d", i, got, want)
			}
			hs := ComputeHash(tmpl, nil)
			if len(hs) == 0 || len(hs) > 10 || strings.Trim(hs, "456789bcdf") != "" {
				t.Fatalf("template %d: malformed hash %q", i, hs)
			}
		}
		for i := range ts {
			for j := range ts {
				if bytes.Equal(encs[i], encs[j]) != sameTemplate(ts[i], ts[j]) {
					t.Fatalf("templates %d and %d: encodings equal %v, templates equal %v:\n%#v\n%#v",
						i, j, bytes.Equal(encs[i], encs[j]), sameTemplate(ts[i], ts[j]), ts[i], ts[j])
				}
			}
		}
		// SafeEncodeString on arbitrary text keeps upstream's shape.
		se := SafeEncodeString(spec)
		if len(se) != len(spec) {
			t.Fatalf("SafeEncodeString changed the length: %d → %d", len(spec), len(se))
		}
		n := utf8.RuneCountInString(spec)
		if strings.Trim(se[:n], Alphabet) != "" || strings.Trim(se[n:], "\x00") != "" {
			t.Fatalf("SafeEncodeString(%q) = %q", spec, se)
		}
	})
}
