package restart

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// On a snapshot the time is the latest timestamp it holds (in rollout.json
// the Deployment's conditions, 2025-05-29T03:18:24Z) unless --now,
// and it is printed; --now keeps its zone, as kubectl formats its local
// clock.
func TestRestart(t *testing.T) {
	same := `{"kind":"List","items":[{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T10:00:00Z"}}}}}]}`
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "restart", Args: []string{"-f", clitest.Data + "rollout.json", "--show-patch"},
			Stdout: "deployment.apps/api restarted\n" + `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-05-29T03:18:24Z"}}}}}` + "\n",
			Stderr: "Time: 2025-05-29T03:18:24Z (the latest timestamp in the snapshot; --now sets another)\n"},
		{Name: "given now, yaml", Args: []string{"-f", clitest.Data + "rollout.yaml", "--now=2025-01-02T03:04:05+01:00", "--show-patch"},
			Stdout: "deployment.apps/api restarted\n" + `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-01-02T03:04:05+01:00"}}}}}` + "\n",
			Stderr: "Time: 2025-01-02T03:04:05+01:00 (--now)\n"},
		{Name: "dry run", Args: []string{"-f", clitest.Data + "rollout.json", "--dry-run=server"},
			Stdout: "deployment.apps/api restarted (server dry run)\n", StderrContains: "Time: "},
		{Name: "paused", Args: []string{"-f", clitest.Data + "paused.json"}, Code: 1,
			StderrContains: "error: deployments.apps \"checkout\" can't restart paused deployment (run rollout resume first)\n"},
		// A manifest holds no time: the wall clock, said so.
		{Name: "same second", Args: []string{"-f", "-"}, Stdin: same, Code: 1,
			Stderr: "Time: 2026-03-01T10:00:00Z (now: the snapshot holds no timestamp; --now sets another)\n" +
				"error: failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another\n"},
		{Name: "bad now", Args: []string{"--now=1700000000"}, Code: 2, StderrContains: "--now \"1700000000\""},
		{Name: "bad dry run", Args: []string{"--dry-run=maybe"}, Code: 1,
			Stderr: "error: Invalid dry-run value (maybe). Must be \"none\", \"server\", or \"client\".\n"},
	})
}
