// Package next is the `next` subcommand: "what will the Deployment
// controller do next?". It reads a cluster state, plans one sync of a
// Deployment the way kube-controller-manager v1.36 does, and prints the
// writes, events, requeue and error as the conformance Output JSON of the
// rolloutplan repository.
//
//	kubectl get deployment,replicasets,pods -n NS -o yaml |
//	    kubectl-rolloutplan next deployment/NAME -now 2025-03-01T10:00:00Z
//	kubectl-rolloutplan next -f case.json
//
// The input (standard input, or -f FILE) is read by package input: JSON or
// YAML, a v1 List or several documents as kubectl -f reads them, each a
// List or an object (which need -now and, when they hold several Deployments,
// the Deployment's name, as NAME, deployment/NAME or -deployment NAME, and
// perhaps -namespace) or a conformance Case (whose clock is
// used unless -now is given). Objects the plan does not use (other kinds,
// other namespaces, other Deployments) are counted on standard error.
//
// With -explain, standard error gets one line per write with the planner's
// reason (and whether a real API server rejects it with a conflict), the
// fields each Deployment write changes (old → new), then the planner's
// notes; standard output stays one JSON document.
//
// Exit status: 0 when a plan was printed (a plan may itself end with an
// error, as upstream's sync can), 1 for unreadable or unplannable input, 2
// for bad flags. -h prints the usage on standard output and exits 0.
package next

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	apps "k8s.io/api/apps/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan"
)

// Exit codes.
const (
	exitOK    = 0
	exitInput = 1
	exitUsage = 2
)

// Run is the subcommand: flags in args, the state on stdin (or -f), the plan
// on stdout, explanations and errors on stderr. It returns the exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return RunNamed("next", args, stdin, stdout, stderr)
}

// RunNamed is Run with the command's name for messages and usage ("next",
// or "rolloutplan-next" for the standalone command).
func RunNamed(name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t rolloutio.Target
	var deployment, nowFlag string
	t.AddFlags(fs)
	fs.StringVar(&deployment, "deployment", "", "`name` of the Deployment to plan, as the positional NAME (optional when the input has one)")
	fs.StringVar(&nowFlag, "now", "", "the controller's clock, RFC 3339 (required for List input; overrides a Case's)")
	explainFlag := fs.Bool("explain", false, "print each write's reason, the status fields it changes and the planner's notes on stderr")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s [deployment/NAME] [-now RFC3339] [-explain] [-f FILE] [flags] < state\n", name)
		fmt.Fprintln(fs.Output(), "input: `kubectl get deployment,replicasets,pods -o json` (or -o yaml) output, several YAML documents\nor JSON objects as kubectl -f reads them, or a conformance Case\n\nFlags:")
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nexit codes: 0 a plan was printed, 1 unreadable or unplannable input, 2 bad flags")
	}
	pos, code, stop := rolloutio.ParseFlags(fs, args, stdout)
	if stop {
		return code
	}
	if err := t.ParseDeployment(pos, deployment); err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	if err := t.Validate(); err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	now, err := rolloutio.ParseNow(nowFlag, nil)
	if err != nil {
		return rolloutio.BadFlag(fs, err)
	}
	in, closeIn, err := t.Open(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "%s: -f: %v\n", name, err)
		return exitInput
	}
	defer closeIn()
	objs, err := input.ReadObjects(in, input.Options{MaxBytes: t.MaxInput})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		if errors.Is(err, input.ErrTooLarge) {
			fmt.Fprintf(stderr, "%s: raise -max-input (now %d bytes) to read more\n", name, t.MaxInput)
		}
		return exitInput
	}
	if !objs.Case && now.IsZero() {
		fmt.Fprintf(stderr, "%s: -now is required with List input (the controller's clock, e.g. -now 2025-03-01T10:00:00Z)\n", name)
		return exitUsage
	}
	state, ignored, err := objs.Select(input.Selector{Deployment: t.Name, Namespace: t.Namespace, Now: now})
	if errors.Is(err, input.ErrNoClock) {
		fmt.Fprintf(stderr, "%s: the case has no \"now\"; give -now\n", name)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitInput
	}
	input.Report(stderr, name, ignored)
	// A sync that ends with an error (a *plan.SyncError) is a plan too:
	// its writes and error are printed, as upstream's sync ends.
	out, p, err := appsv1.Sync(state)
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		fmt.Fprintf(stderr, "%s: planning: %v\n", name, err)
		return exitInput
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "%s: writing the plan: %v\n", name, err)
		return exitInput
	}
	if *explainFlag {
		explain(stderr, state.Deployment, out, p)
	}
	return exitOK
}

func explain(w io.Writer, d *apps.Deployment, out appsv1.Output, p plan.Plan) {
	cur := d
	for i, a := range out.Actions {
		res := a.Resource
		if a.Subresource != "" {
			res += "/" + a.Subresource
		}
		conflict := ""
		if a.Conflict {
			conflict = " [a real API server rejects this write: conflict]"
		}
		fmt.Fprintf(w, "write %d: %s %s %s/%s%s: %s\n", i+1, a.Verb, res, a.Namespace, a.Name, conflict, a.Reason)
		if next, ok := a.Object.(*apps.Deployment); ok && next != nil {
			changes := statusChanges(cur, next)
			for _, c := range changes {
				fmt.Fprintf(w, "  %s\n", c)
			}
			if len(changes) == 0 {
				fmt.Fprintf(w, "  (no field changes)\n")
			}
			if !a.Conflict {
				cur = next
			}
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if out.Error != "" {
		fmt.Fprintf(w, "the sync ends with: %s\n", out.Error)
	}
	for _, r := range out.Requeue {
		if r.Kind == string(plan.RequeueAfter) {
			fmt.Fprintf(w, "requeue after %gs\n", r.Seconds)
		} else {
			fmt.Fprintf(w, "requeue: %s\n", r.Kind)
		}
	}
}
