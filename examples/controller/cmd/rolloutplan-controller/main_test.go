package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFlags(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--workers", "0"}, 2, "--workers 0: want 1 to 64"},
		{[]string{"--workers", "65"}, 2, "--workers 65"},
		{[]string{"--kubelet-delay", "-1s"}, 2, "--kubelet-delay -1s: want 0 to 1h"},
		{[]string{"--kubelet-delay", "2h"}, 2, "--kubelet-delay 2h0m0s"},
		{[]string{"--resync", "-1s"}, 2, "--resync -1s"},
		{[]string{"--run-for", "-1s"}, 2, "--run-for -1s"},
		{[]string{"--cache-sync-timeout", "0"}, 2, "--cache-sync-timeout 0s: want more than 0, at most 1h"},
		{[]string{"--cache-sync-timeout", "-1s"}, 2, "--cache-sync-timeout -1s"},
		{[]string{"--cache-sync-timeout", "61m"}, 2, "--cache-sync-timeout 1h1m0s"},
		{[]string{"--cache-sync-timeout", "soon"}, 2, `invalid value "soon" for flag -cache-sync-timeout`},
		{[]string{"--server-timeout", "0"}, 2, "--server-timeout 0s: want more than 0, at most 5m"},
		{[]string{"--kube-api-qps", "0"}, 2, "--kube-api-qps 0: want more than 0, at most 10000"},
		{[]string{"--kube-api-qps", "NaN"}, 2, "--kube-api-qps NaN: want more than 0, at most 10000"},
		{[]string{"--kube-api-burst", "0"}, 2, "--kube-api-burst 0: want 1 to 100000"},
		{[]string{"--kube-api-content-type", "application/yaml"}, 2, `--kube-api-content-type "application/yaml": want application/vnd.kubernetes.protobuf or application/json`},
		{[]string{"--server-timeout", "6m"}, 2, "--server-timeout 6m0s"},
		{[]string{"--shadow", "--kubelet-delay", "1s"}, 2, "cannot run with --shadow"},
		{[]string{"--kubeconfig", "/nonexistent/kubeconfig"}, 2, "--kubeconfig"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--bogus"}, 2, "flag provided but not defined: -bogus (see rolloutplan-controller -h)"},
		{[]string{"--context"}, 2, "flag needs an argument: -context"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
		if lines := strings.Count(errb.String(), "\n"); lines != 1 || out.Len() != 0 {
			t.Errorf("%v: %d lines on stderr, %d bytes on stdout; want one line and nothing", tc.args, lines, out.Len())
		}
	}
}

// -h prints the help, the new flags and the exit codes on stdout.
func TestHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-h"}, &out, &errb); code != 0 || errb.Len() != 0 {
		t.Fatalf("-h: exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{
		"-shadow", "-context string", "-cache-sync-timeout duration", "(default 30s)", "-server-timeout duration",
		"Exit codes:", "\n  0  stopped after the caches synced", "\n  1  error:", "unknown --context",
		"cannot be reached", "did not sync within\n     --cache-sync-timeout", "\n  2  usage:",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, out.String())
		}
	}
}

// kubeconfig writes a kubeconfig with one context per server (named by
// the keys of servers) and returns its path.
func kubeconfig(t *testing.T, current string, servers map[string]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user: {token: secret}\nclusters:\n")
	for n, s := range servers {
		fmt.Fprintf(&b, "- name: %s\n  cluster: {server: %q}\n", n, s)
	}
	b.WriteString("contexts:\n")
	for n := range servers {
		fmt.Fprintf(&b, "- name: %s\n  context: {cluster: %s, user: u}\n", n, n)
	}
	fmt.Fprintf(&b, "current-context: %q\n", current)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// runFails runs the command and requires exit 1 with one line on stderr
// holding every want.
func runFails(t *testing.T, args []string, want ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	msg := errb.String()
	if code != 1 {
		t.Errorf("%v: exit %d, want 1; stderr %q", args, code, msg)
	}
	lines := strings.Split(strings.TrimSuffix(msg, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasSuffix(msg, "\n") || !strings.HasPrefix(last, "rolloutplan-controller: ") {
		t.Errorf("%v: stderr %q does not end with one line of error", args, msg)
	}
	for _, w := range want {
		if !strings.Contains(last, w) {
			t.Errorf("%v: error line %q lacks %q", args, last, w)
		}
	}
	if out.Len() != 0 {
		t.Errorf("%v: stdout %q, want nothing", args, out.String())
	}
	return msg
}

// A server that refuses connections: exit 1 at once, naming the server,
// the context and the cause, before any informer starts.
func TestUnreachableServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	kc := kubeconfig(t, "gone", map[string]string{"gone": url})
	start := time.Now()
	msg := runFails(t, []string{"--kubeconfig", kc, "--shadow", "--run-for", "5s"},
		`cannot reach the API server `+url+` (context "gone"): dial tcp `, "connection refused")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s to fail", d)
	}
	if strings.Count(msg, "\n") != 1 {
		t.Errorf("stderr %q: want exactly one line", msg)
	}
}

// A server that accepts the connection and never answers: exit 1 after
// --server-timeout.
func TestHangingServer(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	kc := kubeconfig(t, "slow", map[string]string{"slow": srv.URL})
	start := time.Now()
	runFails(t, []string{"--kubeconfig", kc, "--shadow", "--server-timeout", "300ms"},
		`cannot reach the API server `+srv.URL+` (context "slow"): no answer within 300ms (--server-timeout)`)
	if d := time.Since(start); d < 300*time.Millisecond || d > 5*time.Second {
		t.Errorf("took %s to fail, want about 300ms", d)
	}
}

// A server that answers /version with an error, or with something that is
// not a version.
func TestServerAnswersNoVersion(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Host, "127.") {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		fmt.Fprintln(w, "<html>hello</html>")
	}))
	defer srv.Close()
	other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	kc := kubeconfig(t, "denied", map[string]string{"denied": srv.URL, "web": other})
	runFails(t, []string{"--kubeconfig", kc, "--shadow"},
		`API server `+srv.URL+` (context "denied"): GET /version: the server answered 401: `)
	runFails(t, []string{"--kubeconfig", kc, "--context", "web", "--shadow"},
		`API server `+other+` (context "web"): GET /version: not a Kubernetes API server`)
}

// A server that answers /version but forbids every list: the caches never
// sync and the command fails after --cache-sync-timeout with the list
// error.
func TestCachesDoNotSync(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/version" {
			fmt.Fprint(w, `{"major":"1","minor":"36","gitVersion":"v1.36.3"}`)
			return
		}
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,"message":"%s is forbidden: User \"u\" cannot list it"}`, r.URL.Path)
	}))
	defer srv.Close()
	kc := kubeconfig(t, "ro", map[string]string{"ro": srv.URL})
	start := time.Now()
	msg := runFails(t, []string{"--kubeconfig", kc, "--shadow", "--cache-sync-timeout", "1s"},
		`API server `+srv.URL+` (context "ro"): informer caches not synced: deployments, replicasets, pods not synced within 1s; last error:`,
		`/api/v1/pods is forbidden`, "(--cache-sync-timeout 1s)")
	t.Logf("stderr:\n%s", msg)
	if d := time.Since(start); d < time.Second || d > 10*time.Second {
		t.Errorf("took %s to fail, want about 1s", d)
	}
	if !strings.HasPrefix(msg, "rolloutplan-controller: API server "+srv.URL+` (context "ro"): Kubernetes v1.36.3`+"\n") {
		t.Errorf("stderr %q does not start with the server's version", msg)
	}

	// Stopped (--run-for) before the caches synced: an error too.
	runFails(t, []string{"--kubeconfig", kc, "--shadow", "--run-for", "500ms"},
		"informer caches not synced: deployments, replicasets, pods stopped before they synced (--run-for 500ms elapsed)")
}

// An unknown context, given or current: exit 1, naming the kubeconfig and
// the contexts it has.
func TestUnknownContext(t *testing.T) {
	kc := kubeconfig(t, "a", map[string]string{"a": "https://127.0.0.1:1", "b": "https://127.0.0.1:2"})
	runFails(t, []string{"--kubeconfig", kc, "--context", "prod", "--shadow"},
		`--context "prod": no such context in kubeconfig `+kc+` (contexts: "a", "b")`)
	gone := kubeconfig(t, "gone", map[string]string{"a": "https://127.0.0.1:1"})
	runFails(t, []string{"--kubeconfig", gone, "--shadow"},
		`kubeconfig `+gone+`: current-context "gone": no such context (contexts: "a")`)
	// $KUBECONFIG as client-go reads it.
	t.Setenv("KUBECONFIG", kc)
	runFails(t, []string{"--context", "prod"}, `--context "prod": no such context in kubeconfig `+kc+` (contexts: "a", "b")`)
	runFails(t, nil, `cannot reach the API server https://127.0.0.1:1 (context "a")`)
}

// No kubeconfig anywhere and not in a pod.
func TestNoKubeconfig(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", dir)
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	runFails(t, []string{"--shadow"}, "no kubeconfig: none at --kubeconfig, $KUBECONFIG or ~/.kube/config, and not in a pod")
	runFails(t, []string{"--context", "x"}, `--context "x": no such context in kubeconfig (none found) (it has no contexts)`)
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("clusters: [: nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	runFails(t, []string{"--kubeconfig", bad}, "kubeconfig "+bad+": ")
}
