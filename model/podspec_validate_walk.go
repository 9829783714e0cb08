package model

import (
	"encoding/json"
	"iter"
)

// A JSON walk for the pod spec rules (podspec_validate.go). The rules run
// on every object a planner validates, so they do not decode the document:
// they walk the members they need (spec, containers, initContainers,
// restartPolicy, and each container's name and image) and skip the others
// by matching brackets, allocating nothing for a valid spec. A document
// whose walked structure is malformed is left opaque, as a non-object is.

// jsonStr is a JSON string value as a span of the document, quotes
// excluded; end is 0 when the value is absent (or not a string).
type jsonStr struct{ start, end int }

func (s jsonStr) set() bool { return s.end > 0 }

// stringAt returns the string value starting at doc[v], or an unset span
// when the value there is not a string.
func stringAt(doc string, v int) jsonStr {
	if doc[v] != '"' {
		return jsonStr{}
	}
	end, ok := strEnd(doc, v)
	if !ok {
		return jsonStr{}
	}
	return jsonStr{v + 1, end}
}

// strValue returns a JSON string's text: the span itself, or, when it holds
// escapes, what encoding/json makes of it (rare; it allocates).
func strValue(doc string, s jsonStr) string {
	raw := doc[s.start:s.end]
	if !hasBackslash(raw) {
		return raw
	}
	var out string
	if err := json.Unmarshal([]byte(doc[s.start-1:s.end+1]), &out); err != nil {
		return raw
	}
	return out
}

// members walks the members of the object at doc[i]; all yields each
// member's key and the start of its value. The loop body may set next to
// the index just past the value when it has walked the value itself (which
// saves skipping it again). Afterwards ok tells whether the whole object
// could be walked, and end is the index just past it.
type members struct {
	doc       string
	i         int
	next, end int
	ok        bool
}

func (m *members) all() iter.Seq2[jsonStr, int] {
	return func(yield func(jsonStr, int) bool) {
		doc := m.doc
		i := skipSpace(doc, m.i+1)
		if i < len(doc) && doc[i] == '}' {
			m.ok, m.end = true, i+1
			return
		}
		for i < len(doc) {
			key := stringAt(doc, i)
			if !key.set() {
				return
			}
			i = skipSpace(doc, key.end+1)
			if i >= len(doc) || doc[i] != ':' {
				return
			}
			v := skipSpace(doc, i+1)
			if v >= len(doc) {
				return
			}
			m.next = 0
			if !yield(key, v) {
				return
			}
			var closed bool
			if i, closed = afterValue(doc, v, m.next, '}'); i < 0 || closed {
				m.ok, m.end = closed, i
				return
			}
		}
	}
}

// elements is members for the array at doc[i]: all yields the start of
// each element.
type elements struct {
	doc       string
	i         int
	next, end int
	ok        bool
}

func (a *elements) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		doc := a.doc
		i := skipSpace(doc, a.i+1)
		if i < len(doc) && doc[i] == ']' {
			a.ok, a.end = true, i+1
			return
		}
		for i < len(doc) {
			v := i
			a.next = 0
			if !yield(v) {
				return
			}
			var closed bool
			if i, closed = afterValue(doc, v, a.next, ']'); i < 0 || closed {
				a.ok, a.end = closed, i
				return
			}
		}
	}
}

// skipJSONValue returns the index just past the value starting at doc[i],
// or -1. Objects and arrays are skipped by matching brackets outside
// strings; scalars by reading up to the next delimiter. Nothing inside a
// skipped value is checked.
func skipJSONValue(doc string, i int) int {
	switch doc[i] {
	case '"':
		end, ok := strEnd(doc, i)
		if !ok {
			return -1
		}
		return end + 1
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); {
			if !isStructural(doc[j]) {
				j++
				continue
			}
			switch doc[j] {
			case '"':
				end, ok := strEnd(doc, j)
				if !ok {
					return -1
				}
				j = end + 1
				continue
			case '{', '[':
				depth++
			default:
				if depth--; depth == 0 {
					return j + 1
				}
			}
			j++
		}
		return -1
	}
	j := i
	for j < len(doc) {
		switch doc[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if j == i {
				return -1
			}
			return j
		}
		j++
	}
	return -1
}

func skipSpace(doc string, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// strEnd returns the index of the closing quote of the string opening at
// doc[start]. Strings in a pod spec are short, so a plain loop beats a
// vectorised search.
func strEnd(doc string, start int) (int, bool) {
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

// hasBackslash is strings.IndexByte(s, '\\') >= 0 for the short strings
// of keys and names, where a plain loop is faster.
func hasBackslash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			return true
		}
	}
	return false
}

// isStructural reports whether c is a quote or a bracket: the bytes a skip
// over a nested value stops at. '[' and ']' differ from '{' and '}' only in
// bit 0x20, and no other byte becomes '{' or '}' when it is set.
func isStructural(c byte) bool {
	return c == '"' || c|0x20 == '{' || c|0x20 == '}'
}

// afterValue moves past the value of an object member or array element
// that starts at v (to next when the caller walked into it, else by
// skipping it) and past the separator: it returns where the next entry
// starts, or, when close ends the container, just after it with closed
// set; -1 when the document is malformed there.
func afterValue(doc string, v, next int, close byte) (i int, closed bool) {
	if i = next; i == 0 {
		if i = skipJSONValue(doc, v); i < 0 {
			return -1, false
		}
	}
	i = skipSpace(doc, i)
	switch {
	case i >= len(doc):
		return -1, false
	case doc[i] == close:
		return i + 1, true
	case doc[i] == ',':
		return skipSpace(doc, i+1), false
	}
	return -1, false
}
