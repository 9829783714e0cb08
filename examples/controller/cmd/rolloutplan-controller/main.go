// Command rolloutplan-controller runs the rolloutplan Deployment and
// ReplicaSet controllers against a cluster.
//
//	rolloutplan-controller --kubeconfig ~/.kube/config --shadow
//
// With --shadow it only prints the writes it would send (safe next to a
// cluster's own controller manager); without it, it sends them and records
// events, and must then be the only Deployment and ReplicaSet controller of
// the cluster. --kubelet-delay starts a stand-in kubelet that marks pods
// ready, for API servers without nodes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	kubeconfig   string
	shadow       bool
	workers      int
	namespace    string
	kubeletDelay time.Duration
	resync       time.Duration
	runFor       time.Duration
}

func parse(args []string, stderr io.Writer) (config, int, bool) {
	var c config
	fs := flag.NewFlagSet("rolloutplan-controller", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "path of the kubeconfig (default: $KUBECONFIG, then ~/.kube/config)")
	fs.BoolVar(&c.shadow, "shadow", false, "only print the writes each sync would send")
	fs.IntVar(&c.workers, "workers", 5, "keys each controller syncs at once (1 to 64)")
	fs.StringVar(&c.namespace, "namespace", "", "watch only this namespace (default: all)")
	fs.DurationVar(&c.kubeletDelay, "kubelet-delay", 0, "run a stand-in kubelet marking pods ready this long after creation (0: off; at most 1h)")
	fs.DurationVar(&c.resync, "resync", 10*time.Minute, "informer resync period (0: off; at most 24h)")
	fs.DurationVar(&c.runFor, "run-for", 0, "stop after this long (0: run until interrupted)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, 0, false
		}
		return c, 2, false
	}
	bad := func(format string, a ...any) (config, int, bool) {
		fmt.Fprintf(stderr, "rolloutplan-controller: "+format+"\n", a...)
		return c, 2, false
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
	case c.shadow && c.kubeletDelay > 0:
		return bad("--kubelet-delay writes pod status: it cannot run with --shadow")
	}
	if c.kubeconfig != "" {
		if _, err := os.Stat(c.kubeconfig); err != nil {
			return bad("--kubeconfig: %v", err)
		}
	}
	return c, 0, true
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, code, ok := parse(args, stderr)
	if !ok {
		return code
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = c.kubeconfig
	restConfig, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		fmt.Fprintf(stderr, "rolloutplan-controller: --kubeconfig: %v\n", err)
		return 1
	}
	client, err := kubernetes.NewForConfig(restConfig)
	if err != nil {
		fmt.Fprintf(stderr, "rolloutplan-controller: %v\n", err)
		return 1
	}
	if c.runFor > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.runFor)
		defer cancel()
	}
	m, err := controller.NewManager(client, controller.ManagerOptions{
		Namespace: c.namespace, KubeletDelay: c.kubeletDelay,
		Options: controller.Options{Workers: c.workers, Shadow: c.shadow, Out: stdout, Resync: c.resync},
	})
	if err != nil {
		fmt.Fprintf(stderr, "rolloutplan-controller: %v\n", err)
		return 1
	}
	m.Run(ctx)
	s := m.Stats()
	fmt.Fprintf(stderr, "rolloutplan-controller: %d syncs, %d writes sent, %d accepted, %d conflicts (%d predicted, %d confirmed)\n",
		s.Syncs, s.Sent, s.Accepted, s.Conflict, s.PredictedConflicts, s.ConfirmedConflicts)
	return 0
}
