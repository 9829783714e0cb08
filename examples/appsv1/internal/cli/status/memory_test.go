//go:build linux

package status

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/childtest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// childArgs, in the environment, makes the test binary run status with
// these arguments (separated by spaces), its standard error to standard
// output, and exit with its code: the parent reads the child's peak
// resident memory.
const childArgs = "ROLLOUTPLAN_STATUS_MEMORY_CHILD_ARGS"

// runawayHeap ends a child whose heap grows past it, with exit code
// childRunaway: a prediction that lost its bound would run to the default
// --max-work, about 4 GB.
const (
	runawayHeap  = 1 << 30
	childRunaway = 5
)

func TestMain(m *testing.M) {
	childtest.Launch()
	if _, ok := os.LookupEnv(childArgs); ok {
		childtest.EndAbove(runawayHeap, childRunaway)
	}
	clitest.RunAsChild(childArgs, NewCommand)
	os.Exit(m.Run())
}

// peakRSS runs status with args in a child process and returns what it
// printed on standard error, its exit code and its own peak resident
// memory in bytes.
func peakRSS(t *testing.T, args ...string) (string, int, int64) {
	t.Helper()
	out, code, peak := childtest.RunChild(t, childArgs, strings.Join(args, " "))
	return string(out), code, peak
}

// status --predict runs the simulation simulate runs (package predict),
// so its memory is bounded by --max-work as its help states (about
// predict.BytesPerUnit bytes a unit): for the worst input of each kind,
// stopped by --max-work before it completes, the process grows by at most
// predict.BytesPerUnit bytes per unit over the same input stopped at
// once, with the 50 % slack simulate's TestMemoryBoundedByMaxWork allows.
// The inputs are simulate's: a Deployment of 2147483647 replicas moved
// one pod a sync (maxSurge 0, maxUnavailable 1) at both fidelities, a
// Parallel StatefulSet of 20 000 replicas whose first sync creates every
// pod (under a bound its first sync fits, and one it does not), and a
// DaemonSet over 20 000 nodes; and a long rollout that completes, its
// summary printed with -o json (status prints no trace) and its timeline
// drawn with --svg, which must fit the same bound.
func TestPredictMemoryBoundedByMaxWork(t *testing.T) {
	pool := clitest.DaemonSetPool(t, 20_000)
	for _, c := range []struct {
		name  string
		input []string
		work  int64
		// code is the exit code at --max-work work: the bound stops the
		// prediction (1), or it completes within it (0).
		code int
	}{
		{"Deployment, counts", []string{"deploy/web", "-f", "testdata/max-replicas.yaml", "--fidelity", "counts"}, 400_000, rolloutio.ExitFail},
		{"Deployment, pods", []string{"deploy/web", "-f", "testdata/max-replicas.yaml", "--fidelity", "pods"}, 400_000, rolloutio.ExitFail},
		// A long rollout (6 000 syncs, about 60 000 units) that completes
		// within the bound, its summary printed with -o json and its
		// whole timeline drawn with --svg.
		{"Deployment completed, -o json, --svg", []string{"deploy/web", "-f", "testdata/long-rollout.yaml", "--fidelity", "counts", "-o", "json", "--svg", filepath.Join(t.TempDir(), "chart.svg")}, 70_000, rolloutio.ExitOK},
		{"StatefulSet, first sync fits", []string{"sts/web", "-f", "testdata/max-replicas-statefulset.yaml"}, 220_000, rolloutio.ExitFail},
		{"StatefulSet, first sync does not fit", []string{"sts/web", "-f", "testdata/max-replicas-statefulset.yaml"}, 30_000, rolloutio.ExitFail},
		{"DaemonSet", []string{"ds/agent", "-f", pool}, 400_000, rolloutio.ExitFail},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(c.input, "--predict", "--ready-after", "0s", "--max-work")
			// The input is read and the prediction starts: what stops it
			// is the work bound, not a refusal of the input.
			out, code, base := peakRSS(t, append(args, "10")...)
			require.Equal(t, rolloutio.ExitFail, code, "the work bound stops the prediction at once")
			require.Contains(t, out, "sim: work bound exceeded")
			out, code, peak := peakRSS(t, append(args, strconv.FormatInt(c.work, 10))...)
			require.Equal(t, c.code, code, "exit code at --max-work %d", c.work)
			if c.code == rolloutio.ExitFail {
				require.Contains(t, out, "sim: work bound exceeded")
			}
			limit := c.work * predict.BytesPerUnit * 3 / 2
			t.Logf("--max-work %d: peak %d MB over a base of %d MB: %d bytes per unit (bound %d)", c.work, peak>>20, base>>20, (peak-base)/c.work, predict.BytesPerUnit)
			require.LessOrEqual(t, peak-base, limit, "peak resident memory over the base, at --max-work %d", c.work)
		})
	}
}

// --explain plans the controller's next sync, bounded by --max-work as
// the help states: the worst input, a Parallel StatefulSet whose next
// sync creates all its 20 000 pods at once
// (testdata/max-replicas-statefulset.yaml), under a bound its sync fits,
// grows the process by at most predict.BytesPerUnit bytes per unit over
// the same input refused at once, with the 50 % slack of the prediction's
// test. Measured: about 180 bytes a unit (5.5 KB a pod). Before the sync
// was bounded, a set of 2147483647 replicas ran out of memory under a
// 3 GB limit; it is now refused at the default bound before it is
// planned.
func TestExplainMemoryBoundedByMaxWork(t *testing.T) {
	input := []string{"sts/web", "-f", "testdata/max-replicas-statefulset.yaml", "--explain", "--max-work"}
	out, code, base := peakRSS(t, append(input, "10")...)
	require.Equal(t, rolloutio.ExitFail, code, "the work bound refuses the sync")
	require.Contains(t, out, "error: explain: the next sync is 600031 units of work (objects modelled, and 30 for each object it may create), more than --max-work 10")
	const work = 620_000
	out, code, peak := peakRSS(t, append(input, strconv.Itoa(work))...)
	require.Equal(t, rolloutio.ExitOK, code, "the sync fits the bound: %s", out)
	limit := int64(work * predict.BytesPerUnit * 3 / 2)
	t.Logf("--max-work %d: peak %d MB over a base of %d MB: %d bytes per unit (bound %d)", work, peak>>20, base>>20, (peak-base)/work, predict.BytesPerUnit)
	require.LessOrEqual(t, peak-base, limit, "peak resident memory over the base, at --max-work %d", work)

	data, err := os.ReadFile("testdata/max-replicas-statefulset.yaml")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "max.yaml")
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(data), "replicas: 20000\n", "replicas: 2147483647\n", 1)), 0o600))
	out, code, peak = peakRSS(t, "sts/web", "-f", file, "--explain")
	require.Equal(t, rolloutio.ExitFail, code)
	require.Contains(t, out, "error: explain: the next sync is 64424509441 units of work")
	t.Logf("2147483647 replicas, refused: peak %d MB over the base", (peak-base)>>20)
	require.Less(t, peak-base, int64(16<<20))
}
