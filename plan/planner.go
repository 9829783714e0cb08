package plan

import (
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
)

// Planner is [Sync] for a program that plans the same objects again and
// again: a controller's workers, a simulator, a what-if loop. It returns
// exactly what Sync returns with the same options, and remembers between
// calls what it has checked:
//   - that an object passed validation;
//   - per Deployment (by UID, from its second sync on), the ReplicaSets and
//     pods of its latest State that passed validation with objects it had
//     not remembered, or with clearly fewer (so that deleted objects are
//     let go);
//   - the pod-template hash of each Deployment object's template with its
//     collision count;
//   - per Deployment, with those lists, what a sync of one Deployment
//     object and all their ReplicaSets worked out from them alone: that
//     every ReplicaSet is claimed as it is, which one is new, and the
//     Deployment's maxUnavailable; and whether every object of the lists
//     is in the Deployment's namespace.
//
// So a sync checks only what it has not seen, and a sync of remembered
// lists neither scans them for other namespaces nor claims their
// ReplicaSets one by one again. When its lists hold only
// remembered objects of its Deployment (the same lists, the same objects in
// another order as a lister returns them, or fewer of them), only a
// Deployment object not seen before is validated. When a few objects are
// new, only those are validated and compared with the others for duplicate
// names and UIDs. Otherwise the objects not seen before are validated and
// the whole lists compared for duplicates. The [Hasher] is called at most
// once per Deployment object.
//
// Objects are remembered by pointer, so the objects handed to a Planner
// must not be changed afterwards: a changed object is a new object, as with
// an informer's cache, whose objects are shared and read-only. (Sync itself
// never changes its input.) For the same reason the objects of its plans
// share the parts of the input objects they do not change (templates,
// labels, selectors, conditions) instead of copying them: a plan from a
// Planner is as read-only as its input, where a plan from Sync shares
// nothing with it. The [Hasher] must be a pure function, as the hash of a
// template is.
//
// A Planner holds on to the objects it remembers. Its memory is sized to
// what it plans: twice the objects of the latest State of every Deployment
// it has planned lately, at least four times the largest State planned
// lately and at least 1 024 objects. When a memory reaches that size it forgets what it
// has not seen since the last time it forgot, so stale objects (earlier
// versions of an object, deleted Deployments) are let go. "Lately" is
// counted in syncs, not time: a Deployment not planned for a whole epoch
// is forgotten, with its lists, by the end of the next one. An epoch lasts
// at least 4 096 syncs, and twice as many as the Deployments planned again
// in the last one (within three epochs), so a controller that plans up to
// about 10 000 Deployments in turn keeps them all, and one that sees ever
// new Deployments (created and deleted all day) does not grow. Past about
// 10 000 Deployments planned in turn, each is forgotten before its next
// turn: every sync then validates the objects the Planner no longer
// remembers, as a first sync does (the plans are the same, only slower).
//
// Make a Planner with NewPlanner; the zero Planner is not ready for use.
// It is safe for concurrent use.
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
	// deployments maps each Deployment planned lately, by UID, to what the
	// Planner knows of its States: the number of objects of its latest
	// State (the working set the memory is sized to), and the lists of
	// the latest one that passed validation.
	deployments generations[string, *deploymentMemory]
	// forgotten holds the UIDs of the Deployments forgotten at the end of
	// the last epoch (see retireDeployments), to tell a Deployment planned
	// again from a new one.
	forgotten map[string]struct{}
	// limit is the size at which a generation is retired (see resize).
	limit int
	floor int // the least limit: minPlannerMemory (lower in tests)
	// largest is the objects of the largest State planned in this epoch
	// or the last; epochLargest in this one.
	largest, epochLargest int
	// syncs counts the syncs of the current epoch, which ends after epoch
	// of them (see deployment); minEpoch is the least epoch:
	// minPlannerEpoch (lower in tests).
	syncs, epoch, minEpoch int
	// observe, when set (by tests only), is told how each State with a
	// Deployment and a time was validated.
	observe func(validation)
}

// deploymentMemory is what a Planner knows of one Deployment's States.
type deploymentMemory struct {
	size  int // objects of the latest State: 1 + ReplicaSets + pods
	known bool
	// When known, the lists of the latest State that passed validation.
	// They are replaced, never changed, under the Planner's lock.
	lists knownLists
	// memo, when its Deployment is set, holds results a sync worked out
	// from the ReplicaSets of lists and one Deployment object (see
	// listsMemo); it is set under the Planner's lock (a sync works with a
	// copy), and kept when the lists are replaced by lists of the same
	// ReplicaSets (see replaceLists).
	memo listsMemo
}

// validation is how a Planner validated a State.
type validation int

const (
	// validatedInFull: no lists of the Deployment were known; every object
	// was looked up, the unknown ones validated, and the lists checked for
	// duplicates.
	validatedInFull validation = iota
	// validatedSameLists: the lists were the Deployment's known lists, in
	// their order.
	validatedSameLists
	// validatedKnownObjects: the lists held known objects only, in
	// another order or fewer of them.
	validatedKnownObjects
	// validatedNewObjects: the lists held objects the Deployment's known
	// lists do not; those were checked on their own (a ReplicaSet unless
	// known valid) and for duplicates.
	validatedNewObjects
	// validationFailed: the State failed, and State.Validate worded the
	// error.
	validationFailed
)

// minPlannerMemory is the fewest entries a Planner's generation holds
// before it is retired.
const minPlannerMemory = 1024

// minPlannerEpoch is the fewest syncs a Planner's epoch lasts: a Deployment
// not planned for that many is no longer counted in the working set.
const minPlannerEpoch = 4096

// NewPlanner returns a Planner that plans with opts, as Sync(s, opts...)
// does.
func NewPlanner(opts ...Option) *Planner {
	cfg := newConfig(opts)
	cfg.shareInput = true
	cfg.workingCopies = new(sync.Pool)
	return &Planner{cfg: cfg, limit: minPlannerMemory, floor: minPlannerMemory, epoch: minPlannerEpoch, minEpoch: minPlannerEpoch}
}

// Sync plans one sync of s: the result of [Sync] with the Planner's
// options.
func (p *Planner) Sync(s State) (Plan, error) {
	lists, err := p.validate(s)
	if err != nil {
		return Plan{ConflictAt: -1}, err
	}
	return syncValid(s, p.cfg, p, lists)
}

// validate is s.Validate(), skipping what is known valid. A State whose
// lists hold only objects of its Deployment's last valid lists (in any
// order, each at most once) is valid as soon as its Deployment is. When
// those lists account for all but a few objects, only the few are checked
// on their own (a ReplicaSet unless known valid) and compared with the
// rest for duplicate names and UIDs; otherwise the objects not known valid
// are checked on their own and the lists for duplicates. A snapshot that
// fails anywhere is validated again in full, so its error is exactly
// State.Validate's.
//
// On success it also tells the sync which remembered lists hold every
// object of s's lists, when the Planner remembers such lists (see
// remembered).
func (p *Planner) validate(s State) (remembered, error) {
	d := s.Deployment
	if d == nil || s.Now.IsZero() {
		return remembered{}, s.Validate()
	}
	// Room on the stack for a typical State's scratch.
	var slotsBuf [tableStack]int32
	var addedRSBuf, addedPodBuf [maxAddedStack]int
	var freshRSBuf [maxAddedStack]*model.ReplicaSet
	var freshPodBuf [maxAddedStack]*model.Pod
	freshSets, freshPods := freshRSBuf[:0], freshPodBuf[:0]

	p.mu.Lock()
	m, again := p.deployment(d.UID, 1+len(s.ReplicaSets)+len(s.Pods))
	freshD := !p.validDeployments.has(d)
	known, last, memo := m.known, m.lists, m.memo
	if !known {
		freshSets, freshPods = p.unknown(s.ReplicaSets, s.Pods, freshSets, freshPods)
	}
	p.mu.Unlock()

	how := validatedInFull
	var unique bool
	if known {
		if last.same(s) {
			return rememberedLists(m, last, memo, s), p.validateDeployment(s, freshD, validatedSameLists)
		}
		addedRS, addedPods := last.added(s, slotsBuf[:], addedRSBuf[:0], addedPodBuf[:0])
		if len(addedRS) == 0 && len(addedPods) == 0 {
			if shrunk, kept, ok := p.rememberIfShrunk(m, s, last); ok {
				last, memo = shrunk, kept
			}
			return rememberedLists(m, last, memo, s), p.validateDeployment(s, freshD, validatedKnownObjects)
		}
		how = validatedNewObjects
		// A pod is validated on its own as fast as it is looked up; a
		// ReplicaSet is looked up.
		for _, i := range addedPods {
			freshPods = append(freshPods, s.Pods[i])
		}
		if len(addedRS) > 0 {
			p.mu.Lock()
			freshSets = p.unknownSetsAt(s, addedRS, freshSets)
			p.mu.Unlock()
		}
		if len(addedRS)+len(addedPods) <= maxAddedCompared {
			unique = model.UniqueAdded(s.ReplicaSets, addedRS, s.Pods, addedPods)
		} else {
			unique = model.Unique(s.ReplicaSets, s.Pods)
		}
	} else {
		unique = model.Unique(s.ReplicaSets, s.Pods)
	}

	if !validOnTheirOwn(freshD, d, freshSets, freshPods) || !unique {
		// The full check words the error.
		p.observed(validationFailed)
		return remembered{}, s.Validate()
	}
	// A Deployment planned once is not worth remembering lists for: they
	// are remembered from its second sync on.
	var lists knownLists
	if again {
		lists = newKnownLists(s)
	}
	p.mu.Lock()
	if freshD {
		p.validDeployments.put(d, struct{}{})
	}
	for _, rs := range freshSets {
		p.validSets.put(rs, struct{}{})
	}
	if !known {
		// Pods added to known lists are validated rather than looked up
		// (it costs no more), and remembered in the lists.
		for _, pod := range freshPods {
			p.validPods.put(pod, struct{}{})
		}
	}
	var kept listsMemo
	if again {
		kept = m.replaceLists(lists)
	}
	p.mu.Unlock()
	p.observed(how)
	if again {
		return rememberedLists(m, lists, kept, s), nil
	}
	return remembered{}, nil
}

// replaceLists remembers lists in m, with m's memo when they list the same
// ReplicaSets as m's lists did (pods alone come and go), and returns the
// memo kept. p.mu must be held.
func (m *deploymentMemory) replaceLists(lists knownLists) listsMemo {
	if !m.known || !m.lists.sameReplicaSets(lists) {
		m.memo = listsMemo{}
	}
	m.known, m.lists = true, lists
	return m.memo
}

// rememberIfShrunk remembers the lists of s, which lists only objects of
// m's remembered lists last, when it lists clearly fewer (pods deleted,
// ReplicaSets cleaned up), so that the objects gone are not kept alive for
// as long as the Deployment is planned, and returns them with the memo
// kept (see replaceLists). A State listing most of them keeps last (no
// allocation per sync), and ok is false.
func (p *Planner) rememberIfShrunk(m *deploymentMemory, s State, last knownLists) (lists knownLists, kept listsMemo, ok bool) {
	if len(s.ReplicaSets)+len(s.Pods) >= len(last.objs)*3/4 {
		return knownLists{}, listsMemo{}, false
	}
	lists = newKnownLists(s)
	p.mu.Lock()
	kept = m.replaceLists(lists)
	p.mu.Unlock()
	return lists, kept, true
}

// maxAddedStack is how many objects added to a Deployment's known lists
// are kept track of on the stack.
const maxAddedStack = 8

// maxAddedCompared is how many objects added to a Deployment's known lists
// are compared one by one with the others for duplicates
// (model.UniqueAdded, len × added comparisons); with more, every name and
// UID is hashed once (model.Unique).
const maxAddedCompared = 8

// deployment returns the memory of the Deployment of UID uid, about to be
// planned with n objects, and whether it was planned lately; it makes room
// for the objects. p.mu must be held.
func (p *Planner) deployment(uid string, n int) (m *deploymentMemory, again bool) {
	if p.syncs++; p.syncs > p.epoch {
		p.retireDeployments()
	}
	p.largest = max(p.largest, n)
	p.epochLargest = max(p.epochLargest, n)
	m, again = p.deployments.get(uid)
	if !again {
		m = new(deploymentMemory)
		p.deployments.put(uid, m)
		if _, seen := p.forgotten[uid]; seen {
			// Planned again, if too late to be remembered: it counts
			// towards the next epoch's length, so that a round of more
			// Deployments than an epoch holds lengthens it.
			p.deployments.promoted++
		}
	}
	m.size = n
	p.resize(n)
	return m, again
}

// unknown appends to freshSets and freshPods the objects of rss and pods
// not known valid (nil ones included). p.mu must be held.
func (p *Planner) unknown(rss []*model.ReplicaSet, pods []*model.Pod, freshSets []*model.ReplicaSet, freshPods []*model.Pod) ([]*model.ReplicaSet, []*model.Pod) {
	for _, rs := range rss {
		if rs == nil || !p.validSets.has(rs) {
			freshSets = append(freshSets, rs)
		}
	}
	for _, pod := range pods {
		if pod == nil || !p.validPods.has(pod) {
			freshPods = append(freshPods, pod)
		}
	}
	return freshSets, freshPods
}

// unknownSetsAt appends to fresh the ReplicaSets of s at the indices rss
// that are not known valid (nil ones included). p.mu must be held.
func (p *Planner) unknownSetsAt(s State, rss []int, fresh []*model.ReplicaSet) []*model.ReplicaSet {
	for _, i := range rss {
		if rs := s.ReplicaSets[i]; rs == nil || !p.validSets.has(rs) {
			fresh = append(fresh, rs)
		}
	}
	return fresh
}

// validateDeployment finishes validating s, whose lists are known valid:
// its Deployment is checked when fresh (not known valid).
func (p *Planner) validateDeployment(s State, fresh bool, how validation) error {
	if fresh {
		if !deploymentPlannable(s.Deployment) {
			p.observed(validationFailed)
			return s.Validate()
		}
		p.mu.Lock()
		p.validDeployments.put(s.Deployment, struct{}{})
		p.mu.Unlock()
	}
	p.observed(how)
	return nil
}

// observed tells the test hook, if any, how a State was validated.
func (p *Planner) observed(how validation) {
	if p.observe != nil {
		p.observe(how)
	}
}

// validOnTheirOwn reports whether the objects not known yet pass the rules
// of State.Validate that concern one object alone.
func validOnTheirOwn(freshD bool, d *model.Deployment, rss []*model.ReplicaSet, pods []*model.Pod) bool {
	if freshD && !deploymentPlannable(d) {
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
	v, ok := p.hashes.get(d)
	p.mu.Unlock()
	if ok {
		return v
	}
	v = h(d.Spec.Template, d.Status.CollisionCount)
	if checkHash(v) == nil {
		p.mu.Lock()
		p.hashes.put(d, v)
		p.mu.Unlock()
	}
	return v
}

// resize makes room for the n objects of the State about to be planned:
// when a memory would outgrow its limit, it sizes the limit to the working
// set again, and retires the generations that are still too full.
func (p *Planner) resize(n int) {
	if p.floor == 0 {
		p.floor = minPlannerMemory
	}
	p.limit = max(p.limit, p.floor)
	if !p.full(n) {
		return
	}
	working := 0
	for _, m := range p.deployments.cur {
		working += m.size
	}
	for k, m := range p.deployments.prev {
		if _, seen := p.deployments.cur[k]; !seen {
			working += m.size
		}
	}
	p.limit = max(p.floor, 4*p.largest, 2*working)
	if !p.full(n) {
		return
	}
	p.validDeployments.retireIfFull(p.limit - n)
	p.validSets.retireIfFull(p.limit - n)
	p.validPods.retireIfFull(p.limit - n)
	p.hashes.retireIfFull(p.limit - 1)
	p.retireDeployments()
}

// retireDeployments ends an epoch: the Deployments not planned since the
// last one ended are forgotten. The next epoch lasts twice as many syncs as
// there were Deployments planned in this one that were planned in one of
// the two before (so a round of all of them comes to fit in it), and at
// least minEpoch. The Deployments planned only in this one do not count: a
// stream of new ones would make every epoch twice as long as the last.
func (p *Planner) retireDeployments() {
	p.epoch = max(p.minEpoch, 2*p.deployments.promoted)
	p.syncs = 0
	// The UIDs about to be forgotten are kept, alone, one epoch more (in
	// a new map: a cleared one would keep the room of its largest epoch).
	p.forgotten = nil
	for uid := range p.deployments.prev {
		if _, kept := p.deployments.cur[uid]; !kept {
			if p.forgotten == nil {
				p.forgotten = make(map[string]struct{})
			}
			p.forgotten[uid] = struct{}{}
		}
	}
	p.deployments.retire()
	// The largest State counts for two epochs, as the Deployments do.
	p.largest, p.epochLargest = p.epochLargest, 0
}

// full reports whether a memory has no room for n more entries.
func (p *Planner) full(n int) bool {
	room := p.limit - n
	return len(p.validDeployments.cur) > room || len(p.validSets.cur) > room ||
		len(p.validPods.cur) > room || len(p.hashes.cur) >= p.limit
}

// generations is a map that forgets: entries go into the current
// generation; when it is retired it becomes the previous one, and the
// previous one is dropped. An entry looked up in the previous generation
// moves to the current one, so what is in use survives.
type generations[K comparable, V any] struct {
	cur, prev map[K]V
	// promoted counts the entries the current generation took over from
	// the previous one.
	promoted int
}

func (g *generations[K, V]) get(k K) (V, bool) {
	if v, ok := g.cur[k]; ok {
		return v, true
	}
	v, ok := g.prev[k]
	if ok {
		g.put(k, v)
		g.promoted++
	}
	return v, ok
}

func (g *generations[K, V]) has(k K) bool {
	_, ok := g.get(k)
	return ok
}

func (g *generations[K, V]) put(k K, v V) {
	if g.cur == nil {
		g.cur = make(map[K]V)
	}
	g.cur[k] = v
}

func (g *generations[K, V]) retire() { g.prev, g.cur, g.promoted = g.cur, nil, 0 }

func (g *generations[K, V]) retireIfFull(room int) {
	if len(g.cur) > room {
		g.retire()
	}
}
