// Package sim simulates whole rollouts: it runs the Deployment planner
// (package plan) and the ReplicaSet planner (package plan/replicaset), the
// StatefulSet planner (package plan/statefulset, see [RunStatefulSet]) or
// the DaemonSet planner (package plan/daemonset, see [RunDaemonSet]),
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
// # StatefulSets
//
// [RunStatefulSet] simulates a StatefulSet the same way, with the
// StatefulSet planner (package plan/statefulset): each sync's typed actions
// are applied to a modelled namespace (pods created, deleted and written
// back, claims created and their owner references set, ControllerRevisions
// created, renumbered and deleted, the status written), and a stand-in
// kubelet starts each pod [World.ReadyAfter] after its creation, once its
// claims exist (Running and Ready, or Running and never Ready for a
// [World.NeverReady] template), makes ready pods fail at
// [World.FailureRate] (unready for ReadyAfter) or
// [StatefulSetConfig.EvictionRate] (phase Failed, so the controller
// replaces them), removes deleted pods [World.TerminationGrace] later, and
// garbage-collects claims whose owners are gone. Scripts take the same
// [Event] values, with [SetPartition], [DeletePod] and a StatefulSet's
// [SetStrategy]; [StatefulSetTrace.WriteTimeline] shows the pods by ordinal
// and revision, [StatefulSetTrace.WriteSVG] charts the pods and ready pods
// of each revision. With [StatefulSetConfig.Check] every sync is checked
// against the StatefulSet invariants (plantest.CheckStatefulSet).
//
// Liveness (invariant S5): after a template change to a complete
// RollingUpdate set whose pods become ready, the rollout completes within
// 2u syncs when pods start, stop and become available at once (ReadyAfter,
// TerminationGrace and minReadySeconds zero), and within 5u syncs for any
// ReadyAfter, TerminationGrace and SyncInterval (7u with minReadySeconds),
// u being the pods to replace, replicas − partition. A pod costs one sync
// that deletes it, one that creates it again once it is gone, one that
// sees it ready and deletes the next, and each wait (terminating,
// starting, becoming available) at most one more sync that finds nothing
// new (the sync after a create also writes the status that counts the new
// pod). The bounds are exact: an exhaustive sweep of 0–6 replicas, every
// partition, both management policies and the MaxUnavailableStatefulSet
// gate on and off reaches them for every u, and a rapid property over random
// sets of up to 10 replicas and random timings never exceeds them. From any
// state a script leaves behind (pods terminating, starting, at a third
// revision, a status to recount), the rollout completes within 8 syncs per
// pod (the most that exist at once) and 8 more, tested over generated
// scripts.
//
// Summary.Quirks counts the violations upstream itself makes
// (plantest.Violation.Quirk); one is a livelock the scripts property found:
// under Parallel, a RollingUpdate without a rollingUpdate block can create
// and delete the same pod in every sync (plantest.QuirkNilRollingUpdateLoop),
// which the simulation shows as a run without a fixed point.
//
// # A broken OrderedReady rollout
//
// The seed's caveat (004, "Forced rollback"): an OrderedReady rolling
// update to a template whose pods never become Ready stops at the first
// replaced pod, and reverting the template is not enough. The planner says
// why: the revert makes the old revision the update revision again (it is
// renumbered, "revision web-… (1) records the set's template but is not the
// latest (2): it becomes revision 3"), but the pods are processed from
// web-0 up before the rolling update looks at revisions, and OrderedReady
// stops at the first pod that is not Running and Ready: "web-2 is not
// Running and Ready (phase Running); OrderedReady waits before the rolling
// update". The broken web-2 would only be replaced by the rolling update,
// which it blocks. Deleting it (a [DeletePod] action, kubectl delete pod
// web-2) lets the controller create it again at the reverted revision, and
// the rollout completes (the example of [StatefulSetTrace.WriteTimeline]).
// A Parallel set does not wait for web-2: its rolling update replaces the
// broken pod once the template is reverted.
//
// # DaemonSets
//
// [RunDaemonSet] simulates a DaemonSet over a node pool with the DaemonSet
// planner (package plan/daemonset): each sync's typed actions are applied
// to a modelled cluster, a stand-in scheduler binds each pod to the node
// its node affinity names (or holds it while the node's taints forbid it),
// stand-in kubelets start, fail and remove pods as for a StatefulSet, a
// stand-in taint manager evicts pods from nodes with a NoExecute taint they
// do not tolerate, and the pod garbage collector removes the pods of nodes
// that are gone. Scripts add the node events [AddNode], [RemoveNode],
// [CordonNode], [UncordonNode], [TaintNode] and [UntaintNode] to template
// changes, strategy changes, undos and pod deletions.
// [DaemonSetTrace.WriteTimeline] shows the pods by revision, the nodes
// without an available pod and the pool node by node;
// [DaemonSetTrace.WriteSVG] charts them. With [DaemonSetConfig.Check] every
// sync is checked against the DaemonSet invariants
// (plantest.CheckDaemonSet); liveness (D6) is [DaemonSetLivenessBound].
//
// # Determinism
//
// Everything random (failures, fault injection) is drawn from a generator
// seeded with [World.Seed]: the same Config gives the same Trace.
package sim
