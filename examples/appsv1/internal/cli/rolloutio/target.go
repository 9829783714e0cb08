package rolloutio

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
)

// Flags chooses the optional flags a subcommand's Target registers.
type Flags uint8

// The optional Target flags.
const (
	// WithSelector registers -l/--selector.
	WithSelector Flags = 1 << iota
	// WithAllNamespaces registers -A/--all-namespaces.
	WithAllNamespaces
	// WithNow registers --now.
	WithNow
)

// Target names the workloads (Deployments, StatefulSets, DaemonSets) a
// subcommand works on and where they are read from: the live cluster, or
// the snapshot files given with -f.
type Target struct {
	// Files are the -f values; empty means the live cluster.
	Files []string
	// MaxInput caps each snapshot file in bytes (--max-input).
	MaxInput int64
	// Selector is -l; AllNamespaces is -A.
	Selector      string
	AllNamespaces bool
	// NowFlag is --now, as given.
	NowFlag string
	// Name is the workload named by the arguments ("" for none), and Kind
	// its kind when the arguments give one.
	Name string
	Kind Kind

	kinds []Kind // the kinds the subcommand takes (Accept)
	flags Flags
	fs    *pflag.FlagSet
	now   time.Time // NowFlag parsed
}

// AddFlags registers -f/--filename and --max-input, and the optional flags
// in f, on fs.
func (t *Target) AddFlags(fs *pflag.FlagSet, f Flags) {
	t.fs, t.flags = fs, f
	fs.StringArrayVarP(&t.Files, "filename", "f", nil,
		"Read a snapshot from this file instead of the live cluster (- for standard input; may be repeated): a manifest, or what 'kubectl get … -o yaml|json' prints")
	fs.Int64Var(&t.MaxInput, "max-input", input.DefaultMaxBytes, "With -f, the most bytes read from one file, 1 to 9223372036854775806; reading takes at most about 10 times the file's size in memory plus a few MB, JSON or YAML, whatever its shape (a file whose objects would take more is refused: many tiny objects, empty containers), 50 times for a restart script")
	if f&WithSelector != 0 {
		fs.StringVarP(&t.Selector, "selector", "l", "", "Selector (label query) choosing the workloads (the Deployments, unless a kind is given), e.g. -l app=web")
	}
	if f&WithAllNamespaces != 0 {
		fs.BoolVarP(&t.AllNamespaces, "all-namespaces", "A", false, "Work on the workloads of every namespace (the Deployments, unless a kind is given)")
	}
	if f&WithNow != 0 {
		fs.StringVar(&t.NowFlag, "now", "", "The time to use, RFC 3339 (default: live, now; a snapshot, the latest timestamp it holds)")
	}
}

// Live reports that the Target reads the live cluster (no -f).
func (t *Target) Live() bool { return len(t.Files) == 0 }

// Accept sets the kinds the subcommand works on (the default: Deployments
// only), before the arguments are parsed.
func (t *Target) Accept(kinds ...Kind) { t.kinds = kinds }

// accepted are the kinds the subcommand works on.
func (t *Target) accepted() []Kind {
	if len(t.kinds) == 0 {
		return []Kind{Deployment}
	}
	return t.kinds
}

// accepts reports that the subcommand works on kind.
func (t *Target) accepts(kind Kind) bool { return slices.Contains(t.accepted(), kind) }

// kindArg reads a resource spelling of an argument: the kind, or a usage
// error naming the argument.
func (t *Target) kindArg(arg, spelling, form string) (Kind, error) {
	kind, ok := ParseKind(spelling)
	if !ok || !t.accepts(kind) {
		kinds := t.accepted()
		if len(kinds) == 1 {
			return "", Usagef("argument %q: only %s are supported (%s%sNAME)", arg, kindList(kinds), kinds[0].Lower(), form)
		}
		return "", Usagef("argument %q: only %s are supported (KIND%sNAME)", arg, kindList(kinds), form)
	}
	return kind, nil
}

// ParseArgs reads the positional arguments kubectl rollout takes:
// nothing, NAME, KIND/NAME or KIND NAME, KIND one of the spellings kubectl
// accepts for the kinds the subcommand works on (deployment, deploy,
// statefulset, sts, daemonset, ds, …), or KIND alone with -l or -A. A NAME
// without a kind is a Deployment's on the live cluster and the workload of
// that name in a snapshot. Errors are usage errors.
func (t *Target) ParseArgs(args []string) error {
	switch len(args) {
	case 0:
		return nil
	case 1:
		kindPart, name, ok := strings.Cut(args[0], "/")
		if !ok {
			if kind, isKind := ParseKind(args[0]); isKind {
				// "kubectl rollout status deployment" without a name.
				if _, err := t.kindArg(args[0], args[0], "/"); err != nil {
					return err
				}
				t.Kind = kind
				if t.Selector == "" && !t.AllNamespaces {
					return Usagef("argument %q: give the %s's name (%s/NAME or %s NAME) or -l SELECTOR", args[0], kind, kind.Lower(), kind.Lower())
				}
				return nil
			}
			t.Name = args[0]
			return nil
		}
		kind, err := t.kindArg(args[0], kindPart, "/")
		if err != nil {
			return err
		}
		if name == "" {
			return Usagef("argument %q: the name is empty", args[0])
		}
		t.Kind, t.Name = kind, name
		return nil
	case 2:
		kind, err := t.kindArg(args[0], args[0], " ")
		if err != nil {
			return err
		}
		t.Kind, t.Name = kind, args[1]
		return nil
	}
	return Usagef("too many arguments %q: give one workload (NAME or KIND/NAME)", args)
}

// TakeNameFlag takes the deprecated --deployment NAME of next and
// simulate: the name when the arguments give none; when they do, the two
// must agree.
func (t *Target) TakeNameFlag(flag string) error {
	switch {
	case flag == "":
	case t.Name == "":
		t.Name = flag
	case t.Name != flag:
		return Usagef("--deployment %q and argument %q name different Deployments: give one", flag, t.Name)
	}
	return nil
}

// liveOnly are the cluster flags that only the live mode reads (-n,
// --context and --kubeconfig also give a snapshot's objects their
// namespace).
var liveOnly = []string{"server", "token", "user", "cluster", "as", "as-group", "as-uid", "as-user-extra",
	"certificate-authority", "client-certificate", "client-key", "insecure-skip-tls-verify", "tls-server-name",
	"request-timeout", "cache-dir", "disable-compression"}

// Validate checks the flags and arguments together (after ParseArgs).
func (t *Target) Validate(env *Env) error {
	if t.MaxInput < 1 || t.MaxInput > math.MaxInt64-1 {
		return Usagef("--max-input %d: out of range 1 to 9223372036854775806", t.MaxInput)
	}
	if t.Live() && t.fs != nil && t.fs.Changed("max-input") {
		return Usagef("--max-input applies to -f only")
	}
	stdin := 0
	for _, f := range t.Files {
		switch {
		case f == "":
			return Usagef("-f: empty file name (- reads standard input)")
		case f == "-":
			stdin++
		}
	}
	if stdin > 1 {
		return Usagef("-f -: standard input given twice")
	}
	if !t.Live() && t.fs != nil {
		for _, name := range liveOnly {
			if t.fs.Changed(name) {
				return Usagef("--%s applies to the live cluster, not to a snapshot (-f)", name)
			}
		}
	}
	if t.Name != "" && t.Selector != "" {
		return Usagef("name cannot be provided when a selector is specified")
	}
	if t.Name != "" && t.AllNamespaces {
		return Usagef("a resource cannot be retrieved by name across all namespaces")
	}
	if t.AllNamespaces && env.ConfigFlags.Namespace != nil && *env.ConfigFlags.Namespace != "" {
		return Usagef("-A and -n %s: give one", *env.ConfigFlags.Namespace)
	}
	if t.NowFlag != "" {
		now, err := time.Parse(time.RFC3339, t.NowFlag)
		if err != nil {
			return Usagef("--now %q: not an RFC 3339 time such as 2025-03-01T10:00:00Z", t.NowFlag)
		}
		t.now = now
	}
	return nil
}

// Open returns the source the Target reads: the snapshot files or the
// live cluster. command names the subcommand in the lines about ignored
// input.
func (t *Target) Open(env *Env, command string) (*Source, error) {
	s := &Source{env: env, t: t, command: command}
	if t.Live() {
		c, err := env.Client()
		if err != nil {
			return nil, err
		}
		s.client = c
		if !t.AllNamespaces {
			if s.ns, s.nsExplicit, err = env.Namespace(); err != nil {
				return nil, err
			}
		}
		return s, nil
	}
	if ns := env.ConfigFlags.Namespace; ns != nil && *ns != "" {
		s.ns, s.nsExplicit = *ns, true
	}
	objs, err := t.read(env)
	if err != nil {
		return nil, err
	}
	if err := s.defaultNamespaces(objs); err != nil {
		return nil, err
	}
	s.objs = objs
	return s, nil
}

// read reads every -f file and joins their objects.
func (t *Target) read(env *Env) (*input.Objects, error) {
	var all *input.Objects
	for _, name := range t.Files {
		objs, err := t.readFile(env, name)
		if err != nil {
			if len(t.Files) > 1 {
				err = fmt.Errorf("%s: %w", displayFile(name), err)
			}
			return nil, err
		}
		if all == nil {
			all = objs
			continue
		}
		if all.Case || objs.Case {
			return nil, fmt.Errorf("%s: a conformance case of this repository must be the only input", displayFile(name))
		}
		all.Items += objs.Items
		all.Deployments = append(all.Deployments, objs.Deployments...)
		all.ReplicaSets = append(all.ReplicaSets, objs.ReplicaSets...)
		all.Pods = append(all.Pods, objs.Pods...)
		all.StatefulSets = append(all.StatefulSets, objs.StatefulSets...)
		all.DaemonSets = append(all.DaemonSets, objs.DaemonSets...)
		all.ControllerRevisions = append(all.ControllerRevisions, objs.ControllerRevisions...)
		all.PVCs = append(all.PVCs, objs.PVCs...)
		all.Nodes = append(all.Nodes, objs.Nodes...)
		all.Ignored = mergeIgnored(all.Ignored, objs.Ignored)
	}
	return all, nil
}

func displayFile(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

func (t *Target) readFile(env *Env, name string) (*input.Objects, error) {
	in := env.In
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("reading the snapshot: %w", err)
		}
		defer f.Close()
		in = f
	}
	if in == nil {
		in = strings.NewReader("")
	}
	objs, err := input.ReadObjects(in, input.Options{MaxBytes: t.MaxInput, Single: true})
	if errors.Is(err, input.ErrTooLarge) {
		return nil, fmt.Errorf("%w (raise --max-input)", err)
	}
	return objs, err
}

func mergeIgnored(a, b []input.Ignored) []input.Ignored {
next:
	for _, g := range b {
		for i := range a {
			if a[i].Kind == g.Kind && a[i].APIVersion == g.APIVersion && a[i].Namespace == g.Namespace && a[i].Why == g.Why {
				a[i].Count += g.Count
				continue next
			}
		}
		a = append(a, g)
	}
	return a
}
