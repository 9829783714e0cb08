package rolloutio

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
)

// The exit codes, one table for every subcommand.
const (
	// ExitOK: printed or done.
	ExitOK = 0
	// ExitFail: an error, kubectl's (refused, revision mismatch, progress
	// deadline exceeded, timed out), the cluster's or the input's.
	ExitFail = 1
	// ExitUsage: bad flags or arguments.
	ExitUsage = 2
	// ExitStall: simulate predicts that the rollout stalls.
	ExitStall = 3
	// ExitViolation: simulate found the planner breaking an invariant.
	ExitViolation = 4
)

// ExitCodes documents the exit codes; every command's help ends with it.
const ExitCodes = `Exit codes (the same for every subcommand):
  0  success: printed, or done (status: the rollout is complete; with
     --watch=false or on a snapshot: one look, complete or not)
  1  error: kubectl's (refused, revision mismatch, progress deadline
     exceeded, timed out), the cluster's (unreachable, unknown context, not
     found, forbidden) or the input's (unreadable, invalid)
  2  usage: unknown subcommand or flag, bad value, wrong arguments
  3  simulate: the rollout is predicted to stall
  4  simulate: the planner broke an invariant (a bug; please report it)`

// UsageError is a bad flag, value or argument: printed on one line with a
// pointer to the command's help, exit code 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// ExitError ends a command with Code. Err, when not nil, is printed as any
// error; a nil Err means the command printed what it had to say.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// Exit returns an ExitError that prints nothing more.
func Exit(code int) error { return &ExitError{Code: code} }

// Execute runs root with args and returns the exit code. Errors are printed
// on the error stream on one line, as kubectl prints them: "error: …", with
// usage errors ending in "See 'kubectl rolloutplan CMD --help'.", and
// errors of the API server as "Error from server (Reason): …".
func Execute(root *cobra.Command, env *Env, args []string) int {
	root.SetArgs(args)
	if err := singleDashLongFlag(root, args); err != nil {
		cmd, _, ferr := root.Find(args)
		if ferr != nil {
			cmd = root
		}
		return report(env.ErrOut, cmd, &UsageError{err})
	}
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	return report(env.ErrOut, cmd, err)
}

// report prints err and returns its exit code.
func report(w io.Writer, cmd *cobra.Command, err error) int {
	var exit *ExitError
	if errors.As(err, &exit) && exit.Err == nil {
		return exit.Code
	}
	var usage *UsageError
	if errors.As(err, &usage) || isCobraUsage(err) {
		msg := oneLine(err.Error())
		fmt.Fprintf(w, "error: %s See '%s --help'.\n", withStop(msg), cmd.CommandPath())
		return ExitUsage
	}
	code := ExitFail
	if exit != nil {
		code = exit.Code
	}
	fmt.Fprintln(w, ErrorLine(err))
	return code
}

// ErrorLine is err as kubectl prints it: an API server's error as "Error
// from server (Reason): message", any other once prefixed with "error: ".
func ErrorLine(err error) string {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		s := status.Status()
		if s.Reason != "" {
			return fmt.Sprintf("Error from server (%s): %s", s.Reason, oneLine(s.Message))
		}
		return "Error from server: " + oneLine(s.Message)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) && utilnet.IsConnectionRefused(err) {
		host := uerr.URL
		if u, perr := url.Parse(uerr.URL); perr == nil {
			host = u.Host
		}
		// kubectl's words, and the way out.
		return fmt.Sprintf("The connection to the server %s was refused - did you specify the right host or port? (-f FILE reads a snapshot instead)", host)
	}
	msg := oneLine(err.Error())
	if !strings.HasPrefix(msg, "error: ") {
		msg = "error: " + msg
	}
	return msg
}

// isCobraUsage reports cobra's own errors about the command line (an
// unknown subcommand, wrong positional arguments), which it returns as
// plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command ", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument ", "accepts ", "requires at least", "requires at most", "bad flag syntax"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// oneLine folds cobra's "Did you mean this?" block and any other line
// breaks into one line.
func oneLine(msg string) string {
	msg = strings.TrimSpace(msg)
	if head, sugg, ok := strings.Cut(msg, "\n\nDid you mean this?\n"); ok {
		var names []string
		for _, s := range strings.Fields(sugg) {
			names = append(names, fmt.Sprintf("%q", s))
		}
		msg = head + " (did you mean " + strings.Join(names, " or ") + "?)"
	}
	if strings.Contains(msg, "\n") {
		msg = strings.Join(strings.Fields(msg), " ")
	}
	return msg
}

func withStop(msg string) string {
	if strings.HasSuffix(msg, ".") {
		return msg
	}
	return msg + "."
}

// singleDashLongFlag refuses a long flag written with one dash ("-now"),
// which pflag would otherwise read as shorthand flags ("-n ow"): the
// previous command line of kubectl-rolloutplan took such flags, and a
// namespace "ow" would be silently wrong.
func singleDashLongFlag(root *cobra.Command, args []string) error {
	cmd, _, err := root.Find(args)
	if err != nil {
		return nil
	}
	for _, a := range args {
		if a == "--" {
			return nil
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		if len(name) > 1 && (cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil) {
			return fmt.Errorf("flag %s: a long flag takes two dashes, --%s", a, a[1:])
		}
	}
	return nil
}
