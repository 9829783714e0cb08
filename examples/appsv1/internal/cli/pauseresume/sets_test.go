package pauseresume

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// kubectl cannot pause or resume a StatefulSet or DaemonSet; it reads the
// object, then refuses it with these words (kubectl v0.36.3's
// cmd/rollout: `error: %s %q %v`, the resource with its group).
func TestPauseResumeSets(t *testing.T) {
	sts, ds := clitest.Data+"web-statefulset.yaml", clitest.Data+"cilium-daemonset.yaml"
	clitest.Run(t, NewPause, []clitest.Case{
		{Name: "statefulset", Args: []string{"sts/web", "-f", sts}, Code: 1, Stderr: "error: statefulsets.apps \"web\" pausing is not supported\n"},
		{Name: "daemonset", Args: []string{"daemonset/cilium", "-f", ds}, Code: 1, Stderr: "error: daemonsets.apps \"cilium\" pausing is not supported\n"},
		{Name: "the snapshot's kind", Args: []string{"-f", ds}, Code: 1, Stderr: "error: daemonsets.apps \"cilium\" pausing is not supported\n"},
		{Name: "not found first", Args: []string{"sts/db", "-f", sts}, Code: 1, Stderr: "error: no such statefulset: \"db\" (the input has prod/web)\n"},
	})
	clitest.Run(t, NewResume, []clitest.Case{
		{Name: "statefulset", Args: []string{"statefulset", "web", "-f", sts}, Code: 1, Stderr: "error: statefulsets.apps \"web\" resuming is not supported\n"},
		{Name: "daemonset", Args: []string{"ds/cilium", "-f", ds}, Code: 1, Stderr: "error: daemonsets.apps \"cilium\" resuming is not supported\n"},
	})
}
