//go:build linux

package childtest

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// RunChild runs the test binary again, running no test, with env set to
// value: the package's TestMain, seeing it, does the work to measure and
// exits. The child's collector runs at its defaults (GOGC=100, no memory
// limit) whatever the test's environment, and it dies with the test
// binary. RunChild returns what the child printed on standard output, its
// exit code and its peak resident memory in bytes.
func RunChild(t testing.TB, env, value string) (stdout []byte, code int, peakRSS int64) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+value, "GOGC=100", "GOMEMLIMIT=off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Stderr = os.Stderr
	stdout, err = cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err, value)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	require.True(t, ok, "no rusage")
	return stdout, code, ru.Maxrss << 10 // Linux counts kilobytes
}
