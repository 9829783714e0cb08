// Package appsv1 connects rolloutplan to the Kubernetes API types: it
// converts apps/v1 Deployments and ReplicaSets and v1 Pods to the planner's
// model and back, hashes pod templates exactly as the upstream Deployment
// controller does, and turns a [plan.Plan] into the apps/v1 writes a client
// sends.
//
// To start: [Sync] plans one sync straight from apps/v1 objects and returns
// the writes as an [Output] (see the Example for Sync); [Apply] sends them
// with a client-go clientset, and [Syncer] caches the conversions between
// syncs, as a controller planning from its informers wants.
//
// # Conversion
//
// [DeploymentToModel], [ReplicaSetToModel] and [PodToModel] (and their
// FromModel inverses) map field for field. A pod template keeps its labels and
// annotations as maps; everything else becomes canonical JSON in
// [model.PodTemplate.Spec] ([TemplateToModel]), so the full PodSpec survives
// planning and equal templates compare equal. Times become UTC time.Time
// values.
//
// # Hash
//
// [ComputeHash] is upstream's pod-template-hash of a v1.PodTemplateSpec (a
// go-spew dump of the Go value, FNV-1a, collision count, safe encoding), and
// [PodTemplateHash] is the same as a [plan.Hasher] over converted templates.
// The dump depends on the Go type layout of k8s.io/api/core/v1: this module
// pins k8s.io/api v0.36, so names match Kubernetes v1.36 clusters.
//
// # Planning and writes
//
// [Sync] converts a [State], plans with [plan.Sync] and the upstream hash, and
// converts the plan with [ToOutput]. An [Output] marshals to the conformance
// Output JSON of the rolloutplan repository: created ReplicaSets in full,
// updates derived from the objects read with only what the controller
// changes, adoption and release as strategic-merge patches, deletes,
// events, the requeue and the error. [Case] and [StateFromList] read the
// two input formats of the rolloutplan-next command.
package appsv1
