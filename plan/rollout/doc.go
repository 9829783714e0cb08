// Package rollout returns what kubectl rollout (k8s.io/kubectl v0.36) prints
// and sends for a Deployment, as pure functions of the objects kubectl would
// read: [Status] for rollout status, [History] and [HistoryRevision] for
// rollout history, [Undo] and [UndoDryRun] for rollout undo, [Restart],
// [Pause] and [Resume] for the three patching subcommands, and [Lint], a
// what-if review of a Deployment's strategy before it is applied.
//
// Each of these has an Example; the one for Status is the shortest start.
//
// StatefulSets have their own functions, from the set and the
// ControllerRevisions of its namespace: [StatefulSetStatus] (kubectl's
// StatefulSet status viewer, partitions included), [StatefulSetHistory] and
// [StatefulSetHistoryRevision], [StatefulSetUndo] (the revision's data as
// the patch) and [StatefulSetUndoDryRun], [StatefulSetRestart], and
// [StatefulSetPause] and [StatefulSetResume], which kubectl refuses.
//
// DaemonSets likewise: [DaemonSetStatus] (kubectl's DaemonSet status
// viewer), [DaemonSetHistory] and [DaemonSetHistoryRevision] (the template
// each ControllerRevision's data restores, [DaemonSetRevisionTemplate]),
// [DaemonSetUndo] (the revision's data as the patch) and
// [DaemonSetUndoDryRun], [DaemonSetRestart], and [DaemonSetPause] and
// [DaemonSetResume], which kubectl refuses.
//
// The package sits under plan because it is a view over the same objects the
// planner reads, and because [Lint] simulates rollouts with package plan/sim;
// it builds on package revision for the choice of ReplicaSets (history,
// rollback target, undo annotations) and on package model for the objects,
// so each of those rules lives in one place.
//
// Every message, error text and patch body is kubectl's, byte for byte:
// kubectl's polymorphichelpers (the Deployment status viewer, history viewer,
// rollbacker, and default pauser, resumer and restarter) are the reference,
// and the nested module examples/kubectl checks these functions against them
// on generated states. Where kubectl reads the clock (restart), the time is
// an argument. Nothing here does I/O, reads the clock, or modifies its
// inputs.
package rollout
