package configrestarts

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	core "github.com/rolloutplan/rolloutplan/plan/restart"
	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

// The trace printed a step at a time is byte for byte the whole
// replay.Trace printed at once, in JSON and YAML, for the recorded
// scripts of the original controller (testdata/scripts, copied from
// plan/restart/replay/testdata: conformance/*.json and
// scenarios/same-second.json), with the default planner and with every
// shortfall of the original reproduced.
func TestStreamedTraceIsPrintedTrace(t *testing.T) {
	files, err := filepath.Glob("testdata/scripts/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		s, err := parse(b)
		require.NoError(t, err, f)
		for _, planner := range []core.Options{{}, {Compat: core.Compat{RecreatedConfigUnlinked: true, MissSingleUpdate: true, NoRetry: true, SameSecondTimestamp: true}}} {
			o := replay.Options{Planner: planner}
			tr, err := replay.Run(s, o)
			require.NoError(t, err, f)
			for _, format := range []string{"json", "yaml"} {
				var want, got bytes.Buffer
				require.NoError(t, (&rolloutio.Output{Format: format}).Print(&want, tr))
				require.NoError(t, replayScript(&got, &rolloutio.Output{Format: format}, s, o), f)
				require.Equal(t, want.String(), got.String(), "%s -o %s", f, format)
			}
		}
	}
}
