package plan

// NewRSNewReplicas exposes newRSNewReplicas (upstream's NewRSNewReplicas
// with its reason) to the external tests.
var NewRSNewReplicas = newRSNewReplicas

// PlannerMemory reports how many objects and hashes p remembers, over both
// generations, and the size at which a generation is retired.
func PlannerMemory(p *Planner) (valid, hashes, limit int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.validDeployments.cur) + len(p.validDeployments.prev) + len(p.validSets.cur) + len(p.validSets.prev) + len(p.validPods.cur) + len(p.validPods.prev), len(p.hashes.cur) + len(p.hashes.prev), p.limit
}

// SetPlannerLimit sets the size at which p retires a generation, so that
// tests reach it in a few syncs.
func SetPlannerLimit(p *Planner, limit int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.limit = limit
}
