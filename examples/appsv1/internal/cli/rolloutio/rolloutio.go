// Package rolloutio is what the subcommands of kubectl-rolloutplan that
// read a cluster state (status, history, undo, restart, pause, resume,
// explain, next, simulate) share: the arguments and flags that name the
// Deployment and the input (positional NAME, deployment/NAME or deployment
// NAME; -f/--filename, -n/--namespace, --max-input), reading the state
// through package input (JSON or YAML, strict, capped, ignored objects
// reported on standard error with their counts), one way to parse flags
// (-h: usage on standard output, exit 0; a bad flag: the error and the
// usage on standard error, exit 2) and printing errors in kubectl's manner.
package rolloutio

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/model"
)

// Target names the Deployment and where its state is read from.
type Target struct {
	File      string
	Namespace string
	Name      string
	// MaxInput caps the input in bytes (-max-input).
	MaxInput int64
	// Single also accepts a single Deployment object instead of a List.
	Single bool
}

// AddFlags registers -f/--filename, -n/--namespace and --max-input on fs.
func (t *Target) AddFlags(fs *flag.FlagSet) {
	for _, n := range []string{"f", "filename"} {
		fs.StringVar(&t.File, n, "-", "the cluster state: a `file` holding `kubectl get deployment,replicasets,pods -o json` or -o yaml, or several YAML documents or JSON objects as kubectl -f reads them (- for standard input)")
	}
	for _, n := range []string{"n", "namespace"} {
		fs.StringVar(&t.Namespace, n, "", "the Deployment's `namespace` (needed when its name is in several)")
	}
	fs.Int64Var(&t.MaxInput, "max-input", input.DefaultMaxBytes, "input size cap in `bytes`, 1 to 9223372036854775806")
}

// Validate checks the flags AddFlags registered.
func (t *Target) Validate() error {
	if t.MaxInput < 1 || t.MaxInput > math.MaxInt64-1 {
		return fmt.Errorf("-max-input %d: out of range 1 to 9223372036854775806", t.MaxInput)
	}
	return nil
}

// deploymentKinds are the resource spellings kubectl accepts for a
// Deployment.
var deploymentKinds = map[string]bool{
	"deployment": true, "deployments": true, "deploy": true,
	"deployment.apps": true, "deployments.apps": true, "deploy.apps": true,
}

// ParseArgs reads the positional arguments kubectl rollout takes:
// nothing (the list's only Deployment), NAME, deployment/NAME or
// deployment NAME.
func (t *Target) ParseArgs(args []string) error {
	switch len(args) {
	case 0:
		return nil
	case 1:
		kind, name, ok := strings.Cut(args[0], "/")
		if !ok {
			t.Name = args[0]
			return nil
		}
		if !deploymentKinds[strings.ToLower(kind)] {
			return fmt.Errorf("argument %q: only deployments are supported (deployment/NAME)", args[0])
		}
		if name == "" {
			return fmt.Errorf("argument %q: the name is empty", args[0])
		}
		t.Name = name
		return nil
	case 2:
		if !deploymentKinds[strings.ToLower(args[0])] {
			return fmt.Errorf("argument %q: only deployments are supported (deployment NAME)", args[0])
		}
		t.Name = args[1]
		return nil
	}
	return fmt.Errorf("too many arguments %q: give one Deployment (NAME or deployment/NAME)", args)
}

// ParseDeployment is ParseArgs for the subcommands that also name the
// Deployment with a -deployment flag (next, simulate): flag may be empty;
// when both are given they must agree.
func (t *Target) ParseDeployment(args []string, flagValue string) error {
	if err := t.ParseArgs(args); err != nil {
		return err
	}
	switch {
	case flagValue == "":
	case t.Name == "":
		t.Name = flagValue
	case t.Name != flagValue:
		return fmt.Errorf("-deployment %q and argument %q name different Deployments: give one", flagValue, t.Name)
	}
	return nil
}

// State is what a subcommand reads: the apps/v1 state and its model.
type State struct {
	Apps        appsv1.State
	Deployment  *model.Deployment
	ReplicaSets []*model.ReplicaSet
}

// Open returns the input t.File names: stdin for "-" or "", else the file,
// which the caller closes with the returned function.
func (t *Target) Open(stdin io.Reader) (io.Reader, func(), error) {
	if t.File == "-" || t.File == "" {
		return stdin, func() {}, nil
	}
	f, err := os.Open(t.File)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// ReadApps reads the state t names through package input (JSON or YAML,
// strict, capped at t.MaxInput) and reports the objects it ignores on
// stderr, prefixed with command. A zero now is the latest time the state
// records (see input.LatestTime) unless the input is a Case with its own.
func (t *Target) ReadApps(stdin io.Reader, stderr io.Writer, command string, now time.Time) (appsv1.State, error) {
	in, closeIn, err := t.Open(stdin)
	if err != nil {
		return appsv1.State{}, fmt.Errorf("reading the state: %w", err)
	}
	defer closeIn()
	s, ignored, err := input.Read(in, input.Options{MaxBytes: t.MaxInput, Single: t.Single},
		input.Selector{Deployment: t.Name, Namespace: t.Namespace, Now: now, Latest: true})
	if errors.Is(err, input.ErrTooLarge) {
		return appsv1.State{}, fmt.Errorf("%w (raise --max-input)", err)
	}
	if err != nil {
		return appsv1.State{}, err
	}
	input.Report(stderr, command, ignored)
	return s, nil
}

// Read is ReadApps followed by the conversion to the model.
func (t *Target) Read(stdin io.Reader, stderr io.Writer, command string, now time.Time) (State, error) {
	s, err := t.ReadApps(stdin, stderr, command, now)
	if err != nil {
		return State{}, err
	}
	d, err := appsv1.DeploymentToModel(s.Deployment)
	if err != nil {
		return State{}, fmt.Errorf("deployment %q: %w", s.Deployment.Name, err)
	}
	out := State{Apps: s, Deployment: d}
	for _, rs := range s.ReplicaSets {
		m, err := appsv1.ReplicaSetToModel(rs)
		if err != nil {
			return State{}, fmt.Errorf("replicaset %q: %w", rs.Name, err)
		}
		out.ReplicaSets = append(out.ReplicaSets, m)
	}
	return out, nil
}

// ObjectName is how kubectl names a Deployment in its output:
// deployment.apps/NAME.
func ObjectName(d *model.Deployment) string { return "deployment.apps/" + d.Name }

// Fail prints err as kubectl does ("error: " once in front) and returns
// kubectl's exit status, 1.
func Fail(stderr io.Writer, err error) int {
	msg := err.Error()
	if !strings.HasPrefix(msg, "error: ") {
		msg = "error: " + msg
	}
	fmt.Fprintln(stderr, msg)
	return 1
}

// Refused prints kubectl's refusal of an operation on Deployment d
// ("error: deployments.apps "NAME" REASON", REASON being err) and returns
// kubectl's exit status, 1.
func Refused(stderr io.Writer, d *model.Deployment, err error) int {
	return Fail(stderr, fmt.Errorf("deployments.apps %q %v", d.Name, err))
}

// CheckRevision refuses a negative --revision with kubectl's error (status
// and history print it through [Fail], exit 1, as kubectl does).
func CheckRevision(revision int64) error {
	if revision < 0 {
		return fmt.Errorf("revision must be a positive integer: %v", revision)
	}
	return nil
}

// BadFlag reports a command-line error found after parsing (a value out of
// range, a bad argument) as ParseFlags reports an unknown flag: the error,
// then fs's usage, on fs's output (stderr). It returns 2.
func BadFlag(fs *flag.FlagSet, err error) int {
	fmt.Fprintf(fs.Output(), "%s: %v\n", CommandName(fs.Name()), err)
	fs.Usage()
	return 2
}

// CommandName is how messages name a subcommand: "kubectl-rolloutplan
// status"; a name that is already a command's ("rolloutplan-next") is kept.
func CommandName(sub string) string {
	if strings.Contains(sub, "rolloutplan") {
		return sub
	}
	return "kubectl-rolloutplan " + sub
}

// ParseFlags parses args with fs, flags and positional arguments in any
// order, as kubectl allows. Help that is asked for (-h) is printed on stdout
// and ends with status 0; a bad flag is reported, with the usage, on fs's
// output (stderr) and ends with status 2. It returns the positional
// arguments, and the exit status to end with and whether to end.
func ParseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (positional []string, status int, stop bool) {
	stderr := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(stderr)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stdout)
				fs.Usage()
				return nil, 0, true
			}
			fmt.Fprintln(stderr, err)
			fs.SetOutput(stderr)
			fs.Usage()
			return nil, 2, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, 0, false
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// ParseNow reads a --now flag value: RFC 3339, or empty for the clock (a
// nil clock gives the zero time, which ReadApps replaces with the state's
// latest recorded time or a Case's clock).
func ParseNow(s string, clock func() time.Time) (time.Time, error) {
	if s == "" {
		if clock == nil {
			return time.Time{}, nil
		}
		return clock(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: not an RFC 3339 time such as 2025-03-01T10:00:00Z", s)
	}
	return t, nil
}
