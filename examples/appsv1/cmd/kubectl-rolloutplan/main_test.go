package main

import (
	"os"
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
		// Every subcommand documents its exit codes in its usage.
		if !strings.Contains(strings.ToLower(out.String()), "exit codes") {
			t.Errorf("%s -h does not document its exit codes:\n%s", name, out.String())
		}
		// A bad flag: the error and the usage on stderr, nothing on
		// stdout, exit 2 — the same for every subcommand.
		out.Reset()
		if code := run([]string{name, "--no-such-flag"}, strings.NewReader(""), &out, &errOut); code != 2 || out.Len() != 0 ||
			!strings.HasPrefix(errOut.String(), "flag provided but not defined: -no-such-flag\n") || !strings.Contains(strings.ToLower(errOut.String()), "usage") {
			t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q", name, code, out.String(), errOut.String())
		}
	}
}

// The install the documentation gives works; @latest does not while the
// module has a replace directive, and no doc of the command claims it.
func TestInstallDocumented(t *testing.T) {
	var out strings.Builder
	usage(&out)
	if !strings.Contains(out.String(), "go install ./cmd/kubectl-rolloutplan") {
		t.Errorf("usage lacks the install line:\n%s", out.String())
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(src), "kubectl-rolloutplan@latest") {
		t.Error("main.go still tells users to go install …@latest")
	}
}
