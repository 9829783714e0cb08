//go:build linux

package next

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

// childArgs, in the environment, makes the test binary run next with
// these arguments (separated by spaces), its plan discarded and its
// standard error to standard output, and exit with its code: the parent
// reads the child's peak resident memory.
const childArgs = "ROLLOUTPLAN_NEXT_MEMORY_CHILD_ARGS"

func TestMain(m *testing.M) {
	childtest.Launch()
	clitest.RunAsChild(childArgs, NewCommand)
	os.Exit(m.Run())
}

// next's memory is bounded by --max-work, as its help states: the worst
// input, a Parallel StatefulSet whose next sync creates all its 20 000
// pods at once (testdata/max-replicas-statefulset.yaml; upstream's
// Parallel policy has no burst limit), planned and printed in JSON and in
// YAML under a bound its sync fits, grows the process by at most
// predict.BytesPerUnit bytes per unit over the same input refused at once,
// with the 50 % slack of simulate's memory tests. Measured: about 270
// and 310 bytes a unit in JSON and YAML (8 and 9.5 KB a pod). Before the sync was bounded,
// a set of 2147483647 replicas ran out of memory under a 3 GB limit; it is
// now refused at the default bound before it is planned, in a few MB.
// Before the plan was printed an item at a time, YAML took 65 KB a pod.
func TestMemoryBoundedByMaxWork(t *testing.T) {
	input := []string{"sts/web", "-f", "testdata/max-replicas-statefulset.yaml", "--max-work"}
	out, code, base := childtest.RunChild(t, childArgs, strings.Join(append(input, "10"), " "))
	require.Equal(t, rolloutio.ExitFail, code, "the work bound refuses the sync")
	require.Contains(t, string(out), "error: the next sync is 600031 units of work (objects modelled, and 30 for each object it may create), more than --max-work 10: raise --max-work")
	const work = 620_000
	for _, format := range []string{"json", "yaml"} {
		out, code, peak := childtest.RunChild(t, childArgs, strings.Join(append(input, strconv.Itoa(work), "-o", format), " "))
		require.Equal(t, rolloutio.ExitOK, code, "the sync fits the bound: %s", out)
		limit := int64(work * predict.BytesPerUnit * 3 / 2)
		t.Logf("-o %s: peak %d MB over a base of %d MB: %d bytes per unit (bound %d)", format, peak>>20, base>>20, (peak-base)/work, predict.BytesPerUnit)
		require.LessOrEqual(t, peak-base, limit, "-o %s: peak resident memory over the base, at --max-work %d", format, work)
	}
	// 2147483647 replicas at the default bound: refused before planning.
	huge := strings.Replace(readFile(t, "testdata/max-replicas-statefulset.yaml"), "replicas: 20000\n", "replicas: 2147483647\n", 1)
	file := t.TempDir() + "/max.yaml"
	require.NoError(t, os.WriteFile(file, []byte(huge), 0o600))
	out, code, peak := childtest.RunChild(t, childArgs, "sts/web -f "+file)
	require.Equal(t, rolloutio.ExitFail, code)
	require.Contains(t, string(out), "error: the next sync is 64424509441 units of work")
	t.Logf("2147483647 replicas, refused: peak %d MB over the base", (peak-base)>>20)
	require.Less(t, peak-base, int64(16<<20))
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(data)
}
