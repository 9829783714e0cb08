package replicaset

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/model"
)

// referenceCost is an independent statement of upstream's deletion-cost
// rule, written from the grammar rather than with strconv: "0", or an
// optional "-" followed by digits where, without the "-", the first digit is
// not 0; the value must fit in int32.
func referenceCost(s string) (int32, bool) {
	if s == "0" {
		return 0, true
	}
	digits := s
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		digits = s[1:]
	} else if len(s) == 0 || s[0] == '0' {
		return 0, false
	}
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, _ := new(big.Int).SetString(digits, 10)
	if neg {
		v.Neg(v)
	}
	if v.Cmp(big.NewInt(math.MinInt32)) < 0 || v.Cmp(big.NewInt(math.MaxInt32)) > 0 {
		return 0, false
	}
	return int32(v.Int64()), true
}

func FuzzDeletionCost(f *testing.F) {
	for _, s := range []string{"0", "10", "-5", "+10", "007", "-007", "", "-", "2147483647", "-2147483648", "2147483648", "1_0", " 1", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseDeletionCost(s)
		want, ok := referenceCost(s)
		if (err == nil) != ok || got != want {
			t.Fatalf("ParseDeletionCost(%q) = %d, %v; reference %d, valid %v", s, got, err, want, ok)
		}
		p := mkPod("p", cost(s))
		if c, _ := DeletionCost(p); c != want {
			t.Fatalf("DeletionCost = %d, want %d", c, want)
		}
	})
}

// byteReader turns fuzz input into choices; exhausted input reads as zeros.
type byteReader struct {
	data []byte
	i    int
}

func (r *byteReader) next() byte {
	if r.i >= len(r.data) {
		return 0
	}
	b := r.data[r.i]
	r.i++
	return b
}

func (r *byteReader) pick(n int) int { return int(r.next()) % n }

func (r *byteReader) str(max int) string {
	n := r.pick(max + 1)
	b := make([]byte, n)
	for i := range b {
		b[i] = r.next()
	}
	return string(b)
}

// size reads a replica count at one of the int32 edges: a byte below 200
// gives 0 to 23; a byte b of 200 or more gives 2147483647 − (the next
// byte · 4 + b − 200), within [2147483647 − 1000, 2147483647].
func (r *byteReader) size() int32 {
	b := r.next()
	if b < 200 {
		return int32(b % 24)
	}
	return math.MaxInt32 - int32(int(r.next())*4+int(b)-200)
}

// fuzzWorld decodes a namespace from fuzz input. UIDs collide only when the
// input asks for it, so most inputs are valid. Flag bits of the fourth byte
// add pods of other namespaces (8) and up to 200 sibling ReplicaSets at the
// size edges (16).
func fuzzWorld(data []byte) world {
	r := &byteReader{data: data}
	now := t0
	rs := mkRS("web", r.size())
	rs.Spec.MinReadySeconds = int32(r.pick(3) * 10)
	rs.Generation = int64(r.pick(4))
	rs.Status.ObservedGeneration = int64(r.pick(4))
	flags := r.next()
	if flags&1 != 0 {
		rs.DeletionTimestamp = model.TimePtr(now)
	}
	if flags&2 != 0 {
		rs.OwnerReferences = nil
	}
	if flags&4 != 0 {
		rs.Status.Conditions = []model.ReplicaSetCondition{{Type: model.ReplicaSetReplicaFailure, Status: model.ConditionTrue}}
	}
	sibling := mkRS("web-old", 1)
	sibling.Spec.Selector.MatchLabels["hash"] = "old"
	sibling.Spec.Template.Labels["hash"] = "old"
	rss := []*model.ReplicaSet{sibling}
	if flags&16 != 0 {
		for i := range 1 + r.pick(200) {
			s := mkRS(fmt.Sprintf("web-s%03d", i), r.size())
			s.UID = fmt.Sprintf("rs-s%03d", i)
			s.Spec.Selector.MatchLabels["hash"] = s.Name
			s.Spec.Template.Labels["hash"] = s.Name
			rss = append(rss, s)
		}
	}
	times := []time.Time{{}, now, now.Add(-time.Second), now.Add(-10 * time.Second), now.Add(-2 * time.Hour), now.Add(-5 * time.Hour), now.Add(-8 * time.Hour), now.AddDate(-1, 0, 0), now.Add(time.Hour)}
	n := r.pick(40)
	pods := make([]*model.Pod, n)
	for i := range pods {
		id := i
		if r.pick(16) == 0 {
			id = r.pick(n) // occasionally a duplicate UID: invalid input
		}
		p := &model.Pod{ObjectMeta: model.ObjectMeta{
			Name: fmt.Sprintf("p%02d", i), Namespace: "ns", UID: fmt.Sprintf("u%02d", (id*7)%41),
			CreationTimestamp: times[r.pick(len(times))],
		}}
		if flags&8 != 0 {
			p.Namespace = []string{"ns", "ns", "", "other"}[r.pick(4)]
		}
		switch r.pick(4) {
		case 0:
			p.Labels = map[string]string{"app": "web"}
		case 1:
			p.Labels = map[string]string{"app": "web", "hash": "old"}
		case 2:
			p.Labels = map[string]string{"app": "other"}
		}
		switch r.pick(3) {
		case 0:
			ownedBy(rs)(p)
		case 1:
			ownedBy(sibling)(p)
		}
		p.Spec.NodeName = []string{"", "n1", "n2"}[r.pick(3)]
		p.Status.Phase = []model.PodPhase{"", model.PodPending, model.PodRunning, model.PodUnknown, model.PodSucceeded, model.PodFailed}[r.pick(6)]
		if b := r.next(); b&1 != 0 {
			status := model.ConditionTrue
			if b&2 != 0 {
				status = model.ConditionFalse
			}
			p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: status, LastTransitionTime: times[r.pick(len(times))]}}
		}
		for range r.pick(3) {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, model.ContainerStatus{RestartCount: int32(r.next())})
		}
		switch r.pick(3) {
		case 1:
			p.Annotations = map[string]string{model.PodDeletionCostAnnotation: costChoices[r.pick(len(costChoices))]}
		case 2:
			p.Annotations = map[string]string{model.PodDeletionCostAnnotation: r.str(12)}
		}
		if r.pick(5) == 0 {
			p.DeletionTimestamp = model.TimePtr(now)
		}
		pods[i] = p
	}
	return world{rs: rs, rss: rss, pods: pods, now: now, spec: int(*rs.Spec.Replicas), deleting: rs.DeletionTimestamp != nil}
}

func FuzzSync(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{3, 0, 1, 0, 0, 5})
	f.Add([]byte{0, 1, 1, 1, 0, 30, 1, 2, 0, 1, 2, 3, 1, 4, 2, 7, 1, 4, 0, 0, 1, 1, 2, 2, 1, 3, 2, 4, 5, 1, 2, 3})
	// A spec near 2147483647, siblings at the edges, pods of other
	// namespaces.
	f.Add([]byte{255, 3, 1, 1, 1, 24, 150, 201, 0, 2, 255, 9, 7, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		w := fuzzWorld(data)
		before := deepCopyPods(w.pods)
		p, err := Sync(w.rs, w.pods, w.rss, w.now)
		if diff := cmp.Diff(before, w.pods); diff != "" {
			t.Fatalf("pods modified:\n%s", diff)
		}
		if err != nil {
			var fe *model.FieldError
			if !errors.Is(err, model.ErrInvalid) || !errors.As(err, &fe) {
				t.Fatalf("error %v is not a field error", err)
			}
			return
		}
		active := claimedActive(w)
		creates, deletes := len(names(p, CreatePod)), len(names(p, DeletePod))
		diff := len(active) - w.spec
		switch {
		case w.deleting:
			diff = 0
		case diff > 0:
			diff = min(diff, BurstReplicas)
		case diff < 0:
			diff = -min(-diff, BurstReplicas)
		}
		if creates-deletes != -diff || creates > 0 && deletes > 0 {
			t.Fatalf("%d active, %d desired: %d creates, %d deletes", len(active), w.spec, creates, deletes)
		}
		st := p.Status
		if int(st.Replicas) != len(active) || st.AvailableReplicas > st.ReadyReplicas || st.ReadyReplicas > st.Replicas || st.FullyLabeledReplicas > st.Replicas {
			t.Fatalf("inconsistent status %+v for %d active", st, len(active))
		}
		reversed := slices.Clone(w.pods)
		slices.Reverse(reversed)
		p2, err := Sync(w.rs, reversed, w.rss, w.now)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(p, p2); d != "" {
			t.Fatalf("plan depends on pod order:\n%s", d)
		}
	})
}
