// Package kubectl holds the differential tests of package plan/rollout
// against the real k8s.io/kubectl v0.36 rollout helpers. It has no
// non-test code.
package kubectl
