// Package plantest helps test code that plans or applies rollouts: [Check],
// which reports every violation of the rollout invariants I1–I9 in one
// planned sync, [CheckDeterminism], and [Epoch], the clock the generators
// build around. The rapid generators of valid states live in the
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
package plantest
