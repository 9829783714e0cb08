// Package controller is a Deployment controller and a ReplicaSet controller
// for apps/v1, built on the rolloutplan library: each sync plans with
// plan.Sync (through examples/appsv1) or plan/replicaset.Sync and sends the
// plan's writes with client-go; the informer events are routed to the work
// queue by plan/enqueue. Together they replace kube-controller-manager's
// controllers for Deployments. A stand-in kubelet ([Kubelet]) marks pods
// running and ready, for clusters without nodes such as the end-to-end test
// server.
//
// In shadow mode ([Options.Shadow]) nothing is written: the writes a sync
// would send are printed instead, so the controller can watch any cluster
// next to its real controller manager.
package controller
