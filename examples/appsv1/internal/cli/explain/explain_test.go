package explain

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// web-deployment.json: 10 replicas, maxSurge 0, maxUnavailable 5 %,
// progressDeadlineSeconds 60. 5 % of 10 rounds down to 0, so the controller
// uses maxUnavailable 1: ten replacements of one pod, each a scale-down and
// a scale-up (20 steps), 21 s apart with pods ready after 20 s (the sync
// after the pod turns ready), 3m30s in all.
func TestExplain(t *testing.T) {
	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "rounds to zero", Args: []string{"-f", clitest.Data + "web-deployment.json", "--ready-after=20s", "--min-available=9"},
			Stdout: "deployment.apps/web: RollingUpdate, 10 replicas\n" +
				"  maxSurge 0 → 0, maxUnavailable 5% → 1: at most 10 pods, at least 9 available\n" +
				"  simulated template change, pods ready 20s after they start:\n" +
				"    peak pods 10, minimum available 9, 20 scaling steps, done after 3m30s\n" +
				"warning: MaxUnavailableRoundsToZero: maxUnavailable 5% of 10 replicas rounds down to 0 and maxSurge 0 resolves to 0: the controller uses maxUnavailable 1, one pod down at a time\n" +
				"warning: ProgressDeadlineShorterThanRollout: progressDeadlineSeconds 60 is shorter than the simulated rollout (3m30s): the controller measures it from the last progress, so the rollout fails (ProgressDeadlineExceeded) only if one step stalls that long, but anything that treats the deadline as the rollout's time limit gives up early\n"},
		// s1-0006: 1 replica, 33 %/75 %: surge ⌈0.33⌉ = 1, unavailable
		// ⌊0.75⌋ = 0; one surge pod, then the old one goes.
		{Name: "from a list, ready at once", Args: []string{"api", "-f", clitest.Data + "rollout.json", "--ready-after=0s"},
			Stdout: "deployment.apps/api: RollingUpdate, 1 replicas\n" +
				"  maxSurge 33% → 1, maxUnavailable 75% → 0: at most 2 pods, at least 1 available\n" +
				"  simulated template change, pods ready 0s after they start:\n" +
				"    peak pods 2, minimum available 1, 2 scaling steps, done after 2s\n" +
				"info: SingleReplica: 1 replica with maxSurge 33% and maxUnavailable 75%: the percentages resolve to surge 1 and unavailable 0, and a single pod carries all traffic\n"},
		// Without --ready-after the Deployment's pods say how long: of
		// the three, only api-67bf8b99cb-prdd9 became ready (created
		// 03:17:06, ready 03:18:17: 71s). The surge pod is ready 71s
		// after it is created and the old pod goes at the next sync.
		{Name: "from a list, ready as seen", Args: []string{"api", "-f", clitest.Data + "rollout.json"},
			Stdout: "deployment.apps/api: RollingUpdate, 1 replicas\n" +
				"  maxSurge 33% → 1, maxUnavailable 75% → 0: at most 2 pods, at least 1 available\n" +
				"  simulated template change, pods ready 1m11s after they start (the one pod seen):\n" +
				"    peak pods 2, minimum available 1, 2 scaling steps, done after 1m12s\n" +
				"info: SingleReplica: 1 replica with maxSurge 33% and maxUnavailable 75%: the percentages resolve to surge 1 and unavailable 0, and a single pod carries all traffic\n"},
		{Name: "wrong name", Args: []string{"deployment/api", "-f", clitest.Data + "web-deployment.json"}, Code: 1,
			Stderr: "error: no such deployment: \"api\" (the input has default/web)\n"},
		{Name: "negative ready", Args: []string{"--ready-after=-1s"}, Code: 2, Stderr: "error: --ready-after -1s: must not be negative. See 'kubectl rolloutplan explain --help'.\n"},
		{Name: "negative min", Args: []string{"--min-available=-1"}, Code: 2, StderrContains: "--min-available -1"},
		{Name: "not apps/v1", Args: []string{"-f", "-"}, Stdin: "kind: Deployment", Code: 1, StderrContains: `a Deployment of apiVersion ""; only apps/v1 is read`},
		{Name: "yaml manifest", Args: []string{"-f", "-"}, Stdin: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: one\n  namespace: shop\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: one}\n  template:\n    metadata:\n      labels: {app: one}\n    spec:\n      containers: [{name: one, image: \"one:1\"}]\n",
			StdoutContains: "deployment.apps/one: RollingUpdate, 1 replicas\n  maxSurge 25% → 1, maxUnavailable 25% → 0 (the defaults)\n"},
		{Name: "yaml unknown field", Args: []string{"-f", "-"}, Stdin: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: one\nspec:\n  replica: 1\n", Code: 1,
			Stderr: "error: Deployment /one: unknown field \"spec.replica\"\n"},
		{Name: "invalid", Args: []string{"-f", "-"}, Stdin: `{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"x"},"spec":{"replicas":-1,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}}}}}`,
			Code: 1, StderrContains: "spec.replicas"},
	})
}

// --max-work is validated as simulate's and next's are (predict.ValidateMaxWork).
func TestMaxWorkFlag(t *testing.T) {
	for _, w := range []string{"0", "-1"} {
		code, _, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", "-f", clitest.Data+"web-deployment.json", "--max-work", w)
		require.Equal(t, rolloutio.ExitUsage, code, "--max-work %s", w)
		require.Contains(t, stderr, "--max-work "+w+": out of range 1 to 9223372036854775807")
	}
}
