package plan

// Reason codes of actions.
const (
	// ReasonAdopt: an orphan ReplicaSet matches the selector.
	ReasonAdopt ReasonCode = "AdoptReplicaSet"
	// ReasonRelease: a ReplicaSet this Deployment controls no longer matches
	// the selector.
	ReasonRelease ReasonCode = "ReleaseReplicaSet"
	// ReasonSelectingAll: the selector is empty; only observedGeneration is
	// recorded.
	ReasonSelectingAll ReasonCode = "SelectingAll"
	// ReasonPausedCondition: the Progressing condition records a pause or a
	// resume.
	ReasonPausedCondition ReasonCode = "PausedCondition"
	// ReasonSyncNewReplicaSet: the new ReplicaSet's annotations or
	// minReadySeconds lag the Deployment's.
	ReasonSyncNewReplicaSet ReasonCode = "SyncNewReplicaSet"
	// ReasonSyncRevision: the Deployment's revision annotation (or its
	// FoundNewReplicaSet/NewReplicaSetCreated condition) is recorded.
	ReasonSyncRevision ReasonCode = "SyncRevision"
	// ReasonCreateNewReplicaSet: no ReplicaSet has the Deployment's template.
	ReasonCreateNewReplicaSet ReasonCode = "CreateNewReplicaSet"
	// ReasonHashCollision: the new ReplicaSet's name is taken; the collision
	// count is bumped.
	ReasonHashCollision ReasonCode = "HashCollision"
	// ReasonScaleUpNew: the new ReplicaSet grows within the surge budget.
	ReasonScaleUpNew ReasonCode = "ScaleUpNewReplicaSet"
	// ReasonScaleDownNew: the new ReplicaSet is larger than spec.replicas.
	ReasonScaleDownNew ReasonCode = "ScaleDownNewReplicaSet"
	// ReasonCleanupUnhealthy: an old ReplicaSet loses pods that are not
	// available.
	ReasonCleanupUnhealthy ReasonCode = "CleanupUnhealthyReplicas"
	// ReasonScaleDownOld: an old ReplicaSet shrinks within the availability
	// budget.
	ReasonScaleDownOld ReasonCode = "ScaleDownOldReplicaSet"
	// ReasonRecreateScaleDown: Recreate stops every old pod first.
	ReasonRecreateScaleDown ReasonCode = "RecreateScaleDownOld"
	// ReasonRecreateScaleUp: Recreate sizes the new ReplicaSet once no old pod
	// runs.
	ReasonRecreateScaleUp ReasonCode = "RecreateScaleUpNew"
	// ReasonScaleActive: a scaling event with a single active (or latest)
	// ReplicaSet sets it to spec.replicas.
	ReasonScaleActive ReasonCode = "ScaleActiveReplicaSet"
	// ReasonScaleSaturated: the new ReplicaSet is saturated, so old ones go
	// to zero.
	ReasonScaleSaturated ReasonCode = "ScaleDownSaturated"
	// ReasonProportional: a scaling event spreads the change over several
	// active ReplicaSets.
	ReasonProportional ReasonCode = "ProportionalScale"
	// ReasonHistoryLimit: an old ReplicaSet exceeds revisionHistoryLimit.
	ReasonHistoryLimit ReasonCode = "RevisionHistoryLimit"
	// ReasonRollback: the legacy rollback annotation is honoured (or
	// cleared).
	ReasonRollback ReasonCode = "Rollback"
	// ReasonStatus: the computed status differs from the stored one.
	ReasonStatus ReasonCode = "SyncStatus"
)

// Reason codes of notes: decisions that wrote nothing.
const (
	// NoteStatusUnchanged: the computed status equals the stored one.
	NoteStatusUnchanged ReasonCode = "StatusUnchanged"
	// NoteSurgeBudgetSpent: the new ReplicaSet cannot grow; the total is at
	// replicas + maxSurge.
	NoteSurgeBudgetSpent ReasonCode = "SurgeBudgetSpent"
	// NoteAvailabilityBudgetSpent: old ReplicaSets cannot shrink without
	// going below replicas − maxUnavailable available pods.
	NoteAvailabilityBudgetSpent ReasonCode = "AvailabilityBudgetSpent"
	// NoteOldPodsRunning: Recreate waits for old pods to stop.
	NoteOldPodsRunning ReasonCode = "OldPodsRunning"
	// NotePaused: a paused Deployment only scales and cleans up.
	NotePaused ReasonCode = "Paused"
	// NoteDeleting: a Deployment being deleted only syncs its status.
	NoteDeleting ReasonCode = "Deleting"
	// NoteScalingEvent: a replicas change pre-empts the rollout this sync.
	NoteScalingEvent ReasonCode = "ScalingEvent"
	// NoteComplete: the Deployment is complete by DeploymentComplete's
	// definition (every replica updated and available, no other pod, the
	// generation observed) in the status this sync computes.
	NoteComplete ReasonCode = "Complete"
	// NoteReplicasReached: a ReplicaSet already has the spec.replicas the
	// decision wants, so nothing is resized; its pods may still be on the
	// way.
	NoteReplicasReached ReasonCode = "ReplicasReached"
	// NoteStaleDesiredAnnotation: the only active ReplicaSet has the right
	// size but its desired-replicas annotation disagrees; upstream's scale
	// returns without updating it, so the next sync is a scaling event
	// again (an upstream quirk).
	NoteStaleDesiredAnnotation ReasonCode = "StaleDesiredAnnotation"
	// NoteDeadlineExceeded: the rollout made no progress within
	// progressDeadlineSeconds.
	NoteDeadlineExceeded ReasonCode = "ProgressDeadlineExceeded"
	// NoteSwallowedError: upstream computed an error here and ignored it.
	NoteSwallowedError ReasonCode = "SwallowedError"
	// NoteRecreateMultipleActive: Recreate cannot scale several active
	// ReplicaSets (upstream quirk: Recreate with several active ReplicaSets ignores a replica change).
	NoteRecreateMultipleActive ReasonCode = "RecreateMultipleActive"
)

func v(name string, x int64) Value { return Value{Name: name, Value: x} }
