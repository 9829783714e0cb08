package input

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrTooLarge is returned (wrapped) when the input exceeds Options.MaxBytes.
var ErrTooLarge = errors.New("input too large")

// SyntaxError is malformed JSON: where it is and what is wrong.
type SyntaxError struct {
	// Offset is the byte offset of the error in the input (for YAML input,
	// in the JSON it was converted to).
	Offset int64
	// Line and Column are 1-based, counted in the JSON text.
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("JSON syntax error at byte %d (line %d, column %d): %s", e.Offset, e.Line, e.Column, e.Msg)
}

// newSyntaxError locates offset in data.
func newSyntaxError(data []byte, offset int64, msg string) *SyntaxError {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return &SyntaxError{Offset: offset, Line: line, Column: col, Msg: msg}
}

// FieldError is a strictness violation inside an object: a duplicate key, a
// key matching a field only case-insensitively, an unknown field or a value
// of the wrong type.
type FieldError struct {
	// Item locates the object: "items[4] (Deployment default/web)", or
	// "deployment" in a Case.
	Item string
	// Problems are the decoder's messages, each with the JSON path inside
	// the object, e.g. `unknown field "spec.replica"`.
	Problems []string
}

func (e *FieldError) Error() string {
	msg := e.Item + ": "
	for i, p := range e.Problems {
		if i > 0 {
			msg += "; "
		}
		msg += p
	}
	return msg
}

// DocumentError is an error in one document of an input of several
// documents (a YAML stream, or JSON objects one after another).
type DocumentError struct {
	// Index counts the documents from 1, leaving out those with nothing
	// but blank lines and comments.
	Index int
	// Line is the 1-based line of the document's first line that is not
	// blank, a comment or a "---" separator.
	Line int
	// Err is what is wrong in the document (see Unwrap).
	Err error
}

func (e *DocumentError) Error() string {
	return fmt.Sprintf("document %d (line %d): %v", e.Index, e.Line, e.Err)
}

// Unwrap returns the error in the document: a [*SyntaxError], a
// [*FieldError] or a plain error.
func (e *DocumentError) Unwrap() error { return e.Err }
