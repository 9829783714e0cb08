package hash

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"maps"
	"strconv"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"pgregory.net/rapid"
)

// decode parses a version-1 encoding back into a template. It is the
// witness of injectivity: if every encoding decodes to the template it came
// from, no two different templates can share an encoding. Maps decode as nil
// when empty.
func decode(b []byte) (model.PodTemplate, error) {
	var t model.PodTemplate
	str := func() (string, error) {
		n, w := binary.Uvarint(b)
		if w <= 0 || n > uint64(len(b)-w) {
			return "", errors.New("bad string")
		}
		s := string(b[w : w+int(n)])
		b = b[w+int(n):]
		return s, nil
	}
	pairs := func() (map[string]string, error) {
		n, w := binary.Uvarint(b)
		if w <= 0 || n > uint64(len(b)) {
			return nil, errors.New("bad count")
		}
		b = b[w:]
		var m map[string]string
		prev := ""
		for i := uint64(0); i < n; i++ {
			k, err := str()
			if err != nil {
				return nil, err
			}
			if i > 0 && k <= prev {
				return nil, errors.New("keys not strictly ascending")
			}
			prev = k
			v, err := str()
			if err != nil {
				return nil, err
			}
			if m == nil {
				m = map[string]string{}
			}
			m[k] = v
		}
		return m, nil
	}
	tag, err := str()
	if err != nil || tag != EncodingVersion {
		return t, errors.New("bad version tag")
	}
	if t.Labels, err = pairs(); err != nil {
		return t, err
	}
	if t.Annotations, err = pairs(); err != nil {
		return t, err
	}
	if t.Spec, err = str(); err != nil {
		return t, err
	}
	if len(b) != 0 {
		return t, errors.New("trailing bytes")
	}
	return t, nil
}

// sameTemplate is exact equality of templates with nil and empty maps equal:
// the equality the encoding must be injective for.
func sameTemplate(a, b model.PodTemplate) bool {
	return a.Spec == b.Spec && maps.Equal(a.Labels, b.Labels) && maps.Equal(a.Annotations, b.Annotations)
}

type kv struct{ k, v string }

// small alphabets make equal keys, prefixes and empty strings likely, which
// is where encodings tend to go wrong.
var (
	genShort = rapid.StringMatching(`[a-c,=:\x00]{0,3}`)
	genAny   = rapid.OneOf(genShort, rapid.String())
)

func genPairs(t *rapid.T, label string) []kv {
	keys := rapid.SliceOfDistinct(genAny, rapid.ID[string]).Draw(t, label+"Keys")
	out := make([]kv, len(keys))
	for i, k := range keys {
		out[i] = kv{k, genAny.Draw(t, label+"Value")}
	}
	return out
}

// mapFrom builds a map by inserting pairs in the given order; nil for none,
// sometimes an empty map instead, to cover both.
func mapFrom(t *rapid.T, label string, ps []kv) map[string]string {
	if len(ps) == 0 {
		if rapid.Bool().Draw(t, label+"EmptyNotNil") {
			return map[string]string{}
		}
		return nil
	}
	m := make(map[string]string, len(ps))
	for _, p := range ps {
		m[p.k] = p.v
	}
	return m
}

func genTemplate(t *rapid.T, label string) model.PodTemplate {
	return model.PodTemplate{
		Labels:      mapFrom(t, label+"Labels", genPairs(t, label+"Label")),
		Annotations: mapFrom(t, label+"Annotations", genPairs(t, label+"Annotation")),
		Spec:        genAny.Draw(t, label+"Spec"),
	}
}

func genCollision(t *rapid.T, label string) *int32 {
	return rapid.Ptr(rapid.Int32(), true).Draw(t, label)
}

// I8: equal templates hash equal, however their maps were built.
func TestPropEqualTemplatesHashEqual(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		labels := genPairs(t, "label")
		anns := genPairs(t, "annotation")
		spec := genAny.Draw(t, "spec")
		cc := genCollision(t, "cc")

		a := model.PodTemplate{Labels: mapFrom(t, "a", labels), Annotations: mapFrom(t, "aa", anns), Spec: spec}
		// The same pairs inserted in another order, into maps of another
		// initial capacity, then cloned.
		lp := rapid.Permutation(labels).Draw(t, "labelOrder")
		ap := rapid.Permutation(anns).Draw(t, "annotationOrder")
		b := model.PodTemplate{Labels: map[string]string{}, Annotations: map[string]string{}, Spec: spec}
		for _, p := range lp {
			b.Labels[p.k] = p.v
		}
		for _, p := range ap {
			b.Annotations[p.k] = p.v
		}
		b = b.DeepCopy()

		if ha, hb := ComputeHash(a, cc), ComputeHash(b, cc); ha != hb {
			t.Fatalf("equal templates hash %q and %q", ha, hb)
		}
		if !bytes.Equal(appendEncoding(nil, a), appendEncoding(nil, b)) {
			t.Fatal("equal templates encode differently")
		}
	})
}

// The encoding is injective: it decodes back to the template it came from,
// and two templates encode alike exactly when they are equal.
func TestPropEncodingInjective(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate(t, "a")
		b := genTemplate(t, "b")
		ea, eb := appendEncoding(nil, a), appendEncoding(nil, b)
		da, err := decode(ea)
		if err != nil {
			t.Fatalf("encoding of %#v does not decode: %v", a, err)
		}
		if !sameTemplate(da, a) {
			t.Fatalf("round trip changed the template:\n got %#v\nwant %#v", da, a)
		}
		if bytes.Equal(ea, eb) != sameTemplate(a, b) {
			t.Fatalf("encoding equality %v but template equality %v:\n%#v\n%#v", bytes.Equal(ea, eb), sameTemplate(a, b), a, b)
		}
	})
}

// The direct hasher agrees with hash/fnv over the materialised encoding.
func TestPropSum32IsFNVOfEncoding(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tmpl := genTemplate(t, "t")
		cc := genCollision(t, "cc")
		h := fnv.New32a()
		h.Write(appendEncoding(nil, tmpl))
		if want, got := finish(h, cc), sum32(tmpl, cc); got != want {
			t.Fatalf("Sum32 = %d, fnv(AppendEncoding) = %d", got, want)
		}
	})
}

// Two non-nil collision counts whose 4 bytes differ in exactly one place
// always give different sums: FNV-1a's step h ↦ (h ^ b)·prime is injective
// in b for a fixed h and a bijection on h for a fixed b, so states that
// part at one byte never meet again when the remaining bytes agree. Counts
// that differ in several bytes, or nil against non-nil, can collide in
// principle (32-bit hash), so no such claim is made for them.
func TestPropOneByteCollisionCountsDiffer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tmpl := genTemplate(t, "t")
		c1 := rapid.Int32().Draw(t, "c1")
		pos := rapid.IntRange(0, 3).Draw(t, "bytePos")
		old := byte(uint32(c1) >> (8 * pos))
		nb := rapid.Byte().Filter(func(b byte) bool { return b != old }).Draw(t, "newByte")
		u := uint32(c1)&^(0xff<<(8*pos)) | uint32(nb)<<(8*pos)
		c2 := int32(u)
		if sum32(tmpl, &c1) == sum32(tmpl, &c2) {
			t.Fatalf("collision counts %d and %d give the same sum", c1, c2)
		}
		if ComputeHash(tmpl, &c1) == ComputeHash(tmpl, &c2) {
			t.Fatalf("collision counts %d and %d give the same hash", c1, c2)
		}
	})
}

// Encode is injective and its output is the decimal sum, digit by digit.
func TestPropEncodeDecimal(t *testing.T) {
	const digits = "456789bcdf"
	rapid.Check(t, func(t *rapid.T) {
		sum := rapid.Uint32().Draw(t, "sum")
		enc := Encode(sum)
		if len(enc) < 1 || len(enc) > 10 {
			t.Fatalf("Encode(%d) = %q has %d characters", sum, enc, len(enc))
		}
		dec := make([]byte, len(enc))
		for i := range enc {
			j := bytes.IndexByte([]byte(digits), enc[i])
			if j < 0 {
				t.Fatalf("Encode(%d) = %q has a character outside %q", sum, enc, digits)
			}
			dec[i] = byte('0' + j)
		}
		if string(dec) != strconv.FormatUint(uint64(sum), 10) {
			t.Fatalf("Encode(%d) = %q decodes to %s", sum, enc, dec)
		}
		if enc != SafeEncodeString(strconv.FormatUint(uint64(sum), 10)) {
			t.Fatal("Encode disagrees with SafeEncodeString of the decimal")
		}
	})
}

// EqualIgnoreHash is symmetric, ignores the pod-template-hash label and
// agrees with a straightforward reference: delete the label from copies,
// compare everything else.
func TestPropEqualIgnoreHash(t *testing.T) {
	reference := func(a, b model.PodTemplate) bool {
		la, lb := maps.Clone(a.Labels), maps.Clone(b.Labels)
		delete(la, model.PodTemplateHashLabel)
		delete(lb, model.PodTemplateHashLabel)
		return a.Spec == b.Spec && maps.Equal(la, lb) && maps.Equal(a.Annotations, b.Annotations)
	}
	rapid.Check(t, func(t *rapid.T) {
		a := genTemplate(t, "a")
		var b model.PodTemplate
		if rapid.Bool().Draw(t, "derive") {
			b = a.DeepCopy() // make equal pairs frequent
		} else {
			b = genTemplate(t, "b")
		}
		for i, tp := range []*model.PodTemplate{&a, &b} {
			switch rapid.IntRange(0, 2).Draw(t, "hashLabel"+strconv.Itoa(i)) {
			case 1:
				if tp.Labels == nil {
					tp.Labels = map[string]string{}
				}
				tp.Labels[model.PodTemplateHashLabel] = genShort.Draw(t, "hashValue")
			case 2:
				delete(tp.Labels, model.PodTemplateHashLabel)
			}
		}
		got := model.EqualIgnoreHash(a, b)
		if got != model.EqualIgnoreHash(b, a) {
			t.Fatal("EqualIgnoreHash is not symmetric")
		}
		if want := reference(a, b); got != want {
			t.Fatalf("EqualIgnoreHash = %v, reference %v:\n%#v\n%#v", got, want, a, b)
		}
		if !model.EqualIgnoreHash(a, a) {
			t.Fatal("EqualIgnoreHash is not reflexive")
		}
	})
}

// ReplicaSetName never exceeds the name limit for hashes ComputeHash can
// produce, and keeps the whole hash.
func TestPropReplicaSetName(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.StringMatching(`[a-z0-9-]{1,300}`).Draw(t, "name")
		h := Encode(rapid.Uint32().Draw(t, "sum"))
		got := ReplicaSetName(name, h)
		if len(got) > model.MaxNameLength {
			t.Fatalf("ReplicaSetName has %d characters", len(got))
		}
		if got[len(got)-len(h)-1:] != "-"+h {
			t.Fatalf("ReplicaSetName %q does not end in -%s", got, h)
		}
		if prefix := got[:len(got)-len(h)-1]; prefix != name[:len(prefix)] {
			t.Fatalf("ReplicaSetName %q does not start with a prefix of %q", got, name)
		}
		if len(name)+1+len(h) <= model.MaxNameLength && got != name+"-"+h {
			t.Fatalf("short name %q was cut: %q", name, got)
		}
	})
}
