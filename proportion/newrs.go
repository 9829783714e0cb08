package proportion

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// NewRSNewReplicas returns the size a rolling update may give the new
// ReplicaSet in this step (upstream's function of the same name):
//
//	RollingUpdate: maxTotal = D + maxSurge; if Σ spec(allRSs) ≥ maxTotal,
//	               spec(newRS) unchanged, else spec(newRS) + min(maxTotal − Σ, D − spec(newRS))
//	Recreate:      D
//
// For example, D 6, maxSurge 10, newRS at 2 and 5 replicas elsewhere in
// allRSs: maxTotal 16, room 11, but the new ReplicaSet may only reach D, so
// 2 + min(11, 4) = 6. With D 1, maxSurge 1 and 5 replicas elsewhere the total
// is already over 2, so the answer stays spec(newRS).
//
// allRSs normally includes newRS; nil entries are skipped. maxSurge is
// resolved directly rather than through [ResolveFenceposts], so an invalid
// maxSurge is an error here (it is silently 0 in [MaxSurge]), while a surge
// beyond int32 wraps as upstream's int-to-int32 conversion does. Sums and
// differences wrap like upstream's int32 arithmetic.
//
// Errors (*[ValueError]): d nil ([ErrNil]); an unresolvable maxSurge,
// including a missing rollingUpdate block or maxSurge ([ErrNil] with
// [FieldMaxSurge]); a nil newRS for RollingUpdate ([ErrNil]); any other
// strategy type ([ErrUnsupportedStrategy]).
func NewRSNewReplicas(d *model.Deployment, allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) (int32, error) {
	n, err := NewRSNewReplicasDetail(d, allRSs, newRS)
	return n.Count, err
}

// NewReplicas is the arithmetic behind [NewRSNewReplicas], for callers that
// explain the result. For RollingUpdate: MaxTotal = Desired + Surge (in
// wrapping int32); Full reports Current ≥ MaxTotal, in which case Count is
// From; otherwise Count = From + min(MaxTotal − Current, Desired − From).
// For Recreate only Desired and Count (= Desired) are set.
type NewReplicas struct {
	Count, From, Desired, Surge, Current, MaxTotal int32
	Full                                           bool
}

// NewRSNewReplicasDetail is [NewRSNewReplicas] with its arithmetic.
func NewRSNewReplicasDetail(d *model.Deployment, allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) (NewReplicas, error) {
	if d == nil {
		return NewReplicas{}, &ValueError{Field: "deployment", Err: ErrNil}
	}
	desired := d.DesiredReplicas()
	switch d.Spec.Strategy.Type {
	case model.RollingUpdateStrategy:
		var ms *model.IntOrString
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
			ms = ru.MaxSurge
		}
		surge, err := scaled(ms, desired, true, FieldMaxSurge)
		if err != nil {
			return NewReplicas{}, err
		}
		if newRS == nil {
			return NewReplicas{}, &ValueError{Field: "newRS", Err: ErrNil}
		}
		n := NewReplicas{From: newRS.SpecReplicas(), Desired: desired, Surge: int32(surge), Current: ReplicaCount(allRSs)}
		n.MaxTotal = desired + n.Surge
		n.Full = n.Current >= n.MaxTotal
		n.Count = n.From
		if !n.Full {
			n.Count += min(n.MaxTotal-n.Current, desired-n.From)
		}
		return n, nil
	case model.RecreateStrategy:
		return NewReplicas{Count: desired, Desired: desired}, nil
	}
	return NewReplicas{}, &ValueError{Field: FieldStrategyType, Value: string(d.Spec.Strategy.Type), Err: ErrUnsupportedStrategy}
}

// ReplicaCount is upstream's GetReplicaCountForReplicaSets: Σ spec.replicas
// over the non-nil entries, in wrapping int32. For ReplicaSets of 3, 0 and
// 2 replicas it is 5.
func ReplicaCount(rss []*model.ReplicaSet) int32 {
	var sum int32
	for _, rs := range rss {
		if rs != nil {
			sum += rs.SpecReplicas()
		}
	}
	return sum
}
