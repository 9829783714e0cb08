package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// checkDocumentEnd refuses content after a "..." document end marker: the
// YAML parser would end the document there and kubectl would drop the
// rest without a word. Only blank lines and comments may follow the marker
// (on its line and up to the next "---").
func checkDocumentEnd(doc document) error {
	marker := 0
	for n, line := range lines(doc.text) {
		if marker == 0 {
			if isMarker(line, "...") {
				marker = doc.base + n + 1
				if !isBlankOrComment(line[3:]) {
					return fmt.Errorf("YAML input: line %d: text after the document end marker \"...\": separate documents with a \"---\" line", marker)
				}
			}
			continue
		}
		if !isBlankOrComment(line) {
			return fmt.Errorf("YAML input: line %d: content after the document end marker \"...\" of line %d would be dropped: separate documents with a \"---\" line", doc.base+n+1, marker)
		}
	}
	return nil
}

// toJSON returns a document as JSON: a JSON document as it is, a YAML
// document converted strictly (duplicate keys are errors), with the line
// numbers of YAML errors counted in the whole input.
func toJSON(doc document) ([]byte, error) {
	if doc.json {
		return doc.text, nil
	}
	if err := checkDocumentEnd(doc); err != nil {
		return nil, err
	}
	// A List an item at a time when it can, for memory: the same JSON.
	limit := yamlLimit(len(doc.text))
	if data, ok := blockListToJSON(doc.text, "items", partSize, limit); ok {
		return data, nil
	}
	if err := checkYAMLCost(doc.text, limit); err != nil {
		return nil, fmt.Errorf("YAML input: %w", err)
	}
	data, err := yaml.YAMLToJSONStrict(doc.text)
	if err == nil {
		err = checkConversion(doc.text, data)
	}
	if err != nil {
		if doc.base == 0 {
			return nil, errors.New("YAML input: " + inDocumentTerms(err))
		}
		return nil, errors.New("YAML input: " + shiftLines(inDocumentTerms(err), doc.base))
	}
	return data, nil
}

// checkConversion parses YAML text again with the parser that converted it
// to data (go.yaml.in/yaml/v2, under sigs.k8s.io/yaml) and refuses what the
// conversion loses without an error, as kubectl does:
//
//   - more after the first document: the conversion reads the first one
//     only ("{a: 1}" then "{b: 2}" on the next line, an indented mapping
//     then a key at column 0, a document after a "..." end marker);
//   - keys of one mapping that differ in YAML but not as JSON keys (1 and
//     "1", 0 and 0.0): the conversion keeps one of them, which one
//     depending on Go's map order.
func checkConversion(text, data []byte) error {
	dec := yamlv2.NewDecoder(bytes.NewReader(text))
	var tree any
	if err := dec.Decode(&tree); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	switch err := dec.Decode(new(any)); {
	case err == nil:
		return errors.New("a second document without a \"---\" line before it would be dropped (separate documents with a \"---\" line)")
	case !errors.Is(err, io.EOF):
		return fmt.Errorf("content after the end of the document would be dropped (separate documents with a \"---\" line): %w", err)
	}
	if yamlKeys(tree) != jsonKeys(data) {
		return errors.New("two keys of a mapping are one key in JSON (such as 1 and \"1\", or 0 and 0.0): one of them would be dropped")
	}
	return nil
}

// yamlKeys counts the keys of every mapping in a decoded YAML tree.
func yamlKeys(v any) int {
	n := 0
	switch v := v.(type) {
	case map[any]any:
		n += len(v)
		for _, e := range v {
			n += yamlKeys(e)
		}
	case []any:
		for _, e := range v {
			n += yamlKeys(e)
		}
	}
	return n
}

// jsonKeys counts the keys of every object in JSON text: the colons outside
// strings.
func jsonKeys(data []byte) int {
	n, inString := 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == ':':
			n++
		}
	}
	return n
}

// shiftLines adds by to every "line N:" of a YAML parser's message, whose
// lines are counted in the document.
func shiftLines(msg string, by int) string {
	var b strings.Builder
	for {
		i := strings.Index(msg, "line ")
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		i += len("line ")
		j := i
		for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
			j++
		}
		b.WriteString(msg[:i])
		if n, err := strconv.Atoi(msg[i:j]); err == nil && j < len(msg) && msg[j] == ':' {
			b.WriteString(strconv.Itoa(n + by))
		} else {
			b.WriteString(msg[i:j])
		}
		msg = msg[j:]
	}
}
