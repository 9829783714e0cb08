package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestFlags(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, 0, "-shadow"},
		{[]string{"--workers", "0"}, 2, "--workers 0: want 1 to 64"},
		{[]string{"--workers", "65"}, 2, "--workers 65"},
		{[]string{"--kubelet-delay", "-1s"}, 2, "--kubelet-delay -1s: want 0 to 1h"},
		{[]string{"--kubelet-delay", "2h"}, 2, "--kubelet-delay 2h0m0s"},
		{[]string{"--resync", "-1s"}, 2, "--resync -1s"},
		{[]string{"--run-for", "-1s"}, 2, "--run-for -1s"},
		{[]string{"--shadow", "--kubelet-delay", "1s"}, 2, "cannot run with --shadow"},
		{[]string{"--kubeconfig", "/nonexistent/kubeconfig"}, 2, "--kubeconfig"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--bogus"}, 2, "flag provided but not defined"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}
