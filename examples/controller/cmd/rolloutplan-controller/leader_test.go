package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The leader election flags: kube-controller-manager's names and
// defaults, checked as client-go's leader elector checks them (lease
// duration > renew deadline > JitterFactor x retry period), each bad value
// one line naming the flag.
func TestLeaderElectFlags(t *testing.T) {
	c, code, ok := parse(nil, &bytes.Buffer{}, &bytes.Buffer{})
	require.True(t, ok, "exit %d", code)
	assert.True(t, c.leaderElect, "--leader-elect is on by default, as in kube-controller-manager")
	assert.Equal(t, 15*time.Second, c.lease.LeaseDuration)
	assert.Equal(t, 10*time.Second, c.lease.RenewDeadline)
	assert.Equal(t, 2*time.Second, c.lease.RetryPeriod)
	assert.Equal(t, "kube-system", c.lease.Namespace)
	assert.Equal(t, "rolloutplan-controller", c.lease.Name)

	c, _, ok = parse([]string{"--leader-elect=false", "--leader-elect-lease-duration", "4s", "--leader-elect-renew-deadline", "3s",
		"--leader-elect-retry-period", "500ms", "--leader-elect-resource-namespace", "apps", "--leader-elect-resource-name", "rp.example.com"},
		&bytes.Buffer{}, &bytes.Buffer{})
	require.True(t, ok)
	assert.False(t, c.leaderElect)
	assert.Equal(t, 4*time.Second, c.lease.LeaseDuration)
	assert.Equal(t, 3*time.Second, c.lease.RenewDeadline)
	assert.Equal(t, 500*time.Millisecond, c.lease.RetryPeriod)
	assert.Equal(t, "apps", c.lease.Namespace)
	assert.Equal(t, "rp.example.com", c.lease.Name)

	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--leader-elect-lease-duration", "0"}, "--leader-elect-lease-duration 0s: want 1s or more"},
		{[]string{"--leader-elect-lease-duration", "900ms"}, "--leader-elect-lease-duration 900ms: want 1s or more"},
		{[]string{"--leader-elect-renew-deadline", "15s"}, "--leader-elect-renew-deadline 15s: want more than 0 and less than --leader-elect-lease-duration 15s"},
		{[]string{"--leader-elect-renew-deadline", "20s"}, "--leader-elect-renew-deadline 20s"},
		{[]string{"--leader-elect-renew-deadline", "0"}, "--leader-elect-renew-deadline 0s: want more than 0"},
		{[]string{"--leader-elect-lease-duration", "5s"}, "--leader-elect-renew-deadline 10s: want more than 0 and less than --leader-elect-lease-duration 5s"},
		{[]string{"--leader-elect-retry-period", "0"}, "--leader-elect-retry-period 0s: want more than 0"},
		{[]string{"--leader-elect-retry-period", "-1s"}, "--leader-elect-retry-period -1s"},
		// 10s is not more than 1.2 x 9s.
		{[]string{"--leader-elect-retry-period", "9s"}, "--leader-elect-retry-period 9s: want more than 0 and --leader-elect-renew-deadline 10s more than 1.2 times it"},
		{[]string{"--leader-elect-resource-namespace", ""}, `--leader-elect-resource-namespace "": `},
		{[]string{"--leader-elect-resource-namespace", "Kube_System"}, `--leader-elect-resource-namespace "Kube_System": a lowercase RFC 1123 label`},
		{[]string{"--leader-elect-resource-name", ""}, `--leader-elect-resource-name "": `},
		{[]string{"--leader-elect-resource-name", "BAD NAME!"}, `--leader-elect-resource-name "BAD NAME!": a lowercase RFC 1123 subdomain`},
		{[]string{"--leader-elect=maybe"}, `invalid boolean value "maybe" for -leader-elect`},
		{[]string{"--leader-elect-lease-duration", "long"}, `invalid value "long" for flag -leader-elect-lease-duration`},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb)
		assert.Equal(t, exitUsage, code, "%v", tc.args)
		assert.Contains(t, errb.String(), tc.want, "%v", tc.args)
		assert.Equal(t, 1, strings.Count(errb.String(), "\n"), "%v: one line on stderr: %q", tc.args, errb.String())
		assert.Zero(t, out.Len(), "%v: stdout", tc.args)
	}
}

// -h documents the leader election flags, their defaults and the exit on
// a lost Lease.
func TestHelpLeaderElection(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"-h"}, &out, &errb))
	for _, want := range []string{
		"-leader-elect\n", "(default true)", "-leader-elect-lease-duration duration", "(default 15s)",
		"-leader-elect-renew-deadline duration", "(default 10s)", "-leader-elect-retry-period duration", "(default 2s)",
		"-leader-elect-resource-namespace string", `(default "kube-system")`, "-leader-elect-resource-name string",
		`(default "rolloutplan-controller")`, "never with --shadow", "the leader lost its\n     Lease",
	} {
		assert.Contains(t, out.String(), want)
	}
}

// The controllers' client retries a request the server sheds with 429 and
// Retry-After, or answers 503 with Retry-After, waiting as told, and
// passes a 500 without Retry-After to the caller at once (the work queue
// retries that sync with backoff). Were the retries lost (a transport
// wrapper answering for client-go, a client with retries off), the first
// two GETs would fail.
func TestClientRetries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   int
		header   bool
		failures int
		wantErr  bool
		wantReqs int
	}{
		{"429 with Retry-After", http.StatusTooManyRequests, true, 2, false, 3},
		{"503 with Retry-After", http.StatusServiceUnavailable, true, 2, false, 3},
		{"500 without Retry-After", http.StatusInternalServerError, false, 1, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var times []time.Time
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				times = append(times, time.Now())
				n := len(times)
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				if n <= tc.failures {
					if tc.header {
						w.Header().Set("Retry-After", "1")
					}
					w.WriteHeader(tc.status)
					fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","code":%d}`, tc.status)
					return
				}
				fmt.Fprint(w, `{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"1"},"items":[]}`)
			}))
			defer srv.Close()
			kc := kubeconfig(t, "c", map[string]string{"c": srv.URL})
			cfg, _, err := clientConfig(kc, "")
			require.NoError(t, err)
			client, err := newClient(cfg)
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_, err = client.AppsV1().Deployments("ns").List(ctx, metav1.ListOptions{})
			if tc.wantErr {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, times, tc.wantReqs)
			for i := 1; i < len(times); i++ {
				assert.GreaterOrEqual(t, times[i].Sub(times[i-1]), 900*time.Millisecond, "retry %d sent before Retry-After elapsed", i)
			}
		})
	}
}

// Each controller's client has its own client-side rate limit and names
// the controller in its User-Agent: at 1 request per second with a burst
// of 1, two controllers' first requests both go out at once (a shared
// limit would hold the second for a second).
func TestControllerClientsHaveTheirOwnRateLimit(t *testing.T) {
	var mu sync.Mutex
	var agents []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"resourceVersion":"1"},"items":[]}`)
	}))
	defer srv.Close()
	cfg, _, err := clientConfig(kubeconfig(t, "c", map[string]string{"c": srv.URL}), "")
	require.NoError(t, err)
	cfg.QPS, cfg.Burst = 1, 1
	clientFor := controllerClients(cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	for _, name := range []string{"deployment-controller", "replicaset-controller"} {
		c, err := clientFor(name)
		require.NoError(t, err)
		_, err = c.AppsV1().Deployments("ns").List(ctx, metav1.ListOptions{})
		require.NoError(t, err)
	}
	assert.Less(t, time.Since(start), 700*time.Millisecond, "the second controller waited for the first one's rate limit")
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, agents, 2)
	assert.True(t, strings.HasSuffix(agents[0], "/deployment-controller"), agents[0])
	assert.True(t, strings.HasSuffix(agents[1], "/replicaset-controller"), agents[1])
}
