package evidence_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
)

// Three old pods became ready 9s, 12s and 31s after their creation; the new
// pod has sat in ContainerCreating for 20 minutes. The assessment assumes
// the median, 12s, and names the new pod stalled: it has waited far past the
// longest seen. The Deployment's last progress was when the new pod was
// created, so its progress deadline fires ten minutes after that.
func Example() {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	now := t0.Add(20 * time.Minute)
	var pods []*model.Pod
	for i, delay := range []time.Duration{9 * time.Second, 12 * time.Second, 31 * time.Second} {
		created := t0.Add(-time.Hour)
		pods = append(pods, &model.Pod{
			ObjectMeta: model.ObjectMeta{Name: fmt.Sprintf("web-5d8f-%d", i), CreationTimestamp: created},
			Status: model.PodStatus{Phase: model.PodRunning, Conditions: []model.PodCondition{
				{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: created.Add(delay)}}},
		})
	}
	pods = append(pods, &model.Pod{
		ObjectMeta: model.ObjectMeta{Name: "web-7d9f-abcde", CreationTimestamp: t0},
		Status: model.PodStatus{Phase: model.PodPending,
			ContainerStatuses: []model.ContainerStatus{{Name: "web", State: model.ContainerState{
				Waiting: model.ContainerStateWaiting{Reason: "ContainerCreating"}}}}},
	})
	a := evidence.Assess(pods, now, evidence.Options{})
	fmt.Println(a.Assumption())
	for _, w := range a.Stalled() {
		fmt.Println(w.StallLine())
		for _, c := range w.Causes {
			fmt.Println("  " + c.String())
		}
	}

	deadline := int32(600)
	d := &model.Deployment{Spec: model.DeploymentSpec{ProgressDeadlineSeconds: &deadline}}
	d.Status.Conditions = []model.DeploymentCondition{{Type: model.DeploymentProgressing, Status: model.ConditionTrue,
		Reason: model.ReasonReplicaSetUpdated, LastUpdateTime: t0}}
	if dl, ok := evidence.ProgressDeadline(d); ok {
		fmt.Println(dl.Line(now))
	}
	// Output:
	// assuming pods become ready 12s after creation, the median of 3 pods seen
	// web-7d9f-abcde has not been ready for 20m0s, past the longest seen (31s) with a margin of 1m0s
	//   container "web" is waiting: ContainerCreating
	// the progress deadline (600s) passed at 2026-03-01T10:10:00Z: the controller marks the rollout ProgressDeadlineExceeded at its next sync
}
