// Command kubectl-rolloutplan answers questions about a Deployment from a
// snapshot of its cluster state, printing what kubectl prints and what
// kubectl cannot tell. On PATH it is a kubectl plugin:
//
//	kubectl get deployment,replicasets,pods -n shop -o yaml > state.yaml
//	kubectl rolloutplan status web -f state.yaml --explain
//	kubectl rolloutplan status web -f state.yaml --predict --ready-after 20s
//	kubectl rolloutplan history deployment/web -f state.yaml --revision=2
//	kubectl rolloutplan next web -f state.yaml -now 2025-03-01T10:00:00Z -explain
//	kubectl rolloutplan simulate web -f state.yaml -ready-after 20s
//
// # Install
//
// The module examples/appsv1 builds against the repository's core module
// through a replace directive, and the go command refuses replace
// directives in `go install …@latest`; install from a clone:
//
//	git clone https://github.com/rolloutplan/rolloutplan
//	cd rolloutplan/examples/appsv1
//	go install ./cmd/kubectl-rolloutplan
//
// # Input
//
// Every subcommand but config-restarts reads a cluster state from -f FILE
// or standard input through one reader (internal/cli/input): the output of
// `kubectl get deployment,replicasets,pods -o json` or `-o yaml` (a v1
// List), a stream of several YAML documents or JSON objects as kubectl -f
// reads one (each a List or an object; errors name the document and its
// line), or a conformance Case of this repository. Keys are strict
// (duplicates, keys in another case and unknown fields are errors naming
// items[i] and the object's kind and namespace/name), the input is capped
// (--max-input, 64 MiB by default), syntax errors give the byte, line and
// column, and objects the subcommand does not use (other kinds, namespaces
// or Deployments) are counted on standard error, never dropped silently.
// The Deployment is named by a positional NAME, deployment/NAME or
// "deployment NAME" (next and simulate also keep -deployment NAME), with
// -n/--namespace when the name is in several namespaces; it may be left
// out when the state has one Deployment.
//
// # Flags and exit codes
//
// Flags may come before or after the arguments, with - or --. -h (--help)
// prints a subcommand's usage, its flags and exit codes on standard output
// and exits 0; a bad flag, a value out of range (the message names the flag
// and the allowed range) or a bad argument prints the error and the usage on
// standard error and exits 2. The exit codes:
//
//	subcommand       0                              1                                          2                        3
//	status           done or still in progress      kubectl's error (revision mismatch,        bad flags or arguments
//	                 (one look, as --watch=false)   deadline exceeded), unreadable input,
//	                                                failed prediction
//	history          printed                        kubectl's error, unreadable input          bad flags or arguments
//	undo             rolled back or skipped         kubectl's error (paused, no revision,      bad flags or arguments
//	                                                bad --dry-run), unreadable input
//	restart          printed                        kubectl's error, unreadable input          bad flags or arguments
//	pause            printed                        kubectl's error, unreadable input          bad flags or arguments
//	resume           printed                        kubectl's error, unreadable input          bad flags or arguments
//	explain          review printed (with warnings) unreadable or invalid input                bad flags or arguments
//	next             a plan was printed             unreadable or unplannable input            bad flags (a List
//	                                                                                           without -now included)
//	simulate         predicted to complete          predicted to stall                         bad flags or unreadable  invariant
//	                                                                                           input, -max-work bound   violation
//	config-restarts  a trace was printed            unreadable script                          bad flags or arguments
//
// The kubectl views (status, history, undo, restart, pause, resume) keep
// kubectl's standard output, standard error and exit status; a predicted
// stall under status --predict is printed and leaves the status unchanged
// (simulate's exit status answers it). The command itself exits 2 for a
// missing or unknown subcommand.
//
// Each subcommand lives in its own package under internal/cli; this file
// only dispatches. `kubectl-rolloutplan SUBCOMMAND -h` describes one.
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/configrestarts"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/explain"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/history"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/next"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/pauseresume"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/restart"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/simulate"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/status"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/undo"
)

// subcommand is one entry of the dispatch table.
type subcommand struct {
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
	summary string
}

var subcommands = map[string]subcommand{
	"explain":         {explain.Run, "what-if review of a Deployment's strategy before it is applied"},
	"status":          {status.Run, "what 'kubectl rollout status' prints; --explain says why it waits, --predict how long it takes"},
	"history":         {history.Run, "what 'kubectl rollout history' prints"},
	"undo":            {undo.Run, "what 'kubectl rollout undo' prints (and, with --show-patch, sends)"},
	"restart":         {restart.Run, "what 'kubectl rollout restart' prints (and, with --show-patch, sends)"},
	"pause":           {pauseresume.RunPause, "what 'kubectl rollout pause' prints (and, with --show-patch, sends)"},
	"resume":          {pauseresume.RunResume, "what 'kubectl rollout resume' prints (and, with --show-patch, sends)"},
	"next":            {next.Run, "the writes, events and requeue of the Deployment controller's next sync"},
	"simulate":        {simulate.Run, "the rest of the rollout: timeline, time to completion or the stall"},
	"config-restarts": {configrestarts.Run, "replay config edits through the restart planner (plan/restart), print the trace"},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	}
	sc, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "kubectl-rolloutplan: unknown subcommand %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	return sc.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	names := make([]string, 0, len(subcommands))
	width := 0
	for n := range subcommands {
		names = append(names, n)
		width = max(width, len(n))
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("Usage: kubectl-rolloutplan SUBCOMMAND [deployment/NAME] [flags]\n\n")
	b.WriteString("Reads a cluster state ('kubectl get deployment,replicasets,pods -o json' or -o yaml,\n")
	b.WriteString("or a multi-document YAML file as kubectl -f reads one, from -f FILE or standard\n")
	b.WriteString("input) and answers for one Deployment;\n")
	b.WriteString("config-restarts reads a restart script instead.\n\nSubcommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, n, subcommands[n].summary)
	}
	b.WriteString("\nExit codes: 0 success; 1 kubectl's errors or unreadable input (simulate: a predicted\n")
	b.WriteString("stall); 2 bad flags or arguments (simulate: also unreadable input); 3 simulate's\n")
	b.WriteString("invariant violations. Run 'kubectl-rolloutplan SUBCOMMAND -h' for its flags and exit codes.\n")
	b.WriteString("\nInstall: git clone https://github.com/rolloutplan/rolloutplan; cd rolloutplan/examples/appsv1;\n")
	b.WriteString("go install ./cmd/kubectl-rolloutplan (go install ...@latest does not work: the module\n")
	b.WriteString("uses a replace directive for the core module).\n")
	fmt.Fprint(w, b.String())
}
