// Package restart plans restarts of Deployments and StatefulSets whose
// ConfigMaps or Secrets changed, with the decisions of the
// xing/kubernetes-deployment-restart-controller (v1.3.0): the same data
// checksums, the same checksums annotation, the same change queue with a
// grace period and observation counters, the same two restart rules and the
// same single JSON merge patch per workload. A cluster can therefore move from
// that controller to one built on this package without a spurious restart.
//
// To start: feed informer events to a [Tracker] (made with [NewTracker]) and
// call [Plan] on a timer with its catalog and changes; the package Example
// runs one ConfigMap change from event to patch.
//
// The package is pure: it reads no clock (every call takes an explicit now),
// draws no random numbers, and its output never depends on map order.
//
// The pieces:
//
//   - [Enabled] reads the opt-in annotation ([AnnotationEnabled] set to
//     "enabled").
//   - [References] discovers the configs a pod template references.
//   - [ConfigMapChecksum] and [SecretChecksum] compute the data checksum.
//   - [ParseChecksums] and [FormatChecksums] read and write the checksums
//     annotation ([AnnotationChecksums]).
//   - [Tracker] keeps the [Catalog] of workloads and configs and the
//     [Changes] queue as informer events arrive.
//   - [Plan] decides, for every change whose grace period has passed, which
//     workloads get their checksums annotation updated and which are
//     restarted, and returns one [Patch] per workload.
//
// Package replay (plan/restart/replay) drives a Tracker through a scripted
// sequence of informer events on a virtual clock and records a trace in the
// format of the recorded behaviour of the original, for step-by-step
// comparison.
//
// Where the original controller falls short, the planner is fixed by default
// and the original's outcome is available behind a named field of [Compat]:
// a checksums annotation holding JSON null no longer crashes the planner, a
// deleted and re-created config is linked again, a single config edit inside
// a new workload's grace period restarts it, a failed patch is retried, two
// restarts within one second still change the template, and patches come out
// in a fixed order (by workload).
package restart
