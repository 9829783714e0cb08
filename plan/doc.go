// Package plan is the Deployment controller as a pure function: [Sync] takes
// one Deployment, every ReplicaSet of its namespace, the Pods and an explicit
// now, and returns the [Plan] the upstream controller (Kubernetes v1.36)
// would carry out in one sync: a list of typed actions in upstream's order,
// the events it records, when it wants to sync again, and why.
//
// # Actions
//
// Each [Action] says what it changes and on which object ([ObjectRef]:
// namespace, name, UID and the resourceVersion it was planned from):
//
//   - [ScaleReplicaSet]: spec.replicas From → To, with the replica
//     annotations it sets ([ReplicaSetUpdate]);
//   - [UpdateReplicaSet]: annotations or minReadySeconds of the new
//     ReplicaSet, its size unchanged ([ReplicaSetUpdate]);
//   - [CreateReplicaSet]: the new ReplicaSet, whole;
//   - [DeleteReplicaSet]: revision-history cleanup;
//   - [AdoptReplicaSet], [ReleaseReplicaSet]: the owner reference patched in
//     or out;
//   - [UpdateDeploymentStatus], [UpdateDeployment]: the Deployment's
//     annotations, status and (legacy rollback) template
//     ([DeploymentUpdate]).
//
// Every action carries a [Reason]: a code, the numbers behind the decision
// and a sentence. A sync that writes nothing has notes ([Plan.Notes]) that
// say why: a spent surge or availability budget, old pods still
// terminating, a pause.
//
// To start: put the Deployment (with model.Default applied if it did not come
// from an API server), its namespace's ReplicaSets and Pods and the current
// time into a [State], call [Sync], and apply [Plan.Actions] in order, a
// scale through the scale subresource, say; the Example for Sync does exactly
// that. An adapter that wants the exact requests upstream sends (whole
// objects, owner-reference patches) renders the plan with package
// plan/render. A Plan shares no memory with its State or with another Plan:
// a caller may change anything it gets. The package layout, the import
// rules and the index of upstream names for every package are at the end
// of this documentation.
//
// # Writes as upstream attempts them
//
// Upstream sometimes writes the same object twice in one sync from the same
// cached version (for example a Deployment status update inside
// getNewReplicaSet followed by the final status update). A real API server
// rejects the second write with a conflict and the sync is retried. The plan
// lists every write upstream attempts and flags each write a real server
// would reject ([Action.Conflict]); [Plan.Rejected] finds the first and
// [Plan.Accepted] is the prefix a real server applies. render.Coalesced
// merges the rendered writes into one per object for adapters that prefer
// fewer round trips.
//
// Near the int32 limits upstream's arithmetic wraps, and a write can carry a
// negative size or status count that apps/v1 validation refuses. Such a
// write is listed too, as upstream attempts it, marked with the server's
// message ([Action.Invalid]); it ends the accepted prefix like a conflict,
// and Sync returns the server's error ([ErrKindInvalid]) with the plan.
//
// # Errors
//
// Sync returns one error. Invalid input (a *model.ValidationError naming
// each field) comes with the zero Plan. An error upstream's sync ends with
// on valid input (a hash collision, a write the server refuses) is a
// *[SyncError], returned with the Plan of what upstream did before it
// stopped, which is applied like any other.
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
//
// # Package layout, for the next maintainer
//
// Data flows one way, from plain objects through arithmetic to decisions and
// on to simulations and tools:
//
//	model ──┬── proportion ──┐                   ┌── plan/render ── plan/inmemory ──┐
//	        ├── hash ────────┼── plan ──────────┤                                   ├── plan/sim ── plan/rollout
//	        └── revision ────┘                   └── plan/replicaset ── plan/plantest ┘
//
//	other workloads, on plan's Reason, Event and SyncError:  plan/statefulset, plan/daemonset (also on plan/replicaset's pod names)
//	beside plan, on model alone:  plan/restart (plan/restart/replay on top), plan/enqueue, plan/evidence
//	outside the core module:      examples/appsv1, examples/kubectl, examples/controller, examples/bench
//
// model holds the apps/v1-shaped types, defaulting and validation. proportion
// does the replica arithmetic (fenceposts, proportional scaling), hash the
// pod-template-hash, revision the revision annotations, cleanup order and
// kubectl's rollback choice. plan decides one Deployment sync; plan/render
// turns its typed actions into upstream's write requests; plan/inmemory is an
// in-memory API server that applies them; plan/statefulset and
// plan/daemonset plan one StatefulSet or DaemonSet sync with the same
// action and reason design; plan/replicaset decides one
// ReplicaSet sync (which pods to create and delete). plan/plantest checks the
// rollout invariants (plan/plantest/gen adds rapid generators); plan/sim runs both planners sync
// after sync until a rollout settles; plan/rollout answers what kubectl rollout
// prints and patches, and uses plan/sim for its what-if Lint. plan/enqueue
// routes informer events to Deployment keys; plan/restart plans
// config-triggered restarts; plan/evidence reads how long pods take to become
// ready, and why one is not, from the pods seen. Each directory under examples/ is a nested module
// with its own go.mod: everything that needs k8s.io/*, client-go, kubectl or a
// real API server lives there, never in the core module.
//
// Import rules (a test in internal/importrules enforces them):
//
//   - model imports nothing of the module;
//   - hash, revision and proportion import only model;
//   - plan imports those four;
//   - plan/render imports plan and below; plan/inmemory imports plan/render
//     and below;
//   - plan/replicaset imports plan and below;
//   - plan/statefulset imports plan and below; plan/daemonset imports
//     plan/replicaset and below;
//   - plan/plantest imports plan/replicaset, plan/statefulset,
//     plan/daemonset and below;
//     plan/plantest/gen may also import rapid, the only core package that may;
//   - plan/sim imports plan/plantest, plan/inmemory and below;
//   - plan/rollout imports plan/sim and below;
//   - plan/restart, plan/enqueue and plan/evidence import only model
//     (plan/restart/replay imports plan/restart);
//   - no core package imports examples/* or a test library (rapid, go-cmp,
//     testify) outside its _test.go files.
//
// # Upstream names, package by package
//
// Where to find each upstream function (Kubernetes v1.36 pkg/controller unless
// said otherwise). Functions whose name says that they set or copy something
// modify their first argument; everything else only reads.
//
// model (apps/v1 types and helpers):
//   - SetDefaults_Deployment, SetDefaults_ReplicaSet: model.Default,
//     model.DefaultReplicaSet (both return a defaulted copy).
//   - apps/v1 ValidateDeployment and friends: model.Validate,
//     model.ValidateDeployment, model.ValidateReplicaSet, model.ValidatePod.
//   - podutil.IsPodReady, podutil.IsPodAvailable, controller.IsPodActive,
//     IsPodTerminating: model.IsPodReady, model.IsPodAvailable,
//     model.IsPodActive, model.IsPodTerminating.
//   - metav1.LabelSelectorAsSelector and Selector.Matches: model.LabelSelector
//     and model.Matcher; labels.Set.AsSelectorPreValidated:
//     model.LabelsMatcher.
//   - deployment/util skipCopyAnnotation: model.IsSkippedAnnotation;
//     ReplicaSetsByCreationTimestamp: proportion.ByCreationTimestamp (built
//     on model.CompareCreation).
//
// hash:
//   - controller.ComputeHash: hash.ComputeHash (rand.SafeEncodeString:
//     hash.SafeEncodeString, hash.Encode).
//   - deployment/util EqualIgnoreHash: model.EqualIgnoreHash.
//   - the new ReplicaSet's name in getNewReplicaSet: hash.ReplicaSetName.
//
// proportion (deployment/util and sync.go):
//   - ResolveFenceposts, MaxSurge, MaxUnavailable, MinAvailable, NewRSNewReplicas,
//     FindActiveOrLatest, FilterActiveReplicaSets: the same names.
//   - intstr.GetScaledValueFromIntOrPercent: proportion.ScaledValue;
//     integer.RoundToInt32: proportion.RoundToInt32.
//   - GetReplicaCountForReplicaSets: proportion.ReplicaCount.
//   - getReplicaSetFraction, getProportion: proportion.ReplicaSetFraction,
//     proportion.GetProportion; the proportional loop of scale():
//     proportion.Distribute.
//   - ReplicaSetsBySizeNewer, ReplicaSetsBySizeOlder: proportion.BySizeNewer,
//     proportion.BySizeOlder.
//   - getNonNegativeInt32FromAnnotation: proportion.NonNegativeInt32Annotation.
//
// revision (deployment/util, sync.go and kubectl's polymorphichelpers):
//   - Revision, MaxRevision, LastRevision: the same names.
//   - SetNewReplicaSetAnnotations (modifies the ReplicaSet),
//     copyDeploymentAnnotationsToReplicaSet (modifies it),
//     SetDeploymentRevision (modifies the Deployment),
//     setDeploymentAnnotationsTo (modifies it): the same names;
//     revision.NewReplicaSetAnnotationsCurrent is the read-only check.
//   - the choice inside cleanupDeployment: revision.ToDelete.
//   - kubectl rollout history (ViewHistory) and rollout undo
//     (DeploymentRollbacker): revision.History, revision.RollbackTarget,
//     revision.RollbackTemplate, revision.UndoAnnotations,
//     revision.KubectlReplicaSets.
//
// plan (deployment controller): syncDeployment is [Sync]; its steps
// (getNewReplicaSet, rolloutRolling, rolloutRecreate, sync, scale, rollback,
// cleanupDeployment, syncRolloutStatus, requeueStuckDeployment,
// ClaimReplicaSets) are the writes, events, requeue and reasons of the [Plan];
// the building blocks listed above keep upstream's names, and
// GetTerminatingReplicaCountForReplicaSets is [TerminatingReplicas].
//
// plan/replicaset (replicaset controller): syncReplicaSet is replicaset.Sync;
// manageReplicas, slowStartBatch, getPodsToDelete, ActivePodsWithRanks,
// getPodDeletionCost and ClaimPods are indexed in that package's doc.
//
// plan/enqueue (the Deployment controller's informer handlers):
// addDeployment, updateDeployment, deleteDeployment, addReplicaSet,
// updateReplicaSet, deleteReplicaSet and deletePod are enqueue.AddDeployment,
// UpdateDeployment, DeleteDeployment, AddReplicaSet, UpdateReplicaSet,
// DeleteReplicaSet and DeletePod; getDeploymentsForReplicaSet and
// getDeploymentForPod are enqueue.DeploymentsForReplicaSet and
// enqueue.DeploymentForPod; cache.DeletedFinalStateUnknown is enqueue.Tombstone.
//
// plan/rollout (k8s.io/kubectl v0.36 rollout): DeploymentStatusViewer is
// rollout.Status, DeploymentHistoryViewer is rollout.History and
// rollout.HistoryRevision, DeploymentRollbacker is rollout.Undo and
// rollout.UndoDryRun, the restarter, pauser and resumer are rollout.Restart,
// rollout.Pause and rollout.Resume. rollout.Lint has no upstream counterpart.
//
// plan/restart (xing/kubernetes-deployment-restart-controller v1.3.0): the
// config agent's bookkeeping (src/controller/config_agent.go) is
// restart.Tracker; the checksums of src/controller/meta_config.go are
// restart.ConfigMapChecksum and restart.SecretChecksum; the annotation and
// reference handling of meta_deployment.go is restart.References,
// restart.ParseChecksums and restart.FormatChecksums; the controller's
// periodic check and restart decision is restart.Plan.
//
// plan/render, plan/inmemory, plan/plantest and plan/sim have no upstream
// counterpart: they stand in for the client, the API server, the kubelet and
// the informers around the two controllers.
package plan
