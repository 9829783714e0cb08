package pause

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// Seed 004: `kubectl rollout pause deployment.v1.apps/nginx-deployment`
// prints "deployment.apps/nginx-deployment paused".
func TestPause(t *testing.T) {
	clitest.Run(t, Run, []clitest.Case{
		{Name: "pause", Args: []string{"-f", clitest.Data + "rollout.json", "--show-patch"},
			Stdout: "deployment.apps/api paused\n{\"spec\":{\"paused\":true}}\n"},
		{Name: "pause, yaml", Args: []string{"deployment/api", "-f", clitest.Data + "rollout.yaml", "--show-patch"},
			Stdout: "deployment.apps/api paused\n{\"spec\":{\"paused\":true}}\n"},
		{Name: "already", Args: []string{"-f", clitest.Data + "paused.json"}, Code: 1,
			Stderr: "error: deployments.apps \"checkout\" is already paused\n"},
		{Name: "help", Args: []string{"--help"}, StdoutContains: "Usage: kubectl-rolloutplan pause"},
	})
}
