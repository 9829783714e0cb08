package evidence_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

// readyPod was created at created and became ready ready later.
func readyPod(name string, created, ready time.Duration) *model.Pod {
	p := &model.Pod{ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: at(created)}}
	p.Status.Phase = model.PodRunning
	p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: at(created + ready)}}
	p.Status.ContainerStatuses = []model.ContainerStatus{{Name: "app", Ready: true}}
	return p
}

// waitingPod was created at created, turned Ready=False unready later,
// and its container app waits with reason.
func waitingPod(name string, created, unready time.Duration, reason, message string) *model.Pod {
	p := &model.Pod{ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: at(created)}}
	p.Status.Phase = model.PodPending
	p.Status.Conditions = []model.PodCondition{
		{Type: model.PodScheduled, Status: model.ConditionTrue, LastTransitionTime: at(created)},
		{Type: model.PodReady, Status: model.ConditionFalse, LastTransitionTime: at(created + unready), Reason: "ContainersNotReady",
			Message: "containers with unready status: [app]"}}
	p.Status.ContainerStatuses = []model.ContainerStatus{{Name: "app", State: model.ContainerState{Waiting: model.ContainerStateWaiting{Reason: reason, Message: message}}}}
	return p
}

// The delays are hand-computed: creation → Ready's transition.
func TestObserve(t *testing.T) {
	restarted := readyPod("restarted", -time.Hour, 50*time.Minute)
	restarted.Status.ContainerStatuses[0].RestartCount = 2
	before := readyPod("skewed", 0, -time.Second) // ready before created: a clock skew
	noTime := readyPod("no-time", 0, 0)
	noTime.Status.Conditions[0].LastTransitionTime = time.Time{}
	for _, tc := range []struct {
		name            string
		pods            []*model.Pod
		delays          []time.Duration
		median, longest time.Duration
	}{
		{"none", nil, nil, 0, 0},
		{"one", []*model.Pod{readyPod("a", 0, 7*time.Second)}, []time.Duration{7 * time.Second}, 7 * time.Second, 7 * time.Second},
		// 9 pods: sorted 3 5 8 10 12 15 20 25 31, the fifth is 12s.
		{"nine, odd count", []*model.Pod{
			readyPod("a", -time.Hour, 31*time.Second), readyPod("b", -time.Hour, 3*time.Second), readyPod("c", -time.Hour, 12*time.Second),
			readyPod("d", -2*time.Hour, 8*time.Second), readyPod("e", -time.Minute, 25*time.Second), readyPod("f", -time.Hour, 5*time.Second),
			readyPod("g", -time.Hour, 20*time.Second), readyPod("h", -time.Hour, 10*time.Second), readyPod("i", -time.Hour, 15*time.Second),
		}, []time.Duration{3e9, 5e9, 8e9, 10e9, 12e9, 15e9, 20e9, 25e9, 31e9}, 12 * time.Second, 31 * time.Second},
		// Even count: (10s + 13s) / 2 = 11.5s.
		{"four, even count", []*model.Pod{
			readyPod("a", 0, 10*time.Second), readyPod("b", 0, 13*time.Second), readyPod("c", 0, 2*time.Second), readyPod("d", 0, 40*time.Second),
		}, []time.Duration{2e9, 10e9, 13e9, 40e9}, 11500 * time.Millisecond, 40 * time.Second},
		// Not evidence: not ready, restarted, ready before created, no
		// transition time.
		{"left out", []*model.Pod{
			waitingPod("w", 0, time.Second, "ContainerCreating", ""), restarted, before, noTime, readyPod("ok", 0, 4*time.Second),
		}, []time.Duration{4 * time.Second}, 4 * time.Second, 4 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := evidence.Observe(tc.pods)
			var got []time.Duration
			for _, s := range r.Samples {
				got = append(got, s.Delay)
			}
			assert.Equal(t, tc.delays, got)
			assert.Equal(t, tc.median, r.Median())
			assert.Equal(t, tc.longest, r.Longest())
		})
	}
}

// The case (issue 23): the new pod has sat in ContainerCreating
// for 20 minutes while the old ones became ready within 12s to 31s.
func TestAssess(t *testing.T) {
	now := at(20 * time.Minute)
	seen := []*model.Pod{
		readyPod("web-old-a", -time.Hour, 12*time.Second), readyPod("web-old-b", -time.Hour, 31*time.Second),
		readyPod("web-old-c", -time.Hour, 9*time.Second),
	}
	for _, tc := range []struct {
		name       string
		pods       []*model.Pod
		now        time.Time
		readyAfter time.Duration
		stallAfter time.Duration
		// stalled: pod → Wait.Stalled
		stalled map[string]string
		waits   []string
	}{
		// Longest 31s + margin max(31s, 1m) = 1m31s; the pod turned
		// unready 1s after creation, so it has waited 19m59s.
		{"ContainerCreating for 20 minutes", append(seen[:3:3], waitingPod("web-new-x", 0, time.Second, "ContainerCreating", "")), now,
			12 * time.Second, 91 * time.Second,
			map[string]string{"web-new-x": "past the longest seen (31s) with a margin of 1m0s"}, []string{"web-new-x"}},
		// 1m30s is within 1m31s: not stalled.
		{"ContainerCreating within the margin", append(seen[:3:3], waitingPod("web-new-x", 0, 0, "ContainerCreating", "")), at(90 * time.Second),
			12 * time.Second, 91 * time.Second, nil, []string{"web-new-x"}},
		// A pull error stalls at once.
		{"ImagePullBackOff at once", append(seen[:3:3], waitingPod("web-new-x", 0, 0, "ImagePullBackOff", `Back-off pulling image "nginx:1.99"`)), at(5 * time.Second),
			12 * time.Second, 91 * time.Second,
			map[string]string{"web-new-x": `container "app" is waiting: ImagePullBackOff: Back-off pulling image "nginx:1.99"`}, []string{"web-new-x"}},
		// A longest of 3m gives a margin of 3m: stalled after 6m.
		{"margin is the longest again", []*model.Pod{readyPod("slow", -time.Hour, 3*time.Minute), waitingPod("new", 0, 0, "ContainerCreating", "")}, at(6*time.Minute + time.Second),
			3 * time.Minute, 6 * time.Minute,
			map[string]string{"new": "past the longest seen (3m0s) with a margin of 3m0s"}, []string{"new"}},
		// No evidence: ready at once, stalled past the default 5m.
		{"no evidence", []*model.Pod{waitingPod("a", 0, 0, "ContainerCreating", ""), waitingPod("b", 2*time.Minute, 0, "ContainerCreating", "")}, at(5*time.Minute + time.Second),
			0, 5 * time.Minute,
			map[string]string{"a": "past 5m0s (no pod has been seen becoming ready)"}, []string{"a", "b"}},
		// Terminating and finished pods are going away: no wait.
		{"terminating and finished", []*model.Pod{terminating(waitingPod("t", 0, 0, "ContainerCreating", "")), failed(waitingPod("f", 0, 0, "", ""))}, now,
			0, 5 * time.Minute, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := evidence.Assess(tc.pods, tc.now, evidence.Options{})
			assert.Equal(t, tc.readyAfter, a.ReadyAfter, "readyAfter")
			assert.Equal(t, tc.stallAfter, a.StallAfter, "stallAfter")
			var waits []string
			stalled := map[string]string{}
			for _, w := range a.Waits {
				waits = append(waits, w.Pod)
				if w.Stalled != "" {
					stalled[w.Pod] = w.Stalled
				}
			}
			assert.Equal(t, tc.waits, waits)
			if tc.stalled == nil {
				tc.stalled = map[string]string{}
			}
			assert.Empty(t, cmp.Diff(tc.stalled, stalled))
			assert.Len(t, a.Stalled(), len(tc.stalled))
		})
	}
}

func terminating(p *model.Pod) *model.Pod {
	p.DeletionTimestamp = model.TimePtr(t0)
	return p
}

func failed(p *model.Pod) *model.Pod {
	p.Status.Phase = model.PodFailed
	return p
}

// Options override the defaults.
func TestAssessOptions(t *testing.T) {
	pods := []*model.Pod{readyPod("a", -time.Hour, 10*time.Second), waitingPod("b", 0, 0, "ContainerCreating", "")}
	a := evidence.Assess(pods, at(time.Minute), evidence.Options{Margin: 5 * time.Second})
	// 10s + max(10s, 5s) = 20s < 1m: stalled.
	require.Equal(t, 20*time.Second, a.StallAfter)
	require.Len(t, a.Stalled(), 1)
	assert.Equal(t, "b has not been ready for 1m0s, past the longest seen (10s) with a margin of 10s", a.Stalled()[0].StallLine())
	pull := waitingPod("c", 0, 0, "ErrImagePull", "not found")
	a = evidence.Assess([]*model.Pod{pull}, at(time.Second), evidence.Options{})
	require.Len(t, a.Stalled(), 1)
	assert.False(t, a.Stalled()[0].Overdue)
	assert.Equal(t, `c will not become ready while container "app" is waiting: ErrImagePull: not found`, a.Stalled()[0].StallLine())
	a = evidence.Assess(pods[1:], at(time.Minute), evidence.Options{StallAfter: 30 * time.Second})
	assert.Equal(t, 30*time.Second, a.StallAfter)
	assert.Len(t, a.Stalled(), 1)
}

// A pod that was ready and turned unready waits since then, not since its
// creation three days ago.
func TestWaitSinceUnready(t *testing.T) {
	p := readyPod("probe", -72*time.Hour, 5*time.Second)
	p.Status.Conditions[0] = model.PodCondition{Type: model.PodReady, Status: model.ConditionFalse, LastTransitionTime: at(-30 * time.Second)}
	p.Status.ContainerStatuses[0].Ready = false
	a := evidence.Assess([]*model.Pod{readyPod("a", -time.Hour, 5*time.Second), p}, t0, evidence.Options{})
	require.Len(t, a.Waits, 1)
	assert.Equal(t, 30*time.Second, a.Waits[0].For)
	assert.Empty(t, a.Waits[0].Stalled)
}

func TestAssumption(t *testing.T) {
	one := evidence.Assess([]*model.Pod{readyPod("a", 0, 4*time.Second)}, t0, evidence.Options{})
	assert.Equal(t, "assuming pods become ready 4s after creation, as the one pod seen (a)", one.Assumption())
	none := evidence.Assess(nil, t0, evidence.Options{})
	assert.Equal(t, "assuming pods become ready at once (no pod has been seen becoming ready)", none.Assumption())
	three := evidence.Assess([]*model.Pod{readyPod("a", 0, 4*time.Second), readyPod("b", 0, 6*time.Second), readyPod("c", 0, 1*time.Second)}, t0, evidence.Options{})
	assert.Equal(t, "assuming pods become ready 4s after creation, the median of 3 pods seen", three.Assumption())
}

// Upstream DeploymentTimedOut: lastUpdateTime + progressDeadlineSeconds.
func TestProgressDeadline(t *testing.T) {
	secs := func(n int32) *int32 { return &n }
	dep := func(deadline *int32, reason string, updated time.Time) *model.Deployment {
		d := &model.Deployment{}
		d.Spec.ProgressDeadlineSeconds = deadline
		if reason != "" {
			d.Status.Conditions = []model.DeploymentCondition{{Type: model.DeploymentProgressing, Status: model.ConditionTrue, Reason: reason, LastUpdateTime: updated}}
		}
		return d
	}
	for _, tc := range []struct {
		name string
		d    *model.Deployment
		now  time.Time
		ok   bool
		line string
	}{
		// 10:22:05 + 600s = 10:32:05.
		{"fires", dep(secs(600), model.ReasonReplicaSetUpdated, at(22*time.Minute+5*time.Second)), at(25 * time.Minute), true,
			"the progress deadline (600s) fires at 2026-03-01T10:32:05Z"},
		{"at the very time it has not passed", dep(secs(600), model.ReasonReplicaSetUpdated, t0), at(10 * time.Minute), true,
			"the progress deadline (600s) fires at 2026-03-01T10:10:00Z"},
		{"passed", dep(secs(600), model.ReasonReplicaSetUpdated, t0), at(10*time.Minute + 1), true,
			"the progress deadline (600s) passed at 2026-03-01T10:10:00Z: the controller marks the rollout ProgressDeadlineExceeded at its next sync"},
		{"exceeded", dep(secs(600), model.ReasonProgressDeadlineExceeded, at(10*time.Minute+time.Second)), at(time.Hour), true,
			"the progress deadline (600s) was exceeded at 2026-03-01T10:10:01Z"},
		{"complete", dep(secs(600), model.ReasonNewReplicaSetAvailable, t0), t0, false, ""},
		{"no condition", dep(secs(600), "", t0), t0, false, ""},
		{"no deadline", dep(secs(model.NoLimit), model.ReasonReplicaSetUpdated, t0), t0, false, ""},
		{"unset", dep(nil, model.ReasonReplicaSetUpdated, t0), t0, false, ""},
		{"nil", nil, t0, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dl, ok := evidence.ProgressDeadline(tc.d)
			require.Equal(t, tc.ok, ok)
			if ok {
				assert.Equal(t, tc.line, dl.Line(tc.now))
			}
		})
	}
}
