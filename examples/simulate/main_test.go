package main

import (
	"bytes"
	"strings"
	"testing"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// Every flag is range-checked with a message naming the flag and the range;
// values beyond int32 are refused, not truncated (before, -min-ready
// 4294967297 ran as 1 and -scale-to 4294967296 as 0; -failure-rate 1.5,
// -1 and NaN and -ready-after -5s ran).
func TestFlagsRefuseBadValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-failure-rate", "1.5"}, "-failure-rate 1.5: out of range 0 to 1"},
		{[]string{"-failure-rate", "-1"}, "-failure-rate -1: out of range 0 to 1"},
		{[]string{"-failure-rate", "NaN"}, "-failure-rate NaN: out of range 0 to 1"},
		{[]string{"-ready-after", "-5s"}, "-ready-after -5s: out of range 0s to 8760h"},
		{[]string{"-grace", "9000h"}, "-grace 9000h0m0s: out of range 0s to 8760h"},
		{[]string{"-min-ready", "4294967297"}, "-min-ready 4294967297: out of range 0 to 2147483647"},
		{[]string{"-scale-to", "4294967296"}, "-scale-to 4294967296: out of range 0 to 2147483647"},
		{[]string{"-scale-to", "-2"}, "-scale-to -2: out of range 0 to 2147483647 (or -1: do not scale)"},
		{[]string{"-replicas", "-1"}, "-replicas -1: out of range 0 to 2147483647"},
		{[]string{"-replicas", "2147483648"}, "-replicas 2147483648: out of range 0 to 2147483647"},
		{[]string{"-max-surge", "2147483648"}, `-max-surge "2147483648": want an integer 0 to 2147483647`},
		{[]string{"-max-unavailable", "101%"}, `-max-unavailable "101%": want an integer 0 to 2147483647 or a percentage 0% to 100%`},
		{[]string{"-max-surge", "abc"}, `-max-surge "abc"`},
		{[]string{"-replicas", "2147483647", "-fidelity", "counts"}, "-replicas 2147483647 with -max-surge 25%: replicas + maxSurge = 2684354559 is beyond 2147483647"},
		{[]string{"-strategy", "BlueGreen"}, `-strategy "BlueGreen": want RollingUpdate or Recreate`},
		{[]string{"-fidelity", "atoms"}, `-fidelity "atoms": want pods or counts`},
		{[]string{"-max-work", "0"}, "-max-work 0: out of range 1 to 9223372036854775807"},
		{[]string{"-from", ""}, "-from and -to: want non-empty image names"},
		{[]string{"-replicas", "1073741824"}, "-replicas 1073741824 at -fidelity pods needs about"},
		{[]string{"-replicas", "x"}, `invalid value "x" for flag -replicas`},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-max-surge", "0", "-max-unavailable", "0"}, "may not be 0 when `maxSurge` is 0"},
	} {
		code, _, stderr := runCmd(tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// The work bound stops a simulation that would model too much, with the
// flag named.
func TestWorkBound(t *testing.T) {
	code, _, stderr := runCmd("-replicas", "2000", "-max-work", "20000")
	if code != exitUsage || !strings.Contains(stderr, "-max-work 20000") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// -h prints the flags and the exit codes on stdout and exits 0 (before: 2).
func TestHelpExitsZero(t *testing.T) {
	code, stdout, _ := runCmd("-h")
	if code != exitOK || !strings.Contains(stdout, "-failure-rate") || !strings.Contains(stdout, "Exit codes") {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

// The documented exit codes: 0 completed, 1 stalled (before: 0).
func TestExitCodes(t *testing.T) {
	if code, _, stderr := runCmd(); code != exitOK {
		t.Errorf("default story: exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runCmd("-replicas", "10", "-max-surge", "3", "-max-unavailable", "2", "-never-ready")
	if code != exitStalled || !strings.Contains(stdout, "STALLED: Progressing=False/ProgressDeadlineExceeded") {
		t.Errorf("never-ready: exit %d, stdout:\n%s", code, stdout)
	}
}

// The README's stories: Recreate of 3 replicas peaks at 3 pods (before: 6),
// the default RollingUpdate at 3 + maxSurge 1 = 4 (before: 5), and 100 000
// replicas at pod fidelity complete (before: the pod namer ran out of names
// past ~25 000 pods); the latter runs at count fidelity here for speed, and
// at pod fidelity in the CI step.
func TestStories(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-strategy", "Recreate"}, "peak pods 3 (3 active), minimum available 0"},
		{nil, "peak pods 4 (4 active), minimum available 3"},
		{[]string{"-replicas", "30000", "-fidelity", "counts"}, "completed"},
	} {
		code, stdout, stderr := runCmd(tc.args...)
		if code != exitOK || !strings.Contains(stdout, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, stdout:\n%s", tc.args, code, stderr, stdout)
		}
	}
}
