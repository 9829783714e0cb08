package pauseresume

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// Seed 004: `kubectl rollout pause deployment.v1.apps/nginx-deployment`
// prints "deployment.apps/nginx-deployment paused".
func TestPause(t *testing.T) {
	clitest.Run(t, NewPause, []clitest.Case{
		{Name: "pause", Args: []string{"-f", clitest.Data + "rollout.json", "--show-patch"},
			Stdout: "deployment.apps/api paused\n{\"spec\":{\"paused\":true}}\n"},
		{Name: "pause, yaml", Args: []string{"deployment/api", "-f", clitest.Data + "rollout.yaml", "--show-patch"},
			Stdout: "deployment.apps/api paused\n{\"spec\":{\"paused\":true}}\n"},
		{Name: "already", Args: []string{"-f", clitest.Data + "paused.json"}, Code: 1,
			Stderr: "error: deployments.apps \"checkout\" is already paused\n"},
		{Name: "help", Args: []string{"--help"}, StdoutContains: "kubectl rolloutplan pause (NAME | deployment/NAME) [flags]"},
	})
}

// Seed 004: `kubectl rollout resume deployment.v1.apps/nginx-deployment`
// prints "deployment.apps/nginx-deployment resumed".
func TestResume(t *testing.T) {
	clitest.Run(t, NewResume, []clitest.Case{
		{Name: "resume", Args: []string{"-f", clitest.Data + "paused.json", "--show-patch"},
			Stdout: "deployment.apps/checkout resumed\n{\"spec\":{\"paused\":null}}\n"},
		{Name: "not paused, yaml", Args: []string{"api", "-f", clitest.Data + "rollout.yaml"}, Code: 1,
			Stderr: "error: deployments.apps \"api\" is not paused\n"},
		{Name: "not paused", Args: []string{"-f", clitest.Data + "rollout.json"}, Code: 1,
			Stderr: "error: deployments.apps \"api\" is not paused\n"},
		{Name: "help", Args: []string{"-h"}, StdoutContains: "kubectl rolloutplan resume (NAME | deployment/NAME) [flags]"},
	})
}
