package status

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/simulate"
)

// stuck is issue 23's case: deployment shop/web's new pod has sat in
// ContainerCreating since 10:00:00 (Ready=False since 10:00:01); its three
// old pods became ready 9s, 12s and 31s after their creation.
const stuck = "testdata/stuck.yaml"

// twentyMinutes is when the issue looked: 20 minutes after the change.
var twentyMinutes = time.Date(2026, 3, 1, 10, 20, 0, 0, time.UTC)

const (
	kubectlLine = "Waiting for deployment \"web\" rollout to finish: 1 out of 3 new replicas have been updated...\n"
	// Median of 9s, 12s, 31s is 12s; stalled past 31s + max(31s, 1m) =
	// 1m31s; the pod has not been ready for 10:20:00 − 10:00:01 = 19m59s;
	// the deadline is the last progress (10:00:00) + 600s.
	stuckAssumptions = "assuming pods become ready 12s after creation, the median of 3 pods seen; " +
		"the rollout is stalled: web-7d9f5c6b8d-abcde has not been ready for 19m59s, past the longest seen (31s) with a margin of 1m0s; " +
		"the progress deadline (600s) passed at 2026-03-01T10:10:00Z: the controller marks the rollout ProgressDeadlineExceeded at its next sync\n"
	stuckPrediction = kubectlLine +
		"Deployment shop/web at 2026-03-01T10:20:00Z: 3 replicas, RollingUpdate maxSurge 25% maxUnavailable 25%; pods ready 12s after creation, those of the current template never (pods fidelity)\n" +
		stuckAssumptions +
		"prediction: the rollout stalls after 1s: Progressing=False/ProgressDeadlineExceeded; total 4 ≥ replicas 3 + maxSurge 1 = 4: the new ReplicaSet web-7d9f5c6b8d stays at 1; " +
		"total 4 − minAvailable 3 − unavailable new pods 1 ≤ 0: old ReplicaSets wait for new pods to become available; no progress for more than 600 seconds\n"
)

// status --predict on the issue's rollout no longer says "the rollout
// completes in 5s" (what it said, and says with --ready-after 0s, assuming
// the pod becomes ready at once): it names the stalled pod and the
// deadline, from the snapshot at --now and from the live cluster at the
// wall clock alike.
func TestPredictStuckRollout(t *testing.T) {
	const given = "Time: 2026-03-01T10:20:00Z (--now)\n"
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "snapshot", Args: []string{"web", "-n", "shop", "-f", stuck, "--now=2026-03-01T10:20:00Z", "--predict"}, Stdout: stuckPrediction, Stderr: given},
		{Name: "ready-after overrides", Args: []string{"web", "-n", "shop", "-f", stuck, "--now=2026-03-01T10:20:00Z", "--predict", "--ready-after=0s"}, Stderr: given,
			Stdout: kubectlLine +
				"Deployment shop/web at 2026-03-01T10:20:00Z: 3 replicas, RollingUpdate maxSurge 25% maxUnavailable 25%; pods ready 0s after creation (pods fidelity)\n" +
				"prediction: the rollout completes in 5s (at 2026-03-01T10:20:05Z), after 5 syncs\n"},
		// Ten seconds after the change the pod is within what was seen:
		// no stall, the deadline is not said, and each new pod becomes
		// ready 12s after its creation: the first at 10:00:12, the
		// second (created at 10:00:13, once an old pod went) at
		// 10:00:25, the third (10:00:26) at 10:00:38; the last old pod
		// goes at 10:00:38 and the sync after, at 10:00:39, completes.
		{Name: "not yet stalled", Args: []string{"web", "-n", "shop", "-f", stuck, "--now=2026-03-01T10:00:10Z", "--predict"},
			Stderr: "Time: 2026-03-01T10:00:10Z (--now)\n",
			Stdout: kubectlLine +
				"Deployment shop/web at 2026-03-01T10:00:10Z: 3 replicas, RollingUpdate maxSurge 25% maxUnavailable 25%; pods ready 12s after creation (pods fidelity)\n" +
				"assuming pods become ready 12s after creation, the median of 3 pods seen\n" +
				"prediction: the rollout completes in 29s (at 2026-03-01T10:00:39Z), after 11 syncs\n"},
	})

	client := liveCluster(t, stuck)
	clitest.RunWith(t, NewCommand, clitest.Options{Client: client, Clock: twentyMinutes}, []clitest.Case{
		{Name: "live", Args: []string{"web", "-n", "shop", "--watch=false", "--predict"}, Stdout: stuckPrediction, Stderr: "Time: 2026-03-01T10:20:00Z (now)\n"},
	})
}

// simulate prints the same assumptions under its header and, the rollout
// being stalled, exits with the stall's code.
func TestSimulateStuckRollout(t *testing.T) {
	code, out, errOut := clitest.Exec(t, simulate.NewCommand, clitest.Options{}, "", "web", "-n", "shop", "-f", stuck, "--now=2026-03-01T10:20:00Z")
	assert.Equal(t, rolloutio.ExitStall, code, errOut)
	lines := strings.SplitAfter(out, "\n")
	require.Greater(t, len(lines), 2)
	assert.Equal(t, stuckAssumptions, lines[1])
	assert.NotContains(t, out, "completes")
}

// --explain names the pod-level cause of the wait after the controller's
// arithmetic, for each waiting reason the kubelet reports (messages as
// `kubectl get pod -o yaml` shows them), for PodScheduled=False with the
// scheduler's message, and for failing readiness.
func TestExplainPodCauses(t *testing.T) {
	raw, err := os.ReadFile(stuck)
	require.NoError(t, err)
	const creating = "      state:\n        waiting: {reason: ContainerCreating}\n"
	require.Contains(t, string(raw), creating)
	waiting := func(reason, message string) string {
		return strings.Replace(string(raw), creating, "      state:\n        waiting: {reason: "+reason+", message: '"+message+"'}\n", 1)
	}
	crashLoop := strings.Replace(waiting("CrashLoopBackOff", "back-off 2m40s restarting failed container=web pod=web-7d9f5c6b8d-abcde_shop(1b2c3d4e)"),
		"      restartCount: 0\n      started: false\n      state:\n        waiting: {reason: CrashLoopBackOff",
		"      restartCount: 5\n      lastState:\n        terminated: {exitCode: 1, reason: Error, startedAt: \"2026-03-01T10:04:00Z\", finishedAt: \"2026-03-01T10:04:01Z\"}\n      started: false\n      state:\n        waiting: {reason: CrashLoopBackOff", 1)
	unschedulable := strings.Replace(strings.Replace(string(raw),
		`    - {lastTransitionTime: "2026-03-01T10:00:00Z", status: "True", type: PodScheduled}`,
		`    - {lastTransitionTime: "2026-03-01T10:00:00Z", status: "False", type: PodScheduled, reason: Unschedulable, message: "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."}`, 1),
		creating, "      state: {}\n", 1)
	notReady := strings.Replace(strings.Replace(string(raw), creating, "      state:\n        running: {startedAt: \"2026-03-01T10:00:05Z\"}\n", 1),
		"    phase: Pending\n", "    phase: Running\n", 1)
	const pod = "Pods not ready:\n  - web-7d9f5c6b8d-abcde (ReplicaSet web-7d9f5c6b8d, new), not ready for 29s\n"
	for _, tc := range []struct {
		name, state string
		want        string
	}{
		{"ImagePullBackOff", waiting("ImagePullBackOff", `Back-off pulling image "nginx:1.27"`),
			pod + `    container "web" is waiting: ImagePullBackOff: Back-off pulling image "nginx:1.27"` + "\n"},
		{"ErrImagePull", waiting("ErrImagePull", `failed to pull and unpack image "docker.io/library/nginx:1.27": not found`),
			pod + `    container "web" is waiting: ErrImagePull: failed to pull and unpack image "docker.io/library/nginx:1.27": not found` + "\n"},
		{"CrashLoopBackOff", crashLoop,
			pod + `    container "web" is waiting: CrashLoopBackOff: back-off 2m40s restarting failed container=web pod=web-7d9f5c6b8d-abcde_shop(1b2c3d4e) (restarted 5 times, last exit: Error, exit code 1)` + "\n"},
		{"CreateContainerConfigError", waiting("CreateContainerConfigError", `configmap "web-config" not found`),
			pod + `    container "web" is waiting: CreateContainerConfigError: configmap "web-config" not found` + "\n"},
		{"ContainerCreating", string(raw), pod + `    container "web" is waiting: ContainerCreating` + "\n"},
		{"PodScheduled=False", unschedulable,
			pod + "    PodScheduled=False (Unschedulable): 0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n"},
		{"failing readiness", notReady,
			pod + `    running but not ready: container "web" is not ready (Ready=False, ContainersNotReady: containers with unready status: [web])` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, tc.state, "web", "-n", "shop", "-f", "-", "--now=2026-03-01T10:00:30Z", "--explain")
			require.Equal(t, 0, code, errOut)
			// After the controller's budget arithmetic, before its requeue.
			want := "  - AvailabilityBudgetSpent: total 4 − minAvailable 3 − unavailable new pods 1 ≤ 0: old ReplicaSets wait for new pods to become available [total=4 minAvailable=3 newUnavailable=1]\n" +
				"  - StatusUnchanged: the stored status is current\n" +
				tc.want +
				"The controller checks the progress deadline again in 9m31s.\n"
			assert.True(t, strings.HasSuffix(out, want), "got\n%s\nwant the end\n%s", out, want)
		})
	}
}

// Twenty minutes in, --explain says the pod is stalled past what the old
// pods showed.
func TestExplainStalledPod(t *testing.T) {
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, "", "web", "-n", "shop", "-f", stuck, "--now=2026-03-01T10:20:00Z", "--explain")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Pods not ready:\n  - web-7d9f5c6b8d-abcde (ReplicaSet web-7d9f5c6b8d, new), not ready for 19m59s\n"+
		"    container \"web\" is waiting: ContainerCreating\n"+
		"    stalled: past the longest seen (31s) with a margin of 1m0s\n")
}

// liveCluster is a fake clientset holding the objects of a snapshot file.
func liveCluster(t *testing.T, file string) *fake.Clientset {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	objs, err := input.ReadObjects(f, input.Options{})
	require.NoError(t, err)
	var all []runtime.Object
	for _, d := range objs.Deployments {
		all = append(all, d)
	}
	for _, rs := range objs.ReplicaSets {
		all = append(all, rs)
	}
	for _, p := range objs.Pods {
		all = append(all, p)
	}
	for _, s := range objs.StatefulSets {
		all = append(all, s)
	}
	for _, r := range objs.ControllerRevisions {
		all = append(all, r)
	}
	return fake.NewClientset(all...)
}

// A StatefulSet's pods are evidence too: in the web StatefulSet's snapshot
// (clitest.Data's web-statefulset.yaml) web-5 is made to wait on
// ImagePullBackOff since 07:11:40, the latest time of the snapshot. The
// five other pods became ready 44s, 1m5s, 1m28s, 1m42s and 1m51s after
// their creation: the median is 1m28s. OrderedReady waits for web-5, which
// will not become ready: the rollout stalls, and a StatefulSet has no
// deadline to say.
func TestStatefulSetEvidence(t *testing.T) {
	raw, err := os.ReadFile(clitest.Data + "web-statefulset.yaml")
	require.NoError(t, err)
	const ready = `    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2025-02-07T07:11:58Z"
      status: "True"
      type: Ready
    phase: Running
`
	require.Contains(t, string(raw), ready)
	state := strings.Replace(string(raw), ready, `    conditions:
    - lastProbeTime: null
      lastTransitionTime: "2025-02-07T07:11:40Z"
      status: "False"
      type: Ready
      reason: ContainersNotReady
      message: "containers with unready status: [web]"
    containerStatuses:
    - name: web
      ready: false
      restartCount: 0
      image: registry.example.com/web:1.1.1
      imageID: ""
      state:
        waiting: {reason: ImagePullBackOff, message: 'Back-off pulling image "registry.example.com/web:1.1.1"'}
    phase: Pending
`, 1)
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, state, "web", "-n", "prod", "-f", "-", "--predict", "--explain")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{
		"Pods not ready:\n  - web-5 (revision web-8948ffb8), not ready for 0s\n" +
			"    container \"web\" is waiting: ImagePullBackOff: Back-off pulling image \"registry.example.com/web:1.1.1\"\n",
		"; pods ready 1m28s after creation, those of revision web-8948ffb8 never\n" +
			"assuming pods become ready 1m28s after creation, the median of 5 pods seen; " +
			"the rollout is stalled: web-5 will not become ready while container \"web\" is waiting: ImagePullBackOff: Back-off pulling image \"registry.example.com/web:1.1.1\"; " +
			"a StatefulSet has no progress deadline: it waits until the pod changes\n" +
			"prediction: the rollout stalls after ",
	} {
		assert.Contains(t, out, want)
	}
	// Told that pods become ready at once, the prediction is the old one.
	code, out, errOut = clitest.Exec(t, NewCommand, clitest.Options{}, state, "web", "-n", "prod", "-f", "-", "--predict", "--ready-after=0s")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "assuming")
	assert.Contains(t, out, "prediction: the rollout completes in ")
}

// A DaemonSet's pods not ready are named with their node: in the cilium
// DaemonSet's snapshot (clitest.Data's cilium-daemonset.yaml) the last pod,
// cilium-jlzn9 on ip-10-0-65-101, is made to crash-loop; the snapshot's
// other two pods not ready report no status.
func TestDaemonSetExplainPods(t *testing.T) {
	raw, err := os.ReadFile(clitest.Data + "cilium-daemonset.yaml")
	require.NoError(t, err)
	const pending = "  status:\n    phase: Pending\n    qosClass: Burstable\n- apiVersion: v1\n  kind: Node\n"
	require.Equal(t, 1, strings.Count(string(raw), pending))
	state := strings.Replace(string(raw), pending, `  status:
    phase: Running
    qosClass: Burstable
    containerStatuses:
    - name: cilium-agent
      ready: false
      restartCount: 3
      lastState:
        terminated: {exitCode: 137, reason: OOMKilled}
      state:
        waiting: {reason: CrashLoopBackOff, message: "back-off 40s restarting failed container=cilium-agent pod=cilium-jlzn9_kube-system(7c1e)"}
- apiVersion: v1
  kind: Node
`, 1)
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, state, "ds/cilium", "-n", "kube-system", "-f", "-", "--explain")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Pods not ready:\n"+
		"  - cilium-jlzn9 (node ip-10-0-65-101.ec2.internal), not ready for 1m44s\n"+
		"    container \"cilium-agent\" is waiting: CrashLoopBackOff: back-off 40s restarting failed container=cilium-agent pod=cilium-jlzn9_kube-system(7c1e) (restarted 3 times, last exit: OOMKilled, exit code 137)\n"+
		"  - cilium-gnbpn, not ready for 26s\n    its status gives no reason\n")
}

// A stalled pod of an old ReplicaSet does not stall the rollout: the
// controller scales the old ReplicaSet down. Here web-5d8f7b9c4-ccccc
// crash-loops (so it is no evidence: it restarted); the two others became
// ready 9s and 12s after creation, a median of 10.5s.
func TestPredictOldPodStalled(t *testing.T) {
	raw, err := os.ReadFile(stuck)
	require.NoError(t, err)
	s := string(raw)
	i := strings.Index(s, "name: web-5d8f7b9c4-ccccc")
	j := i + strings.Index(s[i:], "- apiVersion: v1")
	block := strings.NewReplacer(
		`{lastTransitionTime: "2026-03-01T09:00:31Z", status: "True", type: ContainersReady}`, `{lastTransitionTime: "2026-03-01T09:40:00Z", status: "False", type: ContainersReady}`,
		`{lastTransitionTime: "2026-03-01T09:00:31Z", status: "True", type: Ready}`, `{lastTransitionTime: "2026-03-01T09:40:00Z", status: "False", type: Ready}`,
		"      ready: true\n      restartCount: 0\n      started: true\n      state:\n        running: {startedAt: \"2026-03-01T09:00:31Z\"}\n",
		"      ready: false\n      restartCount: 6\n      started: false\n      state:\n        waiting: {reason: CrashLoopBackOff, message: \"back-off 5m0s restarting failed container=web\"}\n",
	).Replace(s[i:j])
	require.NotEqual(t, s[i:j], block)
	state := s[:i] + block + s[j:]
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, state, "web", "-n", "shop", "-f", "-", "--now=2026-03-01T10:00:10Z", "--predict")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "; pods ready 10.5s after creation, those of ReplicaSet web-5d8f7b9c4 never (pods fidelity)\n"+
		"assuming pods become ready 10.5s after creation, the median of 2 pods seen; "+
		"web-5d8f7b9c4-ccccc will not become ready while container \"web\" is waiting: CrashLoopBackOff: back-off 5m0s restarting failed container=web (restarted 6 times): "+
		"taken never to become ready, the rollout goes on without it\n"+
		"prediction: the rollout completes in ")
}
