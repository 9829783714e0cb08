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
// error gives the byte offset. The document's syntax is left to the decoder
// that follows; checkJSONText reports only the first of these two problems.
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
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	// One frame per open object or array: the keys seen, and whether the
	// next string token of an object is a key.
	type frame struct {
		keys   map[string]struct{}
		object bool
		key    bool
	}
	var stack []frame
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil // syntax errors are the decoder's to report
		}
		top := len(stack) - 1
		if k, isString := tok.(string); isString && top >= 0 && stack[top].object && stack[top].key {
			// A key: Token returns object keys as strings.
			if _, dup := stack[top].keys[k]; dup {
				return fmt.Errorf("invalid JSON: duplicate key %s at offset %d", quoteValue(k), keyOffset(doc, before))
			}
			stack[top].keys[k] = struct{}{}
			stack[top].key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]struct{}{}, object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
		}
		// A value ended: in an object the next token is a key again.
		if top = len(stack) - 1; top >= 0 && stack[top].object {
			stack[top].key = true
		}
		if len(stack) == 0 {
			return nil
		}
	}
}

// keyOffset skips the separators (white space, ',' and ':') before the key
// token read from offset off, so the offset points at its opening quote.
func keyOffset(doc []byte, off int64) int64 {
	for off < int64(len(doc)) {
		switch doc[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}
