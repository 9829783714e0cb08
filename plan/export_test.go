package plan

import "github.com/rolloutplan/rolloutplan/model"

// NewRSNewReplicas exposes newRSNewReplicas (upstream's NewRSNewReplicas
// with its reason) to the external tests.
func NewRSNewReplicas(d *model.Deployment, allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) (int32, Reason, error) {
	return newRSNewReplicas(d, allRSs, newRS)
}

// ReadConformanceStates reads the 200 recorded conformance states.
var ReadConformanceStates = readConformanceStatesFile
