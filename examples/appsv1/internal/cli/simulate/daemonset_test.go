package simulate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// daemonSet is public DaemonSet state ds-s1-0183 (cilium over 8 nodes in
// the middle of a rolling update, maxUnavailable 33%: 3 nodes updated, one
// pod not yet scheduled) as kubectl get prints it.
const daemonSet = clitest.Data + "cilium-daemonset.yaml"

// A DaemonSet's rollout is simulated node by node with sim.RunDaemonSet,
// hashing as upstream does (the snapshot's updated pods count as updated:
// 3 of 8, and only the 5 old ones are replaced): the timeline by node and
// revision, the prediction, the chart, and the exit codes of a
// Deployment's.
func TestSimulateDaemonSet(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "cilium.svg")
	code, stdout, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", "ds/cilium", "-f", daemonSet, "--ready-after=10s", "--grace=5s", "--svg", svg)
	require.Equal(t, exitOK, code, stderr)
	for _, want := range []string{
		"DaemonSet kube-system/cilium at 2025-10-02T17:51:33Z: 8 of 8 nodes should run a daemon pod, RollingUpdate maxUnavailable 33%; pods ready 10s after creation\n\n",
		"revisions: A cilium-89d9cdc77 (revision 1), B cilium-6987855859 (revision 2)\n",
		"    0     +0:00       3     3     8     3/8  --ABAABb  ",
		"   15     +0:31       8     0     8     0/8  BBBBBBBB  pods: cilium-5jfrd Running and Ready, cilium-lfnft Running and Ready\n",
		"0 invariant violations\n\nprediction: the rollout completes in 31s (at 2025-10-02T17:52:04Z), after 15 syncs\n",
	} {
		assert.Contains(t, stdout, want)
	}
	// The budget holds: never more than 3 of the 8 nodes without an
	// available pod.
	for _, line := range strings.Split(stdout, "\n") {
		assert.NotRegexp(t, `^ +\d+ +\+\d+:\d+ +\d+ +\d+ +\d+ +[4-8]/8 `, line)
	}
	assert.Equal(t, "Time: 2025-10-02T17:51:33Z (the latest timestamp in the snapshot; --now sets another)\nchart written to "+svg+"\n", stderr)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(b), "<svg"))
	assert.Contains(t, string(b), "nodes without an available pod")

	// The new template never becomes ready: the three nodes already on it
	// use up maxUnavailable and the update stops, exit 3.
	code, stdout, _ = clitest.Exec(t, NewCommand, clitest.Options{}, "", "ds/cilium", "-f", daemonSet, "--ready-after=10s", "--never-ready")
	assert.Equal(t, exitStalled, code)
	assert.Contains(t, stdout, "prediction: the rollout stalls after 11s: 5 nodes keep their available old pod this sync")
	assert.Contains(t, stdout, "pods not Ready: cilium-lvg9n (node ip-10-0-44-62.ec2.internal), cilium-jlzn9 (node ip-10-0-65-101.ec2.internal), cilium-gnbpn (node ip-10-0-72-114.ec2.internal)\n")

	// -o json: the prediction and the DaemonSet's trace.
	code, stdout, _ = clitest.Exec(t, NewCommand, clitest.Options{}, "", "daemonset/cilium", "-f", daemonSet, "-o", "json")
	var res struct {
		DaemonSet  string `json:"daemonSet"`
		Prediction struct {
			Completed bool `json:"completed"`
			Syncs     int  `json:"syncs"`
		} `json:"prediction"`
		Trace struct {
			Steps []struct {
				Nodes   string `json:"nodes"`
				Desired int    `json:"desired"`
			} `json:"steps"`
		} `json:"trace"`
	}
	require.Equal(t, exitOK, code)
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	assert.Equal(t, "kube-system/cilium", res.DaemonSet)
	assert.True(t, res.Prediction.Completed)
	require.NotEmpty(t, res.Trace.Steps)
	assert.Equal(t, 8, res.Trace.Steps[0].Desired)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ds/cilium", "--fidelity=counts"}, "--fidelity applies to Deployments: a DaemonSet is simulated pod by pod, node by node"},
	} {
		code, _, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", append(tc.args, "-f", daemonSet)...)
		assert.Equal(t, exitUsage, code, tc.args)
		assert.Contains(t, stderr, tc.want, tc.args)
	}

	// --max-work bounds a DaemonSet's simulation as a Deployment's
	// (issue 24: it was refused, and the run unbounded).
	code, _, stderr = clitest.Exec(t, NewCommand, clitest.Options{}, "", "ds/cilium", "--max-work=10", "-f", daemonSet)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "sim: work bound exceeded")
	assert.Contains(t, stderr, "(--max-work 10: the rollout models too many pods over too many syncs: raise --max-work)")
}
