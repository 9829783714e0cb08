package input

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	kyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// document is one document of the input stream.
type document struct {
	// index counts the documents with content from 1; line is the 1-based
	// line of the document's first line that is not blank, a comment or a
	// "---" separator.
	index, line int
	// text is a JSON object (JSON streams) or a YAML document.
	text []byte
	json bool
	// base is the number of input lines before text's first line.
	base int
	// data and err are the document as JSON (see toJSON), set when it is
	// split off; err is reported when the document is read.
	data []byte
	err  error
}

// withoutNulls leaves out the documents that are YAML null ("~", "null"),
// which kubectl skips: such a document counts neither as a document of its
// own nor for a lone document's rules (a Case, or a Deployment with
// Options.Single). The documents keep their numbers.
func withoutNulls(docs []document) []document {
	return slices.DeleteFunc(docs, func(doc document) bool {
		return doc.err == nil && bytes.Equal(doc.data, []byte("null"))
	})
}

// splitDocuments splits data, the whole input, into its documents as
// kubectl's -f reader does (k8s.io/apimachinery's YAMLOrJSONDecoder): an
// input whose first byte that is not white space is '{' and that has no
// line starting with "---" is a stream of JSON objects separated by white
// space; any other input is a YAML stream, split on lines starting with
// "---" by apimachinery's YAMLReader. Documents with nothing but blank
// lines and comments are left out.
func splitDocuments(data []byte) ([]document, Format, error) {
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) && !bytes.Contains(data, []byte("\n---")) {
		docs, err := splitJSON(data)
		return docs, JSON, err
	}
	docs, err := splitYAML(data)
	return docs, YAML, err
}

// splitJSON decodes successive JSON values, each of which must be an object.
// Each is found by scanning data in place and checked with json.Valid,
// which keep nothing; only an invalid one is read again by a json.Decoder
// for its error (a decoder's buffer grows to the document twice over: 16
// MiB of garbage for a List of 8 MiB).
func splitJSON(data []byte) ([]document, error) {
	var docs []document
	line, counted, pos := 1, 0, 0
	for {
		for pos < len(data) && isSpace(data[pos]) {
			pos++
		}
		if pos == len(data) {
			return docs, nil
		}
		if data[pos] != '{' {
			return nil, newSyntaxError(data, int64(pos), "data after the JSON document (not another JSON object)")
		}
		line += bytes.Count(data[counted:pos], []byte{'\n'})
		counted = pos
		s := &scanner{b: data, i: pos}
		end := -1
		if s.skip() == nil && json.Valid(data[pos:s.i]) {
			end = s.i
		} else {
			dec := json.NewDecoder(bytes.NewReader(data[pos:]))
			if err := dec.Decode(&jsonNoop{}); err != nil {
				var se *json.SyntaxError
				if errors.As(err, &se) {
					se.Offset += int64(pos) // in data, not in the document
				}
				if len(docs) == 0 {
					return nil, jsonSyntaxError(data, err)
				}
				return nil, &DocumentError{Index: len(docs) + 1, Line: line, Err: jsonSyntaxError(data, err)}
			}
			end = pos + int(dec.InputOffset())
		}
		doc := document{index: len(docs) + 1, line: line, text: data[pos:end], json: true}
		doc.data, doc.err = toJSON(doc)
		docs = append(docs, doc)
		pos = end
	}
}

// jsonNoop is a JSON value that decodes nothing: the decoder only checks
// the syntax.
type jsonNoop struct{}

func (*jsonNoop) UnmarshalJSON([]byte) error { return nil }

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// jsonSyntaxError is a JSON decoder's error with its position in data.
func jsonSyntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return newSyntaxError(data, se.Offset, se.Error())
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return newSyntaxError(data, int64(len(data)), "unexpected end of input (truncated?)")
	}
	return err
}

// splitYAML reads the documents of a YAML stream with apimachinery's
// YAMLReader. The reader returns each document's lines in order (line ends
// made "\n"); the "---" line that ends a document is dropped, one that
// starts a document is kept, so a document starts on the line after the
// previous one's last line plus one.
func splitYAML(data []byte) ([]document, error) {
	if err := checkSeparators(data); err != nil {
		return nil, err
	}
	r := kyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs []document
	// The documents with content are converted once the input is read
	// (each document's text is a copy): not while the input is held too.
	var convert []int
	start := 1 // the line of the next document's first line
	for {
		text, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("YAML input: %w", err)
		}
		first, content := firstContentLine(text)
		doc := document{index: len(docs) + 1, line: start + first, text: text, base: start - 1}
		start += bytes.Count(text, []byte{'\n'}) + 1
		if !content && onlySeparators(text) {
			continue
		}
		if content {
			convert = append(convert, len(docs))
			docs = append(docs, doc)
			continue
		}
		doc.data, doc.err = toJSON(doc)
		if !content {
			// Comments are parsed too: kubectl refuses control characters
			// in them; and what the parser reads as more than nothing is a
			// document.
			if doc.err != nil {
				return nil, fmt.Errorf("the comments from line %d: %w", doc.base+1, doc.err)
			}
			if bytes.Equal(doc.data, []byte("null")) {
				continue
			}
		}
		docs = append(docs, doc)
	}
	for _, i := range convert {
		docs[i].data, docs[i].err = toJSON(docs[i])
	}
	return docs, nil
}

// checkSeparators refuses a line starting with "---" that is not a
// document separator: the YAMLReader refuses text other than a comment
// after the "---"; a comment right after it ("---#") it takes for a
// separator, but the YAML parser for text, so it is refused here too.
func checkSeparators(data []byte) error {
	for n, line := range lines(data) {
		if !bytes.HasPrefix(line, []byte("---")) || isMarker(line, "---") && isBlankOrComment(line[3:]) {
			continue
		}
		why := "only spaces and a comment may follow \"---\""
		if line[3] == '#' {
			why = "a space must come between \"---\" and a comment"
		}
		return fmt.Errorf("YAML input: line %d: %q is not a document separator: %s", n+1, strings.TrimRight(string(line), "\r"), why)
	}
	return nil
}

// onlySeparators reports text whose lines are all spaces or "---" document
// starts followed by spaces only: nothing the parser could read as more than an
// empty document, so it is not parsed (a stream of many of them would be
// parsed three times each).
func onlySeparators(text []byte) bool {
	for _, line := range lines(text) {
		// Spaces only: the parser refuses some tabs.
		line = bytes.TrimRight(line, " \r")
		if len(line) != 0 && !bytes.Equal(line, []byte("---")) {
			return false
		}
	}
	return true
}

// lines yields the lines of text without their "\n".
func lines(text []byte) func(yield func(int, []byte) bool) {
	return func(yield func(int, []byte) bool) {
		for n := 0; len(text) > 0; n++ {
			line, rest, _ := bytes.Cut(text, []byte{'\n'})
			if !yield(n, line) {
				return
			}
			text = rest
		}
	}
}

// isBlankOrComment reports a line that holds nothing but white space and a
// comment.
func isBlankOrComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\r")
	return len(t) == 0 || t[0] == '#'
}

// isMarker reports a YAML document marker ("---" start, "..." end) at the
// start of line, followed by the line's end or white space ("---#" is a
// plain scalar).
func isMarker(line []byte, marker string) bool {
	return bytes.HasPrefix(line, []byte(marker)) && (len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r')
}

// firstContentLine is the 0-based index of text's first line that is not
// blank, a comment, a "---" document start or a "..." document end marker.
func firstContentLine(text []byte) (int, bool) {
	for n, line := range lines(text) {
		if !isBlankOrComment(line) && !isMarker(line, "---") && !isMarker(line, "...") {
			return n, true
		}
	}
	return 0, false
}
