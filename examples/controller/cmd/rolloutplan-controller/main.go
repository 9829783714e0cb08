// Command rolloutplan-controller runs the rolloutplan Deployment and
// ReplicaSet controllers against a cluster, and with --statefulsets and
// --daemonsets its StatefulSet and DaemonSet controllers too.
//
//	rolloutplan-controller --kubeconfig ~/.kube/config --context prod --shadow
//
// With --shadow it only prints the writes it would send (safe next to a
// cluster's own controller manager); without it, it sends them and records
// events, and must then be the only Deployment and ReplicaSet controller of
// the cluster. --kubelet-delay starts a stand-in kubelet that marks pods
// ready, for API servers without nodes.
//
// Without --shadow it first takes a Lease (coordination.k8s.io/v1,
// --leader-elect-resource-namespace/--leader-elect-resource-name), as
// kube-controller-manager does with --leader-elect, so that several
// replicas can run and exactly one of them writes: the others wait, and
// take the Lease over when the leader stops renewing it (after at most
// --leader-elect-lease-duration). A leader that cannot renew the Lease
// within --leader-elect-renew-deadline stops with exit 1 and one line on
// standard error; one that is stopped (SIGINT, SIGTERM, --run-for) gives
// the Lease back once its controllers have stopped. --shadow sends no
// writes, so it takes no Lease and runs next to the leader.
//
// It fails loudly: when the kubeconfig or its context cannot be used, when
// the API server cannot be reached (it asks the server its version first,
// at most --server-timeout) or when the informer caches do not sync within
// --cache-sync-timeout, it prints one line on standard error and exits 1.
// The exit codes are in -h.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
)

const name = "rolloutplan-controller"

// The exit codes.
const (
	exitOK    = 0 // stopped after the caches synced, or while waiting for the Lease
	exitFail  = 1 // the kubeconfig, the API server or the caches failed
	exitUsage = 2 // bad flags or arguments
)

const usageHead = `Usage: rolloutplan-controller [flags]

Runs the rolloutplan Deployment and ReplicaSet controllers against the API
server of a kubeconfig context, found as kubectl finds it: --kubeconfig,
else $KUBECONFIG, else ~/.kube/config (in a pod without any, the pod's
service account); --context, else the kubeconfig's current-context.

At start it asks the API server its version (at most --server-timeout),
then waits for its informer caches (at most --cache-sync-timeout); when
either fails it stops at once with one line on standard error.

With --shadow it only prints the writes each sync would send, and sends
none (safe next to the cluster's own kube-controller-manager); without it,
it sends them and must be the only Deployment and ReplicaSet controller of
the cluster.

Leader election (on unless --leader-elect=false; never with --shadow): the
controllers start only once this process holds the Lease
--leader-elect-resource-namespace/--leader-elect-resource-name; replicas
that do not hold it wait and take it over when the leader has not renewed
it for --leader-elect-lease-duration. A leader that cannot renew it within
--leader-elect-renew-deadline stops (exit 1); a leader that is stopped
gives it back once its controllers have stopped. Durations must satisfy
lease duration > renew deadline > 1.2 x retry period > 0. The controller's
credentials need get, create and update on leases (coordination.k8s.io)
in the Lease's namespace.

Flags:
`

const exitCodes = `
Exit codes:
  0  stopped after the caches synced, or while waiting for the Lease:
     --run-for elapsed, or SIGINT or SIGTERM (the last line on standard
     error counts syncs and writes)
  1  error: no kubeconfig, an unknown --context or an invalid kubeconfig;
     the API server cannot be reached or does not answer its version
     within --server-timeout; the informer caches did not sync within
     --cache-sync-timeout (or before the stop); the leader lost its
     Lease (not renewed within --leader-elect-renew-deadline)
  2  usage: unknown flag, bad value, unexpected argument
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	kubeconfig       string
	context          string
	shadow           bool
	statefulSets     bool
	daemonSets       bool
	scheduler        bool
	workers          int
	namespace        string
	kubeletDelay     time.Duration
	resync           time.Duration
	runFor           time.Duration
	cacheSyncTimeout time.Duration
	serverTimeout    time.Duration
	qps              float64
	burst            int
	contentType      string
	leaderElect      bool
	lease            controller.LeaderElection
}

func parse(args []string, stdout, stderr io.Writer) (config, int, bool) {
	var c config
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "path of the kubeconfig (default: $KUBECONFIG, then ~/.kube/config)")
	fs.StringVar(&c.context, "context", "", "kubeconfig context to use (default: the kubeconfig's current-context)")
	fs.BoolVar(&c.shadow, "shadow", false, "only print the writes each sync would send")
	fs.BoolVar(&c.statefulSets, "statefulsets", false, "also run the StatefulSet controller (then it must be the cluster's only one, unless --shadow)")
	fs.BoolVar(&c.daemonSets, "daemonsets", false, "also run the DaemonSet controller (then it must be the cluster's only one, unless --shadow)")
	fs.BoolVar(&c.scheduler, "stand-in-scheduler", false, "run a stand-in scheduler binding DaemonSet pods to their nodes, for API servers without kube-scheduler")
	fs.IntVar(&c.workers, "workers", 5, "keys each controller syncs at once (1 to 64)")
	fs.StringVar(&c.namespace, "namespace", "", "watch only this namespace (default: all)")
	fs.DurationVar(&c.kubeletDelay, "kubelet-delay", 0, "run a stand-in kubelet marking pods ready this long after creation (0: off; at most 1h)")
	fs.DurationVar(&c.resync, "resync", 10*time.Minute, "informer resync period (0: off; at most 24h)")
	fs.DurationVar(&c.runFor, "run-for", 0, "stop after this long (0: run until interrupted)")
	fs.DurationVar(&c.cacheSyncTimeout, "cache-sync-timeout", 30*time.Second, "fail when the informer caches have not synced this long after the start (more than 0, at most 1h)")
	fs.DurationVar(&c.serverTimeout, "server-timeout", 10*time.Second, "fail when the API server does not answer its version within this long at start (more than 0, at most 5m)")
	fs.Float64Var(&c.qps, "kube-api-qps", 20, "requests per second to the API server, sustained, of each controller and of the informers (more than 0, at most 10000; kube-controller-manager's default)")
	fs.IntVar(&c.burst, "kube-api-burst", 30, "requests to the API server at once above --kube-api-qps, of each controller and of the informers (1 to 100000; kube-controller-manager's default)")
	fs.StringVar(&c.contentType, "kube-api-content-type", protobufType, "encoding of the requests to the API server and of its answers: "+protobufType+" (kube-controller-manager's default, cheaper to decode) or "+jsonType)
	fs.BoolVar(&c.leaderElect, "leader-elect", true, "hold a Lease before running the controllers, so that one replica writes at a time (ignored with --shadow)")
	fs.DurationVar(&c.lease.LeaseDuration, "leader-elect-lease-duration", controller.DefaultLeaseDuration, "how long replicas that do not lead wait, after the last renewal they saw, before taking the Lease (1s or more)")
	fs.DurationVar(&c.lease.RenewDeadline, "leader-elect-renew-deadline", controller.DefaultRenewDeadline, "how long the leader tries to renew the Lease before it stops (less than the lease duration)")
	fs.DurationVar(&c.lease.RetryPeriod, "leader-elect-retry-period", controller.DefaultRetryPeriod, "wait between two tries to take or renew the Lease (renew deadline > 1.2 x retry period)")
	fs.StringVar(&c.lease.Namespace, "leader-elect-resource-namespace", "kube-system", "namespace of the Lease")
	fs.StringVar(&c.lease.Name, "leader-elect-resource-name", name, "name of the Lease")
	// Help goes to standard output and only on -h; a bad flag is one line.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprint(stdout, usageHead)
			fs.PrintDefaults()
			fmt.Fprint(stdout, exitCodes)
			return c, exitOK, false
		}
		fmt.Fprintf(stderr, "%s: %v (see %s -h)\n", name, err, name)
		return c, exitUsage, false
	}
	bad := func(format string, a ...any) (config, int, bool) {
		fmt.Fprintf(stderr, name+": "+format+"\n", a...)
		return c, exitUsage, false
	}
	switch {
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case c.workers < 1 || c.workers > 64:
		return bad("--workers %d: want 1 to 64", c.workers)
	case c.kubeletDelay < 0 || c.kubeletDelay > time.Hour:
		return bad("--kubelet-delay %s: want 0 to 1h", c.kubeletDelay)
	case c.resync < 0 || c.resync > 24*time.Hour:
		return bad("--resync %s: want 0 to 24h", c.resync)
	case c.runFor < 0:
		return bad("--run-for %s: want 0 or more", c.runFor)
	case c.cacheSyncTimeout <= 0 || c.cacheSyncTimeout > time.Hour:
		return bad("--cache-sync-timeout %s: want more than 0, at most 1h", c.cacheSyncTimeout)
	case !(c.qps > 0 && c.qps <= 10000):
		return bad("--kube-api-qps %v: want more than 0, at most 10000", c.qps)
	case c.burst < 1 || c.burst > 100000:
		return bad("--kube-api-burst %d: want 1 to 100000", c.burst)
	case c.contentType != protobufType && c.contentType != jsonType:
		return bad("--kube-api-content-type %q: want %s or %s", c.contentType, protobufType, jsonType)
	case c.serverTimeout <= 0 || c.serverTimeout > 5*time.Minute:
		return bad("--server-timeout %s: want more than 0, at most 5m", c.serverTimeout)
	case c.shadow && c.kubeletDelay > 0:
		return bad("--kubelet-delay writes pod status: it cannot run with --shadow")
	case c.shadow && c.scheduler:
		return bad("--stand-in-scheduler binds pods: it cannot run with --shadow")
	case c.lease.LeaseDuration < time.Second:
		return bad("--leader-elect-lease-duration %s: want 1s or more", c.lease.LeaseDuration)
	case c.lease.RenewDeadline <= 0 || c.lease.RenewDeadline >= c.lease.LeaseDuration:
		return bad("--leader-elect-renew-deadline %s: want more than 0 and less than --leader-elect-lease-duration %s", c.lease.RenewDeadline, c.lease.LeaseDuration)
	case c.lease.RetryPeriod <= 0 || float64(c.lease.RenewDeadline) <= leaderelection.JitterFactor*float64(c.lease.RetryPeriod):
		return bad("--leader-elect-retry-period %s: want more than 0 and --leader-elect-renew-deadline %s more than %g times it", c.lease.RetryPeriod, c.lease.RenewDeadline, leaderelection.JitterFactor)
	}
	if errs := validation.IsDNS1123Label(c.lease.Namespace); len(errs) > 0 {
		return bad("--leader-elect-resource-namespace %q: %s", c.lease.Namespace, strings.Join(errs, "; "))
	}
	if errs := validation.IsDNS1123Subdomain(c.lease.Name); len(errs) > 0 {
		return bad("--leader-elect-resource-name %q: %s", c.lease.Name, strings.Join(errs, "; "))
	}
	if c.kubeconfig != "" {
		if _, err := os.Stat(c.kubeconfig); err != nil {
			return bad("--kubeconfig: %v", err)
		}
	}
	return c, exitOK, true
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, code, ok := parse(args, stdout, stderr)
	if !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintln(stderr, oneLine(fmt.Sprintf(name+": "+format, a...)))
		return exitFail
	}
	restConfig, where, err := clientConfig(c.kubeconfig, c.context)
	if err != nil {
		return fail("%v", err)
	}
	restConfig.QPS, restConfig.Burst = float32(c.qps), c.burst
	restConfig.ContentType = c.contentType
	client, err := newClient(restConfig)
	if err != nil {
		return fail("API server %s: %v", where, err)
	}
	info, err := checkServer(ctx, client.Discovery().RESTClient(), c.serverTimeout)
	var unreachable unreachableError
	switch {
	case errors.As(err, &unreachable):
		return fail("cannot reach the API server %s: %v", where, err)
	case err != nil:
		return fail("API server %s: %v", where, err)
	}
	fmt.Fprintf(stderr, "%s: API server %s: Kubernetes %s\n", name, where, info.GitVersion)
	if c.runFor > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.runFor, fmt.Errorf("--run-for %s elapsed", c.runFor))
		defer cancel()
	}
	m, err := controller.NewManager(client, controller.ManagerOptions{
		Namespace: c.namespace, KubeletDelay: c.kubeletDelay, CacheSyncTimeout: c.cacheSyncTimeout, StatefulSets: c.statefulSets,
		DaemonSets: c.daemonSets, Scheduler: c.scheduler, ClientFor: controllerClients(restConfig),
		Options: controller.Options{Workers: c.workers, Shadow: c.shadow, Out: stdout, Resync: c.resync},
	})
	if err != nil {
		return fail("%v", err)
	}
	if c.leaderElect && !c.shadow {
		c.lease.Identity, err = identity()
		if err != nil {
			return fail("leader election identity: %v", err)
		}
		c.lease.OnNewLeader = func(id string) {
			fmt.Fprintf(stderr, "%s: Lease %s/%s held by %s\n", name, c.lease.Namespace, c.lease.Name, id)
		}
		fmt.Fprintf(stderr, "%s: waiting for the Lease %s/%s as %s\n", name, c.lease.Namespace, c.lease.Name, c.lease.Identity)
		err = controller.RunAsLeader(ctx, client, c.lease, m.Run)
	} else {
		err = m.Run(ctx)
	}
	if err != nil {
		if errors.Is(err, controller.ErrLeaderLost) {
			return fail("%v (--leader-elect-renew-deadline %s)", err, c.lease.RenewDeadline)
		}
		if ctx.Err() == nil {
			return fail("API server %s: %v (--cache-sync-timeout %s)", where, err, c.cacheSyncTimeout)
		}
		return fail("API server %s: %v", where, err)
	}
	s := m.Stats()
	fmt.Fprintf(stderr, "%s: %d syncs, %d writes sent, %d accepted, %d conflicts (%d predicted, %d confirmed)\n",
		name, s.Syncs, s.Sent, s.Accepted, s.Conflict, s.PredictedConflicts, s.ConfirmedConflicts)
	if m.StatefulSets != nil {
		s := m.StatefulSets.Stats()
		fmt.Fprintf(stderr, "%s: StatefulSets: %d syncs, %d writes sent, %d accepted, %d answered as the plans predicted\n",
			name, s.Syncs, s.Sent, s.Accepted, s.Matched)
	}
	if m.DaemonSets != nil {
		s := m.DaemonSets.Stats()
		fmt.Fprintf(stderr, "%s: DaemonSets: %d syncs, %d writes sent, %d accepted\n", name, s.Syncs, s.Sent, s.Accepted)
	}
	return exitOK
}

// newClient is the clientset of the controllers, rate limited on the
// client side as the configuration says (--kube-api-qps and
// --kube-api-burst: client-go's own default, 5 and 10, would hold a
// controller of many objects to a fraction of kube-controller-manager's
// pace). client-go's request
// retries are what the controllers rely on for an API server that sheds
// load: a request answered 429 Too Many Requests or 5xx with a Retry-After
// header is sent again after that many seconds, up to 10 times, before the
// error reaches the sync (whose key the work queue then requeues with
// backoff). Wrapping the transport or the client must keep that.
func newClient(cfg *rest.Config) (*kubernetes.Clientset, error) {
	return kubernetes.NewForConfig(cfg)
}

// The encodings --kube-api-content-type accepts. Every resource the
// controllers read and write (apps/v1, core/v1, coordination.k8s.io/v1)
// has a protobuf encoding; decoding it costs a fraction of JSON's, which
// was a tenth of the controller's CPU in a rollout of 100 Deployments.
const (
	protobufType = "application/vnd.kubernetes.protobuf"
	jsonType     = "application/json"
)

// controllerClients gives each controller a clientset of its own, as
// kube-controller-manager's client builder does: a copy of cfg whose
// User-Agent ends with the controller's name, with its own client-side
// rate limit of --kube-api-qps and --kube-api-burst (one limit shared by
// the Deployment and ReplicaSet controllers made each wait for the
// other's requests: a rollout's writes went out every 50 ms once the
// burst was spent).
func controllerClients(cfg *rest.Config) func(string) (kubernetes.Interface, error) {
	return func(controller string) (kubernetes.Interface, error) {
		return newClient(rest.AddUserAgent(rest.CopyConfig(cfg), controller))
	}
}

// identity is this process's holder identity in the Lease: the host name
// and a random suffix, as kube-controller-manager makes it, so that two
// replicas on one host differ.
func identity() (string, error) {
	host, err := os.Hostname()
	if err != nil {
		return "", err
	}
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return host + "_" + hex.EncodeToString(b), nil
}

// clientConfig loads the client configuration with client-go's loading
// rules (kubectl's): the kubeconfig path, else $KUBECONFIG, else
// ~/.kube/config, else the in-cluster configuration; the context, else the
// current-context. where names the server and the context for messages:
// "https://host:port (context "name")".
func clientConfig(kubeconfig, kubeContext string) (cfg *rest.Config, where string, err error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: kubeContext})
	files := kubeconfigFiles(rules)
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig %s: %v", files, err)
	}
	if kubeContext != "" && raw.Contexts[kubeContext] == nil {
		return nil, "", fmt.Errorf("--context %q: no such context in kubeconfig %s (%s)", kubeContext, files, contextNames(raw.Contexts))
	}
	cfg, err = cc.ClientConfig()
	switch {
	case err == nil:
	case clientcmd.IsEmptyConfig(err):
		return nil, "", errors.New("no kubeconfig: none at --kubeconfig, $KUBECONFIG or ~/.kube/config, and not in a pod")
	case clientcmd.IsContextNotFound(err):
		return nil, "", fmt.Errorf("kubeconfig %s: current-context %q: no such context (%s)", files, raw.CurrentContext, contextNames(raw.Contexts))
	default:
		return nil, "", fmt.Errorf("kubeconfig %s: %v", files, err)
	}
	switch {
	case kubeContext != "":
		where = fmt.Sprintf("%s (context %q)", cfg.Host, kubeContext)
	case raw.CurrentContext != "" && raw.Contexts[raw.CurrentContext] != nil:
		where = fmt.Sprintf("%s (context %q)", cfg.Host, raw.CurrentContext)
	default:
		where = fmt.Sprintf("%s (in-cluster configuration)", cfg.Host)
	}
	return cfg, where, nil
}

// kubeconfigFiles names the kubeconfig files the rules read.
func kubeconfigFiles(rules *clientcmd.ClientConfigLoadingRules) string {
	if rules.ExplicitPath != "" {
		return rules.ExplicitPath
	}
	var found []string
	for _, f := range rules.GetLoadingPrecedence() {
		if _, err := os.Stat(f); err == nil {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		return "(none found)"
	}
	return strings.Join(found, string(os.PathListSeparator))
}

func contextNames[V any](contexts map[string]V) string {
	if len(contexts) == 0 {
		return "it has no contexts"
	}
	names := make([]string, 0, len(contexts))
	for n := range contexts {
		names = append(names, fmt.Sprintf("%q", n))
	}
	slices.Sort(names)
	return "contexts: " + strings.Join(names, ", ")
}

// checkServer asks the API server its version, waiting at most timeout,
// and says why when it cannot.
func checkServer(ctx context.Context, rc rest.Interface, timeout time.Duration) (*version.Info, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, err := rc.Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		var status apierrors.APIStatus
		if errors.As(err, &status) && !isTimeout(err) {
			return nil, fmt.Errorf("GET /version: the server answered %d: %v", status.Status().Code, err)
		}
		return nil, unreachableError{reachCause(ctx, err, timeout)}
	}
	var info version.Info
	if err := json.Unmarshal(body, &info); err != nil || info.GitVersion == "" {
		return nil, fmt.Errorf("GET /version: not a Kubernetes API server: the answer is no version (%.60q)", body)
	}
	return &info, nil
}

// unreachableError is a request that got no answer from the server.
type unreachableError struct{ cause string }

func (e unreachableError) Error() string { return e.cause }

// reachCause is the cause of a failed request without the request's URL,
// which the message names already.
func reachCause(ctx context.Context, err error, timeout time.Duration) string {
	switch {
	case isTimeout(err) && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s (--server-timeout)", timeout)
	case ctx.Err() != nil:
		return fmt.Sprintf("stopped (%v)", context.Cause(ctx))
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var nerr net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &nerr) && nerr.Timeout())
}

// oneLine folds the line breaks of a message.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
