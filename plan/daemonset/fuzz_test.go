package daemonset_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// fuzzReader hands out the fuzzer's bytes one at a time; past the end it
// gives zeros, so every input decodes to a State.
type fuzzReader struct{ b []byte }

func (r *fuzzReader) next() uint8 {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// oneIn is true for one byte value in n, never for zero: the zero bytes
// past the end of short inputs keep the common case.
func (r *fuzzReader) oneIn(n uint8) bool { return r.next()%n == n-1 }

func int32p(v int32) *int32 { return &v }

func budgetp(v model.IntOrString) *model.IntOrString { return &v }

// Edges the decoder draws from: budgets at and beyond the int32 limits and
// huge or malformed percentages, limits, template generations and taints.
// The first of each list is the common valid value, which zero bytes pick.
var (
	fuzzBudgets = []*model.IntOrString{budgetp(model.FromInt(1)), budgetp(model.FromInt(0)), nil, budgetp(model.FromInt(3)),
		budgetp(model.FromInt(math.MaxInt32)), budgetp(model.FromInt(-1)), budgetp(model.FromString("0%")), budgetp(model.FromString("10%")),
		budgetp(model.FromString("50%")), budgetp(model.FromString("100%")), budgetp(model.FromString("101%")),
		budgetp(model.FromString("2147483647%")), budgetp(model.FromString("99999999999999999999%")), budgetp(model.FromString("x%")),
		budgetp(model.FromString("")), budgetp(model.FromString("-5%"))}
	fuzzMinReady    = []int32{0, 0, 5, 30, math.MaxInt32, -1}
	fuzzHistory     = []*int32{int32p(10), int32p(0), int32p(1), nil, int32p(math.MaxInt32), int32p(-1)}
	fuzzCollisions  = []*int32{nil, nil, int32p(0), int32p(1), int32p(math.MaxInt32)}
	fuzzGenerations = []string{"2", "1", "2", "", "x", "9223372036854775807", "99999999999999999999", "-1"}
	fuzzTaints      = [][]model.Taint{nil, nil,
		{{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}},
		{{Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoExecute}},
		{{Key: "spot", Effect: model.TaintEffectPreferNoSchedule}},
		{{Key: model.TaintNodeUnschedulable, Effect: model.TaintEffectNoSchedule}},
		{{Key: model.TaintNodeNotReady, Effect: model.TaintEffectNoExecute}, {Key: "dedicated", Value: "gpu", Effect: model.TaintEffectNoSchedule}},
		{{Key: "bogus", Effect: "Bogus"}}}
	fuzzTolerations = [][]model.Toleration{nil,
		{{Key: "dedicated", Operator: model.TolerationOpEqual, Value: "gpu", Effect: model.TaintEffectNoSchedule}},
		{{Operator: model.TolerationOpExists}},
		{{Key: "dedicated", Operator: model.TolerationOpExists, Effect: model.TaintEffectNoExecute, TolerationSeconds: new(int64(30))}}}
	fuzzPhases = []model.PodPhase{model.PodRunning, model.PodRunning, model.PodRunning, model.PodPending, model.PodFailed, model.PodSucceeded, "Bogus"}
)

// fuzzState decodes data into a whole DaemonSet sync: the DaemonSet (an
// update strategy with edge budgets, OnDelete or a bogus one; limits,
// collision count, template generation, node selector, tolerations,
// template node name, deletion, a selector that selects everything), up to
// 64 nodes or, one input in eight, up to 1 020 (labels, taints, duplicate
// names), up to 96 pods (on any node, an unknown one or none with a node
// affinity; of the old, the new or an unknown revision; any phase and
// readiness; controlled, orphaned or owned by another object; duplicate
// names, other namespaces, being deleted) and the ControllerRevisions
// (old, current, a duplicate of the current one, an orphan, edge numbers).
// The same data always decodes to equal States sharing no memory.
func fuzzState(data []byte) daemonset.State {
	r := &fuzzReader{b: data}
	old := fluentd()
	ds := fluentd()
	if !r.oneIn(4) {
		newTemplate(ds)
	}
	strategy := r.next()
	unavailable, surge := pick(fuzzBudgets, r.next()), pick(fuzzBudgets, r.next()+1) // zeros: maxUnavailable 1, maxSurge 0
	switch strategy % 5 {
	case 0, 1:
		ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate,
			RollingUpdate: &model.RollingUpdateDaemonSet{MaxUnavailable: unavailable, MaxSurge: surge}}
	case 2:
		ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetOnDelete}
	case 3:
		ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate}
	default:
		ds.Spec.UpdateStrategy.Type = "Bogus"
	}
	ds.Spec.MinReadySeconds = pick(fuzzMinReady, r.next())
	ds.Spec.RevisionHistoryLimit = pick(fuzzHistory, r.next())
	if c := pick(fuzzCollisions, r.next()); c != nil {
		ds.Status.CollisionCount = int32p(*c)
	}
	ds.Annotations[model.DaemonSetTemplateGenerationAnnotation] = pick(fuzzGenerations, r.next())
	if r.oneIn(3) {
		ds.Spec.Scheduling.NodeSelector = map[string]string{"pool": "a"}
	}
	ds.Spec.Scheduling.Tolerations = append(ds.Spec.Scheduling.Tolerations, pick(fuzzTolerations, r.next())...)
	ds.Spec.Scheduling.HostNetwork = r.oneIn(4)
	if r.oneIn(16) {
		ds.Spec.Scheduling.NodeName = "node-1"
	}
	if r.oneIn(32) {
		at := t0.Add(-time.Minute)
		ds.DeletionTimestamp = &at
	}
	if r.oneIn(32) {
		ds.Spec.Selector = &model.LabelSelector{}
	}

	s := daemonset.State{DaemonSet: ds, Now: t0.Add(time.Duration(r.next()) * time.Second)}
	nNodes := int(r.next() % 65)
	if r.oneIn(8) {
		nNodes = int(r.next()) * 4
	}
	for i := range nNodes {
		name := fmt.Sprintf("node-%d", i)
		if r.oneIn(64) {
			name = "node-0" // a duplicate name: invalid
		}
		b := r.next()
		n := node(name)
		if b&1 == 1 {
			n.Labels["pool"] = "a"
		}
		n.Spec.Taints = append(n.Spec.Taints, pick(fuzzTaints, b>>1)...)
		n.Spec.Unschedulable = b&0x80 != 0
		s.Nodes = append(s.Nodes, n)
	}

	oldHash, newHash := hashOf(old), hashOf(ds)
	for i := range int(r.next() % 97) {
		b1, b2, b3 := r.next(), r.next(), r.next()
		nodeName := ""
		switch k := int(b1); {
		case k < 200 && nNodes > 0:
			nodeName = fmt.Sprintf("node-%d", k%nNodes)
		case k < 230:
			nodeName = "node-gone"
		}
		h := pick([]string{oldHash, newHash, newHash, "unknown"}, b2)
		name := fmt.Sprintf("%s-%d", dsName, i)
		if b3&0x0f == 0x0f {
			name = dsName + "-0" // a duplicate name: invalid unless in another namespace
		}
		p := daemonPod(name, nodeName, h)
		p.Status.Phase = pick(fuzzPhases, b2>>2)
		if b3&0x10 != 0 {
			notReady(p)
		}
		if b3&0x20 != 0 {
			p.Status.Conditions[0].LastTransitionTime = s.Now.Add(-5 * time.Second)
			p.CreationTimestamp = s.Now.Add(-10 * time.Second)
		}
		switch b3 >> 6 {
		case 1:
			p.OwnerReferences = nil
		case 2:
			if b2&0x80 != 0 {
				p.OwnerReferences = []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, "ReplicaSet", "other", "uid-other")}
			} else {
				p.Namespace = "other"
			}
		case 3:
			at := s.Now.Add(-time.Second)
			p.DeletionTimestamp = &at
		}
		if nodeName == "" && b1 >= 230 && nNodes > 0 {
			// Not scheduled yet: meant for a node through its affinity.
			p.Spec.NodeName = ""
			target := fmt.Sprintf("node-%d", int(b1)%nNodes)
			if b1%2 == 0 {
				target = "node-gone"
			}
			if s.PodNodeAffinity == nil {
				s.PodNodeAffinity = map[string]*model.NodeSelector{}
			}
			s.PodNodeAffinity[p.Name] = &model.NodeSelector{NodeSelectorTerms: []model.NodeSelectorTerm{{
				MatchFields: []model.NodeSelectorRequirement{{Key: "metadata.name", Operator: model.NodeSelectorOpIn, Values: []string{target}}}}}}
		}
		s.Pods = append(s.Pods, p)
	}

	b := r.next()
	if b&1 == 0 {
		s.ControllerRevisions = append(s.ControllerRevisions, revisionOf(old, 1))
	}
	if b&2 == 0 {
		cur := revisionOf(ds, pick([]int64{2, 2, 1, 0, math.MaxInt64}, b>>4))
		s.ControllerRevisions = append(s.ControllerRevisions, cur)
		if b&4 != 0 {
			dup := revisionOf(ds, 3)
			dup.Name += "-dup"
			dup.UID += "-dup"
			s.ControllerRevisions = append(s.ControllerRevisions, dup)
		}
	}
	if b&8 != 0 {
		orphan := revisionOf(old, 7)
		orphan.Name += "-orphan"
		orphan.UID += "-orphan"
		orphan.OwnerReferences = nil
		s.ControllerRevisions = append(s.ControllerRevisions, orphan)
	}
	return s
}

// fuzzSeed lays out the bytes fuzzState reads: the DaemonSet's 15 (from
// the template change to the clock), then per node a byte of labels and
// taints, per pod three (node, revision and phase, readiness and owner),
// and one for the revisions.
func fuzzSeed(ds [15]byte, nodes []byte, pods [][3]byte, revisions byte) []byte {
	out := append(ds[:], byte(len(nodes)), 0)
	for _, b := range nodes {
		out = append(out, 0, b)
	}
	out = append(out, byte(len(pods)))
	for _, p := range pods {
		out = append(out, p[:]...)
	}
	return append(out, revisions)
}

// fuzzSeeds are the starting points: a rolling update by maxUnavailable,
// one by maxSurge over tainted nodes, OnDelete with failed, orphaned,
// foreign and unscheduled pods on a labelled pool, a new DaemonSet on 1 000
// nodes, and every int32 and int64 limit at once.
func fuzzSeeds() [][]byte {
	var mixed [][3]byte
	for i := range byte(10) {
		rev := byte(0) // old, Running
		if i < 4 {
			rev = 1 // new
		}
		mixed = append(mixed, [3]byte{i, rev, 0})
	}
	return [][]byte{
		{},
		fuzzSeed([15]byte{14: 30}, make([]byte, 10), mixed, 0),
		fuzzSeed([15]byte{2: 1, 3: 255, 9: 1, 14: 5}, []byte{0, 4, 6, 10, 0, 4, 12, 0}, mixed[:8], 0),
		fuzzSeed([15]byte{1: 2, 8: 2, 14: 9}, []byte{1, 1, 1, 0, 1, 5, 1, 1, 3, 1, 1, 1},
			[][3]byte{{0, 4 << 2, 0}, {1, 5 << 2, 0x10}, {215, 0, 0}, {2, 0, 0x40}, {3, 1, 0x80}, {4, 0x81, 0x80}, {5, 0, 0xc0}, {240, 1, 0}, {241, 1, 0}, {6, 3, 0x20}, {6, 1, 0}}, 8),
		append([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 250}, make([]byte, 500)...),
		fuzzSeed([15]byte{2: 4, 4: 4, 5: 4, 6: 4, 7: 5, 14: 255}, []byte{0, 0, 0}, [][3]byte{{0, 0, 0}, {1, 1, 0}}, 0x44),
	}
}

// FuzzSync plans whole DaemonSet syncs decoded from arbitrary bytes
// (fuzzState) and requires of every one: no panic; either a
// *model.ValidationError with the zero Plan, or a Plan (with a *SyncError
// or none); the same Plan from the same State; the State unchanged; every
// created pod on a node of the State that should run one (upstream's
// NodeShouldRunDaemonPod), at most one per node per sync; every deleted pod
// one of the State's.
func FuzzSync(f *testing.F) {
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := fuzzState(data)
		p, err := daemonset.Sync(s)
		var ve *model.ValidationError
		var se *daemonset.SyncError
		switch {
		case errors.As(err, &ve):
			if d := cmp.Diff(daemonset.Plan{}, p); d != "" {
				t.Fatalf("invalid input (%v) with a plan:\n%s", err, d)
			}
		case err != nil && !errors.As(err, &se):
			t.Fatalf("an error that is neither invalid input nor a SyncError: %v", err)
		}
		// reflect.DeepEqual first: cmp.Diff is slow on a thousand nodes.
		if before := fuzzState(data); !reflect.DeepEqual(before, s) {
			t.Fatalf("Sync changed its State (-before +after):\n%s", cmp.Diff(before, s))
		}
		again, againErr := daemonset.Sync(s)
		if !reflect.DeepEqual(p, again) || fmt.Sprint(err) != fmt.Sprint(againErr) {
			t.Fatalf("planned twice differently (errors %v, %v):\n%s", err, againErr, cmp.Diff(p, again))
		}
		if ve != nil {
			return
		}
		nodes := map[string]*model.Node{}
		for _, n := range s.Nodes {
			nodes[n.Name] = n
		}
		pods := map[string]bool{}
		for _, pod := range s.Pods {
			pods[pod.Namespace+"/"+pod.Name] = true
		}
		created := map[string]bool{}
		for _, a := range p.Actions {
			switch a.Kind {
			case daemonset.CreatePod:
				n := nodes[a.Node]
				if n == nil {
					t.Fatalf("%s: on a node the State does not have", a)
				}
				if pl := daemonset.NodeShouldRunDaemonPod(n, s.DaemonSet); !pl.ShouldRun {
					t.Fatalf("%s: on a node that should not run one (%s)", a, pl.Reason)
				}
				if created[a.Node] {
					t.Fatalf("%s: a second pod created on node %s in one sync", a, a.Node)
				}
				created[a.Node] = true
			case daemonset.DeletePod:
				if !pods[a.Object.Namespace+"/"+a.Object.Name] {
					t.Fatalf("%s: deletes a pod the State does not have", a)
				}
			}
		}
	})
}
