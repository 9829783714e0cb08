package appsv1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	core "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
)

// A pod's status as `kubectl get pod -o yaml` prints it for a pod whose
// init container crash-loops and whose container cannot pull its image:
// the model keeps the conditions' reasons and messages and, of each
// container status, the readiness and the waiting and terminated details
// (not the running state, the times or the image IDs), and gives them back.
const podStatusYAML = `
apiVersion: v1
kind: Pod
metadata: {name: web-7d9f-abcde, namespace: default, creationTimestamp: "2026-03-01T10:00:00Z"}
spec:
  containers: [{name: web, image: "nginx:1.99"}]
status:
  phase: Pending
  conditions:
  - {type: PodScheduled, status: "True", lastTransitionTime: "2026-03-01T10:00:00Z"}
  - {type: Ready, status: "False", lastTransitionTime: "2026-03-01T10:00:01Z", reason: ContainersNotReady, message: "containers with unready status: [web]"}
  initContainerStatuses:
  - name: migrate
    ready: false
    restartCount: 4
    image: migrate:v2
    imageID: ""
    state: {waiting: {reason: CrashLoopBackOff, message: "back-off 1m20s restarting failed container=migrate"}}
    lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-03-01T10:03:00Z", finishedAt: "2026-03-01T10:03:01Z", containerID: "containerd://1"}}
  containerStatuses:
  - name: web
    ready: false
    restartCount: 0
    image: nginx:1.99
    imageID: ""
    state: {waiting: {reason: PodInitializing}}
    lastState: {}
`

func TestPodStatusForExplanations(t *testing.T) {
	var p core.Pod
	require.NoError(t, yaml.Unmarshal([]byte(podStatusYAML), &p))
	m, err := appsv1.PodToModel(&p)
	require.NoError(t, err)
	want := model.PodStatus{
		Phase: model.PodPending,
		Conditions: []model.PodCondition{
			{Type: model.PodScheduled, Status: model.ConditionTrue, LastTransitionTime: p.Status.Conditions[0].LastTransitionTime.Time.UTC()},
			{Type: model.PodReady, Status: model.ConditionFalse, LastTransitionTime: p.Status.Conditions[1].LastTransitionTime.Time.UTC(),
				Reason: "ContainersNotReady", Message: "containers with unready status: [web]"}},
		InitContainerStatuses: []model.ContainerStatus{{Name: "migrate", RestartCount: 4,
			State:                model.ContainerState{Waiting: model.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 1m20s restarting failed container=migrate"}},
			LastTerminationState: model.ContainerState{Terminated: model.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}}}},
		ContainerStatuses: []model.ContainerStatus{{Name: "web", State: model.ContainerState{Waiting: model.ContainerStateWaiting{Reason: "PodInitializing"}}}},
	}
	require.Empty(t, cmp.Diff(want, m.Status))

	back, err := appsv1.PodFromModel(m)
	require.NoError(t, err)
	require.Equal(t, "back-off 1m20s restarting failed container=migrate", back.Status.InitContainerStatuses[0].State.Waiting.Message)
	require.Equal(t, int32(1), back.Status.InitContainerStatuses[0].LastTerminationState.Terminated.ExitCode)
	require.Nil(t, back.Status.ContainerStatuses[0].LastTerminationState.Terminated)
	require.Equal(t, "ContainersNotReady", back.Status.Conditions[1].Reason)
	again, err := appsv1.PodToModel(back)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(m, again))
}
