package plan

import "github.com/rolloutplan/rolloutplan/model"

// NewRSNewReplicas exposes newRSNewReplicas (upstream's NewRSNewReplicas
// with its reason) to the external tests.
func NewRSNewReplicas(d *model.Deployment, allRSs []*model.ReplicaSet, newRS *model.ReplicaSet) (int32, Reason, error) {
	return newRSNewReplicas(nil, d, allRSs, newRS)
}

// PlannerMemory reports how many objects and hashes p remembers, over both
// generations, and the size at which a generation is retired.
func PlannerMemory(p *Planner) (valid, hashes, limit int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.validDeployments.cur) + len(p.validDeployments.prev) + len(p.validSets.cur) + len(p.validSets.prev) + len(p.validPods.cur) + len(p.validPods.prev), len(p.hashes.cur) + len(p.hashes.prev), p.limit
}

// SetPlannerLimit sets the size at which p retires a generation, and the
// least it may be, so that tests reach it in a few syncs.
func SetPlannerLimit(p *Planner, limit int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.limit, p.floor = limit, limit
}

// CopyReplicaSet exposes copyReplicaSet, the plan's read-only copy of an
// input ReplicaSet.
var CopyReplicaSet = copyReplicaSet

// OwnDeployment returns the copy of d a sync's working copy becomes when it
// first writes (its annotations aside, which stay d's).
func OwnDeployment(d *model.Deployment) *model.Deployment {
	c := *d
	ownMetaAndSpec(&c, new(specCopy))
	return &c
}

// ReadConformanceStates reads the 200 recorded conformance states.
var ReadConformanceStates = readConformanceStatesFile
