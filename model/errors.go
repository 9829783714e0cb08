package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrInvalid is matched by every validation error: errors.Is(err,
// model.ErrInvalid) tells bad input from other failures.
var ErrInvalid = errors.New("invalid input")

// FieldError is one validation failure: the path of the field, the offending
// value as written, and why it is rejected. For example:
//
//	spec.strategy.rollingUpdate.maxSurge: invalid value "12x%": must be an integer or a percentage such as "25%"
type FieldError struct {
	Field  string // e.g. "spec.strategy.rollingUpdate.maxSurge"
	Value  string // the bad value, rendered as text; "" when it is absent
	Detail string // why it is rejected
}

// Error renders the field, the value and the reason. A value longer than
// 128 bytes is cut there (at a character boundary) and its length given:
//
//	metadata.uid: invalid value "aaaa…"… (10000 bytes): must be at most 128 characters
func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: invalid value %s: %s", e.Field, quoteValue(e.Value), e.Detail)
}

// maxQuotedValue is how many bytes of a bad value an error message quotes.
const maxQuotedValue = 128

// truncateValue returns s, or its first maxQuotedValue bytes (cut at a
// character boundary) when it is longer.
func truncateValue(s string) string {
	if len(s) <= maxQuotedValue {
		return s
	}
	cut := maxQuotedValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// quoteValue quotes s for a message, truncated with its length when long.
func quoteValue(s string) string {
	if t := truncateValue(s); len(t) < len(s) {
		return strconv.Quote(t) + "… (" + strconv.Itoa(len(s)) + " bytes)"
	}
	return strconv.Quote(s)
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Is(target error) bool { return target == ErrInvalid }

// ValidationError collects every [FieldError] found in one validation. Use
// errors.As with *ValidationError for all of them, or with *FieldError for the
// first.
type ValidationError struct {
	Errors []*FieldError
}

// Error lists every field error, separated by "; ".
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Errors))
	for i, fe := range e.Errors {
		parts[i] = fe.Error()
	}
	return strings.Join(parts, "; ")
}

// Unwrap exposes the field errors to errors.Is and errors.As.
func (e *ValidationError) Unwrap() []error {
	out := make([]error, len(e.Errors))
	for i, fe := range e.Errors {
		out[i] = fe
	}
	return out
}

// fieldErrs accumulates field errors under a path prefix.
type fieldErrs struct {
	list []*FieldError
}

// add records a field error; detail is a fmt format, always formatted (so
// go vet checks every call, and a literal percent sign is written "%%").
func (f *fieldErrs) add(field, value, detail string, args ...any) {
	detail = fmt.Sprintf(detail, args...)
	f.list = append(f.list, &FieldError{Field: field, Value: value, Detail: detail})
}

func (f *fieldErrs) err() error {
	if len(f.list) == 0 {
		return nil
	}
	return &ValidationError{Errors: f.list}
}
