//go:build linux

package configrestarts

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/childtest"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// memoryChildEnv, set, makes the test binary run config-restarts once on a
// generated input (see runChild) instead of running tests, so that the
// process's peak resident memory is the command's alone.
const memoryChildEnv = "ROLLOUTPLAN_CONFIGRESTARTS_MEMORY_CHILD"

func TestMain(m *testing.M) {
	childtest.Launch()
	if spec := os.Getenv(memoryChildEnv); spec != "" {
		os.Exit(runChild(spec))
	}
	os.Exit(m.Run())
}

// childResult is what a child reports on its standard output.
type childResult struct {
	Code   int
	Stderr string
}

// runChild runs config-restarts -f - --max-input CAP on the input spec
// names, "KIND:SIZE:CAP": KIND whitespace (SIZE blanks), json or yaml (a
// script of SIZE bytes or so of the smallest events there are, ticks:
// the most events, each a step of the trace, per byte), or baseline (a
// script of one tick, to measure what the process takes anyway). The
// input is generated as it is read, never held by the child.
func runChild(spec string) int {
	// A child that never ends (a reader that loops) must not outlive the
	// test run.
	time.AfterFunc(5*time.Minute, func() { os.Exit(4) })
	parts := strings.Split(spec, ":")
	size, _ := strconv.ParseInt(parts[1], 10, 64)
	in := generated(parts[0], size)
	var errOut strings.Builder
	env := rolloutio.NewEnv(in, io.Discard, &errOut)
	sub := NewCommand(env)
	root := rolloutio.NewRoot(env, sub)
	code := rolloutio.Execute(root, env, []string{sub.Name(), "-f", "-", "--max-input", parts[2]})
	if err := json.NewEncoder(os.Stdout).Encode(childResult{code, errOut.String()}); err != nil {
		return 3
	}
	return 0
}

// generated is an input of about size bytes of the given kind.
func generated(kind string, size int64) io.Reader {
	var head, item, last, tail string
	switch kind {
	case "whitespace":
		return io.LimitReader(repeat(" "), size)
	case "json":
		head, item, last, tail = `{"events":[`, `{"op":"tick"},`, `{"op":"tick"}`, "]}\n"
	case "yaml":
		head, item, last, tail = "events:\n", "- op: tick\n", "- op: tick\n", ""
	case "baseline":
		return strings.NewReader(`{"events":[{"op":"tick"}]}`)
	default:
		panic("unknown input kind " + kind)
	}
	n := (size - int64(len(head)+len(last)+len(tail))) / int64(len(item))
	return io.MultiReader(strings.NewReader(head), io.LimitReader(repeat(item), n*int64(len(item))),
		strings.NewReader(last+tail))
}

// repeat reads s over and over.
func repeat(s string) io.Reader { return &repeater{s: s} }

type repeater struct {
	s   string
	off int
}

func (r *repeater) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.s[r.off:])
		n += c
		r.off = (r.off + c) % len(r.s)
	}
	return n, nil
}

// peakRSS runs a child on spec and returns its result and its peak
// resident memory in bytes.
func peakRSS(t *testing.T, spec string) (childResult, int64) {
	t.Helper()
	out, code, peak := childtest.RunChild(t, memoryChildEnv, spec)
	require.Zero(t, code, spec)
	var res childResult
	require.NoError(t, json.Unmarshal(out, &res), "%s: %q", spec, out)
	return res, peak
}

// The memory config-restarts -h states (see long), checked on the worst
// input at a cap: the peak resident memory of a child process above that
// of a child replaying a one-tick script.
//
//   - 400 MB of blanks (issue 24 measured exit 0 and 1.55 GB before the cap
//     existed) are refused at the default cap, 64 MiB, holding at most the
//     cap (read in chunks; the bound allows a quarter more);
//   - the scripts with the most events per byte (ticks, each a step of
//     the trace) at a cap of 4 MiB replay within 50× their size, in JSON
//     and in YAML (measured with the child's own peak: about 25× and
//     38-41×; YAML took 150× when the whole script was converted at once,
//     before it was converted an event at a time with
//     input.BlockListToJSON).
func TestMemoryBoundedByMaxInput(t *testing.T) {
	const mib = 1 << 20
	_, base := peakRSS(t, "baseline:0:1024")

	res, peak := peakRSS(t, fmt.Sprintf("whitespace:%d:%d", 400_000_000, 64*mib))
	require.Equal(t, 1, res.Code, res.Stderr)
	require.Equal(t, "error: input too large: more than 67108864 bytes (the cap) (raise --max-input)\n", res.Stderr)
	t.Logf("400 MB of blanks at the 64 MiB cap: %d MiB above the baseline (%d MiB)", (peak-base)/mib, base/mib)
	require.Less(t, peak-base, int64(64*mib*5/4))

	for _, tc := range []struct {
		kind   string
		factor int64
	}{{"json", 50}, {"yaml", 50}} {
		const capBytes = 4 * mib
		res, peak := peakRSS(t, fmt.Sprintf("%s:%d:%d", tc.kind, capBytes, capBytes))
		require.Equal(t, 0, res.Code, res.Stderr)
		t.Logf("%s script of 4 MiB of ticks: %d MiB above the baseline", tc.kind, (peak-base)/mib)
		require.Less(t, peak-base, tc.factor*capBytes, tc.kind)
	}
}
