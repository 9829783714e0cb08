package model

// Annotation and label keys written or read by the Deployment controller.
const (
	// RevisionAnnotation holds the rollout sequence number of a Deployment and of
	// each of its ReplicaSets, as a decimal int64.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists, comma-separated, the earlier revisions a
	// ReplicaSet served before it was re-used by a rollback.
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation records the Deployment's spec.replicas at the
	// time the controller last sized the ReplicaSet.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation records spec.replicas + maxSurge at that time; it is
	// the "before" size of proportional scaling.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// RollbackToAnnotation is the legacy rollback request: a revision number, 0
	// meaning the previous one.
	RollbackToAnnotation = "deprecated.deployment.rollback.to"
	// LastAppliedConfigAnnotation is kubectl apply's record; it is never copied
	// to ReplicaSets.
	LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// ChangeCauseAnnotation is shown by kubectl rollout history.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
	// RestartedAtAnnotation is the pod-template annotation kubectl rollout
	// restart sets.
	RestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"
	// PodDeletionCostAnnotation ranks pods for deletion (lower cost first).
	PodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"
	// PodTemplateHashLabel is added to a ReplicaSet's labels, selector and
	// template labels, and so to its pods.
	PodTemplateHashLabel = "pod-template-hash"
)

// MaxRevisionHistoryLength is the cap, in characters, of the
// revision-history annotation (upstream maxRevHistoryLengthInChars).
const MaxRevisionHistoryLength = 2000

// NoLimit is the int32 sentinel (2147483647) that means "unlimited" for
// revisionHistoryLimit and "no deadline" for progressDeadlineSeconds.
const NoLimit int32 = 1<<31 - 1

// APIVersion and kind strings used in owner references.
const (
	AppsV1APIVersion = "apps/v1"
	DeploymentKind   = "Deployment"
	ReplicaSetKind   = "ReplicaSet"
)

// IsSkippedAnnotation reports whether key is one of the annotations that are
// never copied between a Deployment and its ReplicaSets (upstream's
// annotationsToSkip, shared by the controller and kubectl).
func IsSkippedAnnotation(key string) bool {
	switch key {
	case LastAppliedConfigAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, RollbackToAnnotation:
		return true
	}
	return false
}

// DeploymentConditionType names a Deployment condition.
type DeploymentConditionType string

// The Deployment condition types.
const (
	DeploymentAvailable      DeploymentConditionType = "Available"
	DeploymentProgressing    DeploymentConditionType = "Progressing"
	DeploymentReplicaFailure DeploymentConditionType = "ReplicaFailure"
)

// ReplicaSetConditionType names a ReplicaSet condition.
type ReplicaSetConditionType string

// ReplicaSetReplicaFailure is the only ReplicaSet condition type.
const ReplicaSetReplicaFailure ReplicaSetConditionType = "ReplicaFailure"

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// Condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Condition reasons written by the Deployment controller.
const (
	ReasonMinimumReplicasAvailable   = "MinimumReplicasAvailable"
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"
	ReasonNewReplicaSetCreated       = "NewReplicaSetCreated"
	ReasonFoundNewReplicaSet         = "FoundNewReplicaSet"
	ReasonReplicaSetUpdated          = "ReplicaSetUpdated"
	ReasonNewReplicaSetAvailable     = "NewReplicaSetAvailable"
	ReasonProgressDeadlineExceeded   = "ProgressDeadlineExceeded"
	ReasonReplicaSetCreateError      = "ReplicaSetCreateError"
	ReasonDeploymentPaused           = "DeploymentPaused"
	ReasonDeploymentResumed          = "DeploymentResumed"
	// ReasonFailedCreate and ReasonFailedDelete are the ReplicaSet
	// controller's ReplicaFailure reasons, promoted to the Deployment.
	ReasonFailedCreate = "FailedCreate"
	ReasonFailedDelete = "FailedDelete"
)

// Event reasons emitted by the Deployment controller.
const (
	EventSelectingAll                        = "SelectingAll"
	EventScalingReplicaSet                   = "ScalingReplicaSet"
	EventReplicaSetCreateError               = "ReplicaSetCreateError"
	EventDeploymentRollback                  = "DeploymentRollback"
	EventDeploymentRollbackRevisionNotFound  = "DeploymentRollbackRevisionNotFound"
	EventDeploymentRollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged"
)

// Event types.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)
