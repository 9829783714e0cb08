package restart

// Reason says why the planner decided what it did for one config of a
// workload, or for a change.
type Reason string

// The reasons.
const (
	// ReasonChecksumChanged is restart rule 1: the workload already had a
	// checksum for the config and the config's checksum differs.
	ReasonChecksumChanged Reason = "ChecksumChanged"
	// ReasonChangedAgain is restart rule 2: the workload has no checksum for
	// the config, but the config's change counter is greater than one.
	ReasonChangedAgain Reason = "ChangedAgainBeforeRecorded"
	// ReasonChangedSinceReferenced: the workload has no checksum for the
	// config and the config changed after the workload first referenced it
	// (the original misses this; see [Compat.MissSingleUpdate]).
	ReasonChangedSinceReferenced Reason = "ChangedSinceReferenced"
	// ReasonRecordChecksum: the workload has no checksum for the config and
	// nothing shows a change since its pods started; the checksum is
	// recorded without a restart.
	ReasonRecordChecksum Reason = "RecordChecksum"
	// ReasonPurgeChecksum: the annotation holds a checksum for a config the
	// workload is not linked to; it is removed.
	ReasonPurgeChecksum Reason = "PurgeChecksum"
	// ReasonRetryRestart: an earlier restart patch failed; the restart is
	// sent again.
	ReasonRetryRestart Reason = "RetryRestart"
	// ReasonUpToDate: the workload's annotation matches the catalog.
	ReasonUpToDate Reason = "UpToDate"
	// ReasonOrphanChange: the change's resource is no longer in the catalog;
	// it is dropped.
	ReasonOrphanChange Reason = "OrphanChange"
)
