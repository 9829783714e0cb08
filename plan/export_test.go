package plan

// NewRSNewReplicas exposes newRSNewReplicas (upstream's NewRSNewReplicas
// with its reason) to the external tests.
var NewRSNewReplicas = newRSNewReplicas
