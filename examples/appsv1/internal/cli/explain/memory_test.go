//go:build linux

package explain

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/childtest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// childArgs, in the environment, makes the test binary run explain with
// these arguments (separated by spaces), its review discarded and its
// standard error to standard output, and exit with its code: the parent
// reads the child's peak resident memory.
const childArgs = "ROLLOUTPLAN_EXPLAIN_MEMORY_CHILD_ARGS"

func TestMain(m *testing.M) {
	childtest.Launch()
	clitest.RunAsChild(childArgs, NewCommand)
	os.Exit(m.Run())
}

// explain's memory is bounded by --max-work, as its help states: the
// worst input, a Deployment of 150 000 replicas rolled a pod at a time
// (testdata/long-rollout.yaml, a simulated rollout of millions of units),
// stopped by --max-work 400000 grows the process by at most
// predict.BytesPerUnit bytes per unit over the same input refused at once,
// with the 50 % slack of simulate's memory tests. Measured: about 310
// bytes a unit (2.7 GB at the default bound, 270 a unit). Before the
// simulation was bounded (issue 24), 2147483647 replicas ran out of
// memory under a 3 GB limit in 6 s; they are now refused at the default
// bound before the simulation starts, in a few MB.
func TestMemoryBoundedByMaxWork(t *testing.T) {
	input := []string{"-f", "testdata/long-rollout.yaml", "--ready-after", "0s", "--max-work"}
	out, code, base := childtest.RunChild(t, childArgs, strings.Join(append(input, "10"), " "))
	require.Equal(t, rolloutio.ExitFail, code, "the work bound refuses the rollout")
	require.Contains(t, string(out), "150000 replicas, 1 a sync at most, take at least 150000 syncs and 300000 units of work, bound 10")
	const work = 400_000
	out, code, peak := childtest.RunChild(t, childArgs, strings.Join(append(input, strconv.Itoa(work)), " "))
	require.Equal(t, rolloutio.ExitFail, code, "the work bound stops the simulation")
	require.Contains(t, string(out), "units of work (objects modelled and kept in the trace) after", "the simulation ran")
	require.Contains(t, string(out), "(--max-work 400000: the simulated rollout takes too many syncs: raise --max-work)")
	limit := int64(work * predict.BytesPerUnit * 3 / 2)
	t.Logf("peak %d MB over a base of %d MB: %d bytes per unit (bound %d)", peak>>20, base>>20, (peak-base)/work, predict.BytesPerUnit)
	require.LessOrEqual(t, peak-base, limit, "peak resident memory over the base, at --max-work %d", work)

	// 2147483647 replicas at the default bound: refused before the
	// simulation starts.
	data, err := os.ReadFile("testdata/long-rollout.yaml")
	require.NoError(t, err)
	huge := strings.Replace(string(data), "replicas: 150000\n", "replicas: 2147483647\n", 1)
	file := t.TempDir() + "/max.yaml"
	require.NoError(t, os.WriteFile(file, []byte(huge), 0o600))
	out, code, peak = childtest.RunChild(t, childArgs, "-f "+file)
	require.Equal(t, rolloutio.ExitFail, code)
	require.Contains(t, string(out), "error: deployment.apps/web: lint: simulating the rollout: sim: work bound exceeded: 2147483647 replicas, 1 a sync at most, take at least 2147483647 syncs and 4294967294 units of work, bound 10000000 (--max-work 10000000: the simulated rollout takes too many syncs: raise --max-work)")
	t.Logf("2147483647 replicas, refused: peak %d MB over the base", (peak-base)>>20)
	require.Less(t, peak-base, int64(16<<20))
}
