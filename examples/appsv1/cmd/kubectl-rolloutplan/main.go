// Command kubectl-rolloutplan (usable as the kubectl plugin "rolloutplan")
// gathers the rolloutplan tools as subcommands:
//
//	kubectl-rolloutplan restart [flags] < script.json
//
// Run a subcommand with -h for its flags.
package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/restart"
)

// subcommands is the dispatch table.
var subcommands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{
	"restart": restart.Run,
}

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	names := slices.Sorted(maps.Keys(subcommands))
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w, code := stdout, 0
		if len(args) == 0 {
			w, code = stderr, 2
		}
		fmt.Fprintf(w, "usage: kubectl-rolloutplan <subcommand> [flags]\nsubcommands: %v\n", names)
		return code
	}
	cmd, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "kubectl-rolloutplan: unknown subcommand %q (want one of %v)\n", args[0], names)
		return 2
	}
	return cmd(args[1:], stdin, stdout, stderr)
}
