package model_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
)

const pth = model.PodTemplateHashLabel

func TestEqualIgnoreHash(t *testing.T) {
	tmpl := func(labels map[string]string, spec string) model.PodTemplate {
		return model.PodTemplate{Labels: labels, Spec: spec}
	}
	const spec = `{"containers":[{"image":"foo/bar","name":"foo"}]}`
	type c struct {
		tc
		a, b model.PodTemplate
		want bool
	}
	runCases(t, []c{
		// upstream TestEqualIgnoreHash, row by row.
		{tc{"ex14 identical incl hash", "upstream TestEqualIgnoreHash row 1: identical templates incl. the hash label"},
			tmpl(map[string]string{"something": "else", pth: "value-1"}, spec),
			tmpl(map[string]string{"something": "else", pth: "value-1"}, spec), true},
		{tc{"ex14 hash value differs", "upstream TestEqualIgnoreHash row 2: only the hash label value differs"},
			tmpl(map[string]string{"something": "else", pth: "value-1"}, spec),
			tmpl(map[string]string{"something": "else", pth: "value-2"}, spec), true},
		{tc{"ex14 hash on one side only", "upstream TestEqualIgnoreHash row 3: one has the hash label, the other not"},
			tmpl(map[string]string{"something": "else", pth: "value-1"}, spec),
			tmpl(map[string]string{"something": "else"}, spec), true},
		{tc{"ex14 something vs hash-2", "upstream TestEqualIgnoreHash row 4: {something: else} vs {pod-template-hash: value-2}"},
			tmpl(map[string]string{"something": "else"}, spec),
			tmpl(map[string]string{pth: "value-2"}, spec), false},
		{tc{"ex14 hash-1 vs something", "upstream TestEqualIgnoreHash row 5: {pod-template-hash: value-1} vs {something: else}"},
			tmpl(map[string]string{pth: "value-1"}, spec),
			tmpl(map[string]string{"something": "else"}, spec), false},
		{tc{"ex14 extra label", "upstream TestEqualIgnoreHash row 6: same hash, one has an extra label"},
			tmpl(map[string]string{pth: "value-1"}, spec),
			tmpl(map[string]string{pth: "value-1", "something": "else"}, spec), false},
		{tc{"ex14 annotations differ", "upstream TestEqualIgnoreHash row 7: annotations differ"},
			model.PodTemplate{Labels: map[string]string{pth: "v"}, Annotations: map[string]string{"a": "1"}, Spec: spec},
			model.PodTemplate{Labels: map[string]string{pth: "v"}, Annotations: map[string]string{"a": "2"}, Spec: spec}, false},
		{tc{"ex14 template name differs", "upstream TestEqualIgnoreHash row 8: template metadata.name lives in the opaque Spec (PodTemplate doc)"},
			tmpl(map[string]string{pth: "v"}, `{"metadata":{"name":"foo"}}`),
			tmpl(map[string]string{pth: "v"}, `{"metadata":{"name":"bar"}}`), false},
		{tc{"ex14 node name differs", "upstream TestEqualIgnoreHash row 9: spec.nodeName differs"},
			tmpl(map[string]string{pth: "v"}, `{"nodeName":"node1"}`),
			tmpl(map[string]string{pth: "v"}, `{"nodeName":"node2"}`), false},
		{tc{"ex14 labels differ entirely", "upstream TestEqualIgnoreHash row 10"},
			tmpl(map[string]string{"a": "1", pth: "v"}, spec),
			tmpl(map[string]string{"b": "2", pth: "v"}, spec), false},
		// upstream EqualIgnoreHash consequences and nil/empty handling.
		{tc{"nil vs empty labels", "upstream EqualIgnoreHash (semantic deep equality): nil and empty maps are equal"},
			tmpl(nil, spec), tmpl(map[string]string{}, spec), true},
		{tc{"hash only vs nil labels", "upstream EqualIgnoreHash: {pod-template-hash: x} vs nil is equal after deletion"},
			tmpl(map[string]string{pth: "x"}, spec), tmpl(nil, spec), true},
		{tc{"hash only vs empty labels", "upstream EqualIgnoreHash: {pod-template-hash: x} vs {} is equal"},
			tmpl(map[string]string{pth: "x"}, spec), tmpl(map[string]string{}, spec), true},
		{tc{"nil vs empty annotations", "semantic deep equality: nil and empty maps are equal"},
			model.PodTemplate{Spec: spec}, model.PodTemplate{Annotations: map[string]string{}, Spec: spec}, true},
		{tc{"hash-named annotation not ignored", "upstream EqualIgnoreHash: only the label is deleted, annotations compare in full"},
			model.PodTemplate{Annotations: map[string]string{pth: "a"}, Spec: spec},
			model.PodTemplate{Annotations: map[string]string{pth: "b"}, Spec: spec}, false},
		{tc{"annotation present vs absent", "upstream EqualIgnoreHash: any other difference is a different template"},
			model.PodTemplate{Annotations: map[string]string{"a": ""}, Spec: spec}, model.PodTemplate{Spec: spec}, false},
		{tc{"empty label value vs absent", "an empty value is still a label"},
			tmpl(map[string]string{"a": ""}, spec), tmpl(nil, spec), false},
		{tc{"spec differs", "upstream EqualIgnoreHash: any other difference (container fields) ⇒ new rollout"},
			tmpl(nil, `{"containers":[{"image":"nginx:1"}]}`), tmpl(nil, `{"containers":[{"image":"nginx:2"}]}`), false},
		{tc{"spec whitespace differs", "PodTemplate doc: Spec is compared byte for byte; canonicalise first"},
			tmpl(nil, `{"a":1}`), tmpl(nil, `{ "a": 1 }`), false},
		{tc{"spec empty vs set", "an empty Spec is a different document"}, tmpl(nil, ""), tmpl(nil, "{}"), false},
		{tc{"zero templates", "two zero templates are equal"}, model.PodTemplate{}, model.PodTemplate{}, true},
	}, func(t *testing.T, c c) {
		before := snapshot(t, []model.PodTemplate{c.a, c.b})
		if got := model.EqualIgnoreHash(c.a, c.b); got != c.want {
			t.Errorf("EqualIgnoreHash(a, b) = %v, want %v", got, c.want)
		}
		if got := model.EqualIgnoreHash(c.b, c.a); got != c.want {
			t.Errorf("EqualIgnoreHash(b, a) = %v, want %v (upstream TestEqualIgnoreHash: symmetric)", got, c.want)
		}
		if after := snapshot(t, []model.PodTemplate{c.a, c.b}); after != before {
			t.Errorf("EqualIgnoreHash mutated its arguments:\n%s\n%s", before, after)
		}
	})
}

func TestPodTemplateDeepCopy(t *testing.T) {
	orig := model.PodTemplate{Labels: map[string]string{"a": "1"}, Annotations: map[string]string{"b": "2"}, Spec: "{}"}
	cp := orig.DeepCopy()
	if d := cmp.Diff(orig, cp); d != "" {
		t.Fatalf("copy differs (-orig +copy):\n%s", d)
	}
	cp.Labels["a"] = "x"
	cp.Annotations["b"] = "x"
	if orig.Labels["a"] != "1" || orig.Annotations["b"] != "2" {
		t.Fatal("PodTemplate.DeepCopy shares maps")
	}
	if z := (model.PodTemplate{}).DeepCopy(); z.Labels != nil || z.Annotations != nil {
		t.Fatal("nil maps must stay nil")
	}
	if e := (model.PodTemplate{Labels: map[string]string{}}).DeepCopy(); e.Labels == nil {
		t.Fatal("an empty non-nil map must stay non-nil")
	}
}

func TestCanonicalJSON(t *testing.T) {
	type c struct {
		tc
		in      string
		want    string
		wantErr bool
	}
	runCases(t, []c{
		{tc{"keys sorted", "CanonicalJSON doc: object keys sorted"}, `{"b":1,"a":2}`, `{"a":2,"b":1}`, false},
		{tc{"nested keys sorted", "sorting applies at every depth, also inside arrays"},
			`{"z":{"y":1,"x":2},"a":[{"d":1,"c":2}]}`, `{"a":[{"c":2,"d":1}],"z":{"x":2,"y":1}}`, false},
		{tc{"array order kept", "arrays are ordered; only object keys are sorted"}, `[3,1,2]`, `[3,1,2]`, false},
		{tc{"white space removed", "CanonicalJSON doc: insignificant white space removed"}, " { \"a\" : [ 1 , 2 ] ,\n\t\"b\":\"x y\" }\r\n", `{"a":[1,2],"b":"x y"}`, false},
		{tc{"1.0 kept", "CanonicalJSON doc: numbers kept exactly as written"}, `{"a":1.0}`, `{"a":1.0}`, false},
		{tc{"big int exact", "numbers kept exactly: no float64 rounding"}, `{"a":12345678901234567890123}`, `{"a":12345678901234567890123}`, false},
		{tc{"int64 beyond 2^53", "no float64 rounding of 2^53+1"}, `[9007199254740993]`, `[9007199254740993]`, false},
		{tc{"exponent kept", "numbers kept exactly as written"}, `[1e3,1E-2,-0,0.50]`, `[1e3,1E-2,-0,0.50]`, false},
		{tc{"empty array dropped", "CanonicalJSON doc: members with an empty array dropped (nil == empty slice, as in semantic deep equality)"}, `{"a":[],"b":1}`, `{"b":1}`, false},
		{tc{"null dropped", "CanonicalJSON doc: members with null dropped"}, `{"a":null,"b":true}`, `{"b":true}`, false},
		{tc{"all dropped", "pruning may leave an empty object"}, `{"a":null,"b":[]}`, `{}`, false},
		{tc{"empty object kept", "CanonicalJSON doc: an empty object is a set pointer"}, `{"a":{}}`, `{"a":{}}`, false},
		{tc{"nested pruning keeps object", "pruned members inside a nested object; the object stays"}, `{"a":{"b":null,"c":[]}}`, `{"a":{}}`, false},
		{tc{"pruning inside arrays of objects", "prune recurses into arrays"}, `{"a":[{"b":null,"c":1}]}`, `{"a":[{"c":1}]}`, false},
		{tc{"null elements kept", "only object members are dropped, array elements are positional"}, `{"a":[null,1]}`, `{"a":[null,1]}`, false},
		{tc{"empty array element kept", "array elements are positional"}, `[[],{}]`, `[[],{}]`, false},
		{tc{"top-level null", "the document itself is not a member"}, `null`, `null`, false},
		{tc{"top-level empty array", "the document itself is not a member"}, ` [ ] `, `[]`, false},
		{tc{"empty string kept", "empty strings are values, not absence"}, `{"a":""}`, `{"a":""}`, false},
		{tc{"false and zero kept", "zero values other than null/[] are kept"}, `{"a":false,"b":0}`, `{"a":false,"b":0}`, false},
		{tc{"html not escaped", "SetEscapeHTML(false): <, >, & written as is"}, `{"a":"<b>&"}`, `{"a":"<b>&"}`, false},
		{tc{"escapes normalised", "equal strings encode alike: \\u00e9 == é"}, `{"a":"\u00e9\/"}`, `{"a":"é/"}`, false},
		{tc{"duplicate keys rejected", "folding {\"a\":1,\"a\":2} into {\"a\":2} would make different templates equal"}, `{"a":1,"a":2}`, "", true},
		{tc{"duplicate nested key rejected", "every object is checked"}, `{"a":{"b":1,"c":[{"d":1,"d":1}]}}`, "", true},
		{tc{"same key in sibling objects", "keys repeat only within one object"}, `[{"a":1},{"a":2}]`, `[{"a":1},{"a":2}]`, false},
		{tc{"invalid UTF-8 rejected", "decoding would replace the byte with U+FFFD"}, "\"\xff\"", "", true},
		{tc{"empty input", "not a JSON document"}, ``, "", true},
		{tc{"only space", "not a JSON document"}, "  \n", "", true},
		{tc{"unterminated", "invalid JSON"}, `{"a":1`, "", true},
		{tc{"missing value", "invalid JSON"}, `{"a":}`, "", true},
		{tc{"trailing comma", "invalid JSON"}, `{"a":1,}`, "", true},
		{tc{"bare word", "invalid JSON"}, `nul`, "", true},
		{tc{"single quotes", "invalid JSON"}, `{'a':1}`, "", true},
		{tc{"trailing word", "CanonicalJSON takes exactly one document"}, `{} x`, "", true},
		{tc{"two documents", "exactly one document"}, `{}{}`, "", true},
		{tc{"two numbers", "exactly one document"}, `1 2`, "", true},
		{tc{"trailing brace", "exactly one document: a stray } is garbage"}, `{"a":1}}`, "", true},
		{tc{"trailing bracket", "exactly one document: a stray ] is garbage"}, `[1]]`, "", true},
		{tc{"trailing bracket after space", "exactly one document"}, `{} ]`, "", true},
		{tc{"trailing non-JSON space", "JSON white space is only space, tab, CR, LF"}, "{}\v", "", true},
		{tc{"trailing NBSP", "JSON white space is only space, tab, CR, LF"}, "{}\u00a0", "", true},
	}, func(t *testing.T, c c) {
		in := []byte(c.in)
		got, err := model.CanonicalJSON(in)
		if string(in) != c.in {
			t.Fatalf("CanonicalJSON modified its input: %q", in)
		}
		if c.wantErr {
			if err == nil {
				t.Fatalf("CanonicalJSON(%q) = %q, want an error", c.in, got)
			}
			if err.Error() == "" {
				t.Fatalf("CanonicalJSON(%q): error with an empty message (%T)", c.in, err)
			}
			if json.Valid(in) && utf8.Valid(in) && !strings.Contains(c.name, "duplicate") {
				t.Fatalf("test bug: %q is valid JSON", c.in)
			}
			return
		}
		if err != nil {
			t.Fatalf("CanonicalJSON(%q): %v", c.in, err)
		}
		if got != c.want {
			t.Fatalf("CanonicalJSON(%q) = %s, want %s", c.in, got, c.want)
		}
		again, err := model.CanonicalJSON([]byte(got))
		if err != nil || again != got {
			t.Fatalf("not idempotent: %s -> %s, %v", got, again, err)
		}
	})
}

// TestCanonicalJSONKeyOrderIrrelevant encodes the same object with keys in
// two orders and nil vs empty slices and expects one canonical form.
func TestCanonicalJSONKeyOrderIrrelevant(t *testing.T) {
	a := `{"containers":[{"name":"web","image":"nginx","env":[],"ports":null}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always"}`
	b := `{"restartPolicy":"Always","dnsPolicy":"ClusterFirst","containers":[{"image":"nginx","name":"web"}]}`
	ca, err1 := model.CanonicalJSON([]byte(a))
	cb, err2 := model.CanonicalJSON([]byte(b))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if ca != cb {
		t.Fatalf("canonical forms differ:\n%s\n%s", ca, cb)
	}
	want := `{"containers":[{"image":"nginx","name":"web"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always"}`
	if ca != want {
		t.Fatalf("got %s, want %s", ca, want)
	}
	if !strings.HasPrefix(ca, "{") || strings.HasSuffix(ca, "\n") {
		t.Fatalf("no trailing newline expected: %q", ca)
	}
}
