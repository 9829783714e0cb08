package evidence_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
)

// genPods draws pods created within the last hour: ready ones (some with
// restarts), waiting ones (some on a blocking reason), terminating and
// failed ones.
func genPods(t *rapid.T) []*model.Pod {
	n := rapid.IntRange(0, 12).Draw(t, "n")
	var pods []*model.Pod
	for i := range n {
		created := -time.Duration(rapid.IntRange(0, 3600).Draw(t, "age")) * time.Second
		name := fmt.Sprintf("p%d", i)
		var p *model.Pod
		if rapid.Bool().Draw(t, "ready") {
			p = readyPod(name, created, time.Duration(rapid.IntRange(0, 600).Draw(t, "delay"))*time.Second)
			p.Status.ContainerStatuses[0].RestartCount = int32(rapid.IntRange(0, 1).Draw(t, "restarts"))
		} else {
			reason := rapid.SampledFrom([]string{"ContainerCreating", "ImagePullBackOff", "CrashLoopBackOff", "PodInitializing"}).Draw(t, "reason")
			p = waitingPod(name, created, time.Duration(rapid.IntRange(0, 5).Draw(t, "unready"))*time.Second, reason, "")
		}
		switch rapid.IntRange(0, 5).Draw(t, "end") {
		case 0:
			p.DeletionTimestamp = model.TimePtr(t0)
		case 1:
			p.Status.Phase = model.PodFailed
		}
		pods = append(pods, p)
	}
	return pods
}

// What holds of any assessment: the median lies between the shortest and
// the longest delay; the stall threshold is at least twice the longest and
// at least the longest plus the margin; a wait is stalled exactly when a
// cause is blocking or it has waited past the threshold; no ready,
// terminating or finished pod waits; and the order of the pods changes
// nothing.
func TestAssessProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods := genPods(t)
		a := evidence.Assess(pods, t0, evidence.Options{})
		if n := len(a.Readiness.Samples); n > 0 {
			lo, hi := a.Readiness.Samples[0].Delay, a.Readiness.Longest()
			if a.ReadyAfter < lo || a.ReadyAfter > hi {
				t.Fatalf("median %s outside [%s, %s]", a.ReadyAfter, lo, hi)
			}
			if a.StallAfter < 2*hi || a.StallAfter < hi+evidence.DefaultMargin {
				t.Fatalf("stallAfter %s for longest %s", a.StallAfter, hi)
			}
		} else if a.ReadyAfter != 0 || a.StallAfter != evidence.DefaultStallAfter {
			t.Fatalf("no evidence: readyAfter %s, stallAfter %s", a.ReadyAfter, a.StallAfter)
		}
		byName := map[string]*model.Pod{}
		for _, p := range pods {
			byName[p.Name] = p
		}
		for _, w := range a.Waits {
			p := byName[w.Pod]
			if model.IsPodReady(p) || p.DeletionTimestamp != nil || p.IsTerminal() {
				t.Fatalf("%s waits", w.Pod)
			}
			blocking := slices.ContainsFunc(w.Causes, evidence.Cause.Blocking)
			if want := blocking || w.For > a.StallAfter; want != (w.Stalled != "") {
				t.Fatalf("%s: stalled %q, blocking %v, waited %s of %s", w.Pod, w.Stalled, blocking, w.For, a.StallAfter)
			}
		}
		shuffled := slices.Clone(pods)
		slices.Reverse(shuffled)
		b := evidence.Assess(shuffled, t0, evidence.Options{})
		if a.Assumption() != b.Assumption() || a.StallAfter != b.StallAfter || len(a.Waits) != len(b.Waits) {
			t.Fatalf("order matters: %q vs %q", a.Assumption(), b.Assumption())
		}
		for i := range a.Waits {
			if a.Waits[i].Pod != b.Waits[i].Pod || a.Waits[i].Stalled != b.Waits[i].Stalled {
				t.Fatalf("order matters: wait %d: %+v vs %+v", i, a.Waits[i], b.Waits[i])
			}
		}
	})
}
