// Package bench holds the side-by-side benchmarks of rolloutplan against the
// real upstream code (k8s.io/kubernetes v1.36.3): the Deployment
// controller's sync run with a fake clientset that accepts every write
// without storing it, upstream's controller.ComputeHash and
// deploymentutil.FindNewReplicaSet; and the StatefulSet and DaemonSet
// controllers' sync of each of their 200 recorded states (the apps/v1
// module's conformance data, ../appsv1/testdata/conformance/{statefulset,
// daemonset}), run likewise on fake clientsets that answer as the case's API
// server without storing a write, against the apps/v1 adapter's
// StatefulSetSyncer and DaemonSetSyncer (warm, as a controller runs them)
// and SyncStatefulSet and SyncDaemonSet (uncached). Each benchmark has
// two sub-benchmarks, upstream and rolloutplan, over the same inputs, and
// each pair has a sanity test checking that both give the same answer.
//
// It is a module of its own so that the root module never depends on
// k8s.io/kubernetes. Run ./run.sh for the table of ratios.
package bench
