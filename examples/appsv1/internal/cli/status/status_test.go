package status

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
)

// The expected lines are kubectl v0.36.3's, recorded for the same states in
// the kubectl-views conformance file (cases s1-0006, s1-0029, s1-0131).
func TestStatus(t *testing.T) {
	clitest.Run(t, Run, []clitest.Case{
		{Name: "pending", Args: []string{"-f", clitest.Data + "rollout.json"},
			Stdout: "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n"},
		{Name: "available", Args: []string{"deployment/checkout", "-f", clitest.Data + "paused.json"},
			Stdout: "Waiting for deployment \"checkout\" rollout to finish: 0 of 5 updated replicas are available...\n"},
		{Name: "revision mismatch", Args: []string{"api", "--revision=4", "-f", clitest.Data + "rollout.json"}, Code: 1,
			Stderr: "error: desired revision (4) is different from the running revision (3)\n"},
		{Name: "deadline", Args: []string{"-f", clitest.Data + "deadline.json"}, Code: 1,
			Stderr: "error: deployment \"payments\" exceeded its progress deadline\n"},
		{Name: "negative revision", Args: []string{"--revision=-1"}, Code: 1,
			Stderr: "error: revision must be a positive integer: -1\n"},
		{Name: "bad now", Args: []string{"--now=soon"}, Code: 2, StderrContains: "--now \"soon\""},
		{Name: "bad flag", Args: []string{"--watch"}, Code: 2, StderrContains: "flag provided but not defined: -watch"},
		{Name: "help", Args: []string{"-h"}, StdoutContains: "Usage: kubectl-rolloutplan status"},
		{Name: "not json", Stdin: "apiVersion: v1", Code: 1, StderrContains: "not a JSON object"},
		{Name: "unknown deployment", Args: []string{"web", "-f", clitest.Data + "rollout.json"}, Code: 1,
			StderrContains: `no such deployment: "web"`},
	})
}

func TestStatusExplain(t *testing.T) {
	var out, errOut strings.Builder
	at := func() time.Time { return time.Date(2025, 6, 19, 4, 19, 56, 0, time.UTC) }
	code := run([]string{"--explain", "-f", clitest.Data + "deadline.json"}, strings.NewReader(""), &out, &errOut, at)
	if code != 1 || errOut.String() != "error: deployment \"payments\" exceeded its progress deadline\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	// The state's own clock: the controller scales the new ReplicaSet up by
	// the surge budget, replicas 81 + maxSurge 1 − total 21 = 61.
	for _, want := range []string{
		"Why: the Deployment controller's next sync (at 2025-06-19T04:19:56Z) writes:",
		"UpdateReplicaSet prod/payments-5687bd7fbb",
		"replicas 81 + maxSurge 1 − total 21",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("explanation lacks %q:\n%s", want, out.String())
		}
	}
}
