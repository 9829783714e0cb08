// Package rolloutio is what the rollout subcommands of kubectl-rolloutplan
// (status, history, undo, restart, pause, resume, explain) share: the
// arguments and flags that name the Deployment and the input, reading the
// cluster state, and printing in kubectl's manner.
package rolloutio

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/model"
)

// Target names the Deployment and where its state is read from.
type Target struct {
	File      string
	Namespace string
	Name      string
}

// AddFlags registers -f/--filename and -n/--namespace on fs.
func (t *Target) AddFlags(fs *flag.FlagSet) {
	for _, n := range []string{"f", "filename"} {
		fs.StringVar(&t.File, n, "-", "the cluster state: a `file` holding the JSON List of `kubectl get deployment,replicasets -o json` (- for standard input)")
	}
	for _, n := range []string{"n", "namespace"} {
		fs.StringVar(&t.Namespace, n, "", "the Deployment's `namespace` (needed when its name is in several)")
	}
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

// State is what a subcommand reads: the apps/v1 state and its model.
type State struct {
	Apps        appsv1.State
	Deployment  *model.Deployment
	ReplicaSets []*model.ReplicaSet
}

// Read reads the List named by t.File (stdin for "-") and returns the state
// of the Deployment t names, at now.
func (t *Target) Read(stdin io.Reader, now time.Time) (State, error) {
	var data []byte
	var err error
	if t.File == "-" || t.File == "" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(t.File)
	}
	if err != nil {
		return State{}, fmt.Errorf("reading the state: %w", err)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || trimmed[0] != '{' {
		return State{}, errors.New("the state is not a JSON object: give the output of `kubectl get deployment,replicasets -o json` (-f FILE or standard input)")
	}
	s, err := appsv1.StateFromList(data, t.Namespace, t.Name, now)
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

// Usage reports a command-line error and returns 2.
func Usage(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "kubectl-rolloutplan %s: %v\n", name, err)
	return 2
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

// ParseNow reads a --now flag value: RFC 3339, or empty for the clock.
func ParseNow(s string, clock func() time.Time) (time.Time, error) {
	if s == "" {
		return clock(), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: not an RFC 3339 time such as 2025-03-01T10:00:00Z", s)
	}
	return t, nil
}
