package model_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestPodActiveTerminating(t *testing.T) {
	type c struct {
		tc
		phase                      model.PodPhase
		deleting                   bool
		active, terminating, final bool
	}
	var cases []c
	for _, p := range []struct {
		phase    model.PodPhase
		terminal bool
	}{
		{"", false}, {model.PodPending, false}, {model.PodRunning, false}, {model.PodUnknown, false},
		{model.PodSucceeded, true}, {model.PodFailed, true},
	} {
		for _, del := range []bool{false, true} {
			name := fmt.Sprintf("phase=%q deleting=%v", p.phase, del)
			why := "upstream controller.IsPodActive: IsPodActive = non-terminal and no deletionTimestamp; IsPodTerminating = non-terminal with one"
			cases = append(cases, c{tc{name, why}, p.phase, del, !p.terminal && !del, !p.terminal && del, p.terminal})
		}
	}
	runCases(t, cases, func(t *testing.T, c c) {
		pod := &model.Pod{Status: model.PodStatus{Phase: c.phase}}
		if c.deleting {
			pod.DeletionTimestamp = model.TimePtr(t0)
		}
		if got := model.IsPodActive(pod); got != c.active {
			t.Errorf("IsPodActive = %v, want %v", got, c.active)
		}
		if got := model.IsPodTerminating(pod); got != c.terminating {
			t.Errorf("IsPodTerminating = %v, want %v", got, c.terminating)
		}
		if got := pod.IsTerminal(); got != c.final {
			t.Errorf("IsTerminal = %v, want %v", got, c.final)
		}
		if c.active && c.terminating {
			t.Error("a pod cannot be both active and terminating")
		}
	})
	// A zero deletion timestamp is still a deletion timestamp: only nil-ness counts.
	pod := &model.Pod{Status: model.PodStatus{Phase: model.PodRunning}}
	pod.DeletionTimestamp = &time.Time{}
	if model.IsPodActive(pod) || !model.IsPodTerminating(pod) {
		t.Fatal("optional timestamps are only tested for nil-ness")
	}
}

func readyPod(status model.ConditionStatus, since time.Time) *model.Pod {
	return &model.Pod{Status: model.PodStatus{Phase: model.PodRunning,
		Conditions: []model.PodCondition{{Type: model.PodReady, Status: status, LastTransitionTime: since}}}}
}

func TestIsPodReady(t *testing.T) {
	type c struct {
		tc
		conds []model.PodCondition
		want  bool
	}
	runCases(t, []c{
		{tc{"no conditions", "upstream podutil.IsPodReady: IsPodReady needs a Ready condition"}, nil, false},
		{tc{"ready true", "upstream podutil.IsPodReady: Ready=True"}, []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue}}, true},
		{tc{"ready false", "upstream podutil.IsPodReady: status must be True"}, []model.PodCondition{{Type: model.PodReady, Status: model.ConditionFalse}}, false},
		{tc{"ready unknown", "upstream podutil.IsPodReady: status must be True"}, []model.PodCondition{{Type: model.PodReady, Status: model.ConditionUnknown}}, false},
		{tc{"other condition true", "upstream podutil.IsPodReady: only type Ready counts"}, []model.PodCondition{{Type: "ContainersReady", Status: model.ConditionTrue}}, false},
		{tc{"ready after another", "the Pod fields upstream reads: the Ready condition is looked up by type"},
			[]model.PodCondition{{Type: "PodScheduled", Status: model.ConditionTrue}, {Type: model.PodReady, Status: model.ConditionTrue}}, true},
		{tc{"first ready wins", "upstream GetPodCondition returns the first condition of the type"},
			[]model.PodCondition{{Type: model.PodReady, Status: model.ConditionFalse}, {Type: model.PodReady, Status: model.ConditionTrue}}, false},
	}, func(t *testing.T, c c) {
		p := &model.Pod{Status: model.PodStatus{Conditions: c.conds}}
		if got := model.IsPodReady(p); got != c.want {
			t.Fatalf("IsPodReady = %v, want %v", got, c.want)
		}
		if !c.want && model.IsPodAvailable(p, 0, t0) {
			t.Fatal("a pod that is not ready can never be available")
		}
	})
}

func TestIsPodAvailable(t *testing.T) {
	T := t0
	type c struct {
		tc
		pod      *model.Pod
		minReady int32
		now      time.Time
		want     bool
	}
	runCases(t, []c{
		{tc{"exactly minReady later", "v1.36 podutil.IsPodAvailable: LastTransitionTime+minReadySeconds compared with now by <= 0, so T+5s is available (recordings ds-s1-0004, ds-s1-0151)"},
			readyPod(model.ConditionTrue, T), 5, T.Add(5 * time.Second), true},
		{tc{"one ns after", "v1.36 podutil.IsPodAvailable: past the boundary"},
			readyPod(model.ConditionTrue, T), 5, T.Add(5*time.Second + time.Nanosecond), true},
		{tc{"one ns before", "upstream IsPodAvailable: not yet"}, readyPod(model.ConditionTrue, T), 5, T.Add(5*time.Second - time.Nanosecond), false},
		{tc{"well after", "upstream IsPodAvailable"}, readyPod(model.ConditionTrue, T), 5, T.Add(time.Hour), true},
		{tc{"at transition", "upstream IsPodAvailable"}, readyPod(model.ConditionTrue, T), 5, T, false},
		{tc{"zero transition minReady>0", "upstream IsPodAvailable: lastTransitionTime missing ⇒ never available unless minReadySeconds = 0"},
			readyPod(model.ConditionTrue, time.Time{}), 5, T.Add(100 * 365 * 24 * time.Hour), false},
		{tc{"zero transition minReady 0", "upstream IsPodAvailable: minReadySeconds 0 ⇒ ready equals available"},
			readyPod(model.ConditionTrue, time.Time{}), 0, T, true},
		{tc{"minReady 0 at transition", "upstream IsPodAvailable: minReadySeconds 0 ⇒ ready equals available, no wait"},
			readyPod(model.ConditionTrue, T), 0, T, true},
		{tc{"minReady 0 now before transition", "upstream podutil.IsPodAvailable: minReadySeconds == 0 short-circuits the time test"},
			readyPod(model.ConditionTrue, T), 0, T.Add(-time.Hour), true},
		{tc{"not ready minReady 0", "upstream podutil.IsPodAvailable: IsPodReady first"}, readyPod(model.ConditionFalse, T), 0, T.Add(time.Hour), false},
		{tc{"not ready long ago", "upstream podutil.IsPodAvailable: IsPodReady first"}, readyPod(model.ConditionFalse, T), 5, T.Add(time.Hour), false},
		{tc{"no conditions", "upstream podutil.IsPodAvailable: not ready"}, &model.Pod{}, 0, T, false},
		{tc{"sub-second transition", "upstream compares full in-memory precision: sub-second input is honoured as given"},
			readyPod(model.ConditionTrue, T.Add(500*time.Millisecond)), 1, T.Add(1500*time.Millisecond - 1), false},
		{tc{"sub-second transition after", "upstream compares full in-memory precision: sub-second input is honoured as given"},
			readyPod(model.ConditionTrue, T.Add(500*time.Millisecond)), 1, T.Add(1500*time.Millisecond + 1), true},
		{tc{"max minReady no overflow", "int32 seconds fit in a Duration"},
			readyPod(model.ConditionTrue, T), model.NoLimit, T.Add(time.Duration(model.NoLimit)*time.Second + 1), true},
		{tc{"max minReady not yet", "int32 seconds fit in a Duration"},
			readyPod(model.ConditionTrue, T), model.NoLimit, T.Add(time.Duration(model.NoLimit)*time.Second - 1), false},
	}, func(t *testing.T, c c) {
		if got := model.IsPodAvailable(c.pod, c.minReady, c.now); got != c.want {
			t.Fatalf("IsPodAvailable(minReady=%d, now=%v) = %v, want %v", c.minReady, c.now, got, c.want)
		}
	})
}
