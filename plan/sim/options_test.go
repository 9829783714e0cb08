package sim_test

import (
	"errors"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
	"github.com/rolloutplan/rolloutplan/plan/sim"
)

// Config.ReplicaSetOptions reach the ReplicaSet planner: with every pod
// creation failing no pod ever exists and the rollout cannot complete;
// without the option the same run completes.
func TestReplicaSetOptionsReachThePodPlanner(t *testing.T) {
	cfg := func(opts ...replicaset.Option) sim.Config {
		return sim.Config{
			Deployment: &model.Deployment{
				ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
				Spec: model.DeploymentSpec{
					Replicas: model.Int32Ptr(2),
					Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
					Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: `{"containers":[{"image":"v1","name":"web"}]}`},
				},
			},
			Fidelity:          sim.Pods,
			MaxSyncs:          50,
			ReplicaSetOptions: opts,
		}
	}
	plain, err := sim.Run(cfg())
	if err != nil || !plain.Summary.Completed || plain.Summary.PeakPods != 2 {
		t.Fatalf("without options: completed %v, peak %d pods, err %v; want a completed run of 2 pods", plain != nil && plain.Summary.Completed, peak(plain), err)
	}
	failing := replicaset.WithCreateFault(func(int, *model.Pod) error { return errors.New("quota exceeded") })
	faulted, err := sim.Run(cfg(failing))
	if err != nil {
		t.Fatal(err)
	}
	if faulted.Summary.Completed || faulted.Summary.PeakPods != 0 {
		t.Errorf("with every create failing: completed %v, peak %d pods; want no pod and no completion", faulted.Summary.Completed, faulted.Summary.PeakPods)
	}
}

func peak(tr *sim.Trace) int32 {
	if tr == nil {
		return -1
	}
	return tr.Summary.PeakPods
}
