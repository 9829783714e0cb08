// Command side-by-side runs the same rollouts with kube-controller-manager
// v1.36.3's Deployment and ReplicaSet controllers and with
// rolloutplan-controller, each on a fresh local cluster, and prints a
// table: the controllers' API writes and 409 conflicts (counted by the API
// server's audit log, by the writer's User-Agent), the time from the
// update of the Deployments to their completion, the controller process's
// CPU, medians of the runs; and whether the ReplicaSet sizes went through
// the same sequence (the decisions are upstream's).
//
//	examples/controller/hack/side-by-side.sh                  # every scenario, 3 runs
//	examples/controller/hack/side-by-side.sh --scenarios nginx --runs 1
//
// The cluster (package internal/kubecluster) is etcd and kube-apiserver
// v1.36.3 with an audit log of every write, kube-controller-manager
// running only deployment-controller and replicaset-controller (upstream)
// or none of its controllers beside rolloutplan-controller (rolloutplan),
// and the stand-in kubelet marking every pod ready a short delay after it
// appears (no nodes, no scheduler). Both controllers run without leader
// election, with their own default client rate limits. The runs of the two
// sides alternate, so that the machine's load drifts over both alike.
//
// It exits 0 when every run completed and the table is printed, 1 when a
// run failed, 2 on bad flags. ReplicaSet size sequences that differ are
// reported, not a failure: under a kubelet whose pods become ready at
// times the controllers do not choose, a sequence may legitimately depend
// on timing.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/internal/kubecluster"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
)

const name = "side-by-side"

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

type config struct {
	scenarios        []scenario
	controllers      []kubecluster.Controllers
	runs             int
	controllerBinary string
	kubeletDelay     time.Duration
	timeout          time.Duration
	startTimeout     time.Duration
	out              string
}

func parse(args []string, stdout, stderr io.Writer) (config, int, bool) {
	var c config
	var scenarioList, controllers string
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	var names []string
	for _, s := range scenarios {
		names = append(names, s.name)
	}
	fs.StringVar(&scenarioList, "scenarios", strings.Join(names, ","), "comma-separated scenarios to run: "+strings.Join(names, ", "))
	fs.StringVar(&controllers, "controllers", "both", "whose Deployment and ReplicaSet controllers run: upstream (kube-controller-manager), rolloutplan or both")
	fs.IntVar(&c.runs, "runs", 3, "runs of each scenario with each set of controllers, each on a fresh cluster (1 to 50)")
	fs.StringVar(&c.controllerBinary, "controller-binary", "", "the rolloutplan-controller binary (required unless --controllers upstream)")
	fs.DurationVar(&c.kubeletDelay, "kubelet-delay", 200*time.Millisecond, "how long after it appears the stand-in kubelet marks a pod ready (more than 0, at most 1m)")
	fs.DurationVar(&c.timeout, "timeout", 30*time.Minute, "bound on each rollout, the first one from creation included (more than 0)")
	fs.DurationVar(&c.startTimeout, "start-timeout", 3*time.Minute, "bound on the start of each cluster component (more than 0)")
	fs.StringVar(&c.out, "out", "", "directory to keep each run's logs and audit log in (default: a temporary directory, removed)")
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: side-by-side [flags]\n\nRuns the same rollouts with kube-controller-manager's Deployment and ReplicaSet\ncontrollers and with rolloutplan-controller, each on a fresh local cluster, and\nprints their API writes, 409 conflicts, time to complete and CPU (medians of the\nruns), and whether the ReplicaSet sizes went through the same sequence.\n\nScenarios:")
			for _, s := range scenarios {
				fmt.Fprintf(stdout, "  %-11s %s\n", s.name, s.about)
			}
			fmt.Fprintln(stdout, "\nFlags:")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fmt.Fprintln(stdout, "\nExit codes: 0 every run completed and the table is printed, 1 a run failed, 2 usage.")
			return c, exitOK, false
		}
		fmt.Fprintf(stderr, "%s: %v (see %s -h)\n", name, err, name)
		return c, exitUsage, false
	}
	bad := func(format string, a ...any) (config, int, bool) {
		fmt.Fprintf(stderr, name+": "+format+"\n", a...)
		return c, exitUsage, false
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	for n := range strings.SplitSeq(scenarioList, ",") {
		n = strings.TrimSpace(n)
		s, ok := scenarioNamed(n)
		if !ok {
			return bad("--scenarios: unknown scenario %q (want %s)", n, strings.Join(names, ", "))
		}
		if !slices.ContainsFunc(c.scenarios, func(x scenario) bool { return x.name == n }) {
			c.scenarios = append(c.scenarios, s)
		}
	}
	switch controllers {
	case "both":
		c.controllers = []kubecluster.Controllers{kubecluster.Upstream, kubecluster.Rolloutplan}
	default:
		ctl, err := kubecluster.ParseControllers(controllers)
		if err != nil {
			return bad("--controllers %q: want upstream, rolloutplan or both", controllers)
		}
		c.controllers = []kubecluster.Controllers{ctl}
	}
	if c.runs < 1 || c.runs > 50 {
		return bad("--runs %d: want 1 to 50", c.runs)
	}
	if slices.Contains(c.controllers, kubecluster.Rolloutplan) {
		if c.controllerBinary == "" {
			return bad("--controller-binary is required with the rolloutplan controllers")
		}
		if st, err := os.Stat(c.controllerBinary); err != nil || st.IsDir() {
			return bad("--controller-binary %s: not a file", c.controllerBinary)
		}
	}
	if c.kubeletDelay <= 0 || c.kubeletDelay > time.Minute {
		return bad("--kubelet-delay %s: want more than 0, at most 1m", c.kubeletDelay)
	}
	if c.timeout <= 0 {
		return bad("--timeout %s: want more than 0", c.timeout)
	}
	if c.startTimeout <= 0 {
		return bad("--start-timeout %s: want more than 0", c.startTimeout)
	}
	return c, exitOK, true
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, code, ok := parse(args, stdout, stderr)
	if !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, name+": "+format+"\n", a...)
		return exitFail
	}
	if c.out == "" {
		dir, err := os.MkdirTemp("", "side-by-side-")
		if err != nil {
			return fail("%v", err)
		}
		defer os.RemoveAll(dir)
		c.out = dir
	} else {
		fmt.Fprintf(stderr, "%s: logs and audit logs in %s\n", name, c.out)
	}
	var results []result
	for _, s := range c.scenarios {
		for i := range c.runs {
			for _, ctl := range c.controllers {
				dir := filepath.Join(c.out, s.name, fmt.Sprintf("%s-%d", ctl, i+1))
				fmt.Fprintf(stderr, "%s: %s, %s controllers, run %d of %d\n", name, s.name, ctl, i+1, c.runs)
				r, err := runOnce(ctx, c, s, ctl, dir)
				if err != nil {
					return fail("%s, %s controllers, run %d: %v (logs in %s)", s.name, ctl, i+1, err, keptDir(c, dir))
				}
				fmt.Fprintf(stderr, "%s:   %d writes, %d conflicts, %d reads, %.2fs, CPU %.2fs (process %.2fs)\n", name,
					r.writes.Total, r.writes.Conflicts, r.writes.Reads, r.elapsed.Seconds(), r.cpu.Seconds(), r.processCPU.Seconds())
				results = append(results, r)
			}
		}
	}
	var order []string
	for _, s := range c.scenarios {
		order = append(order, s.name)
	}
	fmt.Fprintf(stdout, "Side by side: kube-controller-manager %s (deployment-controller, replicaset-controller only) as upstream,\nrolloutplan-controller as rolloutplan; kube-apiserver and etcd as in the e2e suite; stand-in kubelet, pods\nready %s after they appear, no nodes. %d run(s) per line on %d CPUs (load average %s); medians, (range).\n\n",
		kubecluster.KubeVersion, c.kubeletDelay, c.runs, runtime.NumCPU(), loadAverage())
	for _, s := range c.scenarios {
		fmt.Fprintf(stdout, "  %-11s %s\n", s.name, s.about)
	}
	fmt.Fprintln(stdout)
	printTable(stdout, groups(results, order, c.controllers))
	return exitOK
}

func keptDir(c config, dir string) string {
	if strings.HasPrefix(filepath.Base(c.out), "side-by-side-") {
		return dir + ", removed: run with --out to keep them"
	}
	return dir
}

// loadAverage is the first three fields of /proc/loadavg, or "unknown".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// namespace is where the scenarios' Deployments live.
const namespace = "side-by-side"

// runOnce starts a cluster with ctl's controllers, creates the scenario's
// Deployments and waits for them to complete, then updates them, measures
// the rollout, and stops the cluster.
func runOnce(ctx context.Context, c config, s scenario, ctl kubecluster.Controllers, dir string) (r result, err error) {
	r = result{scenario: s.name, controllers: ctl}
	if err := os.MkdirAll(filepath.Join(dir, "cluster"), 0o755); err != nil {
		return r, err
	}
	policy, auditLog := filepath.Join(dir, "audit-policy.yaml"), filepath.Join(dir, "audit.log")
	if err := os.WriteFile(policy, []byte(auditPolicy), 0o644); err != nil {
		return r, err
	}
	cluster, err := kubecluster.Start(ctx, kubecluster.Options{
		Dir:              filepath.Join(dir, "cluster"),
		Controllers:      ctl,
		ControllerBinary: c.controllerBinary,
		KubeControllers:  []string{"-*"},
		APIServerFlags:   auditFlags(policy, auditLog),
		Nodes:            -1,
		KubeletDelay:     c.kubeletDelay,
		StartTimeout:     c.startTimeout,
	})
	if err != nil {
		return r, err
	}
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		return cluster.Stop()
	}
	defer func() { _ = stop() }()
	proc, program := cluster.KubeControllerManager, "kube-controller-manager"
	if ctl == kubecluster.Rolloutplan {
		proc, program = cluster.Controller, filepath.Base(c.controllerBinary)
	}

	client := cluster.Client
	if _, err := client.CoreV1().Namespaces().Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return r, err
	}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(namespace))
	obs, err := newObserver(factory, namespace)
	if err != nil {
		return r, err
	}
	ictx, cancel := context.WithCancel(ctx)
	defer cancel()
	factory.Start(ictx.Done())
	defer factory.Shutdown()
	for _, synced := range obs.synced {
		if !waitSynced(ictx, synced) {
			return r, errors.New("informer caches did not sync")
		}
	}

	if err := s.create(ctx, client, namespace); err != nil {
		return r, err
	}
	if _, err := obs.waitComplete(ctx, fromImage, s.deployments, c.timeout); err != nil {
		return r, fmt.Errorf("first rollout: %w", err)
	}

	obs.begin(toImage, s.names())
	cpu0, err := processCPU(proc.Pid())
	if err != nil {
		return r, err
	}
	t0 := time.Now()
	if err := s.update(ctx, client, namespace); err != nil {
		return r, err
	}
	t1, err := obs.waitComplete(ctx, toImage, s.deployments, c.timeout)
	if err != nil {
		return r, err
	}
	r.elapsed = t1.Sub(t0)
	if err := settle(ctx, auditLog, program, t0); err != nil {
		return r, err
	}
	cpu1, err := processCPU(proc.Pid())
	if err != nil {
		return r, err
	}
	end := time.Now()
	r.cpu = cpu1 - cpu0
	r.sequences = obs.sequences()
	cancel()
	if err := stop(); err != nil {
		return r, err
	}
	r.processCPU = proc.CPU()

	f, err := os.Open(auditLog)
	if err != nil {
		return r, err
	}
	defer f.Close()
	if r.writes, err = countWrites(f, program, t0, end); err != nil {
		return r, err
	}
	if r.writes.Total == 0 {
		return r, fmt.Errorf("the audit log has no write from %s after the update (is its User-Agent another program's?)", program)
	}
	return r, nil
}

func waitSynced(ctx context.Context, synced func() bool) bool {
	for !synced() {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}

// settle waits until the controller's writes since t0 stop: none for 2s
// (a status write may follow the completion), at most 30s.
func settle(ctx context.Context, auditLog, program string, t0 time.Time) error {
	const quiet, bound = 2 * time.Second, 30 * time.Second
	last, lastChange, start := -1, time.Now(), time.Now()
	for time.Since(start) < bound {
		f, err := os.Open(auditLog)
		if err != nil {
			return err
		}
		w, err := countWrites(f, program, t0, time.Time{})
		f.Close()
		if err != nil {
			return err
		}
		if w.Total != last {
			last, lastChange = w.Total, time.Now()
		} else if time.Since(lastChange) >= quiet {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s still writing %s after the rollout completed", program, bound)
}
