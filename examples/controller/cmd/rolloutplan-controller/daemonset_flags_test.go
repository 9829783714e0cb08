package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The DaemonSet flags: the stand-in scheduler binds pods, so it cannot run
// in shadow mode; -h lists both flags.
func TestDaemonSetFlags(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--shadow", "--daemonsets", "--stand-in-scheduler"}, &out, &errb)
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "rolloutplan-controller: --stand-in-scheduler binds pods: it cannot run with --shadow\n", errb.String())
	assert.Zero(t, out.Len())

	out.Reset()
	errb.Reset()
	assert.Equal(t, exitOK, run(context.Background(), []string{"-h"}, &out, &errb))
	assert.Contains(t, out.String(), "-daemonsets")
	assert.Contains(t, out.String(), "-stand-in-scheduler")
}
