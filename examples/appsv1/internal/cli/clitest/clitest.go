// Package clitest runs a subcommand in tests and compares what it printed.
package clitest

import (
	"io"
	"strings"
	"testing"
)

// Case is one invocation: the arguments, standard input, and what must come
// out. Stdout and Stderr are compared exactly unless their Contains variant
// is set.
type Case struct {
	Name           string
	Args           []string
	Stdin          string
	Code           int
	Stdout         string
	Stderr         string
	StderrContains string
	StdoutContains string
}

// Run runs every case with run and reports mismatches.
func Run(t *testing.T, run func([]string, io.Reader, io.Writer, io.Writer) int, cases []Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var out, errOut strings.Builder
			code := run(tc.Args, strings.NewReader(tc.Stdin), &out, &errOut)
			if code != tc.Code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.Code, errOut.String())
			}
			switch {
			case tc.StdoutContains != "":
				if !strings.Contains(out.String(), tc.StdoutContains) {
					t.Errorf("stdout %q does not contain %q", out.String(), tc.StdoutContains)
				}
			case out.String() != tc.Stdout:
				t.Errorf("stdout\n%q\nwant\n%q", out.String(), tc.Stdout)
			}
			switch {
			case tc.StderrContains != "":
				if !strings.Contains(errOut.String(), tc.StderrContains) {
					t.Errorf("stderr %q does not contain %q", errOut.String(), tc.StderrContains)
				}
			case errOut.String() != tc.Stderr:
				t.Errorf("stderr\n%q\nwant\n%q", errOut.String(), tc.Stderr)
			}
		})
	}
}

// Data is the directory of the sample cluster states, relative to a
// subcommand package: public conformance states s1-0006 (rollout.json, a
// rollout with three revisions), s1-0029 (paused.json) and s1-0131
// (deadline.json, progress deadline exceeded), as v1 Lists; rollout.yaml is
// rollout.json as `kubectl get … -o yaml` prints it (sigs.k8s.io/yaml's
// JSONToYAML, the conversion kubectl's YAML printer makes).
const Data = "../rolloutio/testdata/"
