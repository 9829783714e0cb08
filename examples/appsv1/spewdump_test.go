package appsv1

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/spewgen"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
)

// dumpBytes is what ComputeHash hashes, kept as bytes.
func dumpBytes(v *core.PodTemplateSpec) []byte {
	w := newSpewWriter(true)
	w.lit(&podTemplateType)
	spewPodTemplateSpec(&w, v)
	return w.buf
}

// requireSpewEqual compares the generated printer with go-spew (the
// configuration of upstream's DeepHashObject) on v, bytes and hash.
func requireSpewEqual(t interface {
	Helper()
	Fatalf(format string, args ...any)
}, v *core.PodTemplateSpec) {
	t.Helper()
	want := spewConfig.Sprintf("%#v", *v)
	got := dumpBytes(v)
	if string(got) != want {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-80)
		t.Fatalf("dump differs from go-spew at byte %d:\n got  …%s\n want …%s", i, got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
	}
	w := newSpewWriter(false)
	w.lit(&podTemplateType)
	spewPodTemplateSpec(&w, v)
	if w.h != fnv32a(want) {
		t.Fatalf("FNV state %d, want %d", w.h, fnv32a(want))
	}
}

func fnv32a(s string) uint32 {
	h := uint32(fnvOffset32)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime32
	}
	return h
}

// conformanceTemplates returns the pod templates of every Deployment and
// ReplicaSet in the public conformance cases.
func conformanceTemplates(t testing.TB) []core.PodTemplateSpec {
	t.Helper()
	var out []core.PodTemplateSpec
	for _, l := range ReadJSONL[struct {
		Case Case `json:"case"`
	}](t, "testdata/conformance/public-seed1.jsonl") {
		out = append(out, l.Case.Deployment.Spec.Template)
		for _, rs := range l.Case.ReplicaSets {
			out = append(out, rs.Spec.Template)
		}
	}
	return out
}

// TestSpewDumpConformanceTemplates: every template of the recorded cases
// (as decoded from the API's JSON) prints exactly as go-spew prints it.
func TestSpewDumpConformanceTemplates(t *testing.T) {
	ts := conformanceTemplates(t)
	if len(ts) < 200 {
		t.Fatalf("only %d templates", len(ts))
	}
	for i := range ts {
		requireSpewEqual(t, &ts[i])
	}
}

// TestSpewDumpEdgeCases pins the kinds go-spew prints specially: nil
// versus empty slices and maps, nil and set pointers, sorted map keys
// (byte order, upper case first), quantities with and without their cached
// string and in inf.Dec form, times other than zero, byte slices, and
// strings with spaces, colons and brackets.
func TestSpewDumpEdgeCases(t *testing.T) {
	cached := resource.MustParse("1.5Gi")
	_ = cached.String() // fills the cached string go-spew prints
	dec := resource.MustParse("12345678901234567890123")
	asDec := resource.MustParse("100m")
	asDec.AsDec() // switches the representation to inf.Dec
	grace := int64(0)
	zone := time.FixedZone("X", 3600)
	fields := &metav1.FieldsV1{}
	fields.SetRawString(`{"f:spec":{}}`)
	tests := []struct {
		name string
		tmpl core.PodTemplateSpec
	}{
		{"empty", core.PodTemplateSpec{}},
		{"empty maps and slices", core.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{}, Annotations: map[string]string{}, Finalizers: []string{}},
			Spec:       core.PodSpec{Containers: []core.Container{}, NodeSelector: map[string]string{}, Overhead: core.ResourceList{}},
		}},
		{"sorted keys, odd strings", core.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"b": "x y", "a": "map[k:v]", "B": "", "a/b": "(string)<nil>", "ä": "}"}},
		}},
		{"quantities", core.PodTemplateSpec{Spec: core.PodSpec{
			Containers: []core.Container{{Name: "c", Resources: core.ResourceRequirements{
				Limits:   core.ResourceList{"memory": cached, "cpu": resource.MustParse("0.5"), "big": dec, "dec": asDec},
				Requests: core.ResourceList{"cpu": resource.MustParse("500m"), "zero": {}},
			}}},
			Overhead: core.ResourceList{"cpu": asDec},
		}}},
		{"pointers", core.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{DeletionGracePeriodSeconds: &grace},
			Spec: core.PodSpec{
				SecurityContext: &core.PodSecurityContext{RunAsNonRoot: new(true), Sysctls: []core.Sysctl{{Name: "a", Value: "1"}}},
				Containers:      []core.Container{{Name: "c", LivenessProbe: &core.Probe{ProbeHandler: core.ProbeHandler{Exec: &core.ExecAction{Command: []string{"true"}}}}}},
			},
		}},
		{"times", core.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{
			CreationTimestamp: metav1.NewTime(time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)),
			DeletionTimestamp: &metav1.Time{Time: time.Date(2026, 3, 14, 9, 26, 53, 5, zone)},
			ManagedFields:     []metav1.ManagedFieldsEntry{{Manager: "m", Time: &metav1.Time{}, FieldsV1: fields}},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { requireSpewEqual(t, &tt.tmpl) })
	}
}

// TestSpewDumpRandomTemplates is the differential property: any template
// rapid builds, over every field reachable from PodTemplateSpec, prints as
// go-spew prints it.
func TestSpewDumpRandomTemplates(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var v core.PodTemplateSpec
		f := filler{t: rt, density: rapid.IntRange(1, 10).Draw(rt, "density")}
		f.fill(reflect.ValueOf(&v).Elem(), 0)
		requireSpewEqual(rt, &v)
	})
}

var (
	quantityReflectType = reflect.TypeFor[resource.Quantity]()
	metaTimeReflectType = reflect.TypeFor[metav1.Time]()
)

// quantityTexts are parsed into quantities: canonical and not, suffixes of
// both kinds, exponents, and values beyond int64 (inf.Dec form).
var quantityTexts = []string{"0", "1", "500m", "0.5", "1.5Gi", "128Mi", "1e3", "2k", "100M", "1Ei", "12345678901234567890123", "0.000000001", "1n", "-3"}

// filler sets values of any type reachable from PodTemplateSpec to random
// ones: each pointer, slice and map is set with probability density/10
// (nil or empty otherwise), so density 10 fills every field at every depth;
// strings come from a small alphabet with spaces and punctuation.
type filler struct {
	t       *rapid.T
	density int
}

// set draws whether a pointer, slice or map gets contents.
func (f filler) set(label string) bool {
	return rapid.IntRange(0, 9).Draw(f.t, label) < f.density
}

func (f filler) fill(v reflect.Value, depth int) {
	t := f.t
	switch v.Type() {
	case quantityReflectType:
		q := resource.MustParse(rapid.SampledFrom(quantityTexts).Draw(t, "quantity"))
		switch rapid.IntRange(0, 2).Draw(t, "quantityForm") {
		case 1:
			_ = q.String()
		case 2:
			q.AsDec()
		}
		v.Set(reflect.ValueOf(q))
		return
	case metaTimeReflectType:
		if rapid.Bool().Draw(t, "setTime") {
			v.Set(reflect.ValueOf(metav1.NewTime(time.Unix(rapid.Int64Range(-1e10, 1e10).Draw(t, "unix"), 0).UTC())))
		}
		return
	}
	more := depth < 20 // the API types are not recursive; a guard all the same
	switch v.Kind() {
	case reflect.String:
		v.SetString(rapid.StringMatching(`[a-zA-Z0-9 :/()\[\]{}<>.*-]{0,12}`).Draw(t, "string"))
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, "bool"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(rapid.Int64Range(-1<<(v.Type().Bits()-1), 1<<(v.Type().Bits()-1)-1).Draw(t, "int"))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rapid.Uint64Range(0, math.MaxUint64>>(64-v.Type().Bits())).Draw(t, "uint"))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(rapid.Float64().Draw(t, "float"))
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		if more && f.set("ptr") {
			p := reflect.New(v.Type().Elem())
			f.fill(p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		switch {
		case !more || !f.set("slice"):
			if rapid.Bool().Draw(t, "emptySlice") {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}
		default:
			n := rapid.IntRange(1, 2).Draw(t, "len")
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				f.fill(s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		switch {
		case !more || !f.set("map"):
			if rapid.Bool().Draw(t, "emptyMap") {
				v.Set(reflect.MakeMap(v.Type()))
			}
		default:
			n := rapid.IntRange(1, 3).Draw(t, "len")
			m := reflect.MakeMap(v.Type())
			for range n {
				k := reflect.New(v.Type().Key()).Elem()
				f.fill(k, depth+1)
				e := reflect.New(v.Type().Elem()).Elem()
				f.fill(e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	}
}

// TestQuantityLayout: resource.Quantity has the fields the hand-written
// printer reads in the apimachinery version this module builds with, so
// quantities take the fast path (and a mismatch would fall back to
// go-spew, not misprint).
func TestQuantityLayout(t *testing.T) {
	if !quantityLayoutOK {
		t.Fatal("resource.Quantity's fields are not those the printer reads")
	}
}

// TestSpewGenCurrent: spew_gen.go is what the generator writes today.
func TestSpewGenCurrent(t *testing.T) {
	want, err := spewgen.Generate(spewgen.PodTemplateSpecConfig())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("spew_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("spew_gen.go is stale: run go generate in examples/appsv1")
	}
}

// FuzzSpewDump: any pod template JSON the API types decode prints as
// go-spew prints it.
func FuzzSpewDump(f *testing.F) {
	for _, tmpl := range conformanceTemplates(f)[:8] {
		data, err := json.Marshal(tmpl)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v core.PodTemplateSpec
		if err := json.Unmarshal(data, &v); err != nil {
			return
		}
		requireSpewEqual(t, &v)
	})
}

// BenchmarkComputeHash: the generated printer on the first conformance
// case's template (541 bytes of JSON), and go-spew on the same value.
func BenchmarkComputeHash(b *testing.B) {
	tmpl := conformanceTemplates(b)[0]
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = ComputeHash(&tmpl, nil)
		}
	})
	b.Run("go-spew", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = fnv32a(spewConfig.Sprintf("%#v", tmpl))
		}
	})
}

// TestSpewTextTable: writing a piece through its table gives the FNV-1a
// state byte-by-byte hashing gives, from any state, for any text; the
// table is built after spewTableAfter writes and the bytes kept are the
// text each time.
func TestSpewTextTable(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		text := rapid.StringN(0, 64, -1).Draw(rt, "text")
		start := rapid.Uint32().Draw(rt, "state")
		piece := &spewText{text: text}
		for i := range spewTableAfter + 2 {
			bytewise := spewWriter{h: start}
			bytewise.s(text)
			viaLit := spewWriter{h: start, keep: true}
			viaLit.lit(piece)
			if viaLit.h != bytewise.h || string(viaLit.buf) != text {
				rt.Fatalf("write %d: state %d, want %d; bytes %q", i, viaLit.h, bytewise.h, viaLit.buf)
			}
			if built := piece.table.Load() != nil; built != (i+1 >= spewTableAfter) {
				rt.Fatalf("after %d writes: table built %v", i+1, built)
			}
		}
	})
}
