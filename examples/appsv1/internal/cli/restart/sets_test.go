package restart

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// kubectl rollout restart for StatefulSets and DaemonSets: the same patch
// as for a Deployment, never refused.
func TestRestartSets(t *testing.T) {
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "statefulset", Args: []string{"sts/web", "--show-patch", "-f", clitest.Data + "web-statefulset.yaml"},
			Stdout: "statefulset.apps/web restarted\n" + `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-02-07T07:11:58Z"}}}}}` + "\n",
			Stderr: "Time: 2025-02-07T07:11:58Z (the latest timestamp in the snapshot; --now sets another)\n"},
		{Name: "daemonset", Args: []string{"ds/cilium", "--now=2025-10-03T00:00:00+02:00", "--dry-run=client", "-f", clitest.Data + "cilium-daemonset.yaml"},
			Stdout: "daemonset.apps/cilium restarted (dry run)\n", Stderr: "Time: 2025-10-03T00:00:00+02:00 (--now)\n"},
	})
}
