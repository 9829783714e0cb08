// Package upstreamdiff holds differential tests against the real upstream
// Deployment controller (k8s.io/kubernetes/pkg/controller/deployment,
// v1.36.3): plan/enqueue against its informer event handlers, and
// appsv1.Apply (after a rolloutplan sync) against the write requests one
// upstream syncDeployment sends. It has no code of its own.
package upstreamdiff
