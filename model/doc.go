// Package model holds the plain Go types rolloutplan plans over: Deployments,
// ReplicaSets, Pods, their templates, selectors and statuses, together with the
// annotation, label and condition constants of the upstream controller, apps/v1
// defaulting ([Default]) and validation ([Validate]).
//
// The StatefulSet and DaemonSet planners read [StatefulSet],
// [ControllerRevision], [PersistentVolumeClaim], [DaemonSet] and [Node], with
// their own defaulting ([DefaultStatefulSet], [DefaultDaemonSet]) and
// validation.
//
// To start: write a [Deployment] literal, pass it through [Default] (the
// defaults the API server would apply) and check it with [ValidateDeployment];
// the Example for ValidateDeployment shows a bad value and the error that
// names its field. Package plan consumes these types.
//
// Field names follow apps/v1 so that a reader who knows the Kubernetes API can
// map them without a table. Pointers are used only where upstream distinguishes
// "unset" from zero: replica counts, revisionHistoryLimit,
// progressDeadlineSeconds, collisionCount, terminatingReplicas and
// deletionTimestamp.
//
// # Templates
//
// A [PodTemplate] carries its labels and annotations as maps, because the
// planners read and write them, and everything else as [PodTemplate.Spec], a
// string that rolloutplan compares byte for byte and hashes as is. An
// embedder with a full Kubernetes PodSpec encodes it canonically (for example
// with [CanonicalJSON]) so that nothing is lost: two templates are equal exactly
// when their labels (ignoring pod-template-hash), annotations and Spec strings
// are equal. The planners never read into Spec; validation does, to refuse a
// template an API server would refuse ([ValidateTemplatePodSpec]: containers
// present, named and with an image, restartPolicy Always), so Spec must be the
// JSON of a pod spec.
//
// # Time
//
// Times are [time.Time] values compared at full precision. The API server
// stores timestamps with one-second precision, so objects read from a cluster
// carry whole seconds; the planners never truncate. Sub-second input is
// honoured as given, which matters only for progress-deadline requeues and
// minReadySeconds, exactly as it does upstream for an in-memory clock.
//
// # Copies
//
// Deployment, ReplicaSet and Pod, and the parts of them that hold maps,
// slices or pointers, have DeepCopy methods. The planners never mutate their inputs and
// never return values that share maps or slices with them.
package model
