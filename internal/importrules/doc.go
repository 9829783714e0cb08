// Package importrules holds no code: its test enforces which package of the
// core module may import which, so that the layers stay as documented here.
//
// The layers, from the bottom: model imports nothing of the module; hash,
// revision and proportion import only model; plan imports those; then
// plan/replicaset, plan/statefulset and plan/daemonset stack on plan, and
// plan/plantest (over the ReplicaSet and StatefulSet planners),
// plan/plantest/gen and plan/sim on them; plan/rollout may use plan/sim; plan/restart and plan/enqueue stand on
// model alone. Only plan/plantest/gen may import a test library outside
// _test.go files, and nothing outside examples/ imports a package under
// examples/.
package importrules
