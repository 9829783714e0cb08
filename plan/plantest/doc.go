// Package plantest helps test code that plans or applies rollouts: [Check],
// which reports every violation of the rollout invariants I1–I9 in one
// planned sync, [CheckDeterminism], their StatefulSet counterparts
// [CheckStatefulSet] (S1–S7) and [CheckStatefulSetDeterminism], the
// DaemonSet ones [CheckDaemonSet] (D1–D4) and [CheckDaemonSetDeterminism]
// (D5), and [Epoch], the clock the generators build around. The rapid generators of valid states live in the
// sub-package gen, so that importing plantest (or the simulator, which uses
// it) never registers rapid's command-line flags. The in-memory API server
// that applies plans the way the real one would is
// [github.com/rolloutplan/rolloutplan/plan/inmemory.Cluster].
//
// To start: after plan.Sync, pass the state and its plan to [Check] and fail
// the test on any violation without a Quirk (see the Example for Check); to
// run several syncs, keep the objects in an inmemory.Cluster, plan from its
// State and apply with its ApplyPlan.
//
// The invariants, for one planned sync (the numbers of a RollingUpdate
// unless said otherwise):
//
//   - I1: the sum of spec.replicas after the sync is at most replicas +
//     maxSurge, or, when it was already above, it does not grow.
//   - I2: a rolling scale-down never takes the available pods below
//     replicas − maxUnavailable, except by removing pods that are already
//     unavailable.
//   - I3: the new ReplicaSet never exceeds replicas; old ones never grow
//     outside scaling events.
//   - I4: liveness; a property of a whole simulation, see package sim.
//   - I5: the same state, in any slice order, gives the same plan
//     ([CheckDeterminism]).
//   - I6: proportional scaling reaches replicas + maxSurge exactly, moves
//     every ReplicaSet in the direction of the change (when their
//     max-replicas annotations agree with the current total), and never
//     below zero.
//   - I7: history cleanup never deletes the new ReplicaSet, one with pods
//     (spec or status), one whose spec change is not observed, or one being
//     deleted, and keeps revisionHistoryLimit old ones.
//   - I8: collisionCount never decreases.
//   - I9: a paused Deployment gets no new ReplicaSet and no rollout step;
//     Recreate starts no new pod while old pods run.
//
// # StatefulSets
//
// The guarantees of a StatefulSet (the seed's "Deployment and Scaling
// Guarantees", "Rolling Updates" and "Partitions", and upstream's
// maxUnavailable), for one planned sync of package plan/statefulset. A pod
// is healthy when it is Running and Ready, available after minReadySeconds,
// and not being deleted; "replicas" are the ordinals [start,
// start+spec.replicas), and indices count from start.
//
//   - S1: OrderedReady creates a pod only when every replica below it is
//     healthy, and at most one per sync: it never starts web-2 before web-0
//     and web-1 are Running and Ready.
//   - S2: the rolling update never deletes a pod below the partition, nor one
//     already at the update revision, nor any under OnDelete; a pod is
//     created at the current revision below the partition and at the update
//     revision from it up.
//   - S3: with the MaxUnavailableStatefulSet gate on, the rolling update's
//     deletions never take the unavailable replicas above maxUnavailable;
//     with it off, a sync deletes at most one pod for the update. Under
//     OrderedReady the update deletes only while every replica is healthy.
//   - S4: scaling is monotonic: scale-down deletes only pods outside the
//     replicas, and under OrderedReady one per sync, the highest such pod,
//     only while every replica is healthy (web-1 goes only after web-2 is
//     gone, and only while web-0 is Running and Ready).
//   - S5: liveness; a property of a whole simulation: a rolling update whose
//     pods become ready completes within a bound, see package sim
//     (RunStatefulSet).
//   - S6: the same state, in any slice order, gives the same plan
//     ([CheckStatefulSetDeterminism]).
//   - S7: identity: pods are created only under their names
//     "<set>-<ordinal>", at ordinals of the replicas no pod holds; a pod is
//     deleted at most once, never while being deleted, and only when it
//     failed (or succeeded), lies outside the replicas or is replaced by the
//     rolling update; a set being deleted gets no pod writes.
//
// # DaemonSets
//
// For one planned sync of package plan/daemonset, over the nodes that should
// run a daemon pod (the full text is on [CheckDaemonSet]):
//
//   - D1: the rolling update's deletions never leave more nodes without an
//     available daemon pod than maxUnavailable (or than before, when that is
//     more); with maxSurge never more than before. A violation caused by
//     upstream's clean-up of excess pods carries [QuirkExcessKeepsOldest].
//   - D2: at most one surge pod per node: a create never brings a node to
//     more than one live pod (two with maxSurge, one of an older revision).
//   - D3: pods are created only on nodes that should run one, pinned there
//     by node affinity, and pods on nodes that may not keep one are deleted.
//   - D4: created pods carry the current revision's hash and the controller
//     reference; a pod is deleted at most once, and only if it is the set's.
//   - D5: the same state, in any slice order, gives the same plan
//     ([CheckDaemonSetDeterminism]).
//   - D6: liveness; a property of a whole simulation: an update on a fixed
//     pool whose pods become ready completes within a bound, see package
//     sim (RunDaemonSet, DaemonSetLivenessBound).
package plantest
