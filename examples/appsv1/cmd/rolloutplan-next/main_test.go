package main

import (
	"bytes"
	"strings"
	"testing"
)

// The command is the next subcommand reading standard input without -f
// (internal/cli/next holds the tests of its behaviour).
func TestWrapsNext(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runStreams([]string{"-h"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "rolloutplan-next (NAME | KIND/NAME) [flags] < state") ||
		!strings.Contains(out.String(), "Exit codes") {
		t.Errorf("-h: exit %d, stdout %q", code, out.String())
	}
	out.Reset()
	c := `{"now":"2025-03-01T10:00:00Z","deployment":{"metadata":{"name":"x","namespace":"d","uid":"u"},` +
		`"spec":{"replicas":1,"strategy":{"type":"Recreate"},"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"a","image":"a:1"}]}}}}}`
	if code := runStreams(nil, strings.NewReader(c), &out, &errOut); code != 0 || !strings.Contains(out.String(), `"verb": "create"`) ||
		errOut.String() != "Time: 2025-03-01T10:00:00Z (the case's own time; --now sets another)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := runStreams([]string{"--bogus"}, nil, &out, &errOut); code != 2 || errOut.String() != "error: unknown flag: --bogus. See 'rolloutplan-next --help'.\n" {
		t.Errorf("bad flag: exit %d, stderr %q", code, errOut.String())
	}
}
