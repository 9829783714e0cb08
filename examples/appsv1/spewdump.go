package appsv1

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/davecgh/go-spew/spew"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

//go:generate go run ./internal/spewgen/cmd -o spew_gen.go

// spewConfig is the go-spew configuration of upstream's pod-template hash
// (DeepHashObject in k8s.io/kubernetes/pkg/util/hash, through dump.ForHash
// of k8s.io/utils), printed with "%#v". Only SortKeys, SpewKeys and
// DisableMethods change what "%#v" prints; the others matter to Sdump.
var spewConfig = spew.ConfigState{
	Indent:                  " ",
	SortKeys:                true,
	DisableMethods:          true,
	SpewKeys:                true,
	DisablePointerAddresses: true,
	DisableCapacities:       true,
}

const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
)

// spewWriter receives the text go-spew would print and folds it into an
// FNV-1a 32-bit state as it comes; with keep set it also keeps the bytes
// (for tests that compare them with go-spew's).
type spewWriter struct {
	h    uint32
	keep bool
	buf  []byte
}

func newSpewWriter(keep bool) spewWriter { return spewWriter{h: fnvOffset32, keep: keep} }

func (w *spewWriter) s(x string) {
	if w.keep {
		w.buf = append(w.buf, x...)
	}
	h := w.h
	for i := 0; i < len(x); i++ {
		h ^= uint32(x[i])
		h *= fnvPrime32
	}
	w.h = h
}

// spewText is a constant piece of the output with what hashing it takes in
// one step. FNV-1a over a piece of k bytes maps a state h to
// h·p^k + D[h mod 256] (mod 2^32), where p is the FNV prime and D a table
// of 256 values that depends on the piece alone: XOR with a byte changes
// only the low byte of h, so h^b = h + ((h^b) − h) where the difference
// depends on the low byte only, and the low byte of the next state,
// ((h^b)·p) mod 256, depends on the low byte only as well.
//
// Building the table costs as much as hashing the piece 256 times, so a
// piece is hashed byte by byte until it has been written spewTableAfter
// times; then the table is built (by whichever goroutine gets there; every
// build gives the same table) and used from then on.
type spewText struct {
	text  string
	uses  atomic.Uint32
	table atomic.Pointer[spewTable]
}

type spewTable struct {
	pk uint32 // p^k mod 2^32
	d  [256]uint32
}

// spewTableAfter is how many byte-by-byte writes of a piece come before
// its table: a program hashing a few templates never pays for tables.
const spewTableAfter = 32

func (t *spewText) build() *spewTable {
	tb := &spewTable{pk: 1}
	for range len(t.text) {
		tb.pk *= fnvPrime32
	}
	for low := range uint32(256) {
		h := low
		for i := 0; i < len(t.text); i++ {
			h ^= uint32(t.text[i])
			h *= fnvPrime32
		}
		tb.d[low] = h - low*tb.pk
	}
	return tb
}

// lit writes a constant piece: once the piece is frequent, with its table
// in two operations whatever its length.
func (w *spewWriter) lit(t *spewText) {
	if tb := t.table.Load(); tb != nil {
		if w.keep {
			w.buf = append(w.buf, t.text...)
		}
		w.h = w.h*tb.pk + tb.d[w.h&0xff]
		return
	}
	w.s(t.text)
	if t.uses.Add(1) == spewTableAfter {
		t.table.Store(t.build())
	}
}

func (w *spewWriter) b(x []byte) {
	if w.keep {
		w.buf = append(w.buf, x...)
	}
	h := w.h
	for _, c := range x {
		h ^= uint32(c)
		h *= fnvPrime32
	}
	w.h = h
}

// sum finishes the hash as upstream's ComputeHash does:
// a non-nil collisionCount is written as 4 bytes little-endian in an 8-byte
// buffer.
func (w *spewWriter) sum(collisionCount *int32) uint32 {
	if collisionCount != nil {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], uint32(*collisionCount))
		w.b(b[:])
	}
	return w.h
}

func (w *spewWriter) int(v int64) {
	var a [24]byte
	w.b(strconv.AppendInt(a[:0], v, 10))
}

func (w *spewWriter) bool(v bool) {
	if v {
		w.s("true")
	} else {
		w.s("false")
	}
}

// fallback prints v with go-spew itself. Without typed, the leading
// "(type)" go-spew writes for a non-pointer value is dropped, as go-spew
// does for slice elements, map keys and values and pointed-to values.
func (w *spewWriter) fallback(v any, typed bool) {
	out := spewConfig.Sprintf("%#v", v)
	if !typed {
		out = strings.TrimPrefix(out, "("+reflect.TypeOf(v).String()+")")
	}
	w.s(out)
}

// sortedKeys returns the keys of m in ascending byte order, go-spew's order
// for string keys with SortKeys, appended to buf.
func sortedKeys[M ~map[K]V, K ~string, V any](m M, buf []K) []K {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

// metaTime prints a meta/v1.Time. The zero time (the one templates carry)
// has a fixed text; any other goes to go-spew, which prints time.Time's
// unexported fields and its location.
func (w *spewWriter) metaTime(t *metav1.Time, typed bool) {
	if *t == (metav1.Time{}) {
		if typed {
			w.lit(&metaTimeType)
		}
		w.lit(&metaTimeZero)
		return
	}
	w.fallback(*t, typed)
}

// The constant pieces of the hand-written printers.
var (
	quantityType    = spewText{text: "(resource.Quantity)"}
	quantityValue   = spewText{text: "{i:(resource.int64Amount){value:(int64)"}
	quantityScale   = spewText{text: " scale:(resource.Scale)"}
	quantityCached  = spewText{text: "} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)"}
	quantityFormat  = spewText{text: " Format:(resource.Format)"}
	metaTimeType    = spewText{text: "(v1.Time)"}
	metaTimeZero    = spewText{text: "{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}"}
	podTemplateType = spewText{text: "(v1.PodTemplateSpec)"}
)

// fieldsV1 prints managed fields through go-spew: the layout of
// meta/v1.FieldsV1 depends on the fieldsv1string build tag, and templates
// do not carry managed fields in practice.
func (w *spewWriter) fieldsV1(f *metav1.FieldsV1, typed bool) {
	w.fallback(*f, typed)
}

// quantityLayoutOK reports whether resource.Quantity has the fields the
// hand-written printer reads (by reflection: they are unexported): the
// int64Amount (value, scale), the *inf.Dec of the infDecAmount, the cached
// string and the Format. When it has not (another apimachinery version),
// quantities are printed by go-spew.
var quantityLayoutOK = quantityLayoutMatches()

// quantityLayoutMatches compares resource.Quantity's fields (names and type
// names as go-spew prints them) with what quantity reads.
func quantityLayoutMatches() bool {
	q := reflect.TypeFor[resource.Quantity]()
	if q.NumField() != 4 {
		return false
	}
	want := []struct {
		path []int
		name string
		typ  string
		kind reflect.Kind
	}{
		{[]int{0}, "i", "resource.int64Amount", reflect.Struct},
		{[]int{0, 0}, "value", "int64", reflect.Int64},
		{[]int{0, 1}, "scale", "resource.Scale", reflect.Int32},
		{[]int{1}, "d", "resource.infDecAmount", reflect.Struct},
		{[]int{1, 0}, "Dec", "*inf.Dec", reflect.Pointer},
		{[]int{2}, "s", "string", reflect.String},
		{[]int{3}, "Format", "resource.Format", reflect.String},
	}
	for _, f := range want {
		sf := q.FieldByIndex(f.path)
		if sf.Name != f.name || sf.Type.String() != f.typ || sf.Type.Kind() != f.kind {
			return false
		}
	}
	return q.Field(0).Type.NumField() == 2 && q.Field(1).Type.NumField() == 1
}

// quantity prints a resource.Quantity as go-spew prints its unexported
// fields: the scaled int64 form, the inf.Dec form (go-spew's job when set),
// the cached string exactly as it is (empty until String was called on this
// value) and the Format.
func (w *spewWriter) quantity(q *resource.Quantity, typed bool) {
	if !quantityLayoutOK {
		w.fallback(*q, typed)
		return
	}
	v := reflect.ValueOf(q).Elem()
	amount := v.Field(0)
	if !v.Field(1).Field(0).IsNil() {
		w.fallback(*q, typed)
		return
	}
	if typed {
		w.lit(&quantityType)
	}
	w.lit(&quantityValue)
	w.int(amount.Field(0).Int())
	w.lit(&quantityScale)
	w.int(amount.Field(1).Int())
	w.lit(&quantityCached)
	w.s(v.Field(2).String())
	w.lit(&quantityFormat)
	w.s(string(q.Format))
	w.s("}")
}
