// Command kubectl-rolloutplan answers questions about a Deployment from a
// snapshot of its cluster state, printing what kubectl prints and what
// kubectl cannot tell. On PATH it is a kubectl plugin:
//
//	kubectl get deployment,replicasets,pods -n shop -o json > state.json
//	kubectl rolloutplan status web -f state.json --explain
//	kubectl rolloutplan history web -f state.json --revision=2
//	kubectl rolloutplan next -f state.json -explain
//	kubectl rolloutplan simulate -f state.json -ready-after 20s
//
// Install with
//
//	go install github.com/rolloutplan/rolloutplan/examples/appsv1/cmd/kubectl-rolloutplan@latest
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
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/pause"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/restart"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/resume"
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
	"status":          {status.Run, "what 'kubectl rollout status' prints; --explain says why it waits"},
	"history":         {history.Run, "what 'kubectl rollout history' prints"},
	"undo":            {undo.Run, "what 'kubectl rollout undo' prints (and, with --show-patch, sends)"},
	"restart":         {restart.Run, "what 'kubectl rollout restart' prints (and, with --show-patch, sends)"},
	"pause":           {pause.Run, "what 'kubectl rollout pause' prints (and, with --show-patch, sends)"},
	"resume":          {resume.Run, "what 'kubectl rollout resume' prints (and, with --show-patch, sends)"},
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
	b.WriteString("from -f FILE or standard input) and answers for one Deployment;\n")
	b.WriteString("config-restarts reads a restart script instead.\n\nSubcommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, n, subcommands[n].summary)
	}
	b.WriteString("\nRun 'kubectl-rolloutplan SUBCOMMAND -h' for its flags.\n")
	fmt.Fprint(w, b.String())
}
