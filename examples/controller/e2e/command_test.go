package e2e_test

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// buildCommand builds rolloutplan-controller into dir.
func buildCommand(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "rolloutplan-controller")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/rolloutplan-controller").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The command in shadow mode, against the real server through a kubeconfig
// and its context: it prints the writes of the first sync of a new
// Deployment and sends none.
func TestCommandShadow(t *testing.T) {
	ctx, ns := setup(t)
	dir := t.TempDir()
	bin := buildCommand(t, dir)
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := env.Kubeconfig(kubeconfig); err != nil {
		t.Fatal(err)
	}
	create(ctx, t, rolling(deployment(ns, "nginx", 3, "nginx:1.27"), intstr.FromString("25%"), intstr.FromString("25%")))
	cmd := exec.Command(bin, "--kubeconfig", kubeconfig, "--context", "e2e", "--shadow", "--namespace", ns, "--run-for", "3s")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr.String())
	}
	t.Logf("shadow output:\n%s", out)
	for _, want := range []string{
		"deployment " + ns + "/nginx: create replicasets " + ns + "/nginx-",
		"update deployments/status " + ns + "/nginx (a real server answers 409)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("shadow output lacks %q", want)
		}
	}
	// The server built from the module proxy reports no release version.
	if want := `rolloutplan-controller: API server ` + env.Config.Host + ` (context "e2e"): Kubernetes v`; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr %q does not start with %q", stderr.String(), want)
	}
	if rss, err := client.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{}); err != nil || len(rss.Items) != 0 {
		t.Errorf("shadow mode created ReplicaSets: %v %v", rss, err)
	}
}

// The command fails loudly: an API server it cannot reach (nothing
// listening, or a listener that never answers), credentials the real server
// refuses, a context the kubeconfig does not have, or caches that do not
// sync in time each end it at once with exit 1 and one line naming the
// server and the cause, in shadow mode and not.
func TestCommandFailsLoudly(t *testing.T) {
	setup(t)
	dir := t.TempDir()
	bin := buildCommand(t, dir)
	good := filepath.Join(dir, "kubeconfig")
	if err := env.Kubeconfig(good); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// rewrite writes the kubeconfig of the real server with its server or
	// token replaced.
	rewrite := func(file, old, new string) string {
		if !strings.Contains(string(b), old) {
			t.Fatalf("kubeconfig lacks %q", old)
		}
		path := filepath.Join(dir, file)
		if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}

	// Nothing listens: a port that was free a moment ago.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "https://" + l.Addr().String()
	l.Close()
	refusedKC := rewrite("refused", "server: "+env.Config.Host, "server: "+refused)

	// A listener that accepts and never answers (not even the TLS
	// handshake).
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hang.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := hang.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	hung := "https://" + hang.Addr().String()
	hangKC := rewrite("hang", "server: "+env.Config.Host, "server: "+hung)

	badToken := rewrite("token", "token: ", "token: wrong")

	cases := []struct {
		name string
		args []string
		want []string
		max  time.Duration
	}{
		{"unreachable", []string{"--kubeconfig", refusedKC, "--shadow"},
			[]string{`cannot reach the API server ` + refused + ` (context "e2e"): dial tcp `, "connection refused"}, 10 * time.Second},
		{"unreachable, sending", []string{"--kubeconfig", refusedKC, "--kubelet-delay", "1s", "--run-for", "30s"},
			[]string{`cannot reach the API server ` + refused + ` (context "e2e"): dial tcp `, "connection refused"}, 10 * time.Second},
		{"no answer", []string{"--kubeconfig", hangKC, "--shadow", "--server-timeout", "1s"},
			[]string{`cannot reach the API server ` + hung + ` (context "e2e"): no answer within 1s (--server-timeout)`}, 10 * time.Second},
		{"refused credentials", []string{"--kubeconfig", badToken, "--shadow"},
			[]string{`API server ` + env.Config.Host + ` (context "e2e"): GET /version: the server answered 401: `}, 10 * time.Second},
		{"wrong context", []string{"--kubeconfig", good, "--context", "staging", "--shadow"},
			[]string{`rolloutplan-controller: --context "staging": no such context in kubeconfig ` + good + ` (contexts: "e2e")`}, 10 * time.Second},
		{"caches not synced", []string{"--kubeconfig", good, "--context", "e2e", "--shadow", "--cache-sync-timeout", "1ms"},
			[]string{`API server ` + env.Config.Host + ` (context "e2e"): informer caches not synced: deployments, replicasets, pods not synced within 1ms`, "(--cache-sync-timeout 1ms)"}, 10 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("%v: %v, want exit status 1\nstdout: %s\nstderr: %s", tc.args, err, stdout.String(), stderr.String())
			}
			msg := stderr.String()
			t.Logf("exit 1 after %s: %s", took.Round(time.Millisecond), msg)
			lines := strings.Split(strings.TrimSuffix(msg, "\n"), "\n")
			last := lines[len(lines)-1]
			for _, w := range tc.want {
				if !strings.Contains(last, w) {
					t.Errorf("error line %q lacks %q", last, w)
				}
			}
			if tc.name != "caches not synced" && len(lines) != 1 {
				t.Errorf("stderr has %d lines, want one: %q", len(lines), msg)
			}
			if strings.Contains(msg, "syncs,") || stdout.Len() != 0 {
				t.Errorf("it ran anyway: stdout %q, stderr %q", stdout.String(), msg)
			}
			if took > tc.max {
				t.Errorf("took %s to fail, want at most %s", took, tc.max)
			}
		})
	}
}
