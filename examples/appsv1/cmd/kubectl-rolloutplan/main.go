// Command kubectl-rolloutplan is rolloutplan's user command, usable as a
// kubectl plugin (`kubectl rolloutplan SUBCOMMAND`). Each subcommand reads a
// cluster state such as `kubectl get deployment,replicasets,pods -o yaml`:
//
//	next      what the Deployment controller does at its next sync
//	simulate  the rest of the rollout: timeline, time to completion or stall
//	restart   replay a script of config edits through the restart planner
//	          (plan/restart) and print its trace
//
// `kubectl-rolloutplan SUBCOMMAND -h` documents each one and its exit codes;
// an unknown subcommand exits 2.
package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/next"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/restart"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/simulate"
)

// subcommands is the dispatch table.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"next":     next.Run,
	"restart":  restart.Run,
	"simulate": simulate.Run,
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		w, code := stdout, 0
		if len(args) == 0 {
			w, code = stderr, 2
		}
		fmt.Fprintln(w, "usage: kubectl-rolloutplan SUBCOMMAND [flags]; subcommands:", slices.Sorted(maps.Keys(subcommands)))
		return code
	}
	cmd, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "kubectl-rolloutplan: unknown subcommand %q; subcommands: %v\n", args[0], slices.Sorted(maps.Keys(subcommands)))
		return 2
	}
	return cmd(args[1:], stdin, stdout, stderr)
}
