package rolloutio

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// Prepare reads the positional arguments and validates the Target's flags:
// the first thing a subcommand's RunE does.
func (t *Target) Prepare(env *Env, args []string) error {
	if err := t.ParseArgs(args); err != nil {
		return err
	}
	return t.Validate(env)
}

// Complete completes a workload's name: from the snapshot with -f, else
// from the live cluster's namespace; after a kind (status sts NAME, or
// status sts/NAME), that kind's. Errors complete nothing.
func (t *Target) Complete(env *Env) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var kinds []Kind
		prefix := ""
		switch {
		case len(args) == 1:
			kind, ok := ParseKind(args[0])
			if !ok || !t.accepts(kind) {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			kinds = []Kind{kind}
		case len(args) > 1:
			return nil, cobra.ShellCompDirectiveNoFileComp
		default:
			if kindPart, name, ok := strings.Cut(toComplete, "/"); ok {
				kind, isKind := ParseKind(kindPart)
				if !isKind || !t.accepts(kind) {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				kinds, prefix, toComplete = []Kind{kind}, kindPart+"/", name
			} else if t.Live() {
				// A name alone is a Deployment's on the live cluster.
				kinds = []Kind{Deployment}
			} else {
				kinds = t.accepted()
			}
		}
		var names []string
		for _, kind := range kinds {
			n, err := t.names(env, kind)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			names = append(names, n...)
		}
		slices.Sort(names)
		var out []cobra.Completion
		for _, n := range slices.Compact(names) {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, prefix+n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// names lists the names of the workloads of kind, in the live namespace
// or in the snapshot.
func (t *Target) names(env *Env, kind Kind) ([]string, error) {
	var refs []workload
	if t.Live() {
		c, err := env.Client()
		if err != nil {
			return nil, err
		}
		ns, _, err := env.Namespace()
		if err != nil {
			return nil, err
		}
		if refs, err = listLive(env, c, kind, ns, ""); err != nil {
			return nil, err
		}
	} else {
		objs, err := t.read(env)
		if err != nil {
			return nil, err
		}
		refs = snapshotWorkloads(objs, kind)
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Name
	}
	return names, nil
}

// CompleteOutput registers the completion of -o's values on cmd.
func CompleteOutput(cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]cobra.Completion{"json", "yaml"}, cobra.ShellCompDirectiveNoFileComp))
}

// AddPatchFlags registers --dry-run and --show-patch, the flags of the
// subcommands that patch a Deployment; kind names the patch.
func AddPatchFlags(cmd *cobra.Command, dryRun *string, showPatch *bool, kind string) {
	fs := cmd.Flags()
	fs.StringVar(dryRun, "dry-run", "none", "Dry run: none, client (send nothing) or server (send the patch as a server dry run)")
	fs.BoolVar(showPatch, "show-patch", false, "Also print the "+kind+" kubectl sends")
	_ = cmd.RegisterFlagCompletionFunc("dry-run", cobra.FixedCompletions([]cobra.Completion{"none", "client", "server"}, cobra.ShellCompDirectiveNoFileComp))
}

// Deprecate hides the flag name of cmd, kept so that old command lines
// still work: when it is used, Warn says what to use instead. (cobra's
// MarkDeprecated would print on standard output, which carries data.)
func Deprecate(cmd *cobra.Command, name string) {
	_ = cmd.Flags().MarkHidden(name)
}

// Warn prints on standard error that flag name of cmd is deprecated, when
// it was given.
func Warn(env *Env, cmd *cobra.Command, name, instead string) {
	if cmd.Flags().Changed(name) {
		fmt.Fprintf(env.ErrOut, "Warning: --%s is deprecated: %s\n", name, instead)
	}
}
