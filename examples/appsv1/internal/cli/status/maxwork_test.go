package status

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
)

// --predict's memory is bounded by --max-work (issue 24: every command's
// bound stated in its help): the help of status states the bytes a unit
// costs, the figure TestPredictMemoryBoundedByMaxWork checks, and the flag
// is validated as simulate's, before anything is read.
func TestMaxWorkStatedAndValidated(t *testing.T) {
	code, stdout, _ := clitest.Exec(t, NewCommand, clitest.Options{}, "", "--help")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, fmt.Sprintf("memory is bounded by --max-work: about %d bytes per unit at most", predict.BytesPerUnit))
	for _, bad := range []string{"0", "-1"} {
		code, _, stderr := clitest.Exec(t, NewCommand, clitest.Options{}, "", "--predict", "--max-work="+bad, "-f", "testdata/max-replicas.yaml")
		assert.Equal(t, 2, code, bad)
		assert.Contains(t, stderr, "error: --max-work "+bad+": out of range 1 to 9223372036854775807", bad)
	}
}
