// Package e2e_test runs the rolloutplan controllers against a real
// kube-apiserver and etcd (see internal/testenv). The binaries must have been
// built by hack/build-apiserver.sh; without them every test fails.
package e2e_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/rolloutplan/rolloutplan/examples/controller/internal/testenv"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

var (
	env      *testenv.Env
	envErr   error
	client   *kubernetes.Clientset
	nsSerial int

	// sent adds up the writes of every controller the tests ran.
	sentMu sync.Mutex
	sent   controller.Stats
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rolloutplan-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	start := time.Now()
	env, envErr = testenv.Start(dir, 90*time.Second)
	if envErr == nil {
		client, envErr = env.Client()
		fmt.Fprintf(os.Stderr, "e2e: kube-apiserver %s and etcd %s ready in %s\n", testenv.KubeAPIServerVersion, testenv.EtcdVersion, time.Since(start).Round(time.Millisecond))
	}
	code := m.Run()
	fmt.Fprintf(os.Stderr, "e2e: the controllers sent %d writes: %d accepted, %d rejected with 409 (%d of them predicted by their plans), %d otherwise rejected\n",
		sent.Sent, sent.Accepted, sent.Conflict, sent.ConfirmedConflicts, sent.Failed)
	if env != nil {
		env.Stop()
	}
	if code == 0 {
		os.RemoveAll(dir)
	} else {
		fmt.Fprintf(os.Stderr, "e2e: server logs kept in %s\n", dir)
	}
	os.Exit(code)
}

// setup fails the test when the server is not running (missing binaries
// included: the suite must not pass without them) and returns a fresh
// namespace.
func setup(t *testing.T) (context.Context, string) {
	t.Helper()
	if envErr != nil {
		t.Fatalf("the end-to-end server did not start: %v", envErr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	nsSerial++
	ns := fmt.Sprintf("e2e-%d-%d", nsSerial, time.Now().UnixNano()%100000)
	if _, err := client.CoreV1().Namespaces().Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return ctx, ns
}

// startManager runs the controllers (and a stand-in kubelet) on namespace
// ns until the test ends or the returned stop is called.
func startManager(t *testing.T, ns string, o controller.ManagerOptions) (*controller.Manager, func()) {
	t.Helper()
	o.Namespace = ns
	if o.KubeletDelay == 0 {
		o.KubeletDelay = 300 * time.Millisecond
	}
	if o.Out == nil {
		o.Out = testWriter{t}
	}
	m, err := controller.NewManager(client, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		m.Run(ctx)
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			wg.Wait()
			st := m.Stats()
			sentMu.Lock()
			sent.Sent += st.Sent
			sent.Accepted += st.Accepted
			sent.Conflict += st.Conflict
			sent.ConfirmedConflicts += st.ConfirmedConflicts
			sent.Failed += st.Failed
			sentMu.Unlock()
		}
	}
	t.Cleanup(stop)
	return m, stop
}

// testWriter sends controller logs to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", p)
	return len(p), nil
}
