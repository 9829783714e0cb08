// Package replicaset is the pod-level half of a Deployment rollout as a pure
// function: [Sync] takes one ReplicaSet, the pods and ReplicaSets of its
// namespace and an explicit now, and returns the [Plan] the upstream
// ReplicaSet controller (Kubernetes v1.36, default feature gates) carries out
// in one sync: which pods it adopts and releases, which pods it creates, which
// it deletes, the status it writes, when it wants to sync again and, as Sync's
// error, the [SyncError] it ends with. Every action carries a [Reason] with
// the numbers behind it; [Reason], [Event] and [SyncError] are the Deployment
// planner's types (package plan), with this package's codes and kinds.
//
// To start: call [Sync] with the ReplicaSet, the namespace's pods and
// ReplicaSets and the current time, and read [Plan.Actions]; the Example for
// Sync creates the missing pods of a new ReplicaSet, the one for
// GetPodsToDelete shows which pods a scale-down removes.
//
// # Index
//
// Planning: [Sync], [Plan], [Action], [Reason], [Event], [SyncError].
//
// Deletion ranking (upstream getPodsToDelete/ActivePodsWithRanks): [DeletionOrder], [GetPodsToDelete],
// [Compare], [Rule], [CoLocationRanks], [RelatedPods],
// [ParseDeletionCost], [DeletionCost].
//
// Creation (upstream manageReplicas): [SlowStartBatches], [BurstReplicas],
// [GenerateName], [DefaultPodName].
//
// Grouping: [GroupPodsByController]. The pod predicates (IsPodActive,
// IsPodTerminating, IsPodReady, IsPodAvailable) live in package model.
//
// Options: [WithPodDeletionCost], [WithTerminatingReplicas],
// [WithUpstreamTieOrder], [WithCreateFault], [WithCreateQuota],
// [WithDeleteFault], [WithPodNamer], [WithExpectationsPending],
// [ReplicaSetsAndPodsValidated].
//
// # One sync
//
// Sync follows upstream's syncReplicaSet. The active pods (neither
// terminal nor being deleted) that rs controls, or that have no controller,
// are claimed: orphans whose labels match the selector are adopted, pods rs
// controls whose labels no longer match are released, both by the
// strategic-merge patches upstream sends (upstream ClaimPods). Unless rs is being
// deleted, the claimed pods are compared with spec.replicas: missing pods are
// created in slow-start batches of 1, 2, 4, … (at most [BurstReplicas] per
// sync), surplus pods are deleted in ranking order (also at most
// [BurstReplicas]). The status is then computed from the pods as they were
// at the start of the sync (the ReplicaSet controller's calculateStatus) and written if it changed; when
// ready pods are not yet available, upstream asks for another sync when the
// first of them will be ([Plan.RequeueAfter]).
//
// Upstream's in-memory expectations (which stop a sync from acting twice on
// pods it has not yet seen) are taken as satisfied: the caller supplies the
// current pods. A controller that keeps expectations and has not seen its
// last creates and deletes yet plans with [WithExpectationsPending]: the
// claims and the status, no creates or deletes. Claim patches and the status update always succeed; creates
// and deletes succeed unless [WithCreateFault], [WithCreateQuota] or
// [WithDeleteFault] say otherwise.
//
// # The deletion ranking
//
// When it has too many pods the controller deletes those that rank first
// under these rules, the first rule that tells two pods apart deciding:
//
//  1. a pod not scheduled to a node before a scheduled one;
//  2. phase Pending before Unknown before Running (any other phase counts as
//     Pending);
//  3. a pod that is not ready before a ready one;
//  4. lower controller.kubernetes.io/pod-deletion-cost first (gate
//     PodDeletionCost, on by default; see [ParseDeletionCost]);
//  5. higher co-location rank first: the number of active pods, selected by
//     any ReplicaSet with the same controller as rs, on the pod's node
//     (unscheduled pods share one "node"); a ReplicaSet without a controller
//     ranks every pod 0;
//  6. of two ready pods with different ready times, the one ready for less
//     time first: a ready condition without a transition time first, then
//     the smaller logarithmic bucket of the time spent ready, and within one
//     bucket the smaller UID. A duration's bucket is the integer part of
//     log2 of its nanoseconds (-1 for none): 5 h and 8 h share bucket 44,
//     2 h is bucket 42 (upstream's LogarithmicScaleDown, locked on since
//     v1.31);
//  7. more container restarts (the maximum over containers) first;
//  8. of two pods created at different times, the newer first: a zero
//     creation time first, then the smaller logarithmic bucket of the age, and
//     within one bucket the smaller UID.
//
// # Ties and cycles
//
// Upstream sorts with this comparator (the exported [Compare]) using Go's
// unstable sort, over pods in its informer cache's order, which is not
// reproducible. The comparator leaves pods equal that rules 1 to 8 do not
// separate; worse, it is not always a consistent order. Rule 6 orders two
// ready pods of one bucket by UID when their ready times differ, but by rules
// 7 and 8 when their ready times are equal. With pods A (UID "a", ready at
// 10:00, no restarts), B (UID "c", ready at 10:00, 3 restarts) and C (UID "b",
// ready at 10:01, same bucket) upstream deletes A before C (UID), C before B
// (UID) and B before A (restarts): a cycle, so which pods go depends on the
// sort's internals and the cache order. Rule 8's own UID tie-break is
// consistent; cycles come only from rule 6 mixing the two kinds of
// comparison (rule 8 can then take the place of rule 7 in the example).
//
// The planner uses one total order instead, fixed by these choices:
//
//   - pods upstream leaves equal are ordered by UID, then name;
//   - inside a group of ready pods that rules 1 to 5 and the bucket of rule 6
//     do not separate, pods are taken in UID order, and each run of
//     consecutive pods (in that order) with the very same ready time is
//     ordered by rules 7 and 8 (then UID and name).
//
// This order does not depend on the order of the input, and it agrees with
// every decision of [Compare] whenever [Compare] is consistent (acyclic) on the
// pods at hand: all pairs in a group then follow UID order except pods of
// equal ready time, which rules 7 and 8 order the same way unless a pod of
// another ready time lies between them, which would close a cycle. The
// victims are the first pods of this order, so every victim ranks before
// every pod kept. [WithUpstreamTieOrder] switches to upstream's sort over the
// order given, for replaying a recorded cache order bit for bit
// (upstream quirk: pod deletion ties depend on input order).
//
// Sync requires every pod of the namespace to have a distinct, non-empty UID
// and a distinct name (the API server guarantees both). The ranking helpers
// accept any pods; with duplicate UIDs their order may contradict upstream's
// comparator even where it is consistent, and pods that agree in every ranked
// field, UID and name are interchangeable, so their relative order follows
// the input.
//
// # Names of created pods
//
// Upstream creates pods with generateName "<rs.name>-" ([GenerateName]) and
// lets the API server append 5 random characters. A pure planner needs
// names, so by default the n-th candidate name is [DefaultPodName]: the same
// shape (a prefix of at most 58 characters, then 5 characters of the API
// server's alphabet "bcdfghjklmnpqrstvwxz2456789"), a permutation of the
// 27⁵ suffixes keyed by an FNV-1a hash of the ReplicaSet's UID, longer
// suffixes past them. Candidates never repeat, for any count of pods, so a
// sync never fails for lack of names. Candidates n = 0, 1, 2, … are
// tried in turn and names used by any pod of the namespace, or planned
// earlier in the sync, are skipped, so the names are unique, depend only on
// the ReplicaSet and the set of names in use, and a simulator that applies
// the plan and syncs again gets fresh ones. [WithPodNamer] substitutes any
// other deterministic scheme; [Action.GenerateName] carries generateName for
// appliers that let the API server choose.
//
// # Failures
//
// Upstream creates each batch in parallel; when any create of a batch fails,
// the later batches are skipped and the sync ends with the error. The planner
// attempts creates in order and returns the first failure of the batch (by
// attempt index) as a *[SyncError] of kind [ErrKindFailedCreate], together
// with the Plan; the status then gains a ReplicaFailure
// condition with reason FailedCreate and the error text (unless one is
// already present; a successful sync removes it). A create rejected because
// the namespace is being deleted ([ErrNamespaceTerminating]) counts as a
// success, as upstream has it. Every victim's delete is attempted; a delete of
// a pod already gone ([ErrNotFound]) is not an error; the first other failure
// in deletion order becomes "unable to delete pods: <error>" (kind
// [ErrKindFailedDelete]). Rejected writes stay in [Plan.Actions] with
// [Action.Error] set; [Plan.Accepted] drops them. A FailedCreate or
// FailedDelete event names the write it reports through [Event.AfterWrites].
//
// # Purity
//
// Nothing here reads a clock, draws a random number, logs, or keeps global
// state. Inputs are never modified and never aliased by the results; maps in
// results are built from sorted data, and no output depends on the iteration
// order of a map or on the order of the input slices (except under
// [WithUpstreamTieOrder]). Times are compared at full precision: objects read
// from a cluster carry whole seconds, now may carry more, and availability
// is "ready for strictly more than minReadySeconds at now".
package replicaset
