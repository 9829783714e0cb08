package main

import (
	"bytes"
	"strings"
	"testing"
)

// The command is the next subcommand under its own name (internal/cli/next
// holds the tests of its behaviour).
func TestWrapsNext(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "usage: rolloutplan-next") {
		t.Errorf("-h: exit %d, stdout %q", code, out.String())
	}
	out.Reset()
	c := `{"now":"2025-03-01T10:00:00Z","deployment":{"metadata":{"name":"x","namespace":"d","uid":"u"},` +
		`"spec":{"replicas":1,"strategy":{"type":"Recreate"},"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}}}}}}`
	if code := run(nil, strings.NewReader(c), &out, &errOut); code != 0 || !strings.Contains(out.String(), `"verb": "create"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
