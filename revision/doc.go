// Package revision implements the Deployment controller's bookkeeping of
// rollout revisions, and the parts of kubectl rollout that read it.
//
// To start: [Revision] reads a ReplicaSet's number, [ToDelete] lists what
// cleanup deletes, [RollbackTarget] picks what kubectl rollout undo restores
// and [History] lists what kubectl rollout history prints; the Examples for
// ToDelete and RollbackTarget are the shortest.
//
// Every ReplicaSet of a Deployment carries its rollout sequence number in the
// deployment.kubernetes.io/revision annotation; the new ReplicaSet gets the
// highest old revision plus one, and a ReplicaSet that becomes new again
// (after a rollback, or when a template flips back) moves its former number
// into deployment.kubernetes.io/revision-history. Old ReplicaSets beyond
// spec.revisionHistoryLimit are deleted lowest revision first, and
// kubectl rollout undo picks its target by revision.
//
// All functions follow upstream (Kubernetes v1.36 controller and kubectl)
// decision for decision, including its quirks; where upstream would panic on
// input that validation rejects (a nil spec.replicas, a negative history
// limit) the behaviour chosen instead is documented on the function.
//
// # Index
//
// Reading revisions:
//   - [Revision] parses the annotation; [RevisionError] and
//     [ErrInvalidRevision] report bad values.
//   - [MaxRevision] and [LastRevision] find the highest and second-highest.
//
// Writing annotations (the controller's sync of the new ReplicaSet, and
// rollback):
//   - [SetNewReplicaSetAnnotations], [CopyDeploymentAnnotationsToReplicaSet],
//     [SetDeploymentRevision], [SetDeploymentAnnotationsTo].
//
// Ordering (cmp functions for slices.SortFunc):
//   - [ByRevision]; creation order is [github.com/rolloutplan/rolloutplan/proportion.ByCreationTimestamp].
//
// Cleanup by revisionHistoryLimit:
//   - [ToDelete].
//
// kubectl rollout undo and history:
//   - [RollbackTarget], [RollbackTemplate], [UndoAnnotations], [Undo];
//     errors [RevisionNotFoundError], [NoRolloutHistoryError],
//     [AlreadyCurrentError], [ErrPaused].
//   - [History] and [Entry].
//
// # Inputs and outputs
//
// Functions that choose ReplicaSets ([ToDelete], [RollbackTarget], [History])
// never modify or reorder the caller's slice and return pointers to the
// caller's own ReplicaSets, so that identity tells which object was chosen;
// they never modify those objects either. The Set* functions are the
// exception by design: like upstream they modify the object they are given,
// and callers pass their own copy (model's DeepCopy).
//
// Nothing here depends on map iteration order: every key of an annotation
// map is handled independently, and every sort has a total tie-break.
package revision
