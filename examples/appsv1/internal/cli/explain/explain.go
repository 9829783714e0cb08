// Package explain is `kubectl-rolloutplan explain`: a what-if review of a
// Deployment's strategy before it is applied (plan/rollout.Lint): the
// resolved fenceposts, the peak pods, the minimum available, the scaling
// steps and the duration of a simulated rollout, and the pitfalls found.
package explain

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	apps "k8s.io/api/apps/v1"
)

// Run runs the subcommand: flags and arguments in args, the Deployment on
// stdin (or -f), the review on stdout. It returns 0 when the review was
// printed (warnings included), 1 for unreadable or invalid input, 2 for bad
// flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t rolloutio.Target
	t.AddFlags(fs)
	readyAfter := fs.Duration("ready-after", 0, "how long a new pod takes to become ready (`duration`, e.g. 30s)")
	grace := fs.Duration("termination-grace", 0, "how long a deleted pod keeps terminating (`duration`)")
	minAvailable := fs.Int("min-available", 0, "pods that must stay available, as a PodDisruptionBudget's minAvailable (`count`, 0: none)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: kubectl-rolloutplan explain [deployment/NAME] [flags]

Reviews a Deployment's strategy before it is applied: reads a Deployment
(JSON: a manifest, 'kubectl get deployment NAME -o json', or a List) and
simulates a template change on it.

Flags:
`)
		fs.PrintDefaults()
	}
	pos, code, stop := rolloutio.ParseFlags(fs, args, stdout)
	if stop {
		return code
	}
	if err := t.ParseArgs(pos); err != nil {
		return rolloutio.Usage(stderr, "explain", err)
	}
	switch {
	case *readyAfter < 0:
		return rolloutio.Usage(stderr, "explain", fmt.Errorf("--ready-after %s: must not be negative", *readyAfter))
	case *grace < 0:
		return rolloutio.Usage(stderr, "explain", fmt.Errorf("--termination-grace %s: must not be negative", *grace))
	case *minAvailable < 0 || *minAvailable > 1<<31-1:
		return rolloutio.Usage(stderr, "explain", fmt.Errorf("--min-available %d: must be between 0 and 2147483647", *minAvailable))
	}
	d, err := readDeployment(&t, stdin)
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	r, err := rollout.Lint(d, rollout.LintOptions{ReadyAfter: *readyAfter, TerminationGrace: *grace, MinAvailable: int32(*minAvailable)})
	if err != nil {
		return rolloutio.Fail(stderr, err)
	}
	report(stdout, d, r, *readyAfter)
	return 0
}

// readDeployment reads one Deployment: a Deployment object, or the
// Deployment t names in a List.
func readDeployment(t *rolloutio.Target, stdin io.Reader) (*model.Deployment, error) {
	var data []byte
	var err error
	if t.File == "-" || t.File == "" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(t.File)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the Deployment: %w", err)
	}
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, errors.New("the input is not a JSON object: give a Deployment or a List as JSON (-o json)")
	}
	if head.Kind != "Deployment" {
		s, err := t.Read(bytes.NewReader(data), time.Time{})
		if err != nil {
			return nil, err
		}
		return s.Deployment, nil
	}
	var d apps.Deployment
	if err := appsv1.UnmarshalStrict(data, &d); err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	if t.Name != "" && d.Name != t.Name {
		return nil, fmt.Errorf("the input is Deployment %q, not %q", d.Name, t.Name)
	}
	return appsv1.DeploymentToModel(&d)
}

func report(w io.Writer, d *model.Deployment, r rollout.Report, readyAfter time.Duration) {
	fmt.Fprintf(w, "deployment.apps/%s: %s, %d replicas\n", d.Name, r.Strategy, r.Replicas)
	if ru := d.Spec.Strategy.RollingUpdate; r.Strategy == model.RollingUpdateStrategy && ru != nil {
		fmt.Fprintf(w, "  maxSurge %s → %d, maxUnavailable %s → %d: at most %d pods, at least %d available\n",
			fence(ru.MaxSurge, "25%"), r.MaxSurge, fence(ru.MaxUnavailable, "25%"), r.MaxUnavailable,
			r.Replicas+r.MaxSurge, r.Replicas-r.MaxUnavailable)
	} else if r.Strategy == model.RollingUpdateStrategy {
		fmt.Fprintf(w, "  maxSurge 25%% → %d, maxUnavailable 25%% → %d (the defaults)\n", r.MaxSurge, r.MaxUnavailable)
	}
	fmt.Fprintf(w, "  simulated template change, pods ready %s after they start:\n", readyAfter)
	fmt.Fprintf(w, "    peak pods %d, minimum available %d, %d scaling steps", r.PeakPods, r.MinAvailable, r.Steps)
	if r.Completed {
		fmt.Fprintf(w, ", done after %s\n", r.Duration)
	} else {
		fmt.Fprintln(w, ", never completes")
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "%s: %s: %s\n", f.Severity, f.Code, f.Message)
	}
}

func fence(v *model.IntOrString, def string) string {
	if v == nil {
		return def
	}
	return v.String()
}
