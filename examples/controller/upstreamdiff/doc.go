// Package upstreamdiff holds the differential test of plan/enqueue against
// the informer event handlers of the upstream Deployment controller
// (k8s.io/kubernetes/pkg/controller/deployment, v1.36.3); it has no code of
// its own.
package upstreamdiff
