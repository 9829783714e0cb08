package model

import (
	"errors"
	"fmt"
	"strings"
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

// Error renders the field, the value and the reason.
func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: invalid value %q: %s", e.Field, e.Value, e.Detail)
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

func (f *fieldErrs) add(field, value, detail string, args ...any) {
	if len(args) > 0 {
		detail = fmt.Sprintf(detail, args...)
	}
	f.list = append(f.list, &FieldError{Field: field, Value: value, Detail: detail})
}

func (f *fieldErrs) err() error {
	if len(f.list) == 0 {
		return nil
	}
	return &ValidationError{Errors: f.list}
}
