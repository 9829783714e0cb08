package restart

import (
	"io"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

func TestRestart(t *testing.T) {
	at := func() time.Time { return time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC) }
	run := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return run(args, stdin, stdout, stderr, at)
	}
	same := `{"kind":"List","items":[{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T10:00:00Z"}}}}}]}`
	clitest.Run(t, run, []clitest.Case{
		{Name: "restart", Args: []string{"-f", clitest.Data + "rollout.json", "--show-patch"},
			Stdout: "deployment.apps/api restarted\n" + `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-01T10:00:00Z"}}}}}` + "\n"},
		{Name: "given now, yaml", Args: []string{"-f", clitest.Data + "rollout.yaml", "--now=2025-01-02T03:04:05+01:00", "--show-patch"},
			Stdout: "deployment.apps/api restarted\n" + `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-01-02T03:04:05+01:00"}}}}}` + "\n"},
		{Name: "given now", Args: []string{"-f", clitest.Data + "rollout.json", "--now=2025-01-02T03:04:05+01:00", "--show-patch"},
			Stdout: "deployment.apps/api restarted\n" + `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-01-02T03:04:05+01:00"}}}}}` + "\n"},
		{Name: "paused", Args: []string{"-f", clitest.Data + "paused.json"}, Code: 1,
			Stderr: "error: deployments.apps \"checkout\" can't restart paused deployment (run rollout resume first)\n"},
		{Name: "same second", Stdin: same, Code: 1,
			Stderr: "error: failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another\n"},
		{Name: "bad now", Args: []string{"--now=1700000000"}, Code: 2, StderrContains: "--now \"1700000000\""},
	})
}
