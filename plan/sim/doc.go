// Package sim simulates whole rollouts: it runs the Deployment planner
// (package plan) and the ReplicaSet planner (package plan/replicaset)
// against a modelled cluster (an [inmemory.Cluster]), sync after sync,
// applying each plan's actions as the API server would, letting pods start,
// become ready, fail and terminate, and records a [Trace] until the rollout
// completes or stalls. Every decision is the planners': the simulator only
// carries out their actions and models the pods.
//
// To start: [Run] takes a [Config] (a Deployment, optionally the live
// ReplicaSets and pods, and a [World] saying how fast pods start and stop) and
// returns the [Trace]; [Trace.WriteTimeline] prints it and [Trace.WriteSVG]
// charts it. See the Example for Run.
//
// # Time
//
// The simulation is event driven, like the controller: after a sync that
// changed something, the next sync comes [Config.SyncInterval] later (the
// watch round trip); when nothing changed, time jumps to the next pod
// transition or to the planner's requeue (the progress deadline). When
// nothing is pending at all the cluster has reached a fixed point: the
// rollout completed, or it stalled and the trace says why.
//
// # Scripts
//
// The user's actions ([Event]) fire in order, each at a simulated time or
// when the rollout is complete or has stalled ([Trigger]): "create, wait
// for the rollout, then change the image" is a script of one WhenComplete
// event. The [Summary] describes the run from the last action on.
//
// # Counting pods
//
// Pod counts (timeline, chart, summary) come from the modelled pods
// themselves, each pod counted once as active or terminating, never from
// ReplicaSet statuses, which lag a sync behind and still count the pods a
// sync deletes.
//
// # Fidelity
//
// [Counts] models each ReplicaSet's pods as cohorts (how many, created when,
// ready when): fast enough for rollouts of 100 000 replicas, and all the
// Deployment planner needs. [Pods] models every pod and runs the ReplicaSet
// planner, so deletion choices, node co-location and pod-level readiness are
// visible.
//
// # Determinism
//
// Everything random (failures, fault injection) is drawn from a generator
// seeded with [World.Seed]: the same Config gives the same Trace.
package sim
