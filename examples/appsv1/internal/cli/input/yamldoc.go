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

// plainBlockMapping reports YAML text whose first content starts at column
// 0 with a character that is not a YAML indicator: when it converts to an
// object, a block mapping with a plain key (as kubectl prints). The parser
// cannot end such a document before the text ends without an error, but at
// a "..." marker (see checkDocumentEnd): a line at column 0 that does not
// continue the mapping is a syntax error. The fuzz target checks this
// against secondDocument.
func plainBlockMapping(text []byte) bool {
	_, line, ok := firstContent(text)
	return ok && !strings.ContainsRune(" \t-?:,[]{}#&*!|>'\"%@`", rune(line[0]))
}

// checkDocumentEnd refuses content after a "..." document end marker: the
// YAML parser would end the document there and kubectl would drop the
// rest without a word. Only blank lines and comments may follow the marker
// (on its line and up to the next "---").
func checkDocumentEnd(doc document) error {
	marker := 0
	for n, line := range lines(doc.text) {
		if marker == 0 {
			if isDocumentEnd(line) {
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
	data, err := yaml.YAMLToJSONStrict(doc.text)
	if err == nil && !(bytes.HasPrefix(data, []byte("{")) && plainBlockMapping(doc.text)) {
		err = secondDocument(doc.text)
	}
	if err != nil {
		if doc.base == 0 {
			return nil, fmt.Errorf("YAML input: %w", err)
		}
		return nil, errors.New("YAML input: " + shiftLines(err.Error(), doc.base))
	}
	return data, nil
}

// noop is a YAML value that decodes nothing: the parser only checks the
// syntax.
type noop struct{}

func (*noop) UnmarshalYAML(func(any) error) error { return nil }

// secondDocument refuses YAML text in which the parser that converts it
// (go.yaml.in/yaml/v2, under sigs.k8s.io/yaml) finds more after the first
// document: the conversion reads the first document only, and kubectl
// drops the rest without a word ("{a: 1}" then "{b: 2}" on the next line,
// or a document after a "..." end marker).
func secondDocument(text []byte) error {
	dec := yamlv2.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&noop{}); errors.Is(err, io.EOF) {
		return nil // no document: blank lines and comments
	} else if err != nil {
		return err
	}
	err := dec.Decode(&noop{})
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return fmt.Errorf("content after the end of the document would be dropped (separate documents with a \"---\" line): %w", err)
	}
	return errors.New("a second document without a \"---\" line before it would be dropped (separate documents with a \"---\" line)")
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
