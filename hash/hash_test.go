package hash

import (
	"encoding/hex"
	"github.com/rolloutplan/rolloutplan/internal/casetest"
	"hash/fnv"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// needReason refuses a table case without a name or a one-line reason, so
// that every hand-checked value says where it comes from.
func needReason(t *testing.T, name, reason string) {
	t.Helper()
	casetest.Require(t, name, reason)
}

func i32(v int32) *int32 { return &v }

var (
	nginxTemplate = model.PodTemplate{
		Labels: map[string]string{"app": "nginx"},
		Spec:   `{"containers":[{"image":"nginx:1.27","name":"nginx"}]}`,
	}
	fullTemplate = model.PodTemplate{
		Labels: map[string]string{"app": "web", "tier": "frontend", "pod-template-hash": "abc"},
		Annotations: map[string]string{
			"a":                                 "1",
			"kubectl.kubernetes.io/restartedAt": "2026-01-02T03:04:05Z",
		},
		Spec: `{"containers":[{"image":"web:2","name":"web"}],"nodeSelector":{"disk":"ssd"}}`,
	}
)

// TestGoldenCanonical pins the hashes of the version-1 canonical encoding.
//
// These values were computed once, when the encoding was introduced, and
// hard-coded. They must never change: ReplicaSets in real clusters are named
// after them. If this test fails, the encoding (or the FNV/collision/alphabet
// pipeline) has changed, which is a breaking change for every user. Do not
// update the values; restore the old behaviour, or introduce a new
// EncodingVersion beside the old one.
func TestGoldenCanonical(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		t      model.PodTemplate
		cc     *int32
		sum    uint32
		hash   string
	}{
		{"empty/nil", "pinned v1 value; the zero template is the smallest encoding", model.PodTemplate{}, nil, 908883581, "f4ddd79d5"},
		{"empty/0", "pinned v1 value; a non-nil 0 count adds 8 zero-valued bytes", model.PodTemplate{}, i32(0), 3390089501, "77f44df945"},
		{"empty/1", "pinned v1 value; count 1 adds 01 00 00 00 00 00 00 00", model.PodTemplate{}, i32(1), 1823427068, "5d6786c4bd"},
		{"nginx/nil", "pinned v1 value; the nginx template of the measured ComputeHash vectors in rolloutplan form", nginxTemplate, nil, 3498630143, "78fdb74587"},
		{"nginx/0", "pinned v1 value", nginxTemplate, i32(0), 2850487519, "6d948dc95f"},
		{"nginx/1", "pinned v1 value", nginxTemplate, i32(1), 1283825086, "56d7d694db"},
		{"full/nil", "pinned v1 value; labels incl. pod-template-hash and annotations are all hashed", fullTemplate, nil, 520209191, "96464f5f5"},
		{"full/7", "pinned v1 value", fullTemplate, i32(7), 901973792, "f45fc7cf6"},
		{"full/-1", "pinned v1 value; a negative count is hashed as its uint32 bit pattern ff ff ff ff", fullTemplate, i32(-1), 1936735075, "5f7bc794c9"},
		{"full/max", "pinned v1 value; MaxInt32 count", fullTemplate, i32(2147483647), 533486051, "9778db495"},
		{"spec-only", "pinned v1 value", model.PodTemplate{Spec: "x"}, nil, 1190887894, "55f4ddcdf8"},
		{"annotation-only", "pinned v1 value; differs from label-only: the two maps are separate fields", model.PodTemplate{Annotations: map[string]string{"x": ""}}, nil, 2083147093, "64d758c4f7"},
		{"label-only", "pinned v1 value", model.PodTemplate{Labels: map[string]string{"x": ""}}, nil, 1892786609, "5df6cdbb4f"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			if got := sum32(c.t, c.cc); got != c.sum {
				t.Fatalf("Sum32 = %d, pinned %d: the canonical encoding changed (breaking change)", got, c.sum)
			}
			if got := ComputeHash(c.t, c.cc); got != c.hash {
				t.Fatalf("ComputeHash = %q, pinned %q: the canonical encoding changed (breaking change)", got, c.hash)
			}
		})
	}
}

// TestGoldenEncodingBytes pins the encoding byte for byte and checks it
// against a hand-assembled copy, so the package documentation stays true.
func TestGoldenEncodingBytes(t *testing.T) {
	// Assembled by hand from the documented layout.
	var want []byte
	want = append(want, 23) // len("rolloutplan.template.v1")
	want = append(want, "rolloutplan.template.v1"...)
	want = append(want, 1)                // one label
	want = append(want, 3, 'a', 'p', 'p') // key "app"
	want = append(want, 5, 'n', 'g', 'i', 'n', 'x')
	want = append(want, 0)  // no annotations
	want = append(want, 54) // len of the spec below
	want = append(want, `{"containers":[{"image":"nginx:1.27","name":"nginx"}]}`...)

	got := appendEncoding(nil, nginxTemplate)
	if string(got) != string(want) {
		t.Fatalf("encoding\n got %x\nwant %x", got, want)
	}
	const pinned = "17726f6c6c6f7574706c616e2e74656d706c6174652e76310103617070056e67696e7800367b22636f6e7461696e657273223a5b7b22696d616765223a226e67696e783a312e3237222c226e616d65223a226e67696e78227d5d7d"
	if hex.EncodeToString(got) != pinned {
		t.Fatalf("encoding changed (breaking change):\n got %x\nwant %s", got, pinned)
	}

	empty := appendEncoding(nil, model.PodTemplate{})
	if wantEmpty := "\x17rolloutplan.template.v1\x00\x00\x00"; string(empty) != wantEmpty {
		t.Fatalf("empty encoding = %q, want %q", empty, wantEmpty)
	}
	// nil and empty maps encode alike, as EqualIgnoreHash treats them alike.
	if e := appendEncoding(nil, model.PodTemplate{Labels: map[string]string{}, Annotations: map[string]string{}}); string(e) != string(empty) {
		t.Fatalf("empty maps encode as %q, nil maps as %q", e, empty)
	}
	// A long string gets a multi-byte uvarint prefix: 300 = 0xac 0x02.
	long := appendEncoding(nil, model.PodTemplate{Spec: strings.Repeat("s", 300)})
	if p := long[len(empty)-1:][:2]; p[0] != 0xac || p[1] != 0x02 {
		t.Fatalf("length prefix of a 300-byte spec = %x, want ac02", p)
	}
	// AppendEncoding appends: an existing prefix is kept.
	if e := appendEncoding([]byte("xyz"), model.PodTemplate{}); string(e) != "xyz"+string(empty) {
		t.Fatalf("AppendEncoding did not append: %q", e)
	}
}

// TestSum32MatchesStdlibFNV hashes the canonical bytes with hash/fnv and
// Finish, the slow and obviously-correct way, and compares with the direct
// in-place hashing that ComputeHash uses.
func TestSum32MatchesStdlibFNV(t *testing.T) {
	for _, tmpl := range []model.PodTemplate{{}, nginxTemplate, fullTemplate, realisticTemplate(t)} {
		for _, cc := range []*int32{nil, i32(0), i32(1), i32(-7), i32(1 << 30)} {
			h := fnv.New32a()
			h.Write(appendEncoding(nil, tmpl))
			if want, got := finish(h, cc), sum32(tmpl, cc); got != want {
				t.Fatalf("Sum32 = %d, stdlib FNV over AppendEncoding = %d (cc %v)", got, want, cc)
			}
		}
	}
}

// TestEncode reproduces the decimal-to-alphabet step of spec
// Example 28 (measured against the real controller's recipe).
func TestEncode(t *testing.T) {
	cases := []struct {
		name   string
		reason string
		sum    uint32
		want   string
	}{
		{"empty/nil/v0.35", "measured ComputeHash vectors, k8s.io/api v0.35.0, empty template, collisionCount nil", 3869868675, "7dbfdbdbc9"},
		{"empty/0/v0.35", "measured ComputeHash vectors, v0.35.0, empty template, collisionCount 0", 2917887971, "6f5cddcfc5"},
		{"empty/1/v0.35", "measured ComputeHash vectors, v0.35.0, empty template, collisionCount 1", 1351225538, "579566997d"},
		{"nginx/nil/v0.35", "measured ComputeHash vectors, v0.35.0, nginx template", 1941267489, "5f856bc8df"},
		{"empty/nil/v0.36", "measured ComputeHash vectors, k8s.io/api v0.36.0, empty template, collisionCount nil", 4130463924, "85748b7f68"},
		{"empty/0/v0.36", "measured ComputeHash vectors, v0.36.0, empty template, collisionCount 0", 3338978100, "777dfcd544"},
		{"empty/1/v0.36", "measured ComputeHash vectors, v0.36.0: a 9-digit sum gives a 9-character hash", 610673237, "b54bc767c"},
		{"nginx/nil/v0.36", "measured ComputeHash vectors, v0.36.0, nginx template", 1298361374, "56fd7b57c8"},
		{"zero", "0 has one digit, which maps to '4' (upstream rand.SafeEncodeString alphabet)", 0, "4"},
		{"max", "4294967295: the longest possible hash, 10 characters", 4294967295, "86f8fbc6f9"},
		{"fnv-offset", "FNV-1a of empty input is the offset basis 2166136261", 2166136261, "65bb57b6b5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			if got := Encode(c.sum); got != c.want {
				t.Fatalf("Encode(%d) = %q, want %q", c.sum, got, c.want)
			}
		})
	}
}

// fnvByHand is FNV-1a written out from its definition, independent of both
// hash/fnv and this package's hasher.
func fnvByHand(data []byte) uint32 {
	h := uint32(0x811c9dc5)
	for _, b := range data {
		h ^= uint32(b)
		h *= 0x01000193
	}
	return h
}

// TestFinishCollisionMixing checks the collision-count bytes against the
// bytes written out by hand: nil adds nothing, a count adds its 4
// little-endian bytes and 4 zero bytes.
func TestFinishCollisionMixing(t *testing.T) {
	const s = "(v1.PodTemplateSpec){}" // any string works; this one looks like a go-spew dump
	cases := []struct {
		name   string
		reason string
		cc     *int32
		suffix []byte
	}{
		{"nil", "upstream writes nothing for a nil collisionCount (upstream ComputeHash)", nil, nil},
		{"0", "non-nil 0 still writes 8 zero bytes (upstream quirk, hash instability: nil and 0 differ)", i32(0), []byte{0, 0, 0, 0, 0, 0, 0, 0}},
		{"1", "uint32 little-endian then 4 zero bytes", i32(1), []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{"258", "258 = 0x0102, little-endian 02 01", i32(258), []byte{2, 1, 0, 0, 0, 0, 0, 0}},
		{"-1", "uint32(-1) = 0xffffffff", i32(-1), []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			want := fnvByHand(append([]byte(s), c.suffix...))
			h := fnv.New32a()
			h.Write([]byte(s))
			if got := finish(h, c.cc); got != want {
				t.Fatalf("Finish = %d, by hand %d", got, want)
			}
			if got := sumString(s, c.cc); got != want {
				t.Fatalf("SumString = %d, by hand %d", got, want)
			}
			// Sum32 mixes the count the same way after the canonical encoding.
			if got, want := sum32(nginxTemplate, c.cc), fnvByHand(append(appendEncoding(nil, nginxTemplate), c.suffix...)); got != want {
				t.Fatalf("Sum32 = %d, by hand %d", got, want)
			}
		})
	}
	if sumString(s, nil) == sumString(s, i32(0)) {
		t.Fatal("nil and 0 collision counts must hash differently")
	}
	if sum32(model.PodTemplate{}, nil) == sum32(model.PodTemplate{}, i32(0)) {
		t.Fatal("nil and 0 collision counts must hash differently")
	}
}

// TestFNVKnownVectors ties the hand-written FNV to published FNV-1a test
// vectors, so the "by hand" reference above is itself checked.
func TestFNVKnownVectors(t *testing.T) {
	cases := []struct {
		name, reason, in string
		want             uint32
	}{
		{"empty", "FNV-1a 32 offset basis (draft-eastlake-fnv)", "", 0x811c9dc5},
		{"a", "published FNV-1a 32 vector for \"a\"", "a", 0xe40c292c},
		{"foobar", "published FNV-1a 32 vector for \"foobar\"", "foobar", 0xbf9cf968},
	}
	for _, c := range cases {
		needReason(t, c.name, c.reason)
		if got := fnvByHand([]byte(c.in)); got != c.want {
			t.Fatalf("fnvByHand(%q) = %#x, want %#x", c.in, got, c.want)
		}
		if got := sumString(c.in, nil); got != c.want {
			t.Fatalf("SumString(%q) = %#x, want %#x", c.in, got, c.want)
		}
	}
}

func TestSafeEncodeString(t *testing.T) {
	cases := []struct {
		name, reason, in, want string
	}{
		{"digits", "upstream rand.SafeEncodeString alphabet: 0..9 ↦ 4 5 6 7 8 9 b c d f", "0123456789", "456789bcdf"},
		{"empty", "nothing to map", "", ""},
		{"letters", "'a' = 97 = 3·27+16 ↦ alphabet[16] = 'v'; 'z' = 122 = 4·27+14 ↦ alphabet[14] = 's'", "az", "vs"},
		{"multibyte", "upstream maps runes into a len(s)-byte buffer: 'é' (233 = 8·27+17 ↦ 'w') fills byte 0, byte 1 stays zero", "é", "w\x00"},
		{"invalid-utf8", "an invalid byte is U+FFFD = 65533 = 2427·27+4 ↦ 'g'", "\xff", "g"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			if got := SafeEncodeString(c.in); got != c.want {
				t.Fatalf("SafeEncodeString(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestReplicaSetName(t *testing.T) {
	long := strings.Repeat("a", 249)
	cases := []struct {
		name, reason, deployment, hash string
		want                           string
	}{
		{"short", "plain <name>-<hash>", "web", "5d7b9c8f4", "web-5d7b9c8f4"},
		{"249/10", "verified against v1.36: 249-char name + 10-char hash keeps the first 242", long, "0123456789", long[:242] + "-0123456789"},
		{"249/9", "verified against v1.36: with a 9-char hash the first 243 are kept", long, "012345678", long[:243] + "-012345678"},
		{"242/10", "242 + 1 + 10 = 253 fits exactly, no cut", long[:242], "0123456789", long[:242] + "-0123456789"},
		{"243/10", "one over: the last character is cut", long[:243], "0123456789", long[:242] + "-0123456789"},
		{"empty-hash", "room is 252 characters", strings.Repeat("b", 260), "", strings.Repeat("b", 252) + "-"},
		{"huge-hash", "no room at all (never produced by ComputeHash): the name is dropped rather than panic", "web", strings.Repeat("h", 260), "-" + strings.Repeat("h", 260)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			got := ReplicaSetName(c.deployment, c.hash)
			if got != c.want {
				t.Fatalf("ReplicaSetName = %q (len %d), want %q (len %d)", got, len(got), c.want, len(c.want))
			}
			if len(c.hash) < 252 && len(got) > model.MaxNameLength {
				t.Fatalf("name has %d characters, more than %d", len(got), model.MaxNameLength)
			}
		})
	}
}

// TestEqualIgnoreHashCases reproduces upstream TestEqualIgnoreHash
// (deployment_util_test.go: TestEqualIgnoreHash), in both argument orders.
func TestEqualIgnoreHashCases(t *testing.T) {
	tmpl := func(labels map[string]string, ann map[string]string, spec string) model.PodTemplate {
		return model.PodTemplate{Labels: labels, Annotations: ann, Spec: spec}
	}
	const spec = `{"containers":[{"image":"foo/bar","name":"nginx"}]}`
	cases := []struct {
		name, reason string
		a, b         model.PodTemplate
		want         bool
	}{
		{"identical", "identical including the hash label",
			tmpl(map[string]string{"something": "else", "pod-template-hash": "v1"}, nil, spec),
			tmpl(map[string]string{"something": "else", "pod-template-hash": "v1"}, nil, spec), true},
		{"hash-value", "only the hash label value differs",
			tmpl(map[string]string{"something": "else", "pod-template-hash": "v1"}, nil, spec),
			tmpl(map[string]string{"something": "else", "pod-template-hash": "v2"}, nil, spec), true},
		{"hash-presence", "one has the hash label, the other not",
			tmpl(map[string]string{"something": "else", "pod-template-hash": "v1"}, nil, spec),
			tmpl(map[string]string{"something": "else"}, nil, spec), true},
		{"other-vs-hash", "{something: else} vs {pod-template-hash: value-2}",
			tmpl(map[string]string{"something": "else"}, nil, spec),
			tmpl(map[string]string{"pod-template-hash": "value-2"}, nil, spec), false},
		{"hash-vs-other", "{pod-template-hash: value-1} vs {something: else}",
			tmpl(map[string]string{"pod-template-hash": "value-1"}, nil, spec),
			tmpl(map[string]string{"something": "else"}, nil, spec), false},
		{"extra-label", "same hash value, one has an extra label",
			tmpl(map[string]string{"pod-template-hash": "v1", "extra": "x"}, nil, spec),
			tmpl(map[string]string{"pod-template-hash": "v1"}, nil, spec), false},
		{"annotations", "annotations differ",
			tmpl(nil, map[string]string{"a": "1"}, spec),
			tmpl(nil, map[string]string{"a": "2"}, spec), false},
		{"template-name", "template metadata other than labels/annotations lives in Spec; a different name is a different Spec",
			tmpl(nil, nil, `{"metadata":{"name":"foo"},`+spec[1:]),
			tmpl(nil, nil, `{"metadata":{"name":"bar"},`+spec[1:]), false},
		{"node-name", "nodeName differs inside the pod spec",
			tmpl(nil, nil, `{"containers":[],"nodeName":"node1"}`),
			tmpl(nil, nil, `{"containers":[],"nodeName":"node2"}`), false},
		{"labels", "labels differ entirely",
			tmpl(map[string]string{"a": "b"}, nil, spec),
			tmpl(map[string]string{"c": "d"}, nil, spec), false},
		{"nil-vs-empty", "semantic deep equality: nil and empty maps are equal",
			tmpl(nil, nil, spec), tmpl(map[string]string{}, map[string]string{}, spec), true},
		{"only-hash-vs-nil", "upstream EqualIgnoreHash: {pod-template-hash: x} vs nil is equal after deletion",
			tmpl(map[string]string{"pod-template-hash": "x"}, nil, spec), tmpl(nil, nil, spec), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			if got := model.EqualIgnoreHash(c.a, c.b); got != c.want {
				t.Fatalf("model.EqualIgnoreHash(a, b) = %v, want %v", got, c.want)
			}
			if got := model.EqualIgnoreHash(c.b, c.a); got != c.want {
				t.Fatalf("model.EqualIgnoreHash(b, a) = %v, want %v", got, c.want)
			}
		})
	}
}

// TestCollisionCountsDistinct checks, for a few templates, that the first
// 10000 collision counts (and nil) all give different hashes. This is a
// property of these particular inputs, verified once and kept as a
// regression test; FNV-32 does not guarantee it in general.
func TestCollisionCountsDistinct(t *testing.T) {
	for _, tmpl := range []model.PodTemplate{{}, nginxTemplate, fullTemplate} {
		seen := map[string]string{ComputeHash(tmpl, nil): "nil"}
		for c := int32(0); c < 10000; c++ {
			h := ComputeHash(tmpl, &c)
			if prev, dup := seen[h]; dup {
				t.Fatalf("collision counts %s and %d give the same hash %q", prev, c, h)
			}
			seen[h] = strconv.Itoa(int(c))
		}
	}
}

// TestNoAllocs guards the allocation budget the package documentation
// promises: only the returned string.
func TestNoAllocs(t *testing.T) {
	tmpl := realisticTemplate(t)
	cc := i32(3)
	if n := testing.AllocsPerRun(100, func() { _ = sum32(tmpl, cc) }); n != 0 {
		t.Fatalf("Sum32 allocates %v times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = ComputeHash(tmpl, cc) }); n != 1 {
		t.Fatalf("ComputeHash allocates %v times per call, want 1 (the result)", n)
	}
}
