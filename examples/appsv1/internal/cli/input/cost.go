package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// decodedFactor bounds what decoding the input's objects may keep, as a
// multiple of the input's size (with decodedFloor bytes of room for any
// input): the Go value of a JSON value can be far larger than its text (an
// empty container "{}", 3 bytes with its comma, is a 408-byte
// core.Container; a Pod of 32 bytes a 1.2 KB core.Pod), so that without a
// bound an input of 8 MiB made of them took 450 times its size (issue 24).
// Each object is costed before it is decoded (decodedCost) and one that
// would take the objects read past the bound is refused, naming it. The
// objects kubectl records cost 1 to 2.5 times their text as it prints it
// (indented), and up to 3.4 times compact (TestRecordedObjectsWithinBudget):
// under the bound, which keeps reading any input within about 10 times its
// size, as --max-input's help states (TestReadMemoryBounded checks a List
// as kubectl prints it and inputs made to be as heavy as possible).
const (
	decodedFactor = 4
	decodedFloor  = 4 << 20
)

// errTooHeavy is what a refused object's error wraps.
var errTooHeavy = errors.New("the objects would take too much memory")

// budget is what decoding the input's objects may still keep, in bytes,
// and the JSON fields of the types costed so far (read once per type and
// input).
type budget struct {
	left, total int64
	fields      map[reflect.Type]fields
}

func newBudget(size int) *budget {
	b := decodedFactor*int64(size) + decodedFloor
	return &budget{left: b, total: b, fields: map[reflect.Type]fields{}}
}

// charge costs decoding data into a value of v's type and takes it from
// the budget, or refuses the object item before it is decoded.
func (b *budget) charge(data []byte, v any, item string) error {
	if b == nil {
		return nil
	}
	c, err := decodedCost(data, reflect.TypeOf(v), b.fields)
	if err != nil {
		// The decoder that follows reports the syntax error, with its
		// position: cost what the text itself costs.
		c = int64(len(data))
	}
	if c > b.left {
		return fmt.Errorf("%s: %w: decoding the input's objects up to this one keeps about %d bytes, more than %d times the input's size and %d MiB (what kubectl prints keeps 1 to 3.5 times its size); the input is not a snapshot kubectl prints (many empty objects or short values?)",
			item, errTooHeavy, b.total-b.left+c, decodedFactor, decodedFloor>>20)
	}
	b.left -= c
	return nil
}

// decodedCost returns about how many bytes decoding the JSON value data
// into a value of type t (a pointer, as json.Unmarshal takes it) keeps at
// most, without decoding it: the fixed size of every element of a slice,
// of every value a pointer points to and of every map entry (twice, for
// the table's room), and the bytes of strings and of the values a type
// decodes itself (times, quantities, raw extensions), which keep at most
// their text. The copies a growing slice leaves behind are garbage, within
// the collector's headroom that the measured bound includes. It scans
// data in place: a tokenizer's garbage, a string per key, took as much
// memory again as the objects (through the collector's headroom).
func decodedCost(data []byte, t reflect.Type, known map[reflect.Type]fields) (int64, error) {
	s := &scanner{b: data, known: known}
	return s.value(t)
}

// scanner reads JSON text already checked for syntax (an error is
// returned for what it cannot read, never a panic).
type scanner struct {
	b     []byte
	i     int
	known map[reflect.Type]fields // the fields of the struct types met, by type
}

var errScan = errors.New("malformed JSON")

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// peek returns the next byte that is not white space, 0 at the end.
func (s *scanner) peek() byte {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
	if s.i == len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// str reads a string and returns its text between the quotes, escapes
// left as they are.
func (s *scanner) str() ([]byte, error) {
	if s.peek() != '"' {
		return nil, errScan
	}
	s.i++
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
			continue
		case '"':
			s.i++
			return s.b[start : s.i-1], nil
		}
		s.i++
	}
	return nil, errScan
}

// skip moves past the next value.
func (s *scanner) skip() error {
	switch s.peek() {
	case 0:
		return errScan
	case '"':
		_, err := s.str()
		return err
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if _, err := s.str(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			s.i++
			if depth == 0 {
				return nil
			}
		}
		return errScan
	}
	for s.i < len(s.b) && !isSpace(s.b[s.i]) && !strings.ContainsRune(",}]", rune(s.b[s.i])) {
		s.i++
	}
	return nil
}

// next moves past the separator after a member or an element, and
// reports whether the object or array goes on (false: past its end).
func (s *scanner) next() (bool, error) {
	switch s.peek() {
	case ',':
		s.i++
		return true, nil
	case '}', ']':
		s.i++
		return false, nil
	}
	return false, errScan
}

// open moves past the opening delimiter c, and reports whether a member
// or an element follows.
func (s *scanner) open(c byte) bool {
	s.i++
	if p := s.peek(); p == '}' && c == '{' || p == ']' && c == '[' {
		s.i++
		return false
	}
	return true
}

// key reads an object's key and the colon after it, and returns the key
// as written between its quotes (escapes left as they are).
func (s *scanner) key() ([]byte, error) {
	raw, err := s.str()
	if err != nil {
		return nil, err
	}
	if s.peek() != ':' {
		return nil, errScan
	}
	s.i++
	return raw, nil
}

// unquoteKey returns a key as scanner.key returns it (between its quotes)
// unescaped, as the decoder reads it; "" when it cannot be read.
func unquoteKey(raw []byte) string {
	if !strings.ContainsRune(string(raw), '\\') {
		return string(raw)
	}
	var key string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &key) != nil {
		return ""
	}
	return key
}

// value costs the next JSON value decoded into a value of type t.
func (s *scanner) value(t reflect.Type) (int64, error) {
	c := s.peek()
	start := s.i
	switch {
	case c == 0:
		return 0, errScan
	case t.Kind() == reflect.Interface || t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshaler):
		// A type that decodes itself keeps at most its text.
		err := s.skip()
		return int64(s.i - start), err
	case c == 'n': // null
		return 0, s.skip()
	}
	switch t.Kind() {
	case reflect.Pointer:
		e, err := s.value(t.Elem())
		return int64(t.Elem().Size()) + e, err
	case reflect.String:
		if c != '"' {
			break
		}
		raw, err := s.str()
		return int64(len(raw)), err
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && c == '"' {
			raw, err := s.str() // base64: its bytes are fewer
			return int64(len(raw)), err
		}
		if c != '[' {
			break
		}
		var total int64
		for more := s.open('['); more; {
			e, err := s.value(t.Elem())
			if err != nil {
				return 0, err
			}
			total += int64(t.Elem().Size()) + e
			if more, err = s.next(); err != nil {
				return 0, err
			}
		}
		return total, nil
	case reflect.Map:
		if c != '{' {
			break
		}
		var total int64
		for more := s.open('{'); more; {
			k, err := s.key()
			if err != nil {
				return 0, err
			}
			e, err := s.value(t.Elem())
			if err != nil {
				return 0, err
			}
			total += 2*int64(t.Key().Size()+t.Elem().Size()) + int64(len(k)) + e
			if more, err = s.next(); err != nil {
				return 0, err
			}
		}
		return total, nil
	case reflect.Struct:
		if c != '{' {
			break
		}
		fields := s.fieldsOf(t)
		var total int64
		for more := s.open('{'); more; {
			k, err := s.key()
			if err != nil {
				return 0, err
			}
			if ft, ok := fields.lookup(k); ok {
				e, err := s.value(ft)
				if err != nil {
					return 0, err
				}
				total += e
			} else if err := s.skip(); err != nil {
				// An unknown field is skipped by the decoder, then refused.
				return 0, err
			}
			if more, err = s.next(); err != nil {
				return 0, err
			}
		}
		return total, nil
	}
	// A number or a boolean, or a value the decoder refuses.
	return 0, s.skip()
}

// fields are a struct's JSON fields by name, inline and embedded structs'
// included, as encoding/json matches them: exactly, else ignoring case
// (the first name in field order that matches).
type fields struct {
	byName map[string]reflect.Type
	names  []string // in field order
}

func (f fields) lookup(raw []byte) (reflect.Type, bool) {
	if t, ok := f.byName[string(raw)]; ok {
		return t, true
	}
	// Escaped or not exactly a field's name: the rare case, and the
	// decoder's way (a key matching a field but for case is decoded,
	// then refused).
	key := unquoteKey(raw)
	if t, ok := f.byName[key]; ok {
		return t, true
	}
	for _, name := range f.names {
		if strings.EqualFold(name, key) {
			return f.byName[name], true
		}
	}
	return nil, false
}

// fieldsOf returns the fields of the struct type t, read once per input.
func (s *scanner) fieldsOf(t reflect.Type) fields {
	if f, ok := s.known[t]; ok {
		return f
	}
	f := fields{byName: map[string]reflect.Type{}}
	addFields(&f, t)
	if s.known != nil {
		s.known[t] = f
	}
	return f
}

func addFields(f *fields, t reflect.Type) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if name == "" && (sf.Anonymous || strings.Contains(","+opts+",", ",inline,")) && ft.Kind() == reflect.Struct {
			addFields(f, ft)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if _, dup := f.byName[name]; !dup {
			f.names = append(f.names, name)
		}
		f.byName[name] = ft
	}
}

// Converting YAML to JSON (sigs.k8s.io/yaml) builds, for every node of the
// text converted at once, the parser's node, the decoded value and its
// JSON-able copy: about yamlNodeBytes bytes a node (as yamlNodes counts
// them) at most, measured: 340 for a flow list of one-letter scalars, 300
// for recorded Pods in flow style, 140 for a flow list of empty maps. A List in block style, as kubectl
// prints it, is converted a group of items at a time (BlockListToJSON),
// at little cost; anything else is converted whole, and a document made
// of many small nodes ("args: [a,a,a,…]", a List in flow style) took up
// to 170 times its size. A conversion whose nodes would take more than
// yamlFactor times the document's size (with yamlFloor bytes of room, for
// any manifest of ordinary size) is refused before it starts.
const (
	yamlNodeBytes = 400
	yamlFactor    = 4
	yamlFloor     = 32 << 20
)

// yamlNodes is an upper bound of the nodes of a YAML text: every node but
// the first starts after a flow indicator ("[", "{", ","), a mapping
// value's ":" or a block entry's "-", or on a line of its own; the same
// characters in scalars count too, which only overestimates.
func yamlNodes(text []byte) int64 {
	n := int64(1)
	for _, c := range text {
		switch c {
		case ',', '[', '{', '-', ':', '\n':
			n++
		}
	}
	return n
}

// yamlLimit is the most converting a part of a YAML document of size
// bytes may take at once.
func yamlLimit(size int) int64 { return yamlFactor*int64(size) + yamlFloor }

// errYAMLTooHeavy is what refusing a conversion wraps.
var errYAMLTooHeavy = errors.New("the YAML document would take too much memory to convert")

// checkYAMLCost refuses converting text at once when its nodes would take
// more than limit bytes.
func checkYAMLCost(text []byte, limit int64) error {
	if c := yamlNodes(text) * yamlNodeBytes; c > limit {
		return fmt.Errorf("%w: about %d nodes converted at once, %d bytes (more than %d times its size and %d MiB): give a List with its items as a block sequence, as kubectl prints it, or JSON",
			errYAMLTooHeavy, c/yamlNodeBytes, c, yamlFactor, yamlFloor>>20)
	}
	return nil
}
