package revision

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/rolloutplan/rolloutplan/model"
)

// ErrInvalidRevision is matched (errors.Is) by every error from [Revision].
// Such errors also match [model.ErrInvalid].
var ErrInvalidRevision = errors.New("invalid revision")

// RevisionError reports a revision annotation that is not a decimal int64.
// It reads like a model field error:
//
//	metadata.annotations[deployment.kubernetes.io/revision]: invalid value "abc": invalid syntax
type RevisionError struct {
	// Value is the annotation value as found.
	Value string
	// Err is the underlying *strconv.NumError, whose Err is
	// strconv.ErrSyntax or strconv.ErrRange.
	Err error
}

// Error names the annotation, quotes the value and says what is wrong with
// it.
func (e *RevisionError) Error() string {
	detail := "not a decimal integer"
	var ne *strconv.NumError
	if errors.As(e.Err, &ne) {
		detail = ne.Err.Error()
	}
	return fmt.Sprintf("metadata.annotations[%s]: invalid value %q: %s", model.RevisionAnnotation, e.Value, detail)
}

// Is makes errors.Is match [ErrInvalidRevision] and [model.ErrInvalid].
func (e *RevisionError) Is(target error) bool {
	return target == ErrInvalidRevision || target == model.ErrInvalid
}

// Unwrap returns the strconv error.
func (e *RevisionError) Unwrap() error { return e.Err }

// Revision returns the revision recorded in annotations (the metadata of a
// Deployment or ReplicaSet). A missing annotation is revision 0 without an
// error, as upstream. A present value is parsed as a base-10 int64 with an
// optional sign, so "+5" is 5 and "-5" is -5, while "", " 5", "5.0", "0x5"
// and anything beyond the int64 range return 0 and a [*RevisionError].
func Revision(annotations map[string]string) (int64, error) {
	v, ok := annotations[model.RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, &RevisionError{Value: v, Err: err}
	}
	return n, nil
}

// revisionOf is Revision for one ReplicaSet, reporting only whether it is
// usable; the callers that skip bad revisions do not need the error.
func revisionOf(rs *model.ReplicaSet) (int64, bool) {
	v, ok := rs.Annotations[model.RevisionAnnotation]
	if !ok {
		return 0, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// MaxRevision returns the highest revision among rss, or 0 if none is
// higher. ReplicaSets with an unparsable revision, and nil entries, are
// skipped; one without the annotation counts as 0. Negative revisions never
// win over the starting value 0. The controller gives a new ReplicaSet
// MaxRevision(old ReplicaSets)+1.
//
// For revisions [3, "x", 7, absent] the result is 7.
func MaxRevision(rss []*model.ReplicaSet) int64 {
	var highest int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		if v, ok := revisionOf(rs); ok && v > highest {
			highest = v
		}
	}
	return highest
}

// LastRevision returns the second-highest revision among rss, the one
// "rollback to revision 0" (the previous revision) goes to. Duplicates count
// twice, so [3, 3] gives 3, and [1, 2, 3] gives 2; a single ReplicaSet gives
// 0. Unparsable revisions and nil entries are skipped, a missing annotation
// counts as 0, and the result is never negative (both trackers start at 0).
func LastRevision(rss []*model.ReplicaSet) int64 {
	var highest, second int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		v, ok := revisionOf(rs)
		switch {
		case !ok:
		case v >= highest:
			second, highest = highest, v
		case v > second:
			second = v
		}
	}
	return second
}
