package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// checkJSONText rejects what encoding/json would silently fold: bytes that
// are not UTF-8 (decoded as U+FFFD, so two different documents would compare
// equal) and an object key repeated in one object (the last one wins). The
// error gives the byte offset. Syntax errors are left to the decoder that
// follows: on anything it does not understand, checkJSONText returns nil.
func checkJSONText(doc []byte) error {
	if !utf8.Valid(doc) {
		off := 0
		for off < len(doc) {
			r, size := utf8.DecodeRune(doc[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return fmt.Errorf("invalid JSON: invalid UTF-8 at offset %d", off)
	}
	var sc keyScanner
	return sc.scan(doc)
}

// keyScanner walks a JSON document once, without decoding values, and
// remembers the keys of every open object as spans of the document; it
// allocates only to grow its stacks (and a map for objects with many keys).
type keyScanner struct {
	keys  []span // keys of the open objects, innermost last
	open  []frame
	large []map[string]struct{} // per frame index, for objects past smallObject keys
}

type span struct{ start, end int } // a key's quoted text, quotes excluded

type frame struct {
	object   bool
	firstKey int // index into keys of the object's first key
}

// smallObject is how many keys an object is checked against linearly before
// a map takes over.
const smallObject = 16

func (sc *keyScanner) scan(doc []byte) error {
	expectKey := false
	for i := 0; i < len(doc); i++ {
		switch c := doc[i]; c {
		case '{':
			sc.open = append(sc.open, frame{object: true, firstKey: len(sc.keys)})
			sc.large = append(sc.large, nil)
			expectKey = true
		case '[':
			sc.open = append(sc.open, frame{firstKey: len(sc.keys)})
			sc.large = append(sc.large, nil)
			expectKey = false
		case '}', ']':
			if len(sc.open) == 0 {
				return nil
			}
			top := sc.open[len(sc.open)-1]
			sc.keys = sc.keys[:top.firstKey]
			sc.open = sc.open[:len(sc.open)-1]
			sc.large = sc.large[:len(sc.large)-1]
			expectKey = false
		case ',':
			expectKey = len(sc.open) > 0 && sc.open[len(sc.open)-1].object
		case '"':
			end, ok := stringEnd(doc, i)
			if !ok {
				return nil
			}
			if expectKey {
				if err := sc.addKey(doc, span{i + 1, end}, i); err != nil {
					return err
				}
				expectKey = false
			}
			i = end
		}
	}
	return nil
}

// stringEnd returns the index of the closing quote of the string opening at
// doc[start].
func stringEnd(doc []byte, start int) (int, bool) {
	for j := start + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"':
			return j, true
		}
	}
	return 0, false
}

func (sc *keyScanner) addKey(doc []byte, k span, at int) error {
	fi := len(sc.open) - 1
	top := sc.open[fi]
	name := keyText(doc, k)
	if m := sc.large[fi]; m != nil {
		if _, dup := m[string(name)]; dup {
			return duplicateKey(name, at)
		}
		m[string(name)] = struct{}{}
		return nil
	}
	for _, other := range sc.keys[top.firstKey:] {
		if bytes.Equal(keyText(doc, other), name) {
			return duplicateKey(name, at)
		}
	}
	sc.keys = append(sc.keys, k)
	if n := len(sc.keys) - top.firstKey; n > smallObject {
		m := make(map[string]struct{}, 2*n)
		for _, s := range sc.keys[top.firstKey:] {
			m[string(keyText(doc, s))] = struct{}{}
		}
		sc.large[fi] = m
	}
	return nil
}

// keyText returns a key as decoded: its bytes, or, when it holds escapes,
// what encoding/json makes of them (so "a" and "\u0061" are the same key).
func keyText(doc []byte, k span) []byte {
	raw := doc[k.start:k.end]
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw
	}
	var s string
	if err := json.Unmarshal(doc[k.start-1:k.end+1], &s); err != nil {
		return raw
	}
	return []byte(s)
}

func duplicateKey(name []byte, at int) error {
	return fmt.Errorf("invalid JSON: duplicate key %s at offset %d", quoteValue(string(name)), at)
}
