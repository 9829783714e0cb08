// Package plan is the Deployment controller as a pure function: [Sync] takes
// one Deployment, every ReplicaSet of its namespace, the Pods and an explicit
// now, and returns the [Plan] the upstream controller (Kubernetes v1.36)
// would carry out in one sync: the writes it attempts, in its order, the
// events it records, when it wants to sync again and the error it ends with.
//
// # Writes as upstream attempts them
//
// Upstream sometimes writes the same object twice in one sync from the same
// cached version (for example a Deployment status update inside
// getNewReplicaSet followed by the final status update). A real API server
// rejects the second write with a conflict and the sync is retried. The plan
// lists every write upstream attempts, flags each write a real server would
// reject ([Action.Conflict]) and records the first such write in
// [Plan.ConflictAt]. [Plan.Accepted] is the prefix a real server applies;
// [Plan.Coalesced] merges the writes into one per object for adapters that
// prefer fewer round trips.
//
// Near the int32 limits upstream's arithmetic wraps, and a write can carry a
// negative size or status count that apps/v1 validation refuses. Such a
// write is listed too, as upstream attempts it, marked with the server's
// message ([Action.Invalid]); it ends the accepted prefix like a conflict,
// and the plan ends with the server's error ([ErrKindInvalid]).
//
// # One namespace
//
// Upstream's listers are namespaced: ReplicaSets and Pods of other
// namespaces (an empty namespace included) are ignored, and a
// [NoteOtherNamespace] note counts them. A pod belongs to the ReplicaSet its
// controller reference names by kind, name and UID, whatever its labels.
//
// # Building blocks
//
// The steps of a sync are exported under upstream's names so that a reader
// who knows the controller finds each counterpart in one hop:
// [FindNewReplicaSet], [FindOldReplicaSets],
// [ReconcileNewReplicaSet], [ReconcileOldReplicaSets], [CleanupUnhealthyReplicas],
// [ScaleDownOldReplicaSetsForRollingUpdate],
// [IsSaturated], [CalculateStatus], [DeploymentComplete],
// [DeploymentProgressing], [DeploymentTimedOut], [SetDeploymentCondition].
// Each returns a decision (sizes and the numbers behind them) instead of
// writing anything. The arithmetic they share lives in package proportion
// under upstream's names too ([proportion.NewRSNewReplicas],
// [proportion.FindActiveOrLatest], [proportion.MaxSurge] ...).
//
// # Purity
//
// Nothing here reads a clock, draws a random number, logs, or keeps global
// state. Inputs are never modified and never aliased by the result; the plan
// does not depend on the order of the input slices.
package plan
