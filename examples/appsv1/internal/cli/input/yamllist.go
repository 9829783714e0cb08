package input

import (
	"bytes"
	"encoding/json"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// BlockListToJSON converts a YAML document whose root is a mapping with key
// (such as "items" of a List, or "events" of a restart script) at column 0
// holding a block sequence, to the JSON sigs.k8s.io/yaml's YAMLToJSONStrict
// makes of the whole document, byte for byte, one sequence entry at a
// time: converting the whole document at once builds several trees of it
// (the parser's nodes, the decoded maps and their JSON-able copy), about
// 30 times the text, where one entry at a time keeps the text and its
// JSON. It reports false, and the caller converts the whole document, when
// the document is not of that shape, when any part does not convert (the
// whole conversion then gives the error, with its line numbers), or when
// it cannot tell that the parts parse as they would in the whole: text
// before the key that does not parse by itself (a quoted scalar or a flow
// collection going on past it), anchors or aliases outside the entries,
// directives. An entry parses as it does in the whole document: a quoted
// scalar or a flow collection open at an entry's end would be left open by
// the entry alone, an error; anything else that spans lines is indented
// more than the entries' dashes.
func BlockListToJSON(text []byte, key string) ([]byte, bool) {
	return blockListToJSON(text, key, partSize, 0)
}

// blockListToJSON is BlockListToJSON converting entries in groups of about
// size bytes; with limit > 0, it reports false too when a group's
// conversion could take more than limit bytes (checkYAMLCost).
func blockListToJSON(text []byte, key string, size int, limit int64) ([]byte, bool) {
	head := []byte(key + ":")
	var (
		keyAt  int  // offset of the key's line
		keyEnd = -1 // offset just past the key's line
		indent = -1 // the column of the entries' dashes
		starts []int
		end    = len(text) // offset of the first line after the sequence
	)
	for off := 0; off < len(text); {
		line := text[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		next := off + len(line)
		trimmed := bytes.TrimRight(line, " \r\n")
		switch {
		case keyEnd < 0:
			if bytes.Equal(trimmed, head) {
				keyAt, keyEnd = off, next
			}
		case isBlankOrComment(trimmed):
		default:
			col := len(trimmed) - len(bytes.TrimLeft(trimmed, " "))
			dash := col < len(trimmed) && trimmed[col] == '-' && (col+1 == len(trimmed) || trimmed[col+1] == ' ')
			if indent < 0 {
				if !dash {
					return nil, false // not a block sequence
				}
				indent = col
			}
			switch {
			case col == indent && dash:
				starts = append(starts, off)
			case col <= indent:
				end = off
			}
		}
		if end < len(text) {
			break
		}
		off = next
	}
	if keyEnd < 0 || len(starts) == 0 {
		return nil, false
	}
	// The document without its entries: the key's value is null.
	prefix, suffix := text[:keyAt], text[end:]
	if !plainPrefix(prefix) || bytes.ContainsAny(prefix, "&*") || bytes.ContainsAny(suffix, "&*") {
		return nil, false
	}
	top, ok := convertPart(append(append([]byte(nil), text[:keyEnd]...), suffix...))
	if !ok {
		return nil, false
	}
	at := nullKey(top, key)
	if at < 0 {
		return nil, false
	}
	// The lines between the key and the first entry (blank or comments)
	// go with the first entry. Entries are converted in groups of about
	// partSize bytes: one parser per entry costs time, one per group
	// little memory. The groups' JSON is joined once at the end, in a
	// slice of its exact size: a buffer grown as the groups came left up
	// to twice the JSON's size, kept while the objects are decoded.
	starts[0] = keyEnd
	starts = append(starts, end)
	var groups [][]byte
	n := len(top) - len("null") + len("[]")
	for i := 0; i+1 < len(starts); {
		j := i + 1
		for j+1 < len(starts) && starts[j]-starts[i] < size {
			j++
		}
		if limit > 0 && checkYAMLCost(text[starts[i]:starts[j]], limit) != nil {
			return nil, false
		}
		part, ok := convertPart(text[starts[i]:starts[j]])
		if !ok {
			return nil, false
		}
		// A compact JSON array (json.Marshal's) of the group's entries:
		// between its brackets, the entries separated by commas.
		var entries []jsonNoop
		if json.Unmarshal(part, &entries) != nil || len(entries) != j-i || part[0] != '[' || part[len(part)-1] != ']' {
			return nil, false
		}
		groups = append(groups, part[1:len(part)-1])
		n += len(part) - 1 // the entries and a comma
		i = j
	}
	out := make([]byte, 0, n)
	out = append(out, top[:at]...)
	out = append(out, '[')
	for k, g := range groups {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, g...)
	}
	out = append(out, ']')
	out = append(out, top[at+len("null"):]...)
	return out, true
}

// partSize is about how many bytes of entries BlockListToJSON converts at
// once.
const partSize = 64 << 10

// plainPrefix reports text before the list's key that parses by itself
// (no quoted scalar or flow collection goes on past it) to a mapping or
// nothing, with no directive.
func plainPrefix(prefix []byte) bool {
	for _, line := range bytes.Split(prefix, []byte("\n")) {
		if bytes.HasPrefix(line, []byte("%")) {
			return false
		}
	}
	var v any
	if yamlv2.Unmarshal(prefix, &v) != nil {
		return false
	}
	switch v.(type) {
	case nil, map[any]any:
		return true
	}
	return false
}

// convertPart converts one part as toJSON converts a document, and
// reports whether it converted without error.
func convertPart(text []byte) ([]byte, bool) {
	data, err := yaml.YAMLToJSONStrict(text)
	if err != nil || checkConversion(text, data) != nil {
		return nil, false
	}
	return data, true
}

// nullKey returns the offset of the null value of key in the JSON object
// data, at its top level, or -1.
func nullKey(data []byte, key string) int {
	want, _ := json.Marshal(key)
	want = append(want, ':')
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			if !inString && depth == 1 && (data[i-1] == '{' || data[i-1] == ',') && bytes.HasPrefix(data[i:], want) {
				if v := i + len(want); bytes.HasPrefix(data[v:], []byte("null")) {
					return v
				}
				return -1
			}
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return -1
}
