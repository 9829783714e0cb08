package main

import (
	"strings"
	"testing"
)

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		code       int
		out, errIn string
	}{
		{nil, 2, "", "Usage: kubectl-rolloutplan SUBCOMMAND"},
		{[]string{"-h"}, 0, "Subcommands:", ""},
		{[]string{"help"}, 0, "  status           what 'kubectl rollout status' prints", ""},
		{[]string{"rollback"}, 2, "", `unknown subcommand "rollback"`},
		{[]string{"status", "-h"}, 0, "Usage: kubectl-rolloutplan status", ""},
		{[]string{"next", "-h"}, 0, "usage: next", ""},
		{[]string{"simulate", "-h"}, 0, "usage: simulate", ""},
		{[]string{"config-restarts", "-h"}, 0, "usage: kubectl-rolloutplan config-restarts", ""},
		{[]string{"config-restarts"}, 1, "", "bad restart script"},
		{[]string{"status", "-f", "../../internal/cli/rolloutio/testdata/rollout.json"}, 0,
			"Waiting for deployment \"api\" rollout to finish: 1 old replicas are pending termination...\n", ""},
	} {
		var out, errOut strings.Builder
		code := run(tc.args, strings.NewReader(""), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.errIn) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out.String(), errOut.String())
		}
	}
	for name := range subcommands {
		var out, errOut strings.Builder
		// Help that is asked for goes to stdout and exits 0.
		if code := run([]string{name, "-h"}, strings.NewReader(""), &out, &errOut); code != 0 || out.Len() == 0 || errOut.Len() != 0 {
			t.Errorf("%s -h: exit %d, %d bytes on stdout, stderr %q", name, code, out.Len(), errOut.String())
		}
	}
}
