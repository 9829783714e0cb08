//go:build linux

package simulate

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// childArgs, in the environment, makes the test binary run the command
// with these arguments (separated by spaces) and exit with its code: the
// parent reads the child's peak resident memory.
const childArgs = "ROLLOUTPLAN_SIMULATE_MEMORY_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(childArgs); ok {
		env := rolloutio.NewEnv(strings.NewReader(""), io.Discard, io.Discard)
		sub := NewCommand(env)
		os.Exit(rolloutio.Execute(rolloutio.NewRoot(env, sub), env, append([]string{sub.Name()}, strings.Fields(args)...)))
	}
	os.Exit(m.Run())
}

// peakRSS runs the command with args in a child process and returns its
// exit code and peak resident memory in bytes.
func peakRSS(t *testing.T, args ...string) (int, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// The default collector's pacing, whatever the test's environment.
	cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(args, " "), "GOGC=100", "GOMEMLIMIT=off")
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	require.True(t, ok, "no rusage")
	return code, ru.Maxrss * 1024 // kilobytes on Linux
}

// Memory is bounded by --max-work, as --help states: the worst input of
// issue 24 (testdata/max-replicas.yaml: 2147483647 replicas moved one pod
// a sync at count fidelity) stopped by --max-work 400000 grows the process
// by at most predict.BytesPerUnit bytes per unit over the same run stopped at once,
// with 50 % slack. Before, the trace was not charged and the same bound let
// the run grow by about 1 050 bytes per unit (1.9 GB in 15 s without a
// bound in issue 24): this test fails on it. After, about 340.
func TestMemoryBoundedByMaxWork(t *testing.T) {
	const work = 400_000
	worst := []string{"-f", "testdata/max-replicas.yaml", "--fidelity", "counts", "--ready-after", "0s", "--max-work"}
	code, base := peakRSS(t, append(worst, "10")...)
	require.Equal(t, exitFail, code, "the work bound stops the run")
	code, peak := peakRSS(t, append(worst, strconv.Itoa(work))...)
	require.Equal(t, exitFail, code, "the work bound stops the run")
	limit := int64(work * predict.BytesPerUnit * 3 / 2)
	t.Logf("peak %d MB over a base of %d MB: %d bytes per unit (bound %d)", peak>>20, base>>20, (peak-base)/work, predict.BytesPerUnit)
	require.LessOrEqual(t, peak-base, limit, "peak resident memory over the base, at --max-work %d", work)
}

// The refusal at the work bound gives advice that fits the fidelity: at
// count fidelity the trace, not the pods, used the work up.
func TestWorkBoundAdvice(t *testing.T) {
	code, _, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", "-f", "testdata/max-replicas.yaml", "--fidelity", "counts", "--ready-after", "0s", "--max-work", "1000")
	require.NotEqual(t, 0, code)
	require.Contains(t, stderr, "(--max-work 1000: the rollout takes too many syncs: raise --max-work)")
	require.NotContains(t, stderr, "use --fidelity counts")
}
