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

// SetPlannerEpoch sets the least number of syncs p's epoch lasts (see
// Planner), so that tests reach its end in a few syncs.
func SetPlannerEpoch(p *Planner, syncs int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.epoch, p.minEpoch = syncs, syncs
}

// PlannerEpoch reports how many syncs p's current epoch lasts.
func PlannerEpoch(p *Planner) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.epoch
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

// PlannerValidate exposes the Planner's validation of s alone, for its
// benchmarks.
func PlannerValidate(p *Planner, s State) error {
	_, err := p.validate(s)
	return err
}

// ObservePlannerValidation has p tell observe how it validates each State
// with a Deployment and a time: "in full" (no lists of the Deployment
// known), "same lists", "known objects", "new objects" or "failed". Set
// it before p plans.
func ObservePlannerValidation(p *Planner, observe func(how string)) {
	names := map[validation]string{
		validatedInFull:       "in full",
		validatedSameLists:    "same lists",
		validatedKnownObjects: "known objects",
		validatedNewObjects:   "new objects",
		validationFailed:      "failed",
	}
	p.observe = func(v validation) { observe(names[v]) }
}

// PlannerKnownLists reports how many Deployments p remembers, over both
// generations, and how many objects their remembered lists hold.
func PlannerKnownLists(p *Planner) (deployments, objects int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k, m := range p.deployments.prev {
		if _, ok := p.deployments.cur[k]; !ok {
			deployments, objects = deployments+1, objects+len(m.lists.objs)
		}
	}
	for _, m := range p.deployments.cur {
		deployments, objects = deployments+1, objects+len(m.lists.objs)
	}
	return deployments, objects
}

// PlannerListsMemo reports what p remembers of the sync of its Deployment
// of UID uid with its remembered lists: whether it has a memo at all (held),
// whether that memo is for the Deployment object d (claimed: every
// ReplicaSet claimed as it was), and whether it holds
// the new ReplicaSet, and which.
func PlannerListsMemo(p *Planner, uid string, d *model.Deployment) (held, claimed, found bool, newRS *model.ReplicaSet) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m, ok := p.deployments.cur[uid]
	if !ok {
		m, ok = p.deployments.prev[uid]
	}
	if !ok || m.memo.d == nil {
		return false, false, false, nil
	}
	if m.memo.d != d {
		return true, false, false, nil
	}
	return true, true, m.memo.found, m.memo.newRS
}
