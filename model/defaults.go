package model

// Defaults applied by [Default] and [DefaultReplicaSet]: the apps/v1 values the
// API server fills in before any controller sees an object.
const (
	DefaultReplicas                = 1
	DefaultRevisionHistoryLimit    = 10
	DefaultProgressDeadlineSeconds = 600
	DefaultMaxSurge                = "25%"
	DefaultMaxUnavailable          = "25%"
)

// Default returns a deep copy of d with the apps/v1 defaults applied:
// replicas 1, strategy RollingUpdate, and for RollingUpdate a rollingUpdate
// block with maxSurge and maxUnavailable "25%" where missing,
// revisionHistoryLimit 10 and progressDeadlineSeconds 600. d is not changed.
//
// The planners expect defaulted input, as the controller always gets it;
// objects read from a cluster are already defaulted and need no call.
//
// Default follows the strategy type as the API server's defaulting does: a
// Recreate Deployment gets no rollingUpdate block. Like the server, it does
// not remove one either: a Deployment defaulted as RollingUpdate and then
// switched to Recreate keeps its filled-in block, which [Validate] rejects
// (as the API server does), with the fix in the message. Switch with
//
//	d.Spec.Strategy = model.Strategy{Type: model.RecreateStrategy}
//
// rather than by setting Type alone.
func Default(d *Deployment) *Deployment {
	out := d.DeepCopy()
	if out == nil {
		return nil
	}
	s := &out.Spec
	if s.Replicas == nil {
		s.Replicas = Int32Ptr(DefaultReplicas)
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = RollingUpdateStrategy
	}
	if s.Strategy.Type == RollingUpdateStrategy {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &RollingUpdate{}
		}
		ru := s.Strategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			ru.MaxUnavailable = IntOrStringPtr(FromString(DefaultMaxUnavailable))
		}
		if ru.MaxSurge == nil {
			ru.MaxSurge = IntOrStringPtr(FromString(DefaultMaxSurge))
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = Int32Ptr(DefaultRevisionHistoryLimit)
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = Int32Ptr(DefaultProgressDeadlineSeconds)
	}
	return out
}

// DefaultReplicaSet returns a deep copy of rs with spec.replicas defaulted to
// 1 when nil.
func DefaultReplicaSet(rs *ReplicaSet) *ReplicaSet {
	out := rs.DeepCopy()
	if out != nil && out.Spec.Replicas == nil {
		out.Spec.Replicas = Int32Ptr(DefaultReplicas)
	}
	return out
}
