package plan

import (
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// remembered is what a Planner's validation tells a sync of a State about
// the lists it remembers for the State's Deployment: lists holds every
// object of the State's lists (each at most once), and allRS is set when
// the State lists every ReplicaSet of lists (in any order); inNS, when
// every object of lists is in the Deployment's namespace. m is nil when
// the Planner remembers no such lists (and always under Sync).
//
// memo is a copy of m's memo when it was worked out from the ReplicaSets
// of lists and the State's Deployment object, else zero (no Deployment).
// What the sync works out that the memo does not hold is remembered at
// the end of the sync (see publish).
type remembered struct {
	m     *deploymentMemory
	memo  listsMemo
	lists knownLists
	// claimed is the sync's claimed list when claimedAll: every
	// ReplicaSet of the sync, each controlled by the Deployment and
	// matching its selector.
	claimed []*model.ReplicaSet
	// newRS is the new ReplicaSet the sync found among claimed, when
	// found and the memo does not hold it.
	newRS                          *model.ReplicaSet
	allRS, inNS, claimedAll, found bool
}

// listsMemo holds pure results of one Deployment object and the
// ReplicaSets of one Deployment memory's remembered lists, as the sync of
// a State listing exactly those ReplicaSets (in any order, with any pods)
// works them out from those of them in the Deployment's namespace:
//   - there is a memo (d is set) only when every one of them is
//     controlled by the Deployment (by UID) and matches its selector, so
//     claimReplicaSets claims them all and writes nothing;
//   - found, newRS: FindNewReplicaSet of the Deployment's template among
//     them;
//   - maxUnavailable: proportion.MaxUnavailable of the Deployment (its
//     spec, which a sync never changes but for a rollback's template).
//
// A changed object is a new object (see Planner), so a memo is for a
// Deployment object and for the ReplicaSet objects of the lists it is
// kept with: a State with another Deployment object, or lists the
// remembered ones do not hold, does not use it. A memo is a value of the
// Deployment memory (setting it allocates nothing); it holds on to one
// Deployment object and one of the lists' ReplicaSets, and is dropped when
// the lists are replaced by lists of other ReplicaSets.
type listsMemo struct {
	d              *model.Deployment
	found          bool
	newRS          *model.ReplicaSet
	maxUnavailable int32
}

// rememberedLists returns what a sync of s learns from m's lists, which
// hold every object of s's lists; memo is m's memo, kept with lists.
func rememberedLists(m *deploymentMemory, lists knownLists, memo listsMemo, s State) remembered {
	d := s.Deployment
	if memo.d != d {
		memo = listsMemo{}
	}
	return remembered{m: m, memo: memo, lists: lists, allRS: len(s.ReplicaSets) == lists.nRS, inNS: lists.inNS && lists.ns == d.Namespace}
}

// everyReplicaSet reports whether the State lists every ReplicaSet of the
// remembered lists: then the sync's list of ReplicaSets is those of them
// in the Deployment's namespace, which depend on the Deployment object
// alone (see scopeToNamespace).
func (s *syncer) everyReplicaSet() bool {
	return s.lists.m != nil && s.lists.allRS
}

// claimedFromMemo returns the claimed list when the memo says every
// ReplicaSet of the sync is claimed as it is: the sync's list in creation
// order.
func (s *syncer) claimedFromMemo() ([]*model.ReplicaSet, bool) {
	r := &s.lists
	if r.memo.d == nil || !s.everyReplicaSet() {
		return nil, false
	}
	claimed := append(s.mem.rsSlice(len(s.all)), s.mem.sortedByCreation(s.all)...)
	r.claimedAll, r.claimed = true, claimed
	return claimed, true
}

// noteClaimed tells the memo what a claim that wrote nothing claimed:
// when it is every ReplicaSet of the sync (those of the remembered lists
// in the namespace), each was controlled by the Deployment and matched
// its selector.
func (s *syncer) noteClaimed(claimed []*model.ReplicaSet) {
	r := &s.lists
	if !s.everyReplicaSet() || len(claimed) != len(s.all) {
		return
	}
	r.claimedAll, r.claimed = true, claimed
}

// findNewReplicaSet is FindNewReplicaSet of the working copy among rsList,
// from the memo when rsList is the claim of every ReplicaSet of the sync
// (see noteClaimed) and the working copy's template is the input's.
func (s *syncer) findNewReplicaSet(rsList []*model.ReplicaSet) *model.ReplicaSet {
	r := &s.lists
	memoized := r.claimedAll && !s.templateReplaced && sameList(rsList, r.claimed)
	if memoized && r.memo.d != nil && r.memo.found {
		return r.memo.newRS
	}
	newRS := FindNewReplicaSet(s.d, rsList)
	if memoized {
		r.found, r.newRS = true, newRS
	}
	return newRS
}

// publish remembers, at the end of a sync of the Deployment object d,
// what it learned that the memo did not hold (the claim of every
// ReplicaSet, the new ReplicaSet), when the Deployment memory still holds
// the ReplicaSets of the lists it was learned from.
func (p *Planner) publish(r *remembered, d *model.Deployment) {
	if r.m == nil || !r.claimedAll || r.memo.d != nil && !r.found {
		return // nothing learned
	}
	l := listsMemo{d: d, found: r.found, newRS: r.newRS, maxUnavailable: proportion.MaxUnavailable(d)}
	p.mu.Lock()
	if r.m.lists.sameReplicaSets(r.lists) {
		r.m.memo = l
	}
	p.mu.Unlock()
}

// maxUnavailable is proportion.MaxUnavailable of the working copy: the
// memo's, worked out from the input, whose spec the working copy shares.
func (s *syncer) maxUnavailable() int32 {
	if m := &s.lists.memo; m.d != nil {
		return m.maxUnavailable
	}
	return proportion.MaxUnavailable(s.d)
}
