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
			check(t, "stdout", out.String(), tc.Stdout, tc.StdoutContains)
			check(t, "stderr", errOut.String(), tc.Stderr, tc.StderrContains)
		})
	}
}

// check compares one stream: it must contain contains when that is set,
// else equal want.
func check(t *testing.T, stream, got, want, contains string) {
	t.Helper()
	switch {
	case contains != "":
		if !strings.Contains(got, contains) {
			t.Errorf("%s %q does not contain %q", stream, got, contains)
		}
	case got != want:
		t.Errorf("%s\n%q\nwant\n%q", stream, got, want)
	}
}

// Data is the directory of the sample cluster states, relative to a
// subcommand package: public conformance states s1-0006 (rollout.json, a
// rollout with three revisions), s1-0029 (paused.json) and s1-0131
// (deadline.json, progress deadline exceeded), as v1 Lists; rollout.yaml is
// rollout.json as `kubectl get … -o yaml` prints it (sigs.k8s.io/yaml's
// JSONToYAML, the conversion kubectl's YAML printer makes).
const Data = "../rolloutio/testdata/"
