// Package daemonset is the DaemonSet controller as a pure function: [Sync]
// takes one DaemonSet, every node, the pods and ControllerRevisions of its
// namespace and an explicit now, and returns the [Plan] the upstream
// controller (Kubernetes v1.36, default feature gates) carries out in one
// sync: typed actions in upstream's order, each with a [Reason], the
// events it records, when it wants to sync again, the status it computes,
// and, per node, whether the node should run a daemon pod and why not.
//
// To start: put the DaemonSet (with model.DefaultDaemonSet applied if it
// did not come from an API server), the nodes, the namespace's pods and
// ControllerRevisions and the current time into a [State], call [Sync] and
// apply [Plan.Actions] in order; the Example for Sync does exactly that on
// a three-node pool with a tainted node.
//
// # Index
//
// Planning: Sync, State, Plan, Action, RevisionUpdate, Placement, Reason,
// Event, SyncError. Options: WithHasher, WithPatcher, WithPodNamer.
//
// Upstream names (k8s.io/kubernetes v1.36 pkg/controller/daemon): syncDaemonSet
// is Sync; NodeShouldRunDaemonPod keeps its name; util.IsPodUpdated,
// util.AllowsSurge, util.SurgeCount and util.UnavailableCount keep theirs
// (IsPodUpdated, AllowsSurge, SurgeCount, UnavailableCount); the status
// counts of updateDaemonSetStatus are CalculateStatus; getPatch is
// DefaultPatch (and the Patcher an adapter supplies); constructHistory,
// snapshot, dedupCurHistories, cleanupHistory, manage, podsShouldBeOnNode,
// syncNodes and rollingUpdate are the steps of Sync, in that order. In
// package model: util.GetTemplateGeneration is DaemonSet.TemplateGeneration,
// util.AddOrUpdateDaemonPodTolerations is DaemonPodTolerations,
// util.GetTargetNodeName is TargetNodeName,
// util.ReplaceDaemonSetPodNodeNameNodeAffinity is NodeNameAffinity, the
// scheduler's required node affinity is NodeSelector.Match, and the taint
// helpers are Toleration.ToleratesTaint, TolerationsTolerateTaint and
// FindUntoleratedTaint.
//
// # Input
//
// Sync validates its State with model.ValidateDaemonSetSnapshot (field
// paths such as "nodes[2].spec.taints[0].effect"). The DaemonSet must be
// defaulted, as an API server returns it. apps/v1 refuses a rolling update
// with both maxSurge and maxUnavailable non-zero, but stored objects can
// carry both and the controller lets maxSurge win, so Sync accepts them.
//
// model.Pod does not carry a pod's node affinity, which the controller reads
// to find the node a pod not yet bound is meant for: State.PodNodeAffinity
// supplies it by pod name (every pod the controller creates has one).
//
// Availability follows v1.36's podutil.IsPodAvailable: a pod ready since
// 10:00:00 with minReadySeconds 10 is available at 10:00:10.
//
// # One sync
//
// Sync follows syncDaemonSet for a controller that has just started: its
// caches hold the State's objects and do not see the sync's own writes, its
// expectations are satisfied and its failed-pod backoff is empty.
//
//  1. A DaemonSet being deleted is not synced (a note says so).
//  2. History: the namespace's ControllerRevisions are claimed (orphans
//     whose labels match the selector adopted, controlled ones that no
//     longer match released), a controlled revision without the
//     controller-revision-hash label gets its own name as the label, and
//     the revision whose data equals the template's ([Patcher]) is the
//     current one. Without one, a revision named <name>-<hash> is created,
//     numbered after the newest old one; if that name is taken by another
//     template's revision, status.collisionCount is bumped and the sync ends
//     with ErrKindAlreadyExists. Several current revisions are merged into
//     the highest-numbered (pods relabelled, the others deleted), and a
//     current revision numbered below an old one is renumbered.
//  3. Manage: for every node, the predicate ([NodeShouldRunDaemonPod])
//     against its pods: a pod is created where one should run and none is;
//     failed and succeeded pods are deleted (with a FailedDaemonPod or
//     SucceededDaemonPod event; a second failed pod on one node waits for
//     the one-second backoff, a requeue); surplus pods are deleted, all but
//     the oldest, or with maxSurge all but the oldest new and oldest old,
//     the old one too once the new one is available or when it is not
//     ready; pods on nodes that should no longer run one are deleted, and so
//     are unscheduled pods meant for nodes that do not exist.
//  4. Update: only when step 3 wrote no pod (upstream's expectations hold
//     the update back until its creates and deletes are observed), and for
//     RollingUpdate. With maxSurge 0, old pods are deleted while at most
//     maxUnavailable nodes lack an available pod (old pods that are not
//     available are deleted at once); step 3 of a later sync creates their
//     replacements. With maxSurge, a new pod is created beside an old one on
//     at most maxSurge nodes at a time (at once where the old pod is not
//     available), and the old pod is deleted once the new one is available
//     after minReadySeconds. OnDelete does nothing here.
//  5. Cleanup: old revisions beyond revisionHistoryLimit that no pod's hash
//     label names are deleted, lowest number first.
//  6. Status: desired, current, misscheduled, ready, updated, available and
//     unavailable counts and observedGeneration, written when they differ;
//     while some ready pods are not yet available, a requeue after
//     minReadySeconds.
//
// Upstream lists (and claims) the pods in steps 3 to 6 (and in step 2 when
// it merges revisions), and its cache does not see its adoption patches, so
// the same adoption or release is planned once per listing, as upstream
// sends it.
//
// # Order
//
// Upstream creates and deletes pods in parallel batches and walks Go maps
// of nodes, so the order of its writes, and, where a budget lets only some
// nodes move, which ones move, vary between runs. The planner walks nodes,
// pods and revisions in name order: pods are created on the first nodes by
// name, and of equally numbered revisions the last by name is kept (merge)
// or the first deleted (cleanup). Every such pick is one upstream can make.
//
// # Names of created pods
//
// Upstream creates pods with generateName "<name>-" and the API server
// appends 5 random characters. The planner names them with
// replicaset.DefaultPodName keyed by the DaemonSet's UID, skipping names in
// use, so names are reproducible; Action.GenerateName carries the
// generateName for appliers that let the server choose.
//
// # Purity
//
// Nothing here reads a clock, draws a random number, logs, or keeps global
// state. Inputs are never modified and never aliased by the result, and the
// plan does not depend on the order of the input slices.
package daemonset
