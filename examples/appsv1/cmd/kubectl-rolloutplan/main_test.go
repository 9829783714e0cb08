package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{nil, 2, "usage: kubectl-rolloutplan"},
		{[]string{"-h"}, 0, "restart"},
		{[]string{"nope"}, 2, `unknown subcommand "nope"`},
		{[]string{"restart", "-h"}, 0, "usage: kubectl-rolloutplan restart"},
		{[]string{"restart"}, 1, "bad restart script"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.out) {
			t.Errorf("%v: exit %d, output %q %q", tc.args, code, out.String(), errb.String())
		}
	}
}
