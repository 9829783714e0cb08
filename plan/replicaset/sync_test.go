package replicaset

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyncScaleUpFromZero pins a whole plan: a new ReplicaSet of 3 replicas
// (generation 2 not yet observed) and no pods.
func TestSyncScaleUpFromZero(t *testing.T) {
	rs := mkRS("web", 3)
	rs.Generation = 2
	p, err := Sync(rs, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	n0, n1, n2 := DefaultPodName("web-", "rs-web", 0), DefaultPodName("web-", "rs-web", 1), DefaultPodName("web-", "rs-web", 2)
	pod := func(name string) *model.Pod {
		q := newPod(rs, name)
		return q
	}
	create := func(name string, i, batch, size int) Action {
		return Action{Kind: CreatePod, Namespace: "ns", Name: name, GenerateName: "web-", Pod: pod(name),
			Reason: Reason{Code: ReasonTooFewPods,
				Message: fmt.Sprintf("create pod %d of 3 (batch %d of 2, size %d): 0 active < 3 desired", i, batch, size),
				Values: []Value{{Name: "pod", Value: int64(i)}, {Name: "of", Value: 3}, {Name: "batch", Value: int64(batch)}, {Name: "batches", Value: 2}, {Name: "batchSize", Value: int64(size)},
					{Name: "active", Value: 0}, {Name: "desired", Value: 3}}}}
	}
	zero := int32(0)
	status := model.ReplicaSetStatus{TerminatingReplicas: &zero, ObservedGeneration: 2}
	want := Plan{
		Actions: []Action{
			create(n0, 1, 1, 1),
			create(n1, 2, 2, 2),
			create(n2, 3, 2, 2),
			{Kind: UpdateReplicaSetStatus, Namespace: "ns", Name: "web", UID: "rs-web", Status: &status, ResourceVersion: "7",
				Reason: Reason{Code: ReasonStatusChanged,
					Message: "status changes: terminatingReplicas nil→0, observedGeneration 1→2",
					Values: []Value{{Name: "replicas", Value: 0}, {Name: "fullyLabeledReplicas", Value: 0}, {Name: "readyReplicas", Value: 0}, {Name: "availableReplicas", Value: 0},
						{Name: "terminatingReplicas", Value: 0}, {Name: "observedGeneration", Value: 2}}}},
		},
		Events: []Event{
			{Type: "Normal", Reason: "SuccessfulCreate", Message: "Created pod: " + n0, Object: "ReplicaSet/web", AfterWrites: 1},
			{Type: "Normal", Reason: "SuccessfulCreate", Message: "Created pod: " + n1, Object: "ReplicaSet/web", AfterWrites: 2},
			{Type: "Normal", Reason: "SuccessfulCreate", Message: "Created pod: " + n2, Object: "ReplicaSet/web", AfterWrites: 3},
		},
		Status:        status,
		StatusChanged: true,
		Notes: []Reason{{Code: NoteScaleUp, Message: "create 3 pods in batches 1,2: 0 active < 3 desired",
			Values: []Value{{Name: "create", Value: 3}, {Name: "batches", Value: 2}, {Name: "active", Value: 0}, {Name: "desired", Value: 3}}}},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
}

// TestSyncClaims pins adoption and release: patches byte for byte as
// upstream sends them (upstream ClaimPods).
func TestSyncClaims(t *testing.T) {
	rs := mkRS("web", 2)
	other := mkRS("other", 1)
	pods := []*model.Pod{
		mkPod("orphan", running("n1", t0.Add(-time.Hour))),
		mkPod("mine", running("n1", t0.Add(-time.Hour)), ownedBy(rs)),
		mkPod("relabelled", running("n1", t0.Add(-time.Hour)), ownedBy(rs), labels("app", "debug")),
		mkPod("someone-elses", running("n1", t0.Add(-time.Hour)), ownedBy(other)),
		mkPod("orphan-mismatch", running("n1", t0.Add(-time.Hour)), labels("app", "db")),
		mkPod("orphan-terminating", running("n1", t0.Add(-time.Hour)), deleting(t0)),
		mkPod("orphan-done", phase(model.PodSucceeded)),
		mkPod("mine-failed-relabelled", phase(model.PodFailed), ownedBy(rs), labels("app", "debug")),
	}
	p, err := Sync(rs, pods, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	ref := model.NewControllerRef("apps/v1", "ReplicaSet", "web", "rs-web")
	want := []Action{
		{Kind: AdoptPod, Namespace: "ns", Name: "orphan", UID: "uid-orphan",
			Patch:          `{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-web","controller":true,"blockOwnerDeletion":true}],"uid":"uid-orphan"}}`,
			OwnerReference: &ref,
			Reason:         Reason{Code: ReasonAdoptPod, Message: "adopt pod orphan: it has no controller and its labels match the selector of web"}},
		{Kind: ReleasePod, Namespace: "ns", Name: "relabelled", UID: "uid-relabelled",
			Patch:          `{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"rs-web"}],"uid":"uid-relabelled"}}`,
			OwnerReference: &ref,
			Reason:         Reason{Code: ReasonReleasePod, Message: "release pod relabelled: web controls it but its labels no longer match the selector"}},
	}
	var claims []Action
	for _, a := range p.Actions {
		if a.Kind == AdoptPod || a.Kind == ReleasePod {
			claims = append(claims, a)
		}
	}
	if diff := cmp.Diff(want, claims); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	// The adopted pod counts: mine + orphan = 2 = desired, nothing else.
	if p.Count(CreatePod)+p.Count(DeletePod) != 0 || p.Status.Replicas != 2 {
		t.Errorf("want no creates/deletes and 2 replicas, got %+v", p.Actions)
	}
	var adopted, released int
	for _, a := range p.Actions {
		switch a.Kind {
		case AdoptPod:
			adopted++
		case ReleasePod:
			released++
		}
	}
	if adopted != 1 || released != 1 {
		t.Errorf("adopted %d, released %d", adopted, released)
	}
}

func TestSyncTable(t *testing.T) {
	ago := func(d time.Duration) time.Time { return t0.Add(-d) }
	withoutController := func(rs *model.ReplicaSet) *model.ReplicaSet { rs.OwnerReferences = nil; return rs }
	deletingRS := func(rs *model.ReplicaSet) *model.ReplicaSet { rs.DeletionTimestamp = model.TimePtr(t0); return rs }
	rs := mkRS("web", 2)
	sibling := mkRS("web-old", 0)
	sibling.Spec.Selector.MatchLabels["hash"] = "old"
	sibling.Spec.Template.Labels["hash"] = "old"
	tests := []struct {
		name, reason string
		rs           *model.ReplicaSet
		pods         []*model.Pod
		rss          []*model.ReplicaSet
		opts         []Option
		deletes      []string
		creates      int
		check        func(t *testing.T, p Plan)
	}{
		{
			name: "unscheduled-and-not-ready-first", reason: "upstream getPodsToDelete/ActivePodsWithRanks rules 1 and 3; seed 004 rule 1 (pending/unschedulable pods go first)",
			rs: rs,
			pods: owned(rs,
				mkPod("ready-a", running("n1", ago(time.Hour))),
				mkPod("not-ready", runningNotReady("n1")),
				mkPod("ready-b", running("n2", ago(time.Hour))),
				mkPod("unscheduled"),
			),
			deletes: []string{"unscheduled", "not-ready"},
			check: func(t *testing.T, p Plan) {
				if r := p.Actions[0].Rule; r != RuleUnassigned {
					t.Errorf("first victim's rule %s, want Unassigned", r)
				}
				if r := p.Actions[1].Rule; r != RuleNotReady {
					t.Errorf("second victim's rule %s, want NotReady", r)
				}
			},
		},
		{
			name: "pending-before-running", reason: "upstream getPodsToDelete/ActivePodsWithRanks rule 2; seed 004 rule 1 (pending pods go first)",
			rs: mkRS("web", 1),
			pods: owned(mkRS("web", 1),
				mkPod("running", runningNotReady("n1")),
				mkPod("pending", onNode("n1")),
			),
			deletes: []string{"pending"},
		},
		{
			name: "deletion-cost", reason: "upstream getPodsToDelete/ActivePodsWithRanks rule 4; seed 004 rule 2: the lower pod-deletion-cost goes first, negative allowed",
			rs: rs,
			pods: owned(rs,
				mkPod("cheap", running("n1", ago(time.Hour)), cost("-5")),
				mkPod("default", running("n1", ago(time.Minute))),
				mkPod("dear", running("n1", ago(2*time.Minute)), cost("100")),
			),
			deletes: []string{"cheap"},
			check: func(t *testing.T, p Plan) {
				a := p.Actions[0]
				if c, _ := a.Reason.Value("cost"); a.Rule != RuleDeletionCost || c != -5 {
					t.Errorf("rule %s, reason %+v; want DeletionCost with cost -5", a.Rule, a.Reason)
				}
			},
		},
		{
			name: "deletion-cost-gate-off", reason: "the feature gates: with PodDeletionCost off the annotation is ignored; rule 6 then deletes the most recently ready",
			rs: rs, opts: []Option{WithPodDeletionCost(false)},
			pods: owned(rs,
				mkPod("cheap", running("n1", ago(40*time.Hour)), cost("-5")),
				mkPod("default", running("n1", ago(time.Minute))),
				mkPod("dear", running("n1", ago(20*time.Hour)), cost("100")),
			),
			deletes: []string{"default"},
		},
		{
			name: "crowded-node-first", reason: "upstream getPodsToDelete/ActivePodsWithRanks rule 5; seed 004 rule 3: pods on the node with more replicas go first, although n2 became ready more recently",
			rs: mkRS("web", 1),
			pods: owned(mkRS("web", 1),
				mkPod("n1-a", running("n1", ago(time.Hour))),
				mkPod("n1-b", running("n1", ago(time.Hour))),
				mkPod("n2", running("n2", ago(time.Minute))),
			),
			deletes: []string{"n1-a", "n1-b"},
			check: func(t *testing.T, p Plan) {
				for _, a := range p.Actions[:2] {
					r := a.Reason
					c, _ := r.Value("coLocation")
					k, _ := r.Value("keptCoLocation")
					if a.Rule != RuleCoLocation || c != 2 || k != 1 {
						t.Errorf("rule %s, reason %+v; want CoLocation 2 > 1", a.Rule, r)
					}
				}
			},
		},
		{
			name: "marginal-reason", reason: "a victim's reason compares it with the first pod kept: n1-a and n1-b rank alike, so UID order decides which of them goes",
			rs: rs,
			pods: owned(rs,
				mkPod("n1-a", running("n1", ago(time.Hour))),
				mkPod("n1-b", running("n1", ago(time.Hour))),
				mkPod("n2", running("n2", ago(time.Minute))),
			),
			deletes: []string{"n1-a"},
			check: func(t *testing.T, p Plan) {
				if a := p.Actions[0]; a.Rule != RuleTie || !strings.Contains(a.Reason.Message, "n1-b (the first pod kept)") {
					t.Errorf("rule %s, reason %+v; want Tie against n1-b", a.Rule, a.Reason)
				}
			},
		},
		{
			name: "co-location-counts-siblings", reason: "upstream manageReplicas: related pods include those of every ReplicaSet with the same controller, so the sibling's pods on n2 make n2 the crowded node",
			rs: rs, rss: []*model.ReplicaSet{sibling},
			pods: append(owned(rs,
				mkPod("n1-a", running("n1", ago(time.Hour))),
				mkPod("n1-b", running("n1", ago(time.Hour))),
				mkPod("n2", running("n2", ago(time.Hour))),
			), owned(sibling,
				mkPod("old-1", running("n2", ago(time.Hour)), labels("app", "web", "hash", "old")),
				mkPod("old-2", running("n2", ago(time.Hour)), labels("app", "web", "hash", "old")),
			)...),
			deletes: []string{"n2"},
		},
		{
			name: "no-controller-no-ranks", reason: "upstream getReplicaSetsWithSameController: a ReplicaSet without a controller has no related pods, every rank is 0, so rule 6 decides",
			rs: withoutController(mkRS("web", 2)),
			pods: owned(withoutController(mkRS("web", 2)),
				mkPod("n1-a", running("n1", ago(40*time.Hour))),
				mkPod("n1-b", running("n1", ago(40*time.Hour))),
				mkPod("n2", running("n2", ago(time.Minute))),
			),
			deletes: []string{"n2"},
		},
		{
			name: "newer-first", reason: "upstream getPodsToDelete/ActivePodsWithRanks rule 8; seed 004 rule 4: the more recently created pod goes first",
			rs: rs,
			pods: owned(rs,
				mkPod("old", running("n1", ago(time.Hour)), created(ago(30*24*time.Hour))),
				mkPod("new", running("n1", ago(time.Hour)), created(ago(2*time.Hour))),
				mkPod("mid", running("n1", ago(time.Hour)), created(ago(10*24*time.Hour))),
			),
			deletes: []string{"new"},
		},
		{
			name: "creation-bucket-uid", reason: "seed 004 rule 4 with LogarithmicScaleDown: 5 h and 8 h share bucket 44, so the smaller UID goes although it is older",
			rs: mkRS("web", 1),
			pods: owned(mkRS("web", 1),
				mkPod("five", runningNotReady("n1"), created(ago(5*time.Hour)), uid("b")),
				mkPod("eight", runningNotReady("n1"), created(ago(8*time.Hour)), uid("a")),
			),
			deletes: []string{"eight"},
			check: func(t *testing.T, p Plan) {
				if r := p.Actions[0].Rule; r != RuleCreationTimeUID {
					t.Errorf("rule %s, want CreationTimeUID", r)
				}
			},
		},
		{
			name: "full-tie-uid", reason: "seed 004: when every rule ties upstream picks at random; the planner documents UID order",
			rs: mkRS("web", 1),
			pods: owned(mkRS("web", 1),
				mkPod("x", running("n1", ago(time.Hour)), uid("u2")),
				mkPod("y", running("n1", ago(time.Hour)), uid("u1")),
			),
			deletes: []string{"y"},
			check: func(t *testing.T, p Plan) {
				if r := p.Actions[0].Rule; r != RuleTie {
					t.Errorf("rule %s, want Tie", r)
				}
			},
		},
		{
			name: "cyclic-set", reason: "package doc, Ties and cycles: upstream's comparator cycles on these three pods; the planner takes UID order a, c, b, and a's reason says upstream alone would have kept it before b",
			rs: mkRS("web", 1),
			pods: owned(mkRS("web", 1),
				mkPod("a", uid("a"), running("n", ago(2*time.Hour))),
				mkPod("b", uid("c"), running("n", ago(2*time.Hour)), restarts(3)),
				mkPod("c", uid("b"), running("n", ago(2*time.Hour-time.Minute))),
			),
			deletes: []string{"a", "c"},
			check: func(t *testing.T, p Plan) {
				if r := p.Actions[0].Rule; r != RuleCycle {
					t.Errorf("a: rule %s, want Cycle", r)
				}
				if r := p.Actions[1].Rule; r != RuleReadyTimeUID {
					t.Errorf("c: rule %s, want ReadyTimeUID", r)
				}
			},
		},
		{
			name: "all-deleted", reason: "upstream getPodsToDelete/ActivePodsWithRanks: when every active pod goes no ranking is needed",
			rs: mkRS("web", 0),
			pods: owned(mkRS("web", 0),
				mkPod("a", running("n1", ago(time.Hour))),
				mkPod("b"),
			),
			deletes: []string{"b", "a"},
			check: func(t *testing.T, p Plan) {
				if r := p.Actions[0].Rule; r != RuleAllDeleted {
					t.Errorf("rule %s, want AllDeleted", r)
				}
			},
		},
		{
			name: "terminating-and-terminal-not-active", reason: "upstream syncReplicaSet: terminating and terminal pods are not active, so 2 active of 2 desired: nothing to do",
			rs: rs,
			pods: owned(rs,
				mkPod("a", running("n1", ago(time.Hour))),
				mkPod("b", running("n1", ago(time.Hour))),
				mkPod("going", running("n1", ago(time.Hour)), deleting(t0)),
				mkPod("done", phase(model.PodSucceeded)),
				mkPod("failed", phase(model.PodFailed)),
			),
			check: func(t *testing.T, p Plan) {
				if p.Notes[0].Code != NoteInSync {
					t.Errorf("notes %+v", p.Notes)
				}
			},
		},
		{
			name: "deleting-rs", reason: "upstream syncReplicaSet: a ReplicaSet being deleted neither manages pods nor adopts or releases, but still writes status",
			rs: deletingRS(mkRS("web", 5)),
			pods: append(owned(deletingRS(mkRS("web", 5)),
				mkPod("mine", running("n1", ago(time.Hour))),
				mkPod("relabelled", running("n1", ago(time.Hour)), labels("app", "x")),
			), mkPod("orphan", running("n1", ago(time.Hour)))),
			check: func(t *testing.T, p Plan) {
				if len(p.Actions) != 1 || p.Actions[0].Kind != UpdateReplicaSetStatus || p.Status.Replicas != 1 {
					t.Errorf("actions %+v", p.Actions)
				}
				if p.Notes[0].Code != NoteDeleting {
					t.Errorf("notes %+v", p.Notes)
				}
			},
		},
		{
			name: "burst-delete", reason: "upstream manageReplicas and its burstReplicas constant: at most 500 deletes per sync",
			rs:   mkRS("web", 0),
			pods: owned(mkRS("web", 0), manyPods(600)...),
			check: func(t *testing.T, p Plan) {
				if got := p.Count(DeletePod); got != 500 {
					t.Errorf("%d deletes, want 500", got)
				}
				if !slices.ContainsFunc(p.Notes, func(r Reason) bool { return r.Code == NoteBurstLimit }) {
					t.Errorf("no BurstLimit note")
				}
			},
		},
		{
			name: "other-namespace-ignored", reason: "Sync reads the pods of rs's namespace only",
			rs: mkRS("web", 1),
			pods: []*model.Pod{
				mkPod("here", running("n1", ago(time.Hour))),
				mkPod("there", running("n1", ago(time.Hour)), inNamespace("elsewhere")),
				mkPod("there-2", running("n1", ago(time.Hour)), inNamespace("elsewhere"), uid("uid-here")),
			},
			check: func(t *testing.T, p Plan) {
				if p.Count(AdoptPod) != 1 || p.Status.Replicas != 1 {
					t.Errorf("actions %+v", p.Actions)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			p, err := Sync(tc.rs, tc.pods, tc.rss, t0, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if tc.deletes != nil {
				if got := names(p, DeletePod); !slices.Equal(got, tc.deletes) {
					t.Errorf("deletes %v, want %v", got, tc.deletes)
				}
			}
			if got := p.Count(CreatePod); got != tc.creates {
				t.Errorf("%d creates, want %d", got, tc.creates)
			}
			if tc.check != nil {
				tc.check(t, p)
			}
		})
	}
}

func manyPods(n int) []*model.Pod {
	out := make([]*model.Pod, n)
	for i := range out {
		out[i] = mkPod(fmt.Sprintf("p-%04d", i), running(fmt.Sprintf("n%d", i%7), t0.Add(-time.Duration(i)*time.Minute)), created(t0.Add(-time.Duration(i)*time.Hour)))
	}
	return out
}

// TestMinReadySecondsBoundary: a pod is available only when it has been
// ready for strictly more than minReadySeconds (upstream IsPodAvailable), and upstream
// requeues after minReadySeconds while all are ready but not all available.
func TestMinReadySecondsBoundary(t *testing.T) {
	readySince := t0.Add(-10 * time.Second)
	tests := []struct {
		name, reason string
		now          time.Time
		minReady     int32
		available    int32
		requeue      time.Duration
	}{
		{"exactly-min", "v1.36 podutil.IsPodAvailable: ready for exactly minReadySeconds is available (LastTransitionTime+minReady compared with now by <= 0)", t0, 10, 2, 0},
		{"one-ns-early", "v1.36 podutil.IsPodAvailable: one nanosecond before the boundary the pods are not available; FindMinNextPodAvailabilityCheck: requeue in 1ns", t0.Add(-time.Nanosecond), 10, 0, time.Nanosecond},
		{"zero-min", "upstream IsPodAvailable: with minReadySeconds 0 ready means available", t0, 0, 2, 0},
		{"before", "ready for 9 s of 10: not available; the next check is when they are (1s)", t0.Add(-time.Second), 10, 0, time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			rs := mkRS("web", 2)
			rs.Spec.MinReadySeconds = tc.minReady
			pods := owned(rs, mkPod("a", running("n1", readySince)), mkPod("b", running("n2", readySince)))
			p, err := Sync(rs, pods, nil, tc.now)
			if err != nil {
				t.Fatal(err)
			}
			if p.Status.ReadyReplicas != 2 || p.Status.AvailableReplicas != tc.available {
				t.Errorf("ready %d available %d, want 2 and %d", p.Status.ReadyReplicas, p.Status.AvailableReplicas, tc.available)
			}
			if p.RequeueAfter != tc.requeue {
				t.Errorf("requeue %v, want %v", p.RequeueAfter, tc.requeue)
			}
		})
	}
	// v1.36 requeues whenever ready pods wait for minReadySeconds, also when
	// not every desired pod is ready (older releases waited for all of them):
	// here 2 of 3 are ready, both for 5 s of 10, so the next check is in 5 s.
	rs := mkRS("web", 3)
	rs.Spec.MinReadySeconds = 10
	p, err := Sync(rs, owned(rs, mkPod("a", running("n1", t0.Add(-5*time.Second))), mkPod("b", running("n2", t0.Add(-5*time.Second)))), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if p.RequeueAfter != 5*time.Second {
		t.Errorf("requeue %v with 2 of 3 ready for 5 s of 10, want 5s", p.RequeueAfter)
	}
	// The earliest pod decides: ready 8 s and 3 s ago with minReadySeconds
	// 10 requeues in 2 s.
	p, err = Sync(rs, owned(rs, mkPod("a", running("n1", t0.Add(-8*time.Second))), mkPod("b", running("n2", t0.Add(-3*time.Second))), mkPod("c", running("n3", t0.Add(-3*time.Second)))), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if p.RequeueAfter != 2*time.Second {
		t.Errorf("requeue %v, want 2s (the pod ready 8 s ago)", p.RequeueAfter)
	}
}

func TestTerminatingReplicas(t *testing.T) {
	rs := mkRS("web", 1)
	other := mkRS("other", 1)
	pods := []*model.Pod{
		mkPod("active", running("n1", t0.Add(-time.Hour)), ownedBy(rs)),
		mkPod("t-mine", running("n1", t0.Add(-time.Hour)), ownedBy(rs), deleting(t0)),
		mkPod("t-mine-2", onNode("n1"), ownedBy(rs), deleting(t0)),
		mkPod("t-mine-mismatch", ownedBy(rs), deleting(t0), labels("app", "x")),
		mkPod("t-orphan", deleting(t0)),
		mkPod("t-other", ownedBy(other), deleting(t0)),
		mkPod("t-mine-terminal", phase(model.PodSucceeded), ownedBy(rs), deleting(t0)),
	}
	tests := []struct {
		name, reason string
		opts         []Option
		want         *int32
	}{
		{"gate-on", "terminatingReplicas (KEP-3973) in the ReplicaSet controller's calculateStatus: owned by controller reference and selector-matching, deleting, not terminal: 2", nil, model.Int32Ptr(2)},
		{"gate-off", "the feature gates: with DeploymentReplicaSetTerminatingReplicas off the field is nil", []Option{WithTerminatingReplicas(false)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			p, err := Sync(rs, pods, nil, t0, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if !equalInt32Ptr(p.Status.TerminatingReplicas, tc.want) {
				t.Errorf("terminatingReplicas %s, want %s", ptrString(p.Status.TerminatingReplicas), ptrString(tc.want))
			}
			if p.Status.Replicas != 1 {
				t.Errorf("replicas %d, want 1", p.Status.Replicas)
			}
		})
	}
}

func TestStatusCounts(t *testing.T) {
	rs := mkRS("web", 4)
	rs.Spec.Template.Labels["tier"] = "front"
	rs.Spec.MinReadySeconds = 30
	pods := owned(rs,
		mkPod("full-avail", running("n1", t0.Add(-time.Hour)), labels("app", "web", "tier", "front")),
		mkPod("full-new", running("n1", t0.Add(-10*time.Second)), labels("app", "web", "tier", "front", "extra", "1")),
		mkPod("partial", running("n1", t0.Add(-time.Hour))),
		mkPod("pending"),
	)
	p, err := Sync(rs, pods, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	st := p.Status
	if st.Replicas != 4 || st.FullyLabeledReplicas != 2 || st.ReadyReplicas != 3 || st.AvailableReplicas != 2 {
		t.Errorf("status %+v, want replicas 4, fullyLabeled 2, ready 3, available 2", st)
	}
	// Unchanged status: no write, a note instead.
	rs.Status = st
	rs.Status.ObservedGeneration = rs.Generation
	p, err = Sync(rs, pods, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if p.StatusChanged || len(p.Actions) != 0 || !slices.ContainsFunc(p.Notes, func(r Reason) bool { return r.Code == NoteStatusUnchanged }) {
		t.Errorf("steady state wrote %+v", p.Actions)
	}
}

// TestReplicaFailureCondition: added once, not refreshed while present,
// removed by a successful sync (the ReplicaSet controller's calculateStatus).
func TestReplicaFailureCondition(t *testing.T) {
	existing := model.ReplicaSetCondition{Type: model.ReplicaSetReplicaFailure, Status: model.ConditionTrue, Reason: "FailedCreate", Message: "old text", LastTransitionTime: t0.Add(-time.Hour)}
	other := model.ReplicaSetCondition{Type: "Other", Status: model.ConditionTrue}
	fail := WithCreateQuota(0)
	tests := []struct {
		name, reason string
		conds        []model.ReplicaSetCondition
		opts         []Option
		want         []model.ReplicaSetCondition
		changed      bool
	}{
		{"kept-while-failing", "the ReplicaSet controller's calculateStatus: a present ReplicaFailure is not replaced, even with a new error text", []model.ReplicaSetCondition{existing}, []Option{fail}, []model.ReplicaSetCondition{existing}, false},
		{"removed-on-success", "the ReplicaSet controller's calculateStatus: a successful manageReplicas removes it", []model.ReplicaSetCondition{other, existing}, nil, []model.ReplicaSetCondition{other}, true},
		{"removed-to-nil", "upstream filterOutCondition leaves nil when nothing remains", []model.ReplicaSetCondition{existing}, nil, nil, true},
		{"empty-kept-empty", "an empty non-nil list is copied as is when nothing changes", []model.ReplicaSetCondition{}, nil, []model.ReplicaSetCondition{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			rs := mkRS("web", 1)
			pods := owned(rs, mkPod("a"))
			if tc.opts != nil {
				rs.Spec.Replicas = model.Int32Ptr(2)
			}
			rs.Status = model.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 1, TerminatingReplicas: model.Int32Ptr(0), ObservedGeneration: 1, Conditions: tc.conds}
			p, err := Sync(rs, pods, nil, t0, tc.opts...)
			if serr := syncError(t, err); (serr != nil) != (tc.opts != nil) {
				t.Errorf("err %v; want a *SyncError exactly when the create fails", serr)
			}
			if diff := cmp.Diff(tc.want, p.Status.Conditions); diff != "" {
				t.Errorf("conditions (-want +got):\n%s", diff)
			}
			if p.StatusChanged != tc.changed {
				t.Errorf("StatusChanged %v, want %v", p.StatusChanged, tc.changed)
			}
		})
	}
}

func TestDeleteFaults(t *testing.T) {
	rs := mkRS("web", 1)
	pods := owned(rs,
		mkPod("keep", running("n1", t0.Add(-time.Hour))),
		mkPod("a"),
		mkPod("b", onNode("n1")),
		mkPod("c", runningNotReady("n1")),
	)
	fault := WithDeleteFault(func(p *model.Pod) error {
		switch p.Name {
		case "a":
			return fmt.Errorf("pods %q not found: %w", p.Name, ErrNotFound)
		case "c":
			return errors.New("etcdserver: request timed out")
		}
		return nil
	})
	p, err := Sync(rs, pods, nil, t0, fault)
	serr := syncError(t, err)
	if got := names(p, DeletePod); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("attempted %v", got)
	}
	if p.Count(DeletePod) != 1 {
		t.Errorf("%d deletes accepted, want 1 (b)", p.Count(DeletePod))
	}
	if serr == nil || serr.Message != "unable to delete pods: etcdserver: request timed out" || serr.Kind != ErrKindFailedDelete {
		t.Fatalf("err %+v", serr)
	}
	if !errors.Is(err, &SyncError{Kind: ErrKindFailedDelete}) {
		t.Errorf("errors.Is(%v, FailedDelete) = false", err)
	}
	if c := p.Status.Conditions; len(c) != 1 || c[0].Reason != "FailedDelete" || c[0].Message != serr.Message {
		t.Errorf("conditions %+v", c)
	}
	// Each event follows the action it reports: the deletes of b and c are
	// actions 2 and 3 (a's delete, not found, records nothing).
	wantEvents := []Event{
		{Type: "Normal", Reason: "SuccessfulDelete", Message: "Deleted pod: b", Object: "ReplicaSet/web", AfterWrites: 2},
		{Type: "Warning", Reason: "FailedDelete", Message: "Error deleting: etcdserver: request timed out", Object: "ReplicaSet/web", AfterWrites: 3},
	}
	if diff := cmp.Diff(wantEvents, p.Events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if failed := p.Actions[p.Events[1].AfterWrites-1]; failed.Name != "c" || failed.Error == "" {
		t.Errorf("the FailedDelete event follows %v, want the rejected delete of c", failed)
	}
}

func TestSyncInvalidInput(t *testing.T) {
	good := func() *model.ReplicaSet { return mkRS("web", 1) }
	tests := []struct {
		name, reason string
		rs           *model.ReplicaSet
		pods         []*model.Pod
		rss          []*model.ReplicaSet
		field        string
	}{
		{"nil-rs", "brief: a nil ReplicaSet", nil, nil, nil, "replicaSet"},
		{"nil-replicas", "apps/v1 defaulting: the algorithm dereferences spec.replicas", func() *model.ReplicaSet { r := good(); r.Spec.Replicas = nil; return r }(), nil, nil, "replicaSet.spec.replicas"},
		{"negative-replicas", "apps/v1 validation", func() *model.ReplicaSet { r := good(); r.Spec.Replicas = model.Int32Ptr(-1); return r }(), nil, nil, "replicaSet.spec.replicas"},
		{"nil-selector", "apps/v1 validation: selector required", func() *model.ReplicaSet { r := good(); r.Spec.Selector = nil; return r }(), nil, nil, "replicaSet.spec.selector"},
		{"bad-selector", "upstream cannot convert the selector", func() *model.ReplicaSet {
			r := good()
			r.Spec.Selector.MatchExpressions = []model.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}
			return r
		}(), nil, nil, "replicaSet.spec.selector"},
		{"template-mismatch", "apps/v1 validation: the selector must select the template", func() *model.ReplicaSet {
			r := good()
			r.Spec.Template.Labels = map[string]string{"app": "db"}
			return r
		}(), nil, nil, "replicaSet.spec.template.metadata.labels"},
		{"nil-pod", "a nil pod cannot be planned over", good(), []*model.Pod{nil}, nil, "pods[0]"},
		{"pod-without-uid", "adoption patches and ranking ties need UIDs", good(), []*model.Pod{mkPod("a", uid(""))}, nil, "pods[0].metadata.uid"},
		{"duplicate-uid", "two pods cannot share a UID", good(), []*model.Pod{mkPod("a", uid("u")), mkPod("b", uid("u"))}, nil, "pods[1].metadata.uid"},
		{"duplicate-name", "two pods cannot share a name", good(), []*model.Pod{mkPod("a"), mkPod("a", uid("other"))}, nil, "pods[1].metadata.name"},
		{"negative-restarts", "model.ValidatePod", good(), []*model.Pod{mkPod("a", restarts(-1))}, nil, "pods[0].status.containerStatuses[0].restartCount"},
		{"nil-rs-in-list", "a nil ReplicaSet in the namespace list", good(), nil, []*model.ReplicaSet{nil}, "replicaSets[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			p, err := Sync(tc.rs, tc.pods, tc.rss, t0)
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(Plan{}, p); diff != "" {
				t.Errorf("invalid input planned something (-want +got):\n%s", diff)
			}
			if errors.As(err, new(*SyncError)) {
				t.Errorf("invalid input reported as a *SyncError: %v", err)
			}
			if !errors.Is(err, model.ErrInvalid) {
				t.Errorf("error %v does not match model.ErrInvalid", err)
			}
			var fe *model.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a FieldError", err)
			}
			var ve *model.ValidationError
			errors.As(err, &ve)
			if !slices.ContainsFunc(ve.Errors, func(e *model.FieldError) bool { return e.Field == tc.field }) {
				t.Errorf("error %q does not name %s", err, tc.field)
			}
		})
	}
}

func TestPlanJSONRoundTrip(t *testing.T) {
	rs := mkRS("web", 1)
	pods := owned(rs, mkPod("a"), mkPod("b", running("n1", t0.Add(-time.Hour))))
	p, err := Sync(rs, pods, nil, t0, WithDeleteFault(func(*model.Pod) error { return errors.New("boom") }))
	if syncError(t, err) == nil {
		t.Fatal("no sync error")
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Plan
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p, back); diff != "" {
		t.Errorf("JSON round trip (-before +after):\n%s", diff)
	}
	if !strings.Contains(string(b), `"rule":"Unassigned"`) {
		t.Errorf("JSON lacks the rule: %s", b)
	}
}

// TestUpstreamTieOrderOption: with the option the victims follow
// sort.Sort over the given order, so a full tie goes to whatever upstream's
// sort leaves first; without it UID order decides for every input order.
func TestUpstreamTieOrderOption(t *testing.T) {
	rs := mkRS("web", 1)
	a := mkPod("a", running("n1", t0.Add(-time.Hour)), uid("u2"), ownedBy(rs))
	b := mkPod("b", running("n1", t0.Add(-time.Hour)), uid("u1"), ownedBy(rs))
	for _, in := range [][]*model.Pod{{a, b}, {b, a}} {
		p, err := Sync(rs, in, nil, t0)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(p, DeletePod); !slices.Equal(got, []string{"b"}) {
			t.Errorf("default: deleted %v, want [b] (UID u1)", got)
		}
		p, err = Sync(rs, in, nil, t0, WithUpstreamTieOrder())
		if err != nil {
			t.Fatal(err)
		}
		// Insertion sort of two equal elements keeps them: the first goes.
		if got := names(p, DeletePod); !slices.Equal(got, []string{in[0].Name}) {
			t.Errorf("upstream order %s,%s: deleted %v, want [%s]", in[0].Name, in[1].Name, got, in[0].Name)
		}
	}
}

// TestSyncDoesNotAliasInputs: mutating the plan must not touch the inputs.
func TestSyncDoesNotAliasInputs(t *testing.T) {
	rs := mkRS("web", 2)
	rs.Status.Conditions = []model.ReplicaSetCondition{{Type: "Other", Status: model.ConditionTrue}}
	pods := owned(rs, mkPod("a", running("n1", t0.Add(-time.Hour))))
	before := rs.DeepCopy()
	p, err := Sync(rs, pods, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	p.Status.Conditions[0].Message = "changed"
	for _, a := range p.Actions {
		if a.Status != nil {
			a.Status.Conditions[0].Message = "changed too"
		}
		if a.Pod != nil {
			a.Pod.Labels["app"] = "changed"
			a.Pod.Annotations["team"] = "changed"
		}
	}
	if diff := cmp.Diff(before, rs); diff != "" {
		t.Errorf("input changed through the plan (-before +after):\n%s", diff)
	}
}

// A scale-down of a large ReplicaSet ranks only the pods it needs (the
// heap of selectKeys): it deletes exactly the first 500 of the full
// DeletionOrder, and its explanations compare with the first pod kept of
// that order. benchPods has long runs of equal ready times.
func TestSyncLargeScaleDownDeletesTheFullOrdersPrefix(t *testing.T) {
	rs := mkRS("web", 2500)
	pods := benchPods(rs, 3000)
	p, err := Sync(rs, pods, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	order := DeletionOrder(pods, pods, t0)
	var got, want []string
	for _, a := range p.Actions {
		if a.Kind == DeletePod {
			got = append(got, a.Name)
		}
	}
	for _, i := range order[:BurstReplicas] {
		want = append(want, pods[i].Name)
	}
	if len(got) != len(want) {
		t.Fatalf("deleted %d pods, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("deletion %d is %s, the full order has %s", i, got[i], want[i])
		}
	}
	kept := pods[order[BurstReplicas]].Name
	for _, a := range p.Actions {
		if a.Kind == DeletePod && a.Rule != RuleAllDeleted && !strings.Contains(a.Reason.Message, kept+" (the first pod kept") {
			t.Fatalf("%s: %q does not name %s as the first pod kept", a.Name, a.Reason.Message, kept)
		}
	}
}

// TestEventsFollowTheirActions: an event's AfterWrites counts the actions
// planned before it, so Actions[AfterWrites-1] is the create or delete it
// reports, after the claim patches that come first.
func TestEventsFollowTheirActions(t *testing.T) {
	scaleUp := mkRS("web", 4)
	scaleDown := mkRS("web", 0)
	tests := []struct {
		name, reason string
		rs           *model.ReplicaSet
		pods         []*model.Pod
		opts         []Option
		want         []int
	}{
		{"creates-after-adoption", "upstream manageReplicas records each create's event once it returns: adopt (1), create ok (2), batch 2 both refused by the quota (3, 4)",
			scaleUp, []*model.Pod{mkPod("orphan", running("n1", t0.Add(-time.Hour)))}, []Option{WithCreateQuota(1)}, []int{2, 3, 4}},
		{"deletes-after-adoption", "upstream manageReplicas records each delete's event once it returns: adopt (1), then three deletes (2, 3, 4), one of them refused",
			scaleDown, []*model.Pod{mkPod("orphan", running("n1", t0.Add(-time.Hour))), mkPod("a", ownedBy(scaleDown)), mkPod("b", ownedBy(scaleDown), onNode("n1"))},
			[]Option{WithDeleteFault(func(p *model.Pod) error {
				if p.Name == "a" {
					return errors.New("etcdserver: request timed out")
				}
				return nil
			})}, []int{2, 3, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			needReason(t, tc.name, tc.reason)
			p, err := Sync(tc.rs, tc.pods, nil, t0, tc.opts...)
			var serr *SyncError
			require.ErrorAs(t, err, &serr)
			require.NotEmpty(t, p.Actions)
			require.Equal(t, AdoptPod, p.Actions[0].Kind, "the adoption comes first")
			var got []int
			for _, e := range p.Events {
				got = append(got, e.AfterWrites)
				require.True(t, e.AfterWrites >= 1 && e.AfterWrites <= len(p.Actions), "event %+v outside the plan's %d actions", e, len(p.Actions))
				a := p.Actions[e.AfterWrites-1]
				assert.Contains(t, []ActionKind{CreatePod, DeletePod}, a.Kind, "event %+v follows %s", e, a)
				if e.Type == model.EventTypeWarning {
					assert.NotEmpty(t, a.Error, "warning %+v follows an accepted %s", e, a)
					assert.Contains(t, e.Message, a.Error)
				} else {
					assert.Empty(t, a.Error, "event %+v follows a rejected %s", e, a)
					assert.Contains(t, e.Message, a.Name)
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// Source: upstream syncReplicaSet claims the pods and writes the status on
// every sync, but calls manageReplicas only when SatisfiedExpectations is
// true; WithExpectationsPending is the other case.
func TestExpectationsPending(t *testing.T) {
	ready := running("n1", t0.Add(-time.Hour))
	for _, tc := range []struct {
		name    string
		spec    int32
		pods    int
		want    ActionKind // what the sync plans without the option
		wantLen int
	}{
		{"scale up", 5, 2, CreatePod, 2}, // 2 mine + the orphan adopted = 3 of 5
		{"scale down", 1, 3, DeletePod, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := mkRS("web", tc.spec)
			var pods []*model.Pod
			for i := range tc.pods {
				pods = append(pods, mkPod(fmt.Sprintf("mine-%d", i), ready, ownedBy(rs)))
			}
			pods = append(pods, mkPod("orphan", ready))
			managed, err := Sync(rs, pods, nil, t0)
			require.NoError(t, err)
			require.Equal(t, tc.wantLen, managed.Count(tc.want), "without the option")

			p, err := Sync(rs, pods, nil, t0, WithExpectationsPending())
			require.NoError(t, err)
			var kinds []ActionKind
			for _, a := range p.Actions {
				kinds = append(kinds, a.Kind)
			}
			require.Equal(t, []ActionKind{AdoptPod, UpdateReplicaSetStatus}, kinds)
			require.Equal(t, int32(tc.pods+1), p.Status.Replicas)
			require.Equal(t, int32(tc.pods+1), p.Status.ReadyReplicas)
			require.Equal(t, NoteExpectationsPending, p.Notes[0].Code)
			require.Equal(t, fmt.Sprintf("waiting to observe the controller's last creates and deletes: no pods are created or deleted (%d active, %d desired)", tc.pods+1, tc.spec), p.Notes[0].Message)
		})
	}
}

// With ReplicaSetsAndPodsValidated the rules of model.ValidatePod and
// model.ValidateReplicaSet are left out, the planner's own kept.
func TestReplicaSetsAndPodsValidatedOption(t *testing.T) {
	rs := mkRS("web", 1)
	bad := mkPod("BAD NAME", running("n1", t0.Add(-time.Hour)), ownedBy(rs))
	_, err := Sync(rs, []*model.Pod{bad}, nil, t0)
	var verr *model.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "pods[0].metadata.name", verr.Errors[0].Field)
	p, err := Sync(rs, []*model.Pod{bad}, nil, t0, ReplicaSetsAndPodsValidated())
	require.NoError(t, err)
	require.Equal(t, int32(1), p.Status.Replicas)

	noUID := mkPod("web-x", running("n1", t0.Add(-time.Hour)), ownedBy(rs))
	noUID.UID = ""
	_, err = Sync(rs, []*model.Pod{noUID, nil}, nil, t0, ReplicaSetsAndPodsValidated())
	require.ErrorAs(t, err, &verr)
	var fields []string
	for _, fe := range verr.Errors {
		fields = append(fields, fe.Field)
	}
	require.Equal(t, []string{"pods[0].metadata.uid", "pods[1]"}, fields)
}
