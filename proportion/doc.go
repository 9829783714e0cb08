// Package proportion resolves a Deployment's rolling-update fenceposts and
// spreads a change of size across its ReplicaSets, with the numbers the
// upstream Kubernetes Deployment controller would produce.
//
// To start: [ResolveFenceposts] turns maxSurge and maxUnavailable into
// numbers, and [Distribute] spreads a scaling event over the active
// ReplicaSets (in the order [ScaleCandidates] builds); each has an Example.
//
// Everything here is a pure function of its arguments: no clock, no I/O, no
// globals. Inputs are never modified and never retained; sorting works on
// copies. Invalid input yields an error (or, where upstream swallows the
// error, the value upstream falls back to), never a panic.
//
// # Fenceposts
//
// maxSurge and maxUnavailable are integers or percentages of spec.replicas.
// Surge rounds up and unavailability rounds down, so 25% of 10 replicas allows
// a surge of 3 and 2 unavailable pods; if both round to zero, one pod may be
// unavailable so that a rollout can always make progress.
//
//   - [ScaledValue] resolves one value.
//   - [ResolveFenceposts] resolves the pair, with the both-zero rule.
//   - [MaxSurge], [MaxUnavailable], [MinAvailable] read them off a Deployment.
//   - [NewRSNewReplicas] is the size a rolling update may grow the new
//     ReplicaSet to in one step.
//
// # Proportional scaling
//
// When spec.replicas changes while several ReplicaSets have pods, the
// controller resizes each of them in proportion to its share of the old
// total, using the max-replicas annotation each ReplicaSet carries from the
// last time it was sized.
//
//   - [Distribute] computes the whole change: one [Share] per active
//     ReplicaSet, in the order upstream writes them.
//   - [GetProportion] and [ReplicaSetFraction] are the per-ReplicaSet steps.
//   - [NonNegativeInt32Annotation] parses the replica annotations.
//   - [RoundToInt32] is the rounding (half away from zero) used throughout.
//   - [Options] holds the deviations from upstream on offer, both off by
//     default: [Options.ExactProduct] avoids an int32 overflow and
//     [Options.Monotonic] keeps shares in the direction of the change.
//
// # Selecting and ordering ReplicaSets
//
//   - [FilterActiveReplicaSets] keeps the ReplicaSets that should have pods.
//   - [FindActiveOrLatest] decides whether a scaling event concerns one
//     ReplicaSet or needs proportional scaling.
//   - [ScaleCandidates] builds the list [Distribute] expects, in upstream's
//     order.
//   - [ByCreationTimestamp], [NewestFirst], [BySizeOlder], [BySizeNewer] are
//     upstream's total orders as comparison functions; [Sorted] applies one to
//     a copy.
//
// # Arithmetic
//
// Upstream computes replica counts in Go int32, which wraps silently on
// overflow, and this package does the same wherever upstream does, so that
// even absurd inputs give upstream's (absurd) answers. Where Go leaves a
// float-to-integer conversion implementation-defined (values out of range),
// this package fixes the result to what amd64, the most common controller
// platform, produces, so answers do not depend on the machine running them.
package proportion
