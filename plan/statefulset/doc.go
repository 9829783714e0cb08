// Package statefulset is the StatefulSet controller of Kubernetes v1.36 as a
// pure function: [Sync] takes a StatefulSet, the pods, ControllerRevisions
// and PersistentVolumeClaims of its namespace and an explicit now, and
// returns the [Plan] upstream carries out in one sync: typed actions in
// upstream's order, each with a [Reason], the events it records, the
// minReadySeconds requeue, the status it computed, and notes saying why
// nothing more happened ("web-1 is not Running and Ready (phase Pending);
// OrderedReady waits before creating web-2"). [Reason], [Event] and
// [SyncError] are the Deployment planner's types (package plan).
//
// To start: build a [State] (objects read from the API server, or written
// by hand and passed through model.DefaultStatefulSet), call [Sync] and read
// [Plan.Actions] and [Plan.Notes]; the Example for Sync creates the first
// pod of a new set.
//
// # Index
//
// Planning: [Sync], [State], [Plan], [Action], [PodUpdate],
// [RevisionUpdate], [Reason], [Event], [SyncError].
//
// Options: [WithEncoder] (revision data; [EncodeTemplate] by default),
// [WithRevisionDefaults], [WithMaxUnavailable] (the
// MaxUnavailableStatefulSet gate, off in v1.36),
// [WithSemanticRevisionComparison] (on).
//
// Names: [ParseOrdinal], [PodName], [ClaimName], [HashRevision],
// [RevisionName].
//
// # One sync
//
//  1. History: ControllerRevisions the selector matches and the set
//     controls or nobody controls form its history; orphans are adopted.
//  2. Pods: pods the set controls (by kind, name and UID) and orphans of
//     the namespace are claimed: orphans named "<set>-<ordinal>" whose
//     labels the selector matches (and that are not being deleted) are
//     adopted, controlled pods the selector no longer matches (or not so
//     named) are released.
//  3. Revisions: the update revision is the latest revision when its data
//     equals the encoding of the set's template; else the latest revision
//     that does, renumbered to the next revision number (a rollback); else
//     the latest revision when its template, defaulted and re-encoded,
//     equals it (the semantic comparison); else a new revision named
//     "<set>-<hash>" ([HashRevision] of the data and the collision count;
//     a name taken by another template's revision is attempted, rejected,
//     and retried with the collision count bumped). The current revision
//     is status.currentRevision's, or the update revision.
//  4. Replicas: pods at ordinals [start, start+replicas) are the replicas,
//     pods at other ordinals are condemned. Unless the set is being deleted,
//     each replica from the lowest ordinal up: a Failed or Succeeded pod
//     is deleted; a missing pod is created (its claims first, then the pod,
//     then its claims' owner references), at the current revision below
//     the partition and at the update revision from it up (unless a claim
//     still belongs to an earlier pod of its name under whenScaled Delete);
//     a Pending pod gets its missing claims; a pod whose identity labels,
//     claim volumes or claims' owner references are wrong is written back.
//     OrderedReady stops at the first pod it created, the first terminating
//     pod, and the first pod not Running and Ready, or not available after
//     minReadySeconds. Parallel goes on.
//  5. Scale-down: the claims of condemned pods get the owner references
//     the retention policy wants; then condemned pods are deleted from the
//     highest ordinal down: OrderedReady deletes one per sync, waits for a
//     terminating one, and deletes an unhealthy one only when it is the
//     first unhealthy pod of the set; Parallel deletes all of them.
//  6. Update: OnDelete stops here. RollingUpdate deletes, from the highest
//     ordinal down to the partition, the first pod not at the update
//     revision, and stops at the first updated pod that is not available.
//     With [WithMaxUnavailable] it deletes outdated pods from the top while
//     fewer than maxUnavailable replicas are unavailable.
//  7. Status: counts over the replicas and condemned pods, currentReplicas
//     lowered by the rolling update's deletion, the update revision made
//     current once every replica is updated and ready; written when it
//     differs from the stored one (conditions and collisionCount are not
//     compared; the written status has no conditions).
//  8. History limit: revisions that are neither current, update, nor a
//     claimed pod's are deleted, oldest first, down to
//     revisionHistoryLimit.
//  9. Requeue: with minReadySeconds, when some ready pods are not yet
//     available, the next sync is when the first becomes available.
//
// The sync stops at the first failed write (a create whose name the
// namespace holds, a pod needing a claim that is being deleted); the status
// is still written and the history truncated, and [Sync] returns the
// *[SyncError] with the Plan.
//
// # Determinism
//
// Upstream runs Parallel creates and deletes in concurrent batches of 1, 2,
// 4, … (at most 500), and walks claim templates through a Go map; its write
// order then varies between runs. The planner takes batches in ordinal
// order, claim templates in name order (claim volumes too), and pods listed
// from its caches in name order, so a plan depends only on its State and
// options, never on the order of the State's slices. Pods are created
// under their final names "<set>-<ordinal>", as upstream creates them.
//
// # Revision data
//
// Upstream compares revisions by the bytes of their data and hashes those
// bytes into revision names. Those bytes are a JSON encoding of the apps/v1
// template, which package model does not hold; the [Encoder] option
// supplies them. [EncodeTemplate], the default, is a documented encoding of
// the model's template, so names differ from a real cluster's; the apps/v1
// adapter (examples/appsv1) passes upstream's encoding and defaulting, and
// reproduces every recorded sync of the real controller.
//
// # Purity
//
// Nothing here reads a clock, draws a random number, logs or keeps global
// state. Inputs are never modified and never aliased by the Plan. Times are
// compared at full precision; a pod is available when it has been ready
// for at least minReadySeconds at now (v1.36 counts the boundary as
// available). A Parallel set creates every missing pod in one sync, as
// upstream does, so a plan's size grows with spec.replicas.
package statefulset
