package status

import (
	"os"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/simulate"
)

// The expected lines are kubectl v0.36.3's, recorded for the same states in
// the kubectl-views conformance file (cases s1-0006, s1-0029, s1-0131).
func TestStatus(t *testing.T) {
	clitest.Run(t, Run, []clitest.Case{
		{Name: "pending", Args: []string{"-f", clitest.Data + "rollout.json"},
			Stdout: "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n"},
		{Name: "pending, yaml", Args: []string{"deployment/api", "-f", clitest.Data + "rollout.yaml"},
			Stdout: "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n"},
		{Name: "revision mismatch, yaml", Args: []string{"api", "--revision=4", "-f", clitest.Data + "rollout.yaml"}, Code: 1,
			Stderr: "error: desired revision (4) is different from the running revision (3)\n"},
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
		{Name: "bad ready-after", Args: []string{"--predict", "--ready-after=-1s"}, Code: 2, StderrContains: "-ready-after -1s: out of range 0s to 8760h"},
		{Name: "bad fidelity", Args: []string{"--predict", "--fidelity=all"}, Code: 2, StderrContains: `-fidelity "all": want pods or counts`},
		{Name: "bad max-input", Args: []string{"--max-input=0"}, Code: 2, StderrContains: "-max-input 0: out of range 1 to 9223372036854775806\nUsage: kubectl-rolloutplan status"},
		{Name: "help", Args: []string{"-h"}, StdoutContains: "Usage: kubectl-rolloutplan status"},
		{Name: "neither list nor case", Stdin: "apiVersion: v1", Code: 1,
			Stderr: "error: the input is neither a List (no \"items\") nor a conformance Case (no \"deployment\")\n"},
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

// status --predict prints simulate's header and prediction line: on step 5 of the
// recorded upstream scenario rolling-update-nginx-3 (simulate's testdata),
// the recorded completion 4 syncs later, at 10:00:10, JSON and YAML alike.
func TestStatusPredict(t *testing.T) {
	const state = "../simulate/testdata/nginx-mid.json"
	var simOut, simErr strings.Builder
	if code := simulate.Run([]string{"-f", state, "-now", "2025-03-01T10:00:06Z"}, strings.NewReader(""), &simOut, &simErr); code != 0 {
		t.Fatalf("simulate: exit %d, %s", code, simErr.String())
	}
	const verdict = "prediction: the rollout completes in 4s (at 2025-03-01T10:00:10Z), after 4 syncs\n"
	if !strings.Contains(simOut.String(), verdict) {
		t.Fatalf("simulate printed\n%s", simOut.String())
	}
	list, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.JSONToYAML(list)
	if err != nil {
		t.Fatal(err)
	}
	kubectl := "Waiting for deployment \"nginx\" rollout to finish: 1 out of 3 new replicas have been updated...\n"
	header := func(fidelity string) string {
		return "Deployment default/nginx at 2025-03-01T10:00:06Z: 3 replicas, RollingUpdate maxSurge 25% maxUnavailable 25%; pods ready 0s after creation (" + fidelity + " fidelity)\n"
	}
	if !strings.HasPrefix(simOut.String(), header("pods")) {
		t.Fatalf("simulate's header differs:\n%s", simOut.String())
	}
	clitest.Run(t, Run, []clitest.Case{
		{Name: "json", Args: []string{"--predict", "--now=2025-03-01T10:00:06Z", "-f", state}, Stdout: kubectl + header("pods") + verdict},
		{Name: "yaml", Args: []string{"nginx", "--predict", "--now=2025-03-01T10:00:06Z"}, Stdin: string(y), Stdout: kubectl + header("pods") + verdict},
		{Name: "counts", Args: []string{"--predict", "--fidelity=counts", "--now=2025-03-01T10:00:06Z", "-f", state}, Stdout: kubectl + header("counts") + verdict},
		// A predicted stall is printed; the exit code stays kubectl's.
		{Name: "stall", Args: []string{"--predict", "--never-ready", "--now=2025-03-01T10:00:06Z", "-f", state},
			StdoutContains: "pods ready 0s after creation, those of the current template never (pods fidelity)\nprediction: the rollout stalls after 10m3s: Progressing=False/ProgressDeadlineExceeded"},
		{Name: "work bound", Args: []string{"--predict", "--max-work=1", "--now=2025-03-01T10:00:06Z", "-f", state}, Code: 1,
			Stdout: kubectl, StderrContains: "error: predict: "},
	})
}
