// Command kube-e2e runs Kubernetes' own e2e specs for Deployments,
// ReplicaSets, StatefulSets and DaemonSets (test/e2e/apps of
// k8s.io/kubernetes v1.36.3; --kinds narrows them) against a local cluster
// whose controllers for those kinds are rolloutplan's, then against the
// same cluster with kube-controller-manager's own, and prints both result
// lists and their difference.
//
//	examples/controller/hack/kube-e2e.sh                 # both runs
//	examples/controller/hack/kube-e2e.sh --controllers rolloutplan --conformance
//
// The cluster (package internal/kubecluster) is etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler v1.36.3 built from the module
// proxy by hack/build-apiserver.sh, and stand-in nodes whose kubelet runs
// no containers. The specs that need what such a cluster cannot give (a
// container answering on the network, a cloud) are skipped, each with its
// reason, in both runs; no spec is skipped for controller behaviour.
//
// It exits 0 when every spec run passed with both sets of controllers (or
// the one asked for) and the two result lists are equal, 1 otherwise, 2 on
// bad flags.
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
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/internal/kubecluster"
	"github.com/rolloutplan/rolloutplan/examples/controller/internal/testenv"
)

const name = "kube-e2e"

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

// kinds are the workload kinds whose e2e files can run.
var kinds = []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"}

// containerText is the regular expression of the Ginkgo container text of
// a kind's specs (the DaemonSet ones are all serial).
var containerText = map[string]string{
	"Deployment":  `Deployment`,
	"ReplicaSet":  `ReplicaSet`,
	"StatefulSet": `StatefulSet`,
	"DaemonSet":   `Daemon set \[Serial\]`,
}

type config struct {
	controllers      []kubecluster.Controllers
	kinds            []string
	conformance      bool
	focus            string
	controllerBinary string
	e2eBinary        string
	out              string
	nodes            int
	timeout          time.Duration
}

func parse(args []string, stdout, stderr io.Writer) (config, int, bool) {
	var c config
	var controllers, kindList string
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&controllers, "controllers", "both", "whose controllers the specs run against: rolloutplan, upstream or both (rolloutplan first)")
	fs.StringVar(&kindList, "kinds", "Deployment,ReplicaSet,StatefulSet,DaemonSet", "comma-separated kinds whose specs run: Deployment, ReplicaSet, StatefulSet, DaemonSet (the Deployment and ReplicaSet controllers are always swapped; the StatefulSet and DaemonSet ones when listed)")
	fs.BoolVar(&c.conformance, "conformance", false, "run only the [Conformance] specs")
	fs.StringVar(&c.focus, "focus", "", "run only the specs whose full name also matches this regular expression")
	fs.StringVar(&c.controllerBinary, "controller-binary", "", "the rolloutplan-controller binary (required unless --controllers upstream)")
	fs.StringVar(&c.e2eBinary, "e2e-binary", "", "Kubernetes' e2e.test (default: the one hack/build-apiserver.sh e2e.test caches)")
	fs.StringVar(&c.out, "out", "", "directory for each run's logs and Ginkgo reports (default: a new temporary directory, kept)")
	fs.IntVar(&c.nodes, "nodes", 3, "stand-in nodes (1 to 100)")
	fs.DurationVar(&c.timeout, "timeout", time.Hour, "bound on each e2e run")
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: kube-e2e [flags]\n\nRuns Kubernetes' own e2e specs for Deployments, ReplicaSets, StatefulSets and\nDaemonSets against a local cluster with rolloutplan's controllers and with\nkube-controller-manager's.\n\nFlags:")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fmt.Fprintln(stdout, "\nExit codes: 0 every spec run passed and the result lists are equal, 1 otherwise, 2 usage.")
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
	switch controllers {
	case "both":
		c.controllers = []kubecluster.Controllers{kubecluster.Rolloutplan, kubecluster.Upstream}
	default:
		ctl, err := kubecluster.ParseControllers(controllers)
		if err != nil {
			return bad("--controllers %q: want rolloutplan, upstream or both", controllers)
		}
		c.controllers = []kubecluster.Controllers{ctl}
	}
	for k := range strings.SplitSeq(kindList, ",") {
		k = strings.TrimSpace(k)
		if !slices.Contains(kinds, k) {
			return bad("--kinds: unknown kind %q (want %s)", k, strings.Join(kinds, ", "))
		}
		if !slices.Contains(c.kinds, k) {
			c.kinds = append(c.kinds, k)
		}
	}
	if c.focus != "" {
		if _, err := regexp.Compile(c.focus); err != nil {
			return bad("--focus: %v", err)
		}
	}
	if slices.Contains(c.controllers, kubecluster.Rolloutplan) {
		if c.controllerBinary == "" {
			return bad("--controller-binary is required with the rolloutplan controllers")
		}
		if st, err := os.Stat(c.controllerBinary); err != nil || st.IsDir() {
			return bad("--controller-binary %s: not a file", c.controllerBinary)
		}
	}
	if c.e2eBinary != "" {
		if st, err := os.Stat(c.e2eBinary); err != nil || st.IsDir() {
			return bad("--e2e-binary %s: not a file", c.e2eBinary)
		}
	}
	if c.nodes < 1 || c.nodes > 100 {
		return bad("--nodes %d: want 1 to 100", c.nodes)
	}
	if c.timeout <= 0 {
		return bad("--timeout %s: want more than 0", c.timeout)
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
	if c.e2eBinary == "" {
		bin, err := testenv.Binary("e2e.test", kubecluster.KubeVersion)
		if err != nil {
			return fail("%v", err)
		}
		c.e2eBinary = bin
	}
	if c.out == "" {
		dir, err := os.MkdirTemp("", "kube-e2e-")
		if err != nil {
			return fail("%v", err)
		}
		c.out = dir
	}
	fmt.Fprintf(stderr, "%s: logs and reports in %s\n", name, c.out)
	conformance := ""
	if c.conformance {
		conformance = " labelled Conformance"
	}
	fmt.Fprintf(stdout, "Kubernetes %s e2e specs matching %s%s\n", kubecluster.KubeVersion, focusOf(c), conformance)
	fmt.Fprintf(stdout, "skipped in every run (environmental):\n")
	for _, e := range environmental {
		fmt.Fprintf(stdout, "  %s: %s\n", e.spec, e.reason)
	}
	results := map[kubecluster.Controllers][]spec{}
	failed := false
	for _, ctl := range c.controllers {
		specs, elapsed, err := runOnce(ctx, c, ctl, stderr)
		if err != nil {
			return fail("%s controllers: %v", ctl, err)
		}
		results[ctl] = specs
		printRun(stdout, string(ctl)+" controllers", specs, elapsed)
		if _, f, _ := counts(specs); f > 0 {
			failed = true
		}
	}
	if len(c.controllers) == 2 {
		a, b := c.controllers[0], c.controllers[1]
		diff := difference(string(a), results[a], string(b), results[b])
		if len(diff) == 0 {
			fmt.Fprintln(stdout, "difference: none")
		} else {
			fmt.Fprintf(stdout, "difference: %d specs\n", len(diff))
			for _, d := range diff {
				fmt.Fprintln(stdout, "  "+d)
			}
			failed = true
		}
	}
	if failed {
		return exitFail
	}
	return exitOK
}

// focusOf is the Ginkgo focus: the kinds' specs, only those matching
// --focus too with it (Ginkgo ORs several focus flags: both filters go in
// one expression, the kinds' container text first). --conformance is the
// label filter Conformance, the label the suite gives its conformance
// specs.
func focusOf(c config) string {
	var texts []string
	for _, k := range c.kinds {
		texts = append(texts, containerText[k])
	}
	f := `\[sig-apps\] (?:` + strings.Join(texts, "|") + `) `
	if c.focus != "" {
		f = `(?:` + f + `.*(?:` + c.focus + `))`
	}
	return f
}

// selection is which specs of the binary a run asks for.
func selection(c config) selector {
	return selector{focus: regexp.MustCompile(focusOf(c)), skip: skipRegexp(), conformance: c.conformance}
}

// skipOf is the Ginkgo skip: the environmental specs.
func skipOf() string {
	var names []string
	for _, e := range environmental {
		names = append(names, regexp.QuoteMeta(e.spec))
	}
	return strings.Join(names, "|")
}

// e2eRegistry is the stand-in kubelet's registry: it holds the images the
// e2e suite runs, all under registry.k8s.io, and nothing else, so that the
// specs that roll out an image that does not exist ("webserver:404") see
// its pods stay Pending in ErrImagePull, as on a real cluster.
func e2eRegistry(image string) bool { return strings.HasPrefix(image, "registry.k8s.io/") }

// skipRegexp is skipOf compiled; nil when nothing is skipped.
func skipRegexp() *regexp.Regexp {
	if s := skipOf(); s != "" {
		return regexp.MustCompile(s)
	}
	return nil
}

// runOnce starts a cluster with ctl's controllers, runs the e2e binary
// against it and returns its specs.
func runOnce(ctx context.Context, c config, ctl kubecluster.Controllers, stderr io.Writer) ([]spec, time.Duration, error) {
	dir := filepath.Join(c.out, string(ctl))
	if err := os.MkdirAll(filepath.Join(dir, "cluster"), 0o755); err != nil {
		return nil, 0, err
	}
	fmt.Fprintf(stderr, "%s: %s controllers: starting the cluster\n", name, ctl)
	cluster, err := kubecluster.Start(ctx, kubecluster.Options{
		Dir:              filepath.Join(dir, "cluster"),
		Controllers:      ctl,
		ControllerBinary: c.controllerBinary,
		StatefulSets:     slices.Contains(c.kinds, "StatefulSet"),
		DaemonSets:       slices.Contains(c.kinds, "DaemonSet"),
		Nodes:            c.nodes,
		Pullable:         e2eRegistry,
	})
	if err != nil {
		return nil, 0, err
	}
	defer func() {
		if err := cluster.Stop(); err != nil {
			fmt.Fprintf(stderr, "%s: %s controllers: %v\n", name, ctl, err)
		}
	}()
	report := filepath.Join(dir, "ginkgo-report.json")
	args := []string{
		"--kubeconfig=" + cluster.Kubeconfig,
		"--provider=skeleton",
		"--ginkgo.focus=" + focusOf(c),
		"--ginkgo.json-report=" + report,
		"--ginkgo.no-color",
		"--ginkgo.v",
		"--ginkgo.timeout=" + c.timeout.String(),
	}
	if skip := skipOf(); skip != "" {
		args = append(args, "--ginkgo.skip="+skip)
	}
	if c.conformance {
		args = append(args, "--ginkgo.label-filter=Conformance")
	}
	fmt.Fprintf(stderr, "%s: %s controllers: running e2e.test (log %s)\n", name, ctl, filepath.Join(dir, "e2e.log"))
	start := time.Now()
	proc, err := testenv.StartProcess(filepath.Join(dir, "e2e.log"), c.e2eBinary, args...)
	if err != nil {
		return nil, 0, err
	}
	select {
	case <-proc.Done():
	case <-ctx.Done():
		_ = proc.Stop(30 * time.Second)
		return nil, 0, ctx.Err()
	}
	elapsed := time.Since(start)
	_ = proc.Stop(0) // it has exited: its status says whether specs failed, the report says which
	f, err := os.Open(report)
	if err != nil {
		return nil, elapsed, fmt.Errorf("e2e.test wrote no report (see %s): %w", filepath.Join(dir, "e2e.log"), err)
	}
	defer f.Close()
	specs, err := readReport(f, selection(c))
	return specs, elapsed, err
}
