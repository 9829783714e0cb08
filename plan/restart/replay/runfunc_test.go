package replay

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// RunFunc hands over, one by one, exactly the steps Run keeps, and the same
// Final, for every recorded conformance script (testdata/conformance, the
// original controller's recorded behaviour) and scenario; an error of the
// callback ends the replay and comes back as it is.
func TestRunFuncStreamsRunsTrace(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.json")
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		if filepath.Ext(f[:len(f)-len(".json")]) == ".trace" {
			continue
		}
		s := readScript(t, f)
		want, err := Run(s, Options{})
		require.NoError(t, err, f)
		var got Trace
		got.Final, err = RunFunc(s, Options{}, func(st Step) error {
			got.Steps = append(got.Steps, st)
			return nil
		})
		require.NoError(t, err, f)
		require.Empty(t, cmp.Diff(want, got), f)
		n++

		if len(want.Steps) > 1 {
			stop := errors.New("stop")
			calls := 0
			_, err = RunFunc(s, Options{}, func(Step) error {
				calls++
				if calls == 2 {
					return stop
				}
				return nil
			})
			require.ErrorIs(t, err, stop, f)
			require.NotErrorIs(t, err, ErrBadScript, f)
			require.Equal(t, 2, calls, f)
		}
	}
	require.Greater(t, n, 10)
}
