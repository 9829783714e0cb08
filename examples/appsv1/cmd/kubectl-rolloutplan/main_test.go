package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{nil, 2, "", "usage: kubectl-rolloutplan SUBCOMMAND"},
		{[]string{"-h"}, 0, "[next restart simulate]", ""},
		{[]string{"frobnicate"}, 2, "", `unknown subcommand "frobnicate"`},
		{[]string{"next", "-h"}, 0, "usage: next", ""},
		{[]string{"simulate", "-h"}, 0, "usage: simulate", ""},
		{[]string{"restart", "-h"}, 0, "usage: kubectl-rolloutplan restart", ""},
		{[]string{"restart"}, 1, "", "bad restart script"},
	} {
		var out, errOut bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, out.String(), errOut.String())
		}
	}
}
