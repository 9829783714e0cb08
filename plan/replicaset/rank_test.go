package replicaset

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// example26Pods are the pods of upstream's TestSortingActivePodsWithRanks
// (upstream TestSortingActivePodsWithRanks): no UIDs, "ready@t" means Ready since t, restarts
// only on ready pods.
func example26Pods(now time.Time) map[string]*model.Pod {
	var zero time.Time
	month := now.AddDate(0, -1, 0)
	pod := func(name, node string, ph model.PodPhase, ready bool, restarts int32, readySince, created time.Time, cost string) *model.Pod {
		p := &model.Pod{ObjectMeta: model.ObjectMeta{Name: name, CreationTimestamp: created}}
		p.Spec.NodeName = node
		p.Status.Phase = ph
		if ready {
			p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: readySince}}
			p.Status.ContainerStatuses = []model.ContainerStatus{{RestartCount: restarts}}
		}
		if cost != "" {
			p.Annotations = map[string]string{model.PodDeletionCostAnnotation: cost}
		}
		return p
	}
	h := func(n int) time.Time { return now.Add(-time.Duration(n) * time.Hour) }
	return map[string]*model.Pod{
		"unscheduled":            pod("unscheduled", "", model.PodPending, false, 0, zero, zero, ""),
		"pending":                pod("pending", "node", model.PodPending, false, 0, zero, zero, ""),
		"unknown-phase":          pod("unknown-phase", "node", model.PodUnknown, false, 0, zero, zero, ""),
		"not-ready":              pod("not-ready", "node", model.PodRunning, false, 0, zero, zero, ""),
		"ready-no-ltt":           pod("ready-no-ltt", "node", model.PodRunning, true, 0, zero, zero, ""),
		"ready-now":              pod("ready-now", "node", model.PodRunning, true, 0, now, now, ""),
		"ready-then":             pod("ready-then", "node", model.PodRunning, true, 0, month, month, ""),
		"ready-high-restarts":    pod("ready-high-restarts", "node", model.PodRunning, true, 9001, now, now, ""),
		"ready-now-created-then": pod("ready-now-created-then", "node", model.PodRunning, true, 0, now, month, ""),
		"low-deletion-cost":      pod("low-deletion-cost", "node", model.PodRunning, true, 0, now, month, "10"),
		"high-deletion-cost":     pod("high-deletion-cost", "node", model.PodRunning, true, 0, now, month, "100"),
		"unscheduled-5-hours":    pod("unscheduled-5-hours", "", model.PodPending, false, 0, h(5), h(5), ""),
		"unscheduled-8-hours":    pod("unscheduled-8-hours", "", model.PodPending, false, 0, h(8), h(8), ""),
		"ready-2-hours":          pod("ready-2-hours", "", model.PodRunning, true, 0, h(2), month, ""),
		"ready-5-hours":          pod("ready-5-hours", "", model.PodRunning, true, 0, h(5), month, ""),
		"ready-8-hours":          pod("ready-8-hours", "", model.PodRunning, true, 0, h(8), month, ""),
	}
}

func TestRankInequalities(t *testing.T) {
	now := t0
	pods := example26Pods(now)
	type side struct {
		pod  string
		rank int
	}
	tests := []struct {
		name            string
		reason          string
		lesser, greater side
		rule            Rule
		opts            []Option
	}{
		{"unscheduled-beats-rank", "upstream TestSortingActivePodsWithRanks row 1: rule 1 beats a higher co-location rank", side{"unscheduled", 1}, side{"pending", 2}, RuleUnassigned, nil},
		{"unscheduled-first", "upstream TestSortingActivePodsWithRanks row 2: rule 1", side{"unscheduled", 2}, side{"pending", 1}, RuleUnassigned, nil},
		{"pending-before-unknown", "upstream TestSortingActivePodsWithRanks row 3: rule 2, Pending (0) < Unknown (1)", side{"pending", 1}, side{"unknown-phase", 2}, RulePhase, nil},
		{"unknown-before-running", "upstream TestSortingActivePodsWithRanks row 4: rule 2, Unknown (1) < Running (2)", side{"unknown-phase", 1}, side{"not-ready", 2}, RulePhase, nil},
		{"not-ready-first", "upstream TestSortingActivePodsWithRanks row 5: rule 3", side{"not-ready", 1}, side{"ready-no-ltt", 1}, RuleNotReady, nil},
		{"zero-ready-time-first", "upstream TestSortingActivePodsWithRanks row 6: rule 6, a zero transition time goes first", side{"ready-no-ltt", 1}, side{"ready-now", 1}, RuleReadyTime, nil},
		{"rank-beats-ready-time", "upstream TestSortingActivePodsWithRanks row 7: rule 5 beats rule 6", side{"ready-now", 2}, side{"ready-no-ltt", 1}, RuleCoLocation, nil},
		{"recently-ready-first", "upstream TestSortingActivePodsWithRanks row 8: rule 6, bucket -1 < bucket 51", side{"ready-now", 1}, side{"ready-then", 1}, RuleReadyTime, nil},
		{"rank-beats-ready-then", "upstream TestSortingActivePodsWithRanks: rule 5 before rule 6", side{"ready-now", 2}, side{"ready-then", 1}, RuleCoLocation, nil},
		{"restarts-first", "upstream TestSortingActivePodsWithRanks row 9: rule 7, 9001 restarts", side{"ready-high-restarts", 1}, side{"ready-now", 1}, RuleRestarts, nil},
		{"rank-beats-restarts", "upstream TestSortingActivePodsWithRanks: rule 5 before rule 7", side{"ready-now", 2}, side{"ready-high-restarts", 1}, RuleCoLocation, nil},
		{"newer-first", "upstream TestSortingActivePodsWithRanks row 10: rule 8, created now before 1 month ago", side{"ready-now", 1}, side{"ready-now-created-then", 1}, RuleCreationTime, nil},
		{"rank-beats-creation", "upstream TestSortingActivePodsWithRanks: rule 5 before rule 8", side{"ready-now-created-then", 2}, side{"ready-now", 1}, RuleCoLocation, nil},
		{"cost-beats-rank", "upstream TestSortingActivePodsWithRanks row 11: rule 4 (cost 10 < 100) beats rule 5", side{"low-deletion-cost", 2}, side{"high-deletion-cost", 1}, RuleDeletionCost, nil},
		{"cost-gate-off", "upstream TestSortingActivePodsWithRanks: with PodDeletionCost off rank decides", side{"high-deletion-cost", 2}, side{"low-deletion-cost", 1}, RuleCoLocation, []Option{WithPodDeletionCost(false)}},
		{"two-hours-before-five", "upstream TestSortingActivePodsWithRanks row 12: rule 6, buckets 42 < 44", side{"ready-2-hours", 1}, side{"ready-5-hours", 1}, RuleReadyTime, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			a, b := pods[tc.lesser.pod], pods[tc.greater.pod]
			if a == nil || b == nil {
				t.Fatalf("unknown fixture")
			}
			c, rule := Compare(a, b, tc.lesser.rank, tc.greater.rank, now, tc.opts...)
			if c != -1 || rule != tc.rule {
				t.Errorf("Compare(%s, %s) = %d, %s; want -1, %s", tc.lesser.pod, tc.greater.pod, c, rule, tc.rule)
			}
			c, rule = Compare(b, a, tc.greater.rank, tc.lesser.rank, now, tc.opts...)
			if c != 1 || rule != tc.rule {
				t.Errorf("Compare(%s, %s) = %d, %s; want 1, %s", tc.greater.pod, tc.lesser.pod, c, rule, tc.rule)
			}
			// The planner's order must agree on every pair upstream orders,
			// from either input order.
			cfg := newConfig(tc.opts)
			ranks := map[*model.Pod]int{a: tc.lesser.rank, b: tc.greater.rank}
			for _, in := range [][]*model.Pod{{a, b}, {b, a}} {
				keys := make([]*podKey, 2)
				for i, p := range in {
					k := makeKey(p, i, ranks[p], now, &cfg)
					keys[i] = &k
				}
				rankKeys(keys, true, false)
				if keys[0].pod != a {
					t.Errorf("rankKeys(%s, %s) put %s first", in[0].Name, in[1].Name, keys[0].pod.Name)
				}
			}
		})
	}
}

func TestRankEqualities(t *testing.T) {
	now := t0
	pods := example26Pods(now)
	tests := []struct {
		name, reason string
		a, b         string
		rule         Rule
	}{
		{"unscheduled-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "unscheduled", "unscheduled", RuleTie},
		{"pending-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "pending", "pending", RuleTie},
		{"unknown-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "unknown-phase", "unknown-phase", RuleTie},
		{"not-ready-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "not-ready", "not-ready", RuleTie},
		{"ready-now-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "ready-now", "ready-now", RuleTie},
		{"ready-then-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "ready-then", "ready-then", RuleTie},
		{"high-restarts-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "ready-high-restarts", "ready-high-restarts", RuleTie},
		{"created-then-self", "upstream TestSortingActivePodsWithRanks: a pod equals itself", "ready-now-created-then", "ready-now-created-then", RuleTie},
		{"unscheduled-5h-8h", "upstream TestSortingActivePodsWithRanks equal pair: created 5 h and 8 h ago share bucket 44 and both UIDs are empty", "unscheduled-5-hours", "unscheduled-8-hours", RuleCreationTimeUID},
		{"ready-5h-8h", "upstream TestSortingActivePodsWithRanks equal pair: ready 5 h and 8 h ago share bucket 44 and both UIDs are empty", "ready-5-hours", "ready-8-hours", RuleReadyTimeUID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			a, b := pods[tc.a], pods[tc.b]
			for _, pair := range [][2]*model.Pod{{a, b}, {b, a}} {
				if c, rule := Compare(pair[0], pair[1], 1, 1, now); c != 0 || rule != tc.rule {
					t.Errorf("Compare(%s, %s) = %d, %s; want 0, %s", pair[0].Name, pair[1].Name, c, rule, tc.rule)
				}
			}
		})
	}
}

func TestLogBucket(t *testing.T) {
	tests := []struct {
		name, reason string
		age          time.Duration
		want         int64
	}{
		{"2h", "upstream getPodsToDelete/ActivePodsWithRanks: 2 h is bucket 42", 2 * time.Hour, 42},
		{"5h", "upstream getPodsToDelete/ActivePodsWithRanks: 5 h shares bucket 44 with 8 h", 5 * time.Hour, 44},
		{"8h", "upstream getPodsToDelete/ActivePodsWithRanks: 8 h shares bucket 44 with 5 h", 8 * time.Hour, 44},
		{"zero-age", "upstream: no elapsed time is bucket -1", 0, -1},
		{"future", "upstream: a time after now is bucket -1", -time.Second, -1},
		{"1ns", "log2(1) = 0", 1, 0},
		{"power-of-two", "log2(2^40) is exactly 40", 1 << 40, 40},
		{"below-power-small", "2^40-1 ns: float64 log2 stays below 40", 1<<40 - 1, 39},
		{"float-rounding", "2^53-1 ns: upstream's float64 log2 rounds up to 53 where the exact floor is 52", 1<<53 - 1, 53},
		{"saturated", "an age beyond 292 years saturates time.Duration at 2^63-1 ns, which float64 rounds to 2^63", math.MaxInt64, 63},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			if got := logBucket(t0, t0.Add(-tc.age)); got != tc.want {
				t.Errorf("logBucket(age %v) = %d, want %d", tc.age, got, tc.want)
			}
		})
	}
}

func TestParseDeletionCost(t *testing.T) {
	tests := []struct {
		name, reason, in string
		want             int32
		valid            bool
	}{
		{"positive", "seed 004: a plain decimal", "10", 10, true},
		{"negative", "seed 004 / upstream GetDeletionCostFromPodAnnotations: negative values are allowed; \"-5\" is valid", "-5", -5, true},
		{"zero", "upstream validFirstDigit: \"0\" is the only value that may start with 0", "0", 0, true},
		{"minus-zero", "upstream: a leading '-' passes the first-digit test and ParseInt reads -0 as 0", "-0", 0, true},
		{"minus-leading-zeros", "upstream: leading zeros are only rejected when the first character is '0'; \"-007\" is -7", "-007", -7, true},
		{"max", "seed 004: the documented upper bound 2147483647", "2147483647", math.MaxInt32, true},
		{"doc-min", "seed 004: the documented lower bound -2147483647", "-2147483647", -math.MaxInt32, true},
		{"int32-min", "upstream parses int32, so -2147483648 is accepted although seed 004 documents -2147483647 as the bound", "-2147483648", math.MinInt32, true},
		{"plus", "upstream GetDeletionCostFromPodAnnotations: a leading '+' is invalid", "+10", 0, false},
		{"leading-zeros", "upstream GetDeletionCostFromPodAnnotations: \"007\" is invalid", "007", 0, false},
		{"double-zero", "upstream GetDeletionCostFromPodAnnotations: leading zeros, \"00\"", "00", 0, false},
		{"empty", "upstream GetDeletionCostFromPodAnnotations: empty is invalid and counts as 0", "", 0, false},
		{"too-big", "upstream GetDeletionCostFromPodAnnotations: out of int32 range", "2147483648", 0, false},
		{"too-small", "upstream GetDeletionCostFromPodAnnotations: out of int32 range", "-2147483649", 0, false},
		{"minus-only", "ParseInt rejects a sign without digits", "-", 0, false},
		{"minus-plus", "ParseInt takes one sign only", "-+5", 0, false},
		{"space", "no trimming", " 1", 0, false},
		{"trailing-space", "no trimming", "1 ", 0, false},
		{"fraction", "decimal integers only", "1.5", 0, false},
		{"underscore", "base-10 ParseInt has no digit separators", "1_000", 0, false},
		{"hex", "base 10 only", "0x10", 0, false},
		{"word", "not a number", "high", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			got, err := ParseDeletionCost(tc.in)
			if (err == nil) != tc.valid || got != tc.want {
				t.Errorf("ParseDeletionCost(%q) = %d, %v; want %d, valid %v", tc.in, got, err, tc.want, tc.valid)
			}
			p := mkPod("p", cost(tc.in))
			if c, _ := DeletionCost(p); c != tc.want {
				t.Errorf("DeletionCost = %d, want %d", c, tc.want)
			}
		})
	}
	if c, err := DeletionCost(mkPod("p")); c != 0 || err != nil {
		t.Errorf("DeletionCost without annotation = %d, %v; want 0, nil", c, err)
	}
}

// TestInvalidCostRanksAsZero: invalid annotations rank exactly like a cost
// of 0, so they come after negative costs and before positive ones.
func TestInvalidCostRanksAsZero(t *testing.T) {
	now := t0
	base := func(name string, o ...podOpt) *model.Pod {
		return mkPod(name, append([]podOpt{running("n1", t0.Add(-time.Hour)), created(t0.Add(-time.Hour))}, o...)...)
	}
	pods := []*model.Pod{
		base("positive", cost("1")),
		base("invalid-plus", cost("+1"), uid("u1")),
		base("negative", cost("-1")),
		base("zero", cost("0"), uid("u2")),
		base("invalid-leading-zero", cost("01"), uid("u3")),
		base("none", uid("u4")),
	}
	got := DeletionOrder(pods, nil, now)
	var order []string
	for _, i := range got {
		order = append(order, pods[i].Name)
	}
	want := []string{"negative", "invalid-plus", "zero", "invalid-leading-zero", "none", "positive"}
	if !slices.Equal(order, want) {
		t.Errorf("order = %v, want %v (invalid costs count as 0, tie by UID u1<u2<u3<u4)", order, want)
	}
}

// TestUpstreamComparatorCycle pins the quirk the package documentation
// describes: upstream's comparator is cyclic on three ready pods of one
// bucket, and the planner still returns the same order for every input
// order.
func TestUpstreamComparatorCycle(t *testing.T) {
	now := t0
	a := mkPod("a", uid("a"), running("n", t0.Add(-2*time.Hour)))
	b := mkPod("b", uid("c"), running("n", t0.Add(-2*time.Hour)), restarts(3))
	c := mkPod("c", uid("b"), running("n", t0.Add(-2*time.Hour+time.Minute)))
	if x, r := Compare(a, c, 0, 0, now); x != -1 || r != RuleReadyTimeUID {
		t.Fatalf("a vs c = %d %s, want -1 by UID", x, r)
	}
	if x, r := Compare(c, b, 0, 0, now); x != -1 || r != RuleReadyTimeUID {
		t.Fatalf("c vs b = %d %s, want -1 by UID", x, r)
	}
	if x, r := Compare(b, a, 0, 0, now); x != -1 || r != RuleRestarts {
		t.Fatalf("b vs a = %d %s, want -1 by restarts", x, r)
	}
	perms := [][]*model.Pod{{a, b, c}, {a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}}
	var first []string
	for _, in := range perms {
		var got []string
		for _, i := range DeletionOrder(in, nil, now) {
			got = append(got, in[i].Name)
		}
		if first == nil {
			first = got
		} else if !slices.Equal(got, first) {
			t.Errorf("order %v differs from %v for another input order", got, first)
		}
	}
	// UID order a < b(uid "b" = pod c) < c(uid "c" = pod b), with runs of one
	// pod each: a, c, b.
	if want := []string{"a", "c", "b"}; !slices.Equal(first, want) {
		t.Errorf("order = %v, want %v", first, want)
	}
}

// TestRunsFollowRestarts: pods of one bucket and one ready time are ordered
// by restarts (rule 7) even when UID order says otherwise, as long as no pod
// of another ready time falls between them: upstream is consistent there.
func TestRunsFollowRestarts(t *testing.T) {
	now := t0
	ready := t0.Add(-2 * time.Hour)
	a := mkPod("a", uid("u1"), running("n", ready))
	b := mkPod("b", uid("u2"), running("n", ready), restarts(5))
	c := mkPod("c", uid("u3"), running("n", ready.Add(time.Minute)))
	in := []*model.Pod{a, b, c}
	var got []string
	for _, i := range DeletionOrder(in, nil, now) {
		got = append(got, in[i].Name)
	}
	if want := []string{"b", "a", "c"}; !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v (b restarted, a and b adjacent in UID order; c by UID)", got, want)
	}
	assertLinearExtension(t, in, nil, now)
}

func assertLinearExtension(t *testing.T, pods, related []*model.Pod, now time.Time) {
	t.Helper()
	order := DeletionOrder(pods, related, now)
	ranks := CoLocationRanks(pods, related)
	for i := range order {
		for j := i + 1; j < len(order); j++ {
			a, b := order[i], order[j]
			if c, rule := Compare(pods[b], pods[a], ranks[b], ranks[a], now); c < 0 {
				t.Errorf("%s placed before %s, but upstream deletes %s first (%s)", pods[a].Name, pods[b].Name, pods[b].Name, rule)
			}
		}
	}
}

func TestCoLocationRanks(t *testing.T) {
	related := []*model.Pod{
		mkPod("a", onNode("n1")),
		mkPod("b", onNode("n1")),
		mkPod("c", onNode("n2")),
		mkPod("d", onNode("n1"), deleting(t0)),
		mkPod("e", onNode("n1"), phase(model.PodSucceeded)),
		mkPod("f"),
		nil,
	}
	pods := []*model.Pod{mkPod("x", onNode("n1")), mkPod("y", onNode("n3")), mkPod("z"), nil}
	got := CoLocationRanks(pods, related)
	if want := []int{2, 0, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("ranks = %v, want %v (terminating and terminal related pods do not count; unscheduled share \"\")", got, want)
	}
}

func TestGetPodsToDelete(t *testing.T) {
	now := t0
	ready := mkPod("ready", running("n1", t0.Add(-time.Hour)))
	notReady := mkPod("not-ready", runningNotReady("n1"))
	unscheduled := mkPod("unscheduled")
	active := []*model.Pod{ready, nil, notReady, unscheduled}
	tests := []struct {
		name, reason string
		n            int
		opts         []Option
		want         []string
	}{
		{"one", "rule 1: the unscheduled pod goes first", 1, nil, []string{"unscheduled"}},
		{"two", "rules 1 and 3", 2, nil, []string{"unscheduled", "not-ready"}},
		{"all", "n = len(active): all go, still in deletion order", 3, nil, []string{"unscheduled", "not-ready", "ready"}},
		{"more", "n > len(active): all go", 9, nil, []string{"unscheduled", "not-ready", "ready"}},
		{"zero", "n = 0: nothing", 0, nil, nil},
		{"negative", "n < 0: nothing", -1, nil, nil},
		{"all-upstream", "upstream skips the sort when all go: input order, nil skipped", 3, []Option{WithUpstreamTieOrder()}, []string{"ready", "not-ready", "unscheduled"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			got := GetPodsToDelete(active, active, tc.n, now, tc.opts...)
			var gotNames []string
			for _, p := range got {
				gotNames = append(gotNames, p.Name)
				for _, in := range active {
					if in == p {
						t.Errorf("returned pod %s aliases the input", p.Name)
					}
				}
			}
			if !slices.Equal(gotNames, tc.want) {
				t.Errorf("got %v, want %v", gotNames, tc.want)
			}
		})
	}
}

// TestZeroNowComparesExactTimes: with a zero now upstream skips the
// logarithmic buckets and compares exact times.
func TestZeroNowComparesExactTimes(t *testing.T) {
	a := mkPod("a", uid("b"), running("n", t0.Add(-5*time.Hour)))
	b := mkPod("b", uid("a"), running("n", t0.Add(-8*time.Hour)))
	if c, r := Compare(a, b, 0, 0, time.Time{}); c != -1 || r != RuleReadyTime {
		t.Errorf("zero now: Compare = %d %s, want -1 ReadyTime (later ready time first)", c, r)
	}
	if c, r := Compare(a, b, 0, 0, t0); c != 1 || r != RuleReadyTimeUID {
		t.Errorf("with now: Compare = %d %s, want 1 ReadyTimeUID (same bucket 44, UID a < b)", c, r)
	}
	assertLinearExtension(t, []*model.Pod{a, b}, nil, time.Time{})
}

func TestCompareNil(t *testing.T) {
	p := mkPod("p")
	if c, _ := Compare(nil, p, 0, 0, t0); c != 1 {
		t.Errorf("nil vs pod = %d, want 1", c)
	}
	if c, _ := Compare(p, nil, 0, 0, t0); c != -1 {
		t.Errorf("pod vs nil = %d, want -1", c)
	}
	if c, _ := Compare(nil, nil, 0, 0, t0); c != 0 {
		t.Errorf("nil vs nil = %d, want 0", c)
	}
}
