package sim_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeDaemonSetHeading is the README's section on the DaemonSet
// simulation; its first fenced block is the timeline of taintedMidRollout.
const readmeDaemonSetHeading = "### A DaemonSet rollout over a node pool\n"

// The README's DaemonSet sample is what the program prints: the timeline of
// the Example for DaemonSetTrace.WriteTimeline, byte for byte.
func TestREADMEDaemonSetSample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	text := string(readme)
	i := strings.Index(text, readmeDaemonSetHeading)
	require.GreaterOrEqual(t, i, 0, "README.md lacks the heading %q", readmeDaemonSetHeading)
	_, rest, ok := strings.Cut(text[i:], "\n```\n")
	require.True(t, ok, "no fenced block after the heading")
	sample, _, ok := strings.Cut(rest, "```\n")
	require.True(t, ok, "the fenced block is not closed")

	tr, err := taintedMidRollout()
	require.NoError(t, err)
	var got bytes.Buffer
	require.NoError(t, tr.WriteTimeline(&got))
	require.Equal(t, got.String(), sample)
}
