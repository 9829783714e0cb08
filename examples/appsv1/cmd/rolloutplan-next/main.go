// Command rolloutplan-next answers "what will the Deployment controller do
// next?": it reads a cluster state on standard input, plans one sync of a
// Deployment the way kube-controller-manager v1.36 does, and prints the
// writes, events, requeue and error as the conformance Output JSON of the
// rolloutplan repository.
//
// Usage:
//
//	kubectl get deployment,replicasets,pods -n NS -o json |
//	    rolloutplan-next --deployment NAME --now 2025-03-01T10:00:00Z
//	rolloutplan-next < case.json
//
// Standard input holds either a v1 List (the output of `kubectl get
// deployment,replicasets,pods -o json`), which needs --now and, when the list
// has several Deployments, --deployment (and --namespace when the name is in
// several namespaces); or a conformance Case {"now", "deployment",
// "replicaSets", "pods"} (a line of public-seed1.jsonl, with its "case" key,
// works too), whose clock is used unless --now is given.
//
// With -explain, standard error gets one line per write with the planner's
// reason (and whether a real API server rejects it with a conflict), then
// the planner's notes; standard output stays one JSON document.
//
// Exit status: 0 when a plan was printed (a plan may itself end with an
// error, as upstream's sync can), 1 for unreadable input, 2 for bad flags.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError marks errors that come from the command line, not the input.
type usageError struct{ error }

type options struct {
	deployment string
	namespace  string
	now        time.Time
	explain    bool
}

// run is the whole command: flags in args, the state on stdin, the plan on
// stdout, explanations and errors on stderr. It returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "rolloutplan-next:", err)
		return 2
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "rolloutplan-next: reading stdin:", err)
		return 1
	}
	state, err := readState(data, opts)
	if err != nil {
		fmt.Fprintln(stderr, "rolloutplan-next:", err)
		var u usageError
		if errors.As(err, &u) {
			return 2
		}
		return 1
	}
	out, p, err := appsv1.Sync(state)
	if err != nil {
		fmt.Fprintln(stderr, "rolloutplan-next: planning:", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(stderr, "rolloutplan-next: writing the plan:", err)
		return 1
	}
	if opts.explain {
		explain(stderr, out, p)
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	var now string
	fs := flag.NewFlagSet("rolloutplan-next", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.deployment, "deployment", "", "`name` of the Deployment to plan (List input; optional when the list has one)")
	fs.StringVar(&o.namespace, "namespace", "", "`namespace` of the Deployment (List input; optional)")
	fs.StringVar(&now, "now", "", "the controller's clock, RFC 3339 (required for List input; overrides a Case's)")
	fs.BoolVar(&o.explain, "explain", false, "print each write's reason and the planner's notes on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rolloutplan-next [--deployment NAME] [--namespace NS] [--now RFC3339] [-explain] < state.json")
		fmt.Fprintln(stderr, "stdin: `kubectl get deployment,replicasets,pods -o json` output, or a conformance Case")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, usageError{fmt.Errorf("unexpected argument %q: the state is read from stdin", fs.Arg(0))}
	}
	if now != "" {
		t, err := time.Parse(time.RFC3339Nano, now)
		if err != nil {
			return o, usageError{fmt.Errorf("--now: %q is not an RFC 3339 time such as 2025-03-01T10:00:00Z", now)}
		}
		o.now = t
	}
	return o, nil
}

// readState recognises the input form and builds the state to plan.
func readState(data []byte, o options) (appsv1.State, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return appsv1.State{}, usageError{errors.New("no input on stdin: pipe `kubectl get deployment,replicasets,pods -o json` or a conformance Case")}
	}
	var top map[string]json.RawMessage
	if err := appsv1.UnmarshalStrict(data, &top); err != nil {
		return appsv1.State{}, fmt.Errorf("stdin is not a JSON object: %w", err)
	}
	if raw, ok := top["case"]; ok { // a line of public-seed1.jsonl
		data = raw
		top = nil
		if err := appsv1.UnmarshalStrict(data, &top); err != nil {
			return appsv1.State{}, fmt.Errorf("case: not a JSON object: %w", err)
		}
	}
	if _, ok := top["deployment"]; ok {
		return caseState(data, o)
	}
	var kind string
	if raw, ok := top["kind"]; ok {
		_ = json.Unmarshal(raw, &kind) // a non-string kind is reported below
	}
	if _, ok := top["items"]; ok || strings.HasSuffix(kind, "List") {
		if o.now.IsZero() {
			return appsv1.State{}, usageError{errors.New("--now is required with List input (the controller's clock, e.g. --now 2025-03-01T10:00:00Z)")}
		}
		return appsv1.StateFromList(data, o.namespace, o.deployment, o.now)
	}
	if kind != "" {
		return appsv1.State{}, fmt.Errorf("stdin holds a single %s; give a List (kubectl get deployment,replicasets,pods -o json) or a conformance Case", kind)
	}
	return appsv1.State{}, errors.New(`stdin is neither a List (no "items") nor a conformance Case (no "deployment")`)
}

func caseState(data []byte, o options) (appsv1.State, error) {
	var c appsv1.Case
	if err := appsv1.UnmarshalStrict(data, &c); err != nil {
		return appsv1.State{}, fmt.Errorf("case: %w", err)
	}
	if c.Deployment == nil {
		return appsv1.State{}, errors.New("case: deployment is null")
	}
	if o.deployment != "" && o.deployment != c.Deployment.Name {
		return appsv1.State{}, fmt.Errorf("case: %w: the case's Deployment is %q, not %q", appsv1.ErrNoDeployment, c.Deployment.Name, o.deployment)
	}
	if o.namespace != "" && o.namespace != c.Deployment.Namespace {
		return appsv1.State{}, fmt.Errorf("case: %w: the case's Deployment is in namespace %q, not %q", appsv1.ErrNoDeployment, c.Deployment.Namespace, o.namespace)
	}
	if !o.now.IsZero() {
		c.Now = o.now
	}
	if c.Now.IsZero() {
		return appsv1.State{}, usageError{errors.New("case: no \"now\"; give --now")}
	}
	return c.State(), nil
}

func explain(w io.Writer, out appsv1.Output, p plan.Plan) {
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
