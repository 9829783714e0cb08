// Package controller holds apps/v1 controllers built on the rolloutplan
// library: a Deployment controller and a ReplicaSet controller (each sync
// plans with plan.Sync, through examples/appsv1, or plan/replicaset.Sync;
// the informer events are routed to the work queue by plan/enqueue), a
// StatefulSet controller ([StatefulSetController], planning with
// plan/statefulset) and a DaemonSet controller ([DaemonSetController],
// planning with plan/daemonset). Each sends its plan's writes with
// client-go, in the plan's order, and records the events upstream records;
// together they replace kube-controller-manager's controllers for these
// kinds. For clusters without nodes or a scheduler, such as the end-to-end
// test server, a stand-in kubelet ([Kubelet]) marks pods running and ready
// and a stand-in scheduler ([Scheduler]) binds daemon pods to the node their
// node affinity names.
//
// In shadow mode ([Options.Shadow]) nothing is written: the writes a sync
// would send are printed instead, so the controller can watch any cluster
// next to its real controller manager.
package controller
