package status

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/simulate"
)

// The expected lines are kubectl v0.36.3's, recorded for the same states in
// the kubectl-views conformance file (cases s1-0006, s1-0029, s1-0131).
func TestStatus(t *testing.T) {
	clitest.Run(t, NewCommand, []clitest.Case{
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
		// One line, ending with where to look, for every usage error.
		{Name: "bad flag", Args: []string{"--no-such-flag"}, Code: 2, Stderr: "error: unknown flag: --no-such-flag. See 'kubectl rolloutplan status --help'.\n"},
		{Name: "bad ready-after", Args: []string{"--predict", "--ready-after=-1s"}, Code: 2,
			Stderr: "error: --ready-after -1s: out of range 0s to 8760h. See 'kubectl rolloutplan status --help'.\n"},
		{Name: "bad fidelity", Args: []string{"--predict", "--fidelity=all"}, Code: 2, StderrContains: `--fidelity "all": want pods or counts`},
		{Name: "world flag without --predict", Args: []string{"--ready-after=1s", "-f", clitest.Data + "rollout.json"}, Code: 2,
			StderrContains: "--ready-after sets what --predict assumes: add --predict"},
		{Name: "max-work without --explain or --predict", Args: []string{"--max-work=100", "-f", clitest.Data + "rollout.json"}, Code: 2,
			StderrContains: "--max-work bounds --explain's sync and --predict's simulation: add one"},
		{Name: "bad max-work with --explain", Args: []string{"--explain", "--max-work=0", "-f", clitest.Data + "rollout.json"}, Code: 2,
			StderrContains: "--max-work 0: out of range 1 to 9223372036854775807"},
		{Name: "bad max-input", Args: []string{"--max-input=0"}, Code: 2,
			Stderr: "error: --max-input 0: out of range 1 to 9223372036854775806. See 'kubectl rolloutplan status --help'.\n"},
		{Name: "bad output", Args: []string{"-o", "wide"}, Code: 2, StderrContains: `--output "wide": want json or yaml`},
		{Name: "help", Args: []string{"-h"}, StdoutContains: "kubectl rolloutplan status (NAME | KIND/NAME) [flags]"},
		{Name: "not an object", Args: []string{"-f", "-"}, Stdin: "apiVersion: v1", Code: 1,
			Stderr: "error: the input is not a Kubernetes object or List: it has no \"kind\"\n"},
		// A snapshot is one look: --watch=false, typed out of habit, is
		// accepted; --watch and --timeout are refused rather than ignored.
		{Name: "watch=false on a snapshot", Args: []string{"--watch=false", "-f", clitest.Data + "rollout.json"},
			Stdout: "Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n"},
		{Name: "watch on a snapshot", Args: []string{"--watch", "-f", clitest.Data + "rollout.json"}, Code: 2,
			StderrContains: "--watch: a snapshot (-f) cannot be watched"},
		{Name: "timeout on a snapshot", Args: []string{"--timeout=1m", "-f", clitest.Data + "rollout.json"}, Code: 2,
			StderrContains: "--timeout applies to watching the live cluster"},
		// The Kubernetes documentation's manifest, as kubectl sees it right
		// after kubectl apply: created at generation 1, not yet observed.
		{Name: "nginx-deployment.yaml", Args: []string{"-f", clitest.Data + "nginx-deployment.yaml"},
			Stdout: "Waiting for deployment spec update to be observed...\n"},
		{Name: "unknown deployment", Args: []string{"web", "-f", clitest.Data + "rollout.json"}, Code: 1,
			StderrContains: `no such deployment: "web"`},
	})
}

func TestStatusExplain(t *testing.T) {
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, "", "--explain", "-f", clitest.Data+"deadline.json")
	// The time is the latest the snapshot holds, and is said.
	if code != 1 || errOut != "Time: 2025-06-19T04:20:26Z (the latest timestamp in the snapshot; --now sets another)\n"+
		"error: deployment \"payments\" exceeded its progress deadline\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	// The controller scales the new ReplicaSet up by the surge budget,
	// replicas 81 + maxSurge 1 − total 21 = 61.
	for _, want := range []string{
		"Why: the Deployment controller's next sync (at 2025-06-19T04:20:26Z) writes:",
		"UpdateReplicaSet prod/payments-5687bd7fbb",
		"replicas 81 + maxSurge 1 − total 21",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explanation lacks %q:\n%s", want, out)
		}
	}
}

// status --predict prints simulate's header and prediction line: on step 5 of the
// recorded upstream scenario rolling-update-nginx-3 (simulate's testdata),
// the recorded completion 4 syncs later, at 10:00:10, JSON and YAML alike.
func TestStatusPredict(t *testing.T) {
	const state = "../simulate/testdata/nginx-mid.json"
	code, simOut, simErr := clitest.Exec(t, simulate.NewCommand, clitest.Options{}, "", "-f", state, "--now", "2025-03-01T10:00:06Z")
	if code != 0 {
		t.Fatalf("simulate: exit %d, %s", code, simErr)
	}
	const verdict = "prediction: the rollout completes in 4s (at 2025-03-01T10:00:10Z), after 4 syncs\n"
	if !strings.Contains(simOut, verdict) {
		t.Fatalf("simulate printed\n%s", simOut)
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
	if !strings.HasPrefix(simOut, header("pods")) {
		t.Fatalf("simulate's header differs:\n%s", simOut)
	}
	const given = "Time: 2025-03-01T10:00:06Z (--now)\n"
	// The recording's three ready pods became ready as they were created.
	const assumed = "assuming pods become ready 0s after creation, the median of 3 pods seen\n"
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "json", Args: []string{"--predict", "--now=2025-03-01T10:00:06Z", "-f", state}, Stdout: kubectl + header("pods") + assumed + verdict, Stderr: given},
		{Name: "yaml", Args: []string{"nginx", "--predict", "--now=2025-03-01T10:00:06Z", "-f", "-"}, Stdin: string(y), Stdout: kubectl + header("pods") + assumed + verdict, Stderr: given},
		{Name: "counts", Args: []string{"--predict", "--fidelity=counts", "--now=2025-03-01T10:00:06Z", "-f", state}, Stdout: kubectl + header("counts") + assumed + verdict, Stderr: given},
		// --ready-after overrides the evidence: nothing is read from the
		// pods, and the lines are those of before.
		{Name: "ready-after", Args: []string{"--predict", "--ready-after=0s", "--now=2025-03-01T10:00:06Z", "-f", state}, Stdout: kubectl + header("pods") + verdict, Stderr: given},
		// A predicted stall is printed; the exit code stays kubectl's.
		{Name: "stall", Args: []string{"--predict", "--never-ready", "--now=2025-03-01T10:00:06Z", "-f", state}, Stderr: given,
			StdoutContains: "pods ready 0s after creation, those of the current template never (pods fidelity)\n" + assumed + "prediction: the rollout stalls after 10m3s: Progressing=False/ProgressDeadlineExceeded"},
		{Name: "work bound", Args: []string{"--predict", "--max-work=1", "--now=2025-03-01T10:00:06Z", "-f", state}, Code: 1,
			Stdout: kubectl, StderrContains: "error: predict: "},
	})
}

// -o json and -o yaml print one document per look, with the explanation
// and the prediction asked for.
func TestStatusOutput(t *testing.T) {
	const state = "../simulate/testdata/nginx-mid.json"
	code, out, errOut := clitest.Exec(t, NewCommand, clitest.Options{}, "", "-f", state, "--explain", "--predict", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var look Look
	if err := json.Unmarshal([]byte(out), &look); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if look.Deployment != "default/nginx" || look.Done || look.Message != "Waiting for deployment \"nginx\" rollout to finish: 1 out of 3 new replicas have been updated..." ||
		look.Time == nil || look.Explanation == nil || len(look.Explanation.Writes) == 0 || look.Prediction == nil || !look.Prediction.Completed {
		t.Errorf("look %+v", look)
	}
	code, out, _ = clitest.Exec(t, NewCommand, clitest.Options{}, "", "-f", state, "-o", "yaml")
	if code != 0 || !strings.HasPrefix(out, "deployment: default/nginx\ndone: false\nmessage: 'Waiting for deployment \"nginx\"") {
		t.Errorf("yaml: exit %d\n%s", code, out)
	}
}
