// Package testenv starts a real etcd and kube-apiserver on loopback ports
// for the controller's end-to-end tests, from the binaries that
// hack/build-apiserver.sh builds and caches under $(go env GOPATH)/bin.
//
// Both processes listen on 127.0.0.1 only, keep their data in a temporary
// directory and are killed by [Env.Stop]. The API server accepts one bearer
// token for a member of system:masters and authorizes everything.
package testenv

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// The versions hack/build-apiserver.sh builds.
const (
	EtcdVersion          = "v3.6.16"
	KubeAPIServerVersion = "v1.36.3"
)

// ErrNoBinaries is returned (wrapped) when the binaries are not built.
var ErrNoBinaries = errors.New("binaries not built: run examples/controller/hack/build-apiserver.sh (with \"all\" for kube-controller-manager, kube-scheduler and e2e.test)")

// Binaries returns the paths of the etcd and kube-apiserver binaries (see
// [Binary]).
func Binaries() (etcd, apiserver string, err error) {
	if etcd, err = Binary("etcd", EtcdVersion); err != nil {
		return "", "", err
	}
	if apiserver, err = Binary("kube-apiserver", KubeAPIServerVersion); err != nil {
		return "", "", err
	}
	return etcd, apiserver, nil
}

// Binary returns the path of a binary hack/build-apiserver.sh builds: from
// $ROLLOUTPLAN_E2E_ASSETS (a directory holding it under its plain name),
// or $(go env GOPATH)/bin/<name>-<version>. The error wraps
// [ErrNoBinaries] when it is not there.
func Binary(name, version string) (string, error) {
	var path string
	if dir := os.Getenv("ROLLOUTPLAN_E2E_ASSETS"); dir != "" {
		path = filepath.Join(dir, name)
	} else {
		gopath, err := exec.Command("go", "env", "GOPATH").Output()
		if err != nil {
			return "", fmt.Errorf("go env GOPATH: %w", err)
		}
		bin := filepath.Join(strings.TrimSpace(strings.Split(string(gopath), string(os.PathListSeparator))[0]), "bin")
		path = filepath.Join(bin, name+"-"+version)
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return "", fmt.Errorf("%w (missing %s)", ErrNoBinaries, path)
	}
	return path, nil
}

// Env is a running etcd and kube-apiserver.
type Env struct {
	dir       string
	etcdBin   string
	apiBin    string
	token     string
	etcdURL   string
	apiPort   int
	etcd      *proc
	apiserver *proc
	opts      Options
	// Config is a client configuration for the API server.
	Config *rest.Config
}

type proc struct {
	cmd  *exec.Cmd
	done chan struct{}
	log  *os.File
}

// Start starts etcd and the API server in dir (which must exist; the
// caller removes it) and waits until the API server is ready, at most
// timeout.
func Start(dir string, timeout time.Duration) (*Env, error) {
	return StartWith(dir, timeout, Options{})
}

// StartWith is [Start] with options.
func StartWith(dir string, timeout time.Duration, o Options) (*Env, error) {
	etcdBin, apiBin, err := Binaries()
	if err != nil {
		return nil, err
	}
	e := &Env{dir: dir, etcdBin: etcdBin, apiBin: apiBin, opts: o}
	ok := false
	defer func() {
		if !ok {
			e.Stop()
		}
	}()
	if err := e.writeCredentials(); err != nil {
		return nil, err
	}
	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	e.etcdURL = "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peer := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	e.apiPort = ports[2]
	e.etcd, err = start(filepath.Join(dir, "etcd.log"), etcdBin,
		"--name=default",
		"--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+e.etcdURL,
		"--advertise-client-urls="+e.etcdURL,
		"--listen-peer-urls="+peer,
		"--initial-advertise-peer-urls="+peer,
		"--initial-cluster=default="+peer,
		"--unsafe-no-fsync=true",
		"--log-level=error",
	)
	if err != nil {
		return nil, err
	}
	if err := e.StartAPIServer(timeout); err != nil {
		return nil, err
	}
	ok = true
	return e, nil
}

func (e *Env) writeCredentials() error {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	e.token = hex.EncodeToString(b)
	if err := os.WriteFile(filepath.Join(e.dir, "tokens.csv"), []byte(e.token+`,admin,admin,"system:masters"`+"\n"), 0o600); err != nil {
		return err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(e.dir, "sa.key"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
}

// StartAPIServer starts the API server (again, after [Env.StopAPIServer])
// on the same port and waits until it is ready.
func (e *Env) StartAPIServer(timeout time.Duration) error {
	sa := filepath.Join(e.dir, "sa.key")
	var err error
	args := []string{
		"--etcd-servers=" + e.etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(e.apiPort),
		"--cert-dir=" + filepath.Join(e.dir, "certs"),
		"--token-auth-file=" + filepath.Join(e.dir, "tokens.csv"),
		"--authorization-mode=AlwaysAllow",
		"--service-account-issuer=https://127.0.0.1",
		"--service-account-key-file=" + sa,
		"--service-account-signing-key-file=" + sa,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--disable-admission-plugins=ServiceAccount",
		"--enable-priority-and-fairness=false",
		"--endpoint-reconciler-type=none",
		"--v=0",
	}
	e.apiserver, err = start(filepath.Join(e.dir, "kube-apiserver.log"), e.apiBin, append(args, e.opts.APIServerFlags...)...)
	if err != nil {
		return err
	}
	e.Config = &rest.Config{
		Host:            "https://127.0.0.1:" + strconv.Itoa(e.apiPort),
		BearerToken:     e.token,
		TLSClientConfig: rest.TLSClientConfig{Insecure: true},
		QPS:             500,
		Burst:           1000,
	}
	return e.waitReady(timeout)
}

func (e *Env) waitReady(timeout time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: insecureTLS()}}
	deadline := time.Now().Add(timeout)
	var last string
	for time.Now().Before(deadline) {
		select {
		case <-e.apiserver.done:
			return fmt.Errorf("kube-apiserver exited: %s", e.tail("kube-apiserver.log"))
		default:
		}
		req, _ := http.NewRequest(http.MethodGet, e.Config.Host+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+e.token)
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, body)
		} else {
			last = err.Error()
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("kube-apiserver not ready after %s (last answer: %s); log: %s", timeout, last, e.tail("kube-apiserver.log"))
}

// ServiceAccountKeyFile is the path of the key the API server signs and
// verifies service account tokens with (kube-controller-manager's
// --service-account-private-key-file).
func (e *Env) ServiceAccountKeyFile() string { return filepath.Join(e.dir, "sa.key") }

// ServingCertFile is the path of the API server's self-signed serving
// certificate, the cluster's root CA for its clients
// (kube-controller-manager's --root-ca-file).
func (e *Env) ServingCertFile() string { return filepath.Join(e.dir, "certs", "apiserver.crt") }

// Client returns a clientset for the API server.
func (e *Env) Client() (*kubernetes.Clientset, error) {
	return kubernetes.NewForConfig(e.Config)
}

// StopAPIServer kills the API server; etcd keeps the data.
func (e *Env) StopAPIServer() {
	e.apiserver.kill()
}

// Stop kills both processes.
func (e *Env) Stop() {
	e.apiserver.kill()
	e.etcd.kill()
}

// Kubeconfig writes a kubeconfig for the API server to path.
func (e *Env) Kubeconfig(path string) error {
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: %s
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: %s
contexts:
- name: e2e
  context: {cluster: e2e, user: admin}
current-context: e2e
`, e.Config.Host, e.token)
	return os.WriteFile(path, []byte(cfg), 0o600)
}

func (e *Env) tail(name string) string {
	b, _ := os.ReadFile(filepath.Join(e.dir, name))
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

func start(logPath, bin string, args ...string) (*proc, error) {
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	p := &proc{cmd: cmd, done: make(chan struct{}), log: log}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

var killMu sync.Mutex

func (p *proc) kill() {
	if p == nil {
		return
	}
	killMu.Lock()
	defer killMu.Unlock()
	_ = p.cmd.Process.Kill()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
	}
	p.log.Close()
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}
