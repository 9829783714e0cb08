package replicaset

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Rule names the step of the deletion ranking that separates two pods
// (upstream getPodsToDelete/ActivePodsWithRanks). The numbered rules are upstream's; the others describe how the
// planner resolved what upstream leaves open.
type Rule string

// The ranking rules, in the order upstream applies them.
const (
	// RuleUnassigned (1): a pod not yet scheduled to a node goes first.
	RuleUnassigned Rule = "Unassigned"
	// RulePhase (2): Pending before Unknown before Running; any other phase
	// counts as Pending.
	RulePhase Rule = "Phase"
	// RuleNotReady (3): a pod that is not ready goes first.
	RuleNotReady Rule = "NotReady"
	// RuleDeletionCost (4): the lower controller.kubernetes.io/pod-deletion-cost
	// goes first (gate PodDeletionCost).
	RuleDeletionCost Rule = "DeletionCost"
	// RuleCoLocation (5): the pod whose node runs more active pods related to
	// the ReplicaSet (same controller) goes first.
	RuleCoLocation Rule = "CoLocation"
	// RuleReadyTime (6): of two ready pods, the one ready for less time goes
	// first: a zero transition time first, then the smaller logarithmic
	// bucket of the time spent ready (the later time when now is zero).
	RuleReadyTime Rule = "ReadyTime"
	// RuleReadyTimeUID (6): two ready pods whose ready times differ but fall
	// into the same bucket go in UID order (smaller first).
	RuleReadyTimeUID Rule = "ReadyTimeUID"
	// RuleRestarts (7): the pod whose container restarted most goes first.
	RuleRestarts Rule = "Restarts"
	// RuleCreationTime (8): the newer pod goes first: a zero creation time
	// first, then the smaller logarithmic bucket of the age.
	RuleCreationTime Rule = "CreationTime"
	// RuleCreationTimeUID (8): pods created at different times in the same
	// bucket go in UID order.
	RuleCreationTimeUID Rule = "CreationTimeUID"
	// RuleTie: upstream's rules do not separate the two pods; the planner
	// orders them by UID, then name.
	RuleTie Rule = "Tie"
	// RuleCycle: upstream's comparator prefers the kept pod, yet is
	// contradicted through other pods of the same set (a cycle, see the
	// package documentation); the planner's order decided.
	RuleCycle Rule = "Cycle"
	// RuleAllDeleted: every active pod is deleted, so no ranking is needed.
	RuleAllDeleted Rule = "AllDeleted"
)

// BurstReplicas is the most pods one sync creates or deletes (upstream's
// burstReplicas).
const BurstReplicas = 500

// podKey is everything the ranking reads of a pod, computed once so that the
// sort compares plain fields.
type podKey struct {
	pod *model.Pod
	idx int
	// prefix packs rules 1 to 4 into one number that sorts like them:
	// assigned (bit 63), phase (bits 61-62), ready (bit 60), cost + 2^31
	// (bits 28-59). The fields below stay for explanations and Compare.
	prefix     uint64
	bucketed   bool
	unassigned bool
	phase      int8
	ready      bool
	cost       int32
	rank       int
	readyTime  time.Time
	readyZero  bool
	readyBkt   int64
	restarts   int64
	created    time.Time
	createdBkt int64
	uid        string
	name       string
}

func phaseOrdinal(p model.PodPhase) int8 {
	switch p {
	case model.PodUnknown:
		return 1
	case model.PodRunning:
		return 2
	}
	return 0
}

// logBucket is upstream's logarithmic rank of a timestamp: the integer part
// of log2 of the nanoseconds elapsed until now, computed in float64 exactly
// as upstream computes it, or -1 when no time has elapsed. The float64
// rounding matters at the boundaries: an age of 2^53-1 ns is in bucket 53,
// not 52.
func logBucket(now, t time.Time) int64 {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	return int64(math.Log2(float64(d)))
}

func makeKey(p *model.Pod, idx, rank int, now time.Time, cfg *config) podKey {
	k := podKey{
		pod:        p,
		idx:        idx,
		unassigned: p.Spec.NodeName == "",
		phase:      phaseOrdinal(p.Status.Phase),
		ready:      model.IsPodReady(p),
		rank:       rank,
		created:    p.CreationTimestamp,
		uid:        p.UID,
		name:       p.Name,
	}
	if cfg.deletionCost {
		k.cost, _ = DeletionCost(p)
	}
	if k.ready {
		k.readyTime = p.ReadyCondition().LastTransitionTime
		k.readyZero = k.readyTime.IsZero()
		if !now.IsZero() && !k.readyZero {
			k.readyBkt = logBucket(now, k.readyTime)
		}
	}
	for _, c := range p.Status.ContainerStatuses {
		k.restarts = max(k.restarts, int64(c.RestartCount))
	}
	if !now.IsZero() && !k.created.IsZero() {
		k.createdBkt = logBucket(now, k.created)
	}
	k.bucketed = k.ready && !now.IsZero() && !k.readyZero
	if !k.unassigned {
		k.prefix |= 1 << 63
	}
	k.prefix |= uint64(k.phase) << 61
	if k.ready {
		k.prefix |= 1 << 60
	}
	k.prefix |= uint64(int64(k.cost)-math.MinInt32) << 28
	return k
}

// timeOrder orders two different timestamps the way rules 6 and 8 do before
// buckets apply: a zero time first, otherwise the later time first.
func timeOrder(a, b time.Time) int {
	switch {
	case a.IsZero():
		return -1
	case b.IsZero():
		return 1
	case a.After(b):
		return -1
	}
	return 1
}

func boolFirst(a, b bool) int {
	if a == b {
		return 0
	}
	if a {
		return -1
	}
	return 1
}

// compareUpstream is upstream's ActivePodsWithRanks.Less run in both
// directions: -1 when a is deleted before b, 1 when b is, 0 when neither, and
// the rule at which the comparison stopped. logScale is "now is not zero".
func compareUpstream(a, b *podKey, logScale bool) (int, Rule) {
	if c := boolFirst(a.unassigned, b.unassigned); c != 0 {
		return c, RuleUnassigned
	}
	if c := cmp.Compare(a.phase, b.phase); c != 0 {
		return c, RulePhase
	}
	if c := boolFirst(!a.ready, !b.ready); c != 0 {
		return c, RuleNotReady
	}
	if c := cmp.Compare(a.cost, b.cost); c != 0 {
		return c, RuleDeletionCost
	}
	if c := cmp.Compare(b.rank, a.rank); c != 0 {
		return c, RuleCoLocation
	}
	if a.ready && !a.readyTime.Equal(b.readyTime) {
		if !logScale || a.readyZero || b.readyZero {
			return timeOrder(a.readyTime, b.readyTime), RuleReadyTime
		}
		if c := cmp.Compare(a.readyBkt, b.readyBkt); c != 0 {
			return c, RuleReadyTime
		}
		// Upstream stops here even when the UIDs are equal: restarts and
		// creation times are never consulted for such a pair.
		return strings.Compare(a.uid, b.uid), RuleReadyTimeUID
	}
	if c := cmp.Compare(b.restarts, a.restarts); c != 0 {
		return c, RuleRestarts
	}
	if !a.created.Equal(b.created) {
		if !logScale || a.created.IsZero() || b.created.IsZero() {
			return timeOrder(a.created, b.created), RuleCreationTime
		}
		if c := cmp.Compare(a.createdBkt, b.createdBkt); c != 0 {
			return c, RuleCreationTime
		}
		return strings.Compare(a.uid, b.uid), RuleCreationTimeUID
	}
	return 0, RuleTie
}

// compareBlock orders pods by rules 1 to 5 and by the part of rule 6 that is
// a key of its own (zero time first, then bucket, or the exact time when now
// is zero). Pods it calls equal form a block. It agrees with compareUpstream
// wherever the latter stops before rule 6's UID step.
func compareBlock(a, b *podKey, logScale bool) int {
	if a.prefix != b.prefix {
		return cmp.Compare(a.prefix, b.prefix)
	}
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	if !a.ready {
		return 0
	}
	if c := boolFirst(a.readyZero, b.readyZero); c != 0 || a.readyZero {
		return c
	}
	if logScale {
		return cmp.Compare(a.readyBkt, b.readyBkt)
	}
	if !a.readyTime.Equal(b.readyTime) {
		return timeOrder(a.readyTime, b.readyTime)
	}
	return 0
}

// compareRest orders the pods of a block that upstream compares by rules 7
// and 8, completed by UID and name into a total order.
func compareRest(a, b *podKey, logScale bool) int {
	if c := cmp.Compare(b.restarts, a.restarts); c != 0 {
		return c
	}
	if c := boolFirst(a.created.IsZero(), b.created.IsZero()); c != 0 {
		return c
	}
	if !a.created.IsZero() {
		if !logScale {
			if !a.created.Equal(b.created) {
				return timeOrder(a.created, b.created)
			}
		} else if c := cmp.Compare(a.createdBkt, b.createdBkt); c != 0 {
			return c
		}
	}
	return cmp.Or(strings.Compare(a.uid, b.uid), strings.Compare(a.name, b.name))
}

// compareFirstPass is the order of the first sort: blocks, then inside a
// bucketed block UID order (what upstream uses between ready times that
// differ), inside any other block the order of rules 7 and 8.
func compareFirstPass(a, b *podKey, logScale bool) int {
	if c := compareBlock(a, b, logScale); c != 0 {
		return c
	}
	if !a.bucketed {
		return compareRest(a, b, logScale)
	}
	return cmp.Or(strings.Compare(a.uid, b.uid), a.readyTime.Compare(b.readyTime), strings.Compare(a.name, b.name))
}

// rankKeys sorts keys into deletion order (first = deleted first).
//
// Default: a total order that agrees with every decision of upstream's
// comparator whenever that comparator is consistent on the set, built in two
// passes. The first pass sorts by compareFirstPass. Inside a bucketed block
// upstream orders pods whose ready times differ by UID but pods whose ready
// times are equal by rules 7 and 8; the second pass therefore takes each run
// of consecutive pods (in UID order) sharing one ready time and sorts it by
// rules 7 and 8. Two pods of equal ready time that end up in different runs
// have a pod of another ready time between them in UID order; if upstream
// wanted them the other way round, its comparator would be cyclic.
func rankKeys(keys []*podKey, logScale, upstreamTies bool) {
	if upstreamTies {
		sort.Sort(upstreamSorter{keys: keys, logScale: logScale})
		return
	}
	slices.SortFunc(keys, func(a, b *podKey) int { return compareFirstPass(a, b, logScale) })
	for i := 0; i < len(keys); {
		j := i + 1
		if keys[i].bucketed {
			for j < len(keys) && keys[j].bucketed && keys[j].readyTime.Equal(keys[i].readyTime) {
				if compareBlock(keys[i], keys[j], logScale) != 0 {
					break
				}
				j++
			}
			if j-i > 1 {
				slices.SortFunc(keys[i:j], func(a, b *podKey) int { return compareRest(a, b, logScale) })
			}
		}
		i = j
	}
}

// upstreamSorter drives sort.Sort with upstream's comparator, for
// WithUpstreamTieOrder.
type upstreamSorter struct {
	keys     []*podKey
	logScale bool
}

func (s upstreamSorter) Len() int      { return len(s.keys) }
func (s upstreamSorter) Swap(i, j int) { s.keys[i], s.keys[j] = s.keys[j], s.keys[i] }
func (s upstreamSorter) Less(i, j int) bool {
	c, _ := compareUpstream(s.keys[i], s.keys[j], s.logScale)
	return c < 0
}

// Compare is upstream's deletion comparator (ActivePodsWithRanks.Less) for two pods with co-location ranks rankA and rankB: it returns -1
// when upstream deletes a before b, 1 when b before a, 0 when its rules do
// not separate them, and the rule that decided (RuleTie when none did).
//
// Compare reproduces upstream pair by pair, including its quirks: two ready
// pods whose ready times differ but share a bucket are ordered by UID alone
// (equal UIDs make them equal, and restarts are never looked at), and the
// result is not a consistent order on every set of pods (see the package
// documentation, "Ties and cycles"). Sort with [DeletionOrder], which is
// consistent, rather than with Compare.
//
// now is the reference time for the logarithmic buckets; a zero now compares
// exact times instead. Options other than [WithPodDeletionCost] are ignored.
// A nil pod sorts after any pod.
//
// For example, a pod ready for 2 h (bucket 42) is deleted before one ready
// for 5 h (bucket 44): Compare returns (-1, RuleReadyTime).
func Compare(a, b *model.Pod, rankA, rankB int, now time.Time, opts ...Option) (int, Rule) {
	switch {
	case a == nil && b == nil:
		return 0, RuleTie
	case a == nil:
		return 1, RuleTie
	case b == nil:
		return -1, RuleTie
	}
	cfg := newConfig(opts)
	ka := makeKey(a, 0, rankA, now, &cfg)
	kb := makeKey(b, 1, rankB, now, &cfg)
	return compareUpstream(&ka, &kb, !now.IsZero())
}

// CoLocationRanks returns, for each pod, upstream's co-location rank: the
// number of active pods in related whose spec.nodeName equals the pod's
// (unscheduled pods all share the node ""). related is normally
// [RelatedPods]; a pod listed twice counts twice. Nil entries count for
// nothing and rank 0.
//
// For example, with related pods a and b on node n1 and c on n2, a pod on n1
// ranks 2 and a pod on n3 ranks 0.
func CoLocationRanks(pods, related []*model.Pod) []int {
	perNode := make(map[string]int)
	for _, p := range related {
		if p != nil && model.IsPodActive(p) {
			perNode[p.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(pods))
	for i, p := range pods {
		if p != nil {
			ranks[i] = perNode[p.Spec.NodeName]
		}
	}
	return ranks
}

// orderedKeys builds and ranks the keys of the non-nil pods of active.
func orderedKeys(active, related []*model.Pod, now time.Time, cfg *config) []*podKey {
	return rankedKeys(active, CoLocationRanks(active, related), now, cfg)
}

// rankedKeys builds the keys of the non-nil pods of pods, with their
// co-location ranks, and puts them into deletion order.
func rankedKeys(pods []*model.Pod, ranks []int, now time.Time, cfg *config) []*podKey {
	store := make([]podKey, 0, len(pods))
	for i, p := range pods {
		if p != nil {
			store = append(store, makeKey(p, i, ranks[i], now, cfg))
		}
	}
	keys := make([]*podKey, len(store))
	for i := range store {
		keys[i] = &store[i]
	}
	rankKeys(keys, !now.IsZero(), cfg.upstreamTies)
	return keys
}

// DeletionOrder returns the indices of the non-nil pods of active in the
// order upstream's ReplicaSet controller prefers to delete them (first =
// deleted first), ranking co-location against related (see
// [CoLocationRanks]). now is the controller's clock.
//
// The order applies rules 1 to 8 of upstream getPodsToDelete/ActivePodsWithRanks and resolves what upstream
// leaves to its unstable sort as the package documentation ("Ties and
// cycles") describes, so it does not depend on the order of active. With
// [WithUpstreamTieOrder] it is instead exactly the order upstream's sort
// produces from the given order.
//
// For example, for active = [ready pod, not-ready pod, unscheduled pod] the
// order is [2, 1, 0].
func DeletionOrder(active, related []*model.Pod, now time.Time, opts ...Option) []int {
	cfg := newConfig(opts)
	keys := orderedKeys(active, related, now, &cfg)
	out := make([]int, len(keys))
	for i := range keys {
		out[i] = keys[i].idx
	}
	return out
}

// GetPodsToDelete returns copies of the n pods of active upstream deletes
// first (upstream getPodsToDelete): the first n of [DeletionOrder]. With n
// at least the number of pods all of them are returned (upstream skips the
// sort then; they come back in deletion order anyway, unless
// [WithUpstreamTieOrder] asks for upstream's input order). n <= 0 returns
// nil. Nil entries of active are ignored.
//
// Sync caps n at [BurstReplicas] before calling it; this helper does not.
func GetPodsToDelete(active, related []*model.Pod, n int, now time.Time, opts ...Option) []*model.Pod {
	if n <= 0 {
		return nil
	}
	cfg := newConfig(opts)
	nonNil := 0
	for _, p := range active {
		if p != nil {
			nonNil++
		}
	}
	var out []*model.Pod
	if cfg.upstreamTies && n >= nonNil {
		for _, p := range active {
			if p != nil {
				out = append(out, p.DeepCopy())
			}
		}
		return out
	}
	keys := orderedKeys(active, related, now, &cfg)
	n = min(n, len(keys))
	out = make([]*model.Pod, n)
	for i := range n {
		out[i] = keys[i].pod.DeepCopy()
	}
	return out
}

// ParseDeletionCost reads a controller.kubernetes.io/pod-deletion-cost value
// the way upstream does: a decimal int32 without a leading "+" and without
// leading zeros, except that a value starting with "-" may carry them.
//
//	"10" → 10    "-5" → -5    "0" → 0    "-007" → -7    "-2147483648" → MinInt32
//	"+10", "007", "", " 1", "1.5", "2147483648", "-" → error
//
// The ranking treats an invalid value as cost 0, like a missing one. (The
// Kubernetes documentation gives the range as [-2147483647, 2147483647]; the
// parser accepts -2147483648 as well.)
func ParseDeletionCost(value string) (int32, error) {
	if value == "" || !(value[0] == '-' || value == "0" || value[0] >= '1' && value[0] <= '9') {
		return 0, fmt.Errorf("invalid value %q", value)
	}
	n, err := strconv.ParseInt(value, 10, 32)
	if err != nil {
		return 0, err
	}
	return int32(n), nil
}

// DeletionCost returns the pod's deletion cost: 0 without the annotation, the
// parsed value otherwise, and 0 with the parse error for an invalid value
// (see [ParseDeletionCost]).
func DeletionCost(p *model.Pod) (int32, error) {
	if p == nil {
		return 0, nil
	}
	v, ok := p.Annotations[model.PodDeletionCostAnnotation]
	if !ok {
		return 0, nil
	}
	return ParseDeletionCost(v)
}
