package evidence_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/evidence"
)

// The reasons and messages are the kubelet's and the scheduler's, as
// `kubectl get pod -o yaml` shows them (kubelet images.ErrImagePullBackOff,
// ErrImagePull, ErrInvalidImageName, kuberuntime CrashLoopBackOff and
// CreateContainerConfigError; the scheduler's FitError message).
func TestDiagnose(t *testing.T) {
	running := func(p *model.Pod) *model.Pod { p.Status.Phase = model.PodRunning; return p }
	withLast := func(p *model.Pod, restarts int32, last model.ContainerStateTerminated) *model.Pod {
		p.Status.ContainerStatuses[0].RestartCount = restarts
		p.Status.ContainerStatuses[0].LastTerminationState.Terminated = last
		return p
	}
	unschedulable := &model.Pod{ObjectMeta: model.ObjectMeta{Name: "u"}, Status: model.PodStatus{Phase: model.PodPending, Conditions: []model.PodCondition{
		{Type: model.PodScheduled, Status: model.ConditionFalse, Reason: "Unschedulable",
			Message: "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."}}}}
	notReady := running(waitingPod("r", 0, 0, "", ""))
	readinessGate := running(waitingPod("g", 0, 0, "", ""))
	readinessGate.Status.ContainerStatuses[0].Ready = true
	readinessGate.Status.Conditions[1].Reason, readinessGate.Status.Conditions[1].Message = "ReadinessGatesNotReady", `corresponding condition of pod readiness gate "example.com/lb" does not exist.`
	initPod := waitingPod("i", 0, 0, "PodInitializing", "")
	initPod.Status.InitContainerStatuses = []model.ContainerStatus{
		{Name: "migrate", State: model.ContainerState{Waiting: model.ContainerStateWaiting{Reason: "ErrImagePull", Message: `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/migrate:v9": not found`}}},
		{Name: "warm", State: model.ContainerState{Waiting: model.ContainerStateWaiting{Reason: "PodInitializing"}}},
	}
	for _, tc := range []struct {
		name     string
		pod      *model.Pod
		want     []string
		blocking bool
	}{
		{"ImagePullBackOff", waitingPod("p", 0, 0, "ImagePullBackOff", `Back-off pulling image "nginx:1.99"`),
			[]string{`container "app" is waiting: ImagePullBackOff: Back-off pulling image "nginx:1.99"`}, true},
		{"ErrImagePull", waitingPod("p", 0, 0, "ErrImagePull", `failed to pull and unpack image "docker.io/library/nginx:1.99": not found`),
			[]string{`container "app" is waiting: ErrImagePull: failed to pull and unpack image "docker.io/library/nginx:1.99": not found`}, true},
		{"InvalidImageName", waitingPod("p", 0, 0, "InvalidImageName", `Failed to apply default image tag "nginx::1": couldn't parse image name "nginx::1": invalid reference format`),
			[]string{`container "app" is waiting: InvalidImageName: Failed to apply default image tag "nginx::1": couldn't parse image name "nginx::1": invalid reference format`}, true},
		{"CrashLoopBackOff", withLast(running(waitingPod("p", 0, 0, "CrashLoopBackOff", "back-off 40s restarting failed container=app pod=p_default(uid)")), 3,
			model.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}),
			[]string{`container "app" is waiting: CrashLoopBackOff: back-off 40s restarting failed container=app pod=p_default(uid) (restarted 3 times, last exit: Error, exit code 1)`}, true},
		{"CrashLoopBackOff, OOMKilled once", withLast(running(waitingPod("p", 0, 0, "CrashLoopBackOff", "back-off 10s restarting failed container=app pod=p_default(uid)")), 1,
			model.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}),
			[]string{`container "app" is waiting: CrashLoopBackOff: back-off 10s restarting failed container=app pod=p_default(uid) (restarted once, last exit: OOMKilled, exit code 137)`}, true},
		{"CreateContainerConfigError", waitingPod("p", 0, 0, "CreateContainerConfigError", `configmap "web-config" not found`),
			[]string{`container "app" is waiting: CreateContainerConfigError: configmap "web-config" not found`}, true},
		{"ContainerCreating", waitingPod("p", 0, 0, "ContainerCreating", ""),
			[]string{`container "app" is waiting: ContainerCreating`}, false},
		{"PodScheduled=False", unschedulable,
			[]string{"PodScheduled=False (Unschedulable): 0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."}, false},
		{"failing readiness", notReady,
			[]string{`running but not ready: container "app" is not ready (Ready=False, ContainersNotReady: containers with unready status: [app])`}, false},
		{"readiness gate", readinessGate,
			[]string{`running but not ready: the pod is not ready (Ready=False, ReadinessGatesNotReady: corresponding condition of pod readiness gate "example.com/lb" does not exist.)`}, false},
		// The second init container and the app wait for the first.
		{"init container", initPod, []string{
			`init container "migrate" is waiting: ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/migrate:v9": not found`,
			`container "app" is waiting: PodInitializing`}, true},
		{"ready", readyPod("p", 0, time.Second), nil, false},
		{"nothing reported", &model.Pod{Status: model.PodStatus{Phase: model.PodPending}}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			blocking := false
			for _, c := range evidence.Diagnose(tc.pod) {
				got = append(got, c.String())
				blocking = blocking || c.Blocking()
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.blocking, blocking, "blocking")
		})
	}
}
