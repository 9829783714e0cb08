package proportion

import (
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// Sentinel errors. Every error returned by this package is a *[ValueError]
// wrapping exactly one of them, and also matches [model.ErrInvalid], so
// callers can test the kind of failure with errors.Is and reach the field and
// value with errors.As.
var (
	// ErrNil reports a required value that is absent: a nil IntOrString
	// passed to [ScaledValue], or a nil Deployment or ReplicaSet.
	ErrNil = errors.New("must not be nil")
	// ErrNotPercentage reports a string value without a trailing "%", such
	// as "5" or "oops".
	ErrNotPercentage = errors.New("string is not a percentage")
	// ErrBadPercentage reports a percentage whose number does not parse as
	// a decimal integer, such as "12x%" or "%".
	ErrBadPercentage = errors.New("percentage is not an integer")
	// ErrUnknownType reports an IntOrString whose Type is neither
	// [model.Int] nor [model.String].
	ErrUnknownType = errors.New("neither an integer nor a percentage")
	// ErrOutOfRange reports a resolved value outside int32, such as
	// "3000000000%" of 100 replicas.
	ErrOutOfRange = errors.New("resolved value is outside the int32 range")
	// ErrUnsupportedStrategy reports a strategy type other than
	// RollingUpdate and Recreate.
	ErrUnsupportedStrategy = errors.New("deployment strategy type is not supported")
)

// Field paths named by errors from functions that read a Deployment.
const (
	FieldMaxSurge       = "spec.strategy.rollingUpdate.maxSurge"
	FieldMaxUnavailable = "spec.strategy.rollingUpdate.maxUnavailable"
	FieldStrategyType   = "spec.strategy.type"
)

// ValueError describes one rejected value. Field is the path of the value
// when the function knows it (for example [FieldMaxSurge]) and "" otherwise;
// Value is the value as written; Err is one of the package's sentinels.
// Printed, it reads like a validation message:
//
//	spec.strategy.rollingUpdate.maxSurge: invalid value "12x%": percentage is not an integer
type ValueError struct {
	Field string
	Value string
	Err   error
}

// Error renders the field (if known), the value and the reason.
func (e *ValueError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("invalid value %q: %v", e.Value, e.Err)
	}
	return fmt.Sprintf("%s: invalid value %q: %v", e.Field, e.Value, e.Err)
}

// Unwrap exposes the sentinel and [model.ErrInvalid] to errors.Is, so that
// callers handling model validation errors handle these too.
func (e *ValueError) Unwrap() []error { return []error{e.Err, model.ErrInvalid} }
