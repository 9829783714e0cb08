// Package rolloutio is what the subcommands of kubectl-rolloutplan share:
// the environment they run in (standard streams, the cluster flags of
// k8s.io/cli-runtime, the clock, the API client), the root command with its
// help style, version and completion, the one table of exit codes and the
// way errors are printed, the arguments and flags that name the
// Deployments and where they are read from (the live cluster, or a
// snapshot with -f), the one clock rule, and the -o json|yaml printer.
//
// Every subcommand is a cobra command built by a NewCommand(*Env) function
// of its package; cmd/kubectl-rolloutplan adds them all to [NewRoot] and
// runs [Execute].
package rolloutio

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// Env is what a command runs with. Its zero streams are io.Discard and an
// empty input; NewEnv fills in the cluster flags.
type Env struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// ConfigFlags are the cluster flags (--kubeconfig, --context, -n, …),
	// registered on the root command.
	ConfigFlags *genericclioptions.ConfigFlags
	// Clock is the wall clock of the live mode; nil is time.Now.
	Clock func() time.Time
	// NewClient, when set, replaces the client built from ConfigFlags (tests
	// give client-go's fake clientset).
	NewClient func() (kubernetes.Interface, error)
	// Context is the context of the command's API calls; nil is
	// context.Background. main cancels it on an interrupt.
	Context context.Context

	client kubernetes.Interface
}

// NewEnv returns an Env on the given streams with cli-runtime's cluster
// flags.
func NewEnv(in io.Reader, out, errOut io.Writer) *Env {
	return &Env{In: in, Out: out, ErrOut: errOut, ConfigFlags: genericclioptions.NewConfigFlags(true)}
}

// Now reads the wall clock.
func (e *Env) Now() time.Time {
	if e.Clock != nil {
		return e.Clock()
	}
	return time.Now()
}

func (e *Env) ctx() context.Context {
	return cmp.Or[context.Context](e.Context, context.Background())
}

// Client returns the API client of the live mode, built once from the
// cluster flags.
func (e *Env) Client() (kubernetes.Interface, error) {
	if e.client != nil {
		return e.client, nil
	}
	var (
		c   kubernetes.Interface
		err error
	)
	if e.NewClient != nil {
		c, err = e.NewClient()
	} else {
		c, err = e.restClient()
	}
	if err != nil {
		return nil, err
	}
	e.client = c
	return c, nil
}

func (e *Env) restClient() (kubernetes.Interface, error) {
	cfg, err := e.ConfigFlags.ToRESTConfig()
	if clientcmd.IsEmptyConfig(err) {
		return nil, fmt.Errorf("no cluster to read: no kubeconfig found (set --kubeconfig or KUBECONFIG), or give -f FILE to read a snapshot")
	}
	if err != nil {
		// As kubectl prints it: `context "nope" does not exist`.
		return nil, err
	}
	return kubernetes.NewForConfig(cfg)
}

// Namespace is the namespace the command works in, as kubectl chooses it:
// -n when given (explicit), else the kubeconfig context's namespace, else
// "default".
func (e *Env) Namespace() (ns string, explicit bool, err error) {
	if e.ConfigFlags.Namespace != nil && *e.ConfigFlags.Namespace != "" {
		return *e.ConfigFlags.Namespace, true, nil
	}
	ns, explicit, err = e.ConfigFlags.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return "", false, err // as kubectl prints it
	}
	return cmp.Or(ns, "default"), explicit, nil
}
