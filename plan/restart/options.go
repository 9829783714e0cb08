package restart

import (
	"errors"
	"fmt"
	"time"
)

// DefaultGracePeriod is the original's default RESTART_GRACE_PERIOD.
const DefaultGracePeriod = 5 * time.Second

// Options configure the planner and the [Tracker].
type Options struct {
	// GracePeriod is how long a change waits, counted from its first
	// observation, before it is processed. Zero processes changes at once;
	// negative is an error. The original's default is [DefaultGracePeriod].
	GracePeriod time.Duration
	// Shutdown plans the original's pass on a graceful stop: only changes
	// observed more than once are processed, whatever their age.
	Shutdown bool
	// OriginalReferences keeps exactly the original's narrower set of
	// references (see [References]) for a drop-in migration.
	OriginalReferences bool
	// IncludeBinaryData makes ConfigMap checksums cover binaryData, which
	// the original ignores (see [ConfigMapChecksum]). It is read by callers
	// computing checksums; the planner only compares them.
	IncludeBinaryData bool
	// TimestampLayout formats the restart annotation's value from now.
	// Empty means time.Stamp, as the original; time.RFC3339 is the usual
	// alternative.
	TimestampLayout string
	// Compat brings back the original's shortfalls, one by one.
	Compat Compat
}

// Compat selects shortfalls of the original controller to reproduce. The
// zero value fixes all of them; each field documents the original's outcome.
type Compat struct {
	// RecreatedConfigUnlinked: a deleted config stays unlinked from the
	// workloads referencing it until their references or checksums
	// annotation change, so a re-created config's edits restart nothing.
	RecreatedConfigUnlinked bool
	// MissSingleUpdate: a workload without a checksum for a config is not
	// restarted when the config changed exactly once after the workload
	// first referenced it (only restart rule 2, a counter above one,
	// applies).
	MissSingleUpdate bool
	// NoRetry: the checksums are recorded when the patch is sent, so a patch
	// that failed is never retried.
	NoRetry bool
	// SameSecondTimestamp: the restart value is always now formatted with
	// the layout, so two restarts within one second write the same value and
	// the second changes nothing.
	SameSecondTimestamp bool
}

// ErrInvalidOptions is returned (wrapped) for options out of range.
var ErrInvalidOptions = errors.New("invalid restart options")

// Validate reports options out of range, naming the field.
func (o Options) Validate() error {
	if o.GracePeriod < 0 {
		return fmt.Errorf("%w: GracePeriod %v: must not be negative", ErrInvalidOptions, o.GracePeriod)
	}
	return nil
}

func (o Options) layout() string {
	if o.TimestampLayout == "" {
		return time.Stamp
	}
	return o.TimestampLayout
}

// finerLayout is the layout used when the layout's value would repeat the
// last restart value.
func (o Options) finerLayout() string {
	switch o.layout() {
	case time.RFC3339:
		return time.RFC3339Nano
	case time.Stamp, time.StampMilli, time.StampMicro:
		return time.StampNano
	}
	return o.layout() + ".000000000"
}
