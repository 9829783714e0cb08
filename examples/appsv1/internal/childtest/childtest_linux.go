//go:build linux

package childtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// reportEnv, in the environment, makes the test binary, at Launch, run
// itself again without it (the measured child), wait for it, write "CODE
// PEAK" (its exit code and peak resident bytes) to the file it names and
// exit: see RunChild.
const reportEnv = "ROLLOUTPLAN_CHILDTEST_REPORT"

// Launch must be called first in the TestMain of a package that uses
// RunChild: in the launcher RunChild starts (the test binary, told so by
// its environment) it runs the measured child, reports it and exits; in
// any other process it returns at once. A package that forgets it makes
// every RunChild fail on the launcher's missing report.
func Launch() {
	if file, ok := os.LookupEnv(reportEnv); ok {
		os.Exit(measure(file))
	}
}

// RunChild runs the test binary again, running no test, with env set to
// value: the package's TestMain, seeing it, does the work to measure and
// exits. The child's collector runs at its defaults (GOGC=100, no memory
// limit) whatever the test's environment, and it dies with the test
// binary. RunChild returns what the child printed on standard output
// (standard error goes to the test's), its exit code (-1 if a signal
// ended it) and its own peak resident memory in bytes.
//
// The peak is the child's alone, not the test binary's: a process
// started directly by the test binary counts in its peak (rusage's
// maxrss) the test binary's, for on Linux it shares the test binary's
// address space until it executes (measured: 130 MB for every child once
// a package's other tests had run). So the test binary starts a small
// launcher (the test binary again, stopped at the start of its TestMain by
// Launch, before any test), which starts the child and reports the
// child's rusage: the peak the child inherits is the launcher's, smaller
// than the child's own start.
func RunChild(t testing.TB, env, value string) (stdout []byte, code int, peakRSS int64) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	report := filepath.Join(t.TempDir(), "report")
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+value, "GOGC=100", "GOMEMLIMIT=off", reportEnv+"="+report)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Stderr = os.Stderr
	stdout, err = cmd.Output()
	require.NoError(t, err, "the launcher of %s=%s", env, value)
	data, err := os.ReadFile(report)
	require.NoError(t, err, "the launcher's report")
	_, err = fmt.Sscanf(string(data), "%d %d", &code, &peakRSS)
	require.NoError(t, err, "the launcher's report %q", data)
	return stdout, code, peakRSS
}

// measure, in the launcher, runs the test binary again with its arguments
// and environment less reportEnv, its standard streams the launcher's,
// and writes its exit code and peak resident bytes to file. It returns
// the launcher's exit code: 0, or 1 if the child could not be run or
// measured (on standard error).
func measure(file string) int {
	if err := runMeasured(file); err != nil {
		fmt.Fprintln(os.Stderr, "childtest launcher:", err)
		return 1
	}
	return 0
}

// runMeasured runs the child and writes its report (see measure).
func runMeasured(file string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, reportEnv+"=") })
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// The child dies with the launcher, which dies with the test binary.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var exit *exec.ExitError
	if err := cmd.Run(); err != nil && !errors.As(err, &exit) {
		return err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return errors.New("no rusage")
	}
	// Linux counts kilobytes.
	return os.WriteFile(file, fmt.Appendf(nil, "%d %d\n", cmd.ProcessState.ExitCode(), ru.Maxrss<<10), 0o600)
}

// EndAbove starts a watchdog in the measured child: once the heap passes
// limit bytes the process prints so and exits with code, so that a child
// that lost its memory bound fails its test quickly instead of taking the
// machine's memory. It checks every millisecond.
func EndAbove(limit uint64, code int) {
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if sample[0].Value.Uint64() > limit {
				fmt.Fprintln(os.Stderr, "heap past", limit, "bytes")
				os.Exit(code)
			}
			time.Sleep(time.Millisecond)
		}
	}()
}
