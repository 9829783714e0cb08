package plan

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// failFencepost ends the sync with the error upstream's NewRSNewReplicas
// returns when maxSurge cannot be resolved. Validation accepts one such
// value: a percentage whose digits exceed int64 ("99999999999999999999%"),
// which apps/v1 validation reads with an Atoi whose error it ignores while
// GetScaledValueFromIntOrPercent reports it.
func (s *syncer) failFencepost(err error) {
	s.fail(ErrKindInvalidFencepost, "%s", fencepostMessage(s.d, err))
}

// fencepostMessage renders err as upstream's intstr package words it, e.g.
//
//	invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range
//
// and falls back to err's own text for errors upstream cannot raise.
func fencepostMessage(d *model.Deployment, err error) string {
	var ve *proportion.ValueError
	if !errors.As(err, &ve) || d == nil || d.Spec.Strategy.RollingUpdate == nil {
		return err.Error()
	}
	const prefix = "invalid value for IntOrString: "
	switch {
	case errors.Is(err, proportion.ErrNotPercentage):
		return prefix + "invalid type: string is not a percentage"
	case errors.Is(err, proportion.ErrBadPercentage):
		digits := strings.TrimSuffix(ve.Value, "%")
		_, perr := strconv.ParseInt(digits, 10, 64)
		var ne *strconv.NumError
		if errors.As(perr, &ne) {
			ne.Func = "Atoi"
			return prefix + "invalid value " + strconv.Quote(ve.Value) + ": " + ne.Error()
		}
	case errors.Is(err, proportion.ErrNil):
		return "nil value for IntOrString"
	}
	return err.Error()
}
