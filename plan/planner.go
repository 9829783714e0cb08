package plan

import (
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
)

// Planner is [Sync] for a program that plans the same objects again and
// again: a controller's workers, a simulator, a what-if loop. It returns
// exactly what Sync returns with the same options, and remembers between
// calls what depends on one object alone: that the object passed
// validation, and the pod-template hash of a Deployment for its collision
// count. A sync over objects it has seen skips their validation (only the
// cross-object rules, unique names and UIDs, are checked again) and calls
// the [Hasher] at most once per Deployment object.
//
// Objects are remembered by pointer, so the objects handed to a Planner
// must not be changed afterwards: a changed object is a new object, as with
// an informer's cache, whose objects are shared and read-only. (Sync itself
// never changes its input.) The [Hasher] must be a pure function, as the
// hash of a template is.
//
// A Planner holds on to the objects it remembers, at most a few times as
// many as the largest State it has planned: when its memory outgrows that,
// it forgets what it has not seen since. It is safe for concurrent use.
type Planner struct {
	cfg config

	mu sync.Mutex
	// The objects that passed validation.
	validDeployments generations[*model.Deployment, struct{}]
	validSets        generations[*model.ReplicaSet, struct{}]
	validPods        generations[*model.Pod, struct{}]
	// hashes maps a Deployment to the hash of its template with its
	// collision count.
	hashes generations[*model.Deployment, string]
	// limit is the size at which a generation is retired: four times the
	// largest State planned, and at least minPlannerMemory.
	limit int
}

// minPlannerMemory is the fewest entries a Planner's generation holds
// before it is retired.
const minPlannerMemory = 1 << 16

// NewPlanner returns a Planner that plans with opts, as Sync(s, opts...)
// does.
func NewPlanner(opts ...Option) *Planner {
	return &Planner{cfg: newConfig(opts), limit: minPlannerMemory}
}

// Sync plans one sync of s: the result of [Sync] with the Planner's
// options.
func (p *Planner) Sync(s State) (Plan, error) {
	if err := p.validate(s); err != nil {
		return Plan{ConflictAt: -1}, err
	}
	return syncValid(s, p.cfg, p)
}

// validate is s.Validate(), skipping the objects already known valid. A
// snapshot that fails anywhere is validated again in full, so its error is
// exactly State.Validate's.
func (p *Planner) validate(s State) error {
	d := s.Deployment
	if d == nil || s.Now.IsZero() {
		return s.Validate()
	}
	p.mu.Lock()
	if n := 1 + len(s.ReplicaSets) + len(s.Pods); 4*n > p.limit {
		p.limit = 4 * n
	}
	freshD := !p.validDeployments.has(d, p.limit)
	var freshSets []*model.ReplicaSet
	for _, rs := range s.ReplicaSets {
		if rs == nil || !p.validSets.has(rs, p.limit) {
			freshSets = append(freshSets, rs)
		}
	}
	var freshPods []*model.Pod
	for _, pod := range s.Pods {
		if pod == nil || !p.validPods.has(pod, p.limit) {
			freshPods = append(freshPods, pod)
		}
	}
	p.mu.Unlock()

	if !validOnTheirOwn(freshD, d, freshSets, freshPods) || !model.Unique(s.ReplicaSets, s.Pods) {
		// The full check words the error. A Deployment the planner accepts
		// but model.ValidateDeployment does not (an empty selector, an
		// early progress deadline) passes here every time, unremembered.
		return s.Validate()
	}
	p.mu.Lock()
	if freshD {
		p.validDeployments.put(d, struct{}{}, p.limit)
	}
	for _, rs := range freshSets {
		p.validSets.put(rs, struct{}{}, p.limit)
	}
	for _, pod := range freshPods {
		p.validPods.put(pod, struct{}{}, p.limit)
	}
	p.mu.Unlock()
	return nil
}

// validOnTheirOwn reports whether the objects not known yet pass the rules
// of model.Validate that concern one object alone.
func validOnTheirOwn(freshD bool, d *model.Deployment, rss []*model.ReplicaSet, pods []*model.Pod) bool {
	if freshD && model.ValidateDeployment(d) != nil {
		return false
	}
	for _, rs := range rss {
		if rs == nil || model.ValidateReplicaSet(rs) != nil {
			return false
		}
	}
	for _, pod := range pods {
		if pod == nil || model.ValidatePod(pod) != nil {
			return false
		}
	}
	return true
}

// podTemplateHash returns the hash of d's template with its collision
// count, from memory when d was hashed before.
func (p *Planner) podTemplateHash(h Hasher, d *model.Deployment) string {
	p.mu.Lock()
	v, ok := p.hashes.get(d, p.limit)
	p.mu.Unlock()
	if ok {
		return v
	}
	v = h(d.Spec.Template, d.Status.CollisionCount)
	if checkHash(v) == nil {
		p.mu.Lock()
		p.hashes.put(d, v, p.limit)
		p.mu.Unlock()
	}
	return v
}

// generations is a map that forgets: entries go into the current
// generation; once it holds limit entries it becomes the previous one, and
// the previous one is dropped. An entry looked up in the previous
// generation moves to the current one, so what is in use survives.
type generations[K comparable, V any] struct {
	cur, prev map[K]V
}

func (g *generations[K, V]) get(k K, limit int) (V, bool) {
	if v, ok := g.cur[k]; ok {
		return v, true
	}
	v, ok := g.prev[k]
	if ok {
		g.put(k, v, limit)
	}
	return v, ok
}

func (g *generations[K, V]) has(k K, limit int) bool {
	_, ok := g.get(k, limit)
	return ok
}

func (g *generations[K, V]) put(k K, v V, limit int) {
	if len(g.cur) >= limit {
		g.prev, g.cur = g.cur, nil
	}
	if g.cur == nil {
		g.cur = make(map[K]V)
	}
	g.cur[k] = v
}
