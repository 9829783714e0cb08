package clitest

import (
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// RunAsChild, called in a memory test's TestMain (after childtest.Launch),
// makes the test binary the child the test measures when the environment
// variable name is set: it runs the subcommand newCommand makes, under the
// root command, with the variable's value as its arguments (separated by
// spaces), its standard output discarded and its standard error written to
// standard output for the parent to read, and exits with its code. It
// returns at once when name is not set.
func RunAsChild(name string, newCommand func(*rolloutio.Env) *cobra.Command) {
	args, ok := os.LookupEnv(name)
	if !ok {
		return
	}
	env := rolloutio.NewEnv(strings.NewReader(""), io.Discard, os.Stdout)
	sub := newCommand(env)
	os.Exit(rolloutio.Execute(rolloutio.NewRoot(env, sub), env, append([]string{sub.Name()}, strings.Fields(args)...)))
}
