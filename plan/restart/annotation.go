package restart

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrMalformedChecksums is returned (wrapped) by [ParseChecksums] for a value
// that is not a JSON object of strings.
var ErrMalformedChecksums = errors.New("malformed checksums annotation")

// ChecksumsError is the error of [ParseChecksums]. It matches
// [ErrMalformedChecksums] with errors.Is.
type ChecksumsError struct {
	// Value is the annotation value.
	Value string
	// Err is encoding/json's error.
	Err error
}

func (e *ChecksumsError) Error() string {
	return fmt.Sprintf("%s %q: %v", ErrMalformedChecksums, e.Value, e.Err)
}

// Is reports whether target is [ErrMalformedChecksums].
func (e *ChecksumsError) Is(target error) bool { return target == ErrMalformedChecksums }

// Unwrap returns encoding/json's error.
func (e *ChecksumsError) Unwrap() error { return e.Err }

// ParseChecksums parses the value of [AnnotationChecksums]: a JSON object
// mapping full names ("configmap/ns/name") to checksums. It always returns a
// non-nil map.
//
// The JSON literal null parses as an empty map without error (the original
// controller kept a nil map and crashed on its next update of the workload).
// Anything else that is not an object of strings is an error wrapping
// [ErrMalformedChecksums] whose text is encoding/json's; the caller (the
// [Tracker]) then treats the annotation as empty, as the original does. Keys
// are not validated: a key that names no referenced config is purged on the
// next update of the workload.
func ParseChecksums(value string) (map[string]string, error) {
	var m map[string]string
	if err := json.Unmarshal([]byte(value), &m); err != nil {
		return map[string]string{}, &ChecksumsError{Value: value, Err: err}
	}
	if m == nil {
		m = map[string]string{}
	}
	return m, nil
}

// FormatChecksums returns the value of [AnnotationChecksums] the original
// writes for m: encoding/json's compact encoding of the map, keys sorted,
// HTML characters escaped. A nil or empty map gives "{}".
func FormatChecksums(m map[string]string) string {
	return string(appendChecksums(make([]byte, 0, 32*len(m)+2), m))
}
