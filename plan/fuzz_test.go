package plan_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// checkFuzzedState is what every fuzzed state must satisfy: Sync never
// panics; it either rejects the input with a *model.ValidationError, or
// returns a plan (with the *plan.SyncError upstream's sync ends with, if
// any) whose writes respect I1–I3 (up to documented upstream quirks), that
// renders, and that does not depend on the order of the input.
func checkFuzzedState(t *testing.T, s plan.State) {
	p, err := plan.Sync(s)
	var serr *plan.SyncError
	if err != nil && !errors.As(err, &serr) {
		var verr *model.ValidationError
		if !errors.As(err, &verr) || !errors.Is(err, model.ErrInvalid) {
			t.Fatalf("Sync failed with %T %v, want a *model.ValidationError or a *plan.SyncError", err, err)
		}
		return
	}
	for _, v := range plantest.Check(s, p) {
		if v.Quirk == "" && (v.Invariant == "I1" || v.Invariant == "I2" || v.Invariant == "I3") {
			t.Fatalf("%s\nactions: %v", v, p.Actions)
		}
	}
	// A write a server rejects as invalid ends the sync with the server's
	// error, and nothing after it is accepted.
	if i, ok := p.Rejected(); ok && p.Actions[i].Invalid != "" {
		if serr == nil || serr.Kind != plan.ErrKindInvalid || serr.Message != p.Actions[i].Invalid {
			t.Fatalf("invalid write %d (%s: %s), but the sync ends with %v", i, p.Actions[i], p.Actions[i].Invalid, err)
		}
	}
	for _, a := range p.Accepted() {
		if a.Invalid != "" {
			t.Fatalf("accepted write %s marked invalid", a)
		}
		if a.ReplicaSet != nil && a.ReplicaSet.SpecReplicas() < 0 || a.Update != nil && a.Update.Replicas < 0 {
			t.Fatalf("accepted write %s with a negative spec.replicas", a)
		}
		if u := a.Deployment; u != nil && u.Status != nil && a.Kind == plan.UpdateDeploymentStatus {
			st := u.Status
			if st.Replicas < 0 || st.UpdatedReplicas < 0 || st.ReadyReplicas < 0 || st.AvailableReplicas < 0 || st.UnavailableReplicas < 0 {
				t.Fatalf("accepted status write with a negative count: %+v", st)
			}
		}
	}
	if _, err := render.Writes(s, p); err != nil {
		t.Fatalf("render.Writes: %v", err)
	}
	for _, v := range plantest.CheckDeterminism(s) {
		t.Fatal(v)
	}
}

// FuzzSyncJSON plans arbitrary states decoded from JSON.
func FuzzSyncJSON(f *testing.F) {
	for _, seed := range fuzzSeeds() {
		b, err := json.Marshal(seed)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s plan.State
		if json.Unmarshal(data, &s) != nil {
			return
		}
		checkFuzzedState(t, s)
	})
}

// FuzzSyncBytes builds states field by field from fuzz bytes, which reaches
// valid states far more often than JSON mutation does.
func FuzzSyncBytes(f *testing.F) {
	f.Add([]byte{3, 1, 1, 0, 2, 5, 3, 2, 1, 0, 9, 1})
	f.Add([]byte{10, 3, 2, 1, 4, 10, 10, 8, 2, 5, 3, 0, 0, 7, 1, 2})
	f.Add([]byte{0, 0, 0, 200, 1, 1, 1, 1})
	// At the edges: replicas near 2147483647, maxSurge 2147483647%, many
	// ReplicaSets near the limit.
	f.Add([]byte{1, 255, 0, 0, 5, 2, 243, 0, 1, 0, 0, 1, 1, 1, 1, 2, 250, 40, 255, 3, 10, 0, 0, 1, 201, 0, 210, 5, 255, 0, 255, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFuzzedState(t, stateFromBytes(data))
	})
}

type byteReader struct{ b []byte }

func (r *byteReader) next() int {
	if len(r.b) == 0 {
		return 0
	}
	v := int(r.b[0])
	r.b = r.b[1:]
	return v
}

// size reads a size at one of the int32 edges: a byte below 200 gives 0 to
// 20; a byte b of 200 or more gives 2147483647 − (the next byte · 4 +
// b − 200), so within [2147483647 − 1000, 2147483647].
func (r *byteReader) size() int32 {
	v := r.next()
	if v < 200 {
		return int32(v % 21)
	}
	return math.MaxInt32 - int32(r.next()*4+v-200)
}

// stateFromBytes turns bytes into a Deployment and ReplicaSets with fuzzed
// sizes (at both int32 edges), statuses, annotations, strategy and clock:
// up to four ReplicaSets, or up to 200 after a count byte of 250 or more;
// some of another namespace.
func stateFromBytes(data []byte) plan.State {
	r := &byteReader{b: data}
	fence := func() *model.IntOrString {
		v := r.next()
		switch {
		case v >= 240 && v&1 == 1:
			// A percentage far past 100%, up to beyond int32.
			s := model.FromString(fmt.Sprintf("%d%%", int64(math.MaxInt32)-int64(r.next())+int64(v-240)))
			return &s
		case v >= 240:
			i := model.FromInt(r.size())
			return &i
		case v&1 == 1:
			s := model.FromString(fmt.Sprintf("%d%%", v%160))
			return &s
		}
		i := model.FromInt(int32(v % 20))
		return &i
	}
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "ns", UID: "d", Generation: int64(r.next() % 4)},
		Spec: model.DeploymentSpec{
			Replicas:        model.Int32Ptr(r.size() - 1),
			Selector:        &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:        model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: fmt.Sprint("v", r.next()%3)},
			MinReadySeconds: int32(r.next() % 3),
			Paused:          r.next()%5 == 0,
		},
	}
	if r.next()%4 == 0 {
		d.Spec.Strategy.Type = model.RecreateStrategy
	} else {
		d.Spec.Strategy = model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{MaxSurge: fence(), MaxUnavailable: fence()}}
	}
	d = model.Default(d)
	d.Status = model.DeploymentStatus{
		ObservedGeneration: int64(r.next() % 4), Replicas: int32(r.next() % 30), UpdatedReplicas: int32(r.next() % 30),
		AvailableReplicas: int32(r.next() % 30), ReadyReplicas: int32(r.next() % 30),
	}
	if r.next()%3 == 0 {
		d.Status.Conditions = []model.DeploymentCondition{{Type: model.DeploymentProgressing, Status: model.ConditionTrue,
			Reason:         []string{model.ReasonNewReplicaSetAvailable, model.ReasonReplicaSetUpdated, model.ReasonDeploymentPaused}[r.next()%3],
			LastUpdateTime: plantest.Epoch()}}
	}
	var rss []*model.ReplicaSet
	count := r.next()
	if count >= 250 {
		count = 5 + r.next()%196
	} else {
		count %= 5
	}
	for i := range count {
		name := fmt.Sprint("web-", i)
		labels := map[string]string{"app": "web", model.PodTemplateHashLabel: fmt.Sprint(i)}
		spec := r.size()
		ns := "ns"
		if v := r.next(); v >= 250 {
			ns = []string{"", "other"}[v%2]
		}
		rs := &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{Name: name, Namespace: ns, UID: name, Labels: labels,
				CreationTimestamp: plantest.Epoch().Add(time.Duration(r.next()%4) * time.Minute),
				Generation:        int64(r.next() % 3),
				Annotations: map[string]string{
					model.RevisionAnnotation:        fmt.Sprint(r.next() % 6),
					model.DesiredReplicasAnnotation: fmt.Sprint(r.size()),
					model.MaxReplicasAnnotation:     fmt.Sprint(r.size()),
				},
			},
			Spec: model.ReplicaSetSpec{Replicas: &spec, Selector: &model.LabelSelector{MatchLabels: labels},
				Template: model.PodTemplate{Labels: labels, Spec: fmt.Sprint("v", r.next()%3)}},
			Status: model.ReplicaSetStatus{Replicas: r.size(), AvailableReplicas: r.size(),
				ObservedGeneration: int64(r.next() % 3)},
		}
		if r.next()%4 != 0 {
			rs.OwnerReferences = []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web", "d")}
		}
		rss = append(rss, rs)
	}
	return plan.State{Deployment: d, ReplicaSets: rss, Now: plantest.Epoch().Add(time.Duration(r.next()) * 10 * time.Second)}
}

func fuzzSeeds() []plan.State {
	var out []plan.State
	for _, b := range [][]byte{{3, 1, 1, 0, 2, 5, 3, 2, 1, 0, 9, 1}, {10, 3, 2, 1, 4, 10, 10, 8, 2, 5, 3, 0, 0, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}} {
		out = append(out, stateFromBytes(b))
	}
	return out
}
