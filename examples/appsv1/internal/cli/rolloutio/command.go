package rolloutio

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Prepare reads the positional arguments and validates the Target's flags:
// the first thing a subcommand's RunE does.
func (t *Target) Prepare(env *Env, args []string) error {
	if err := t.ParseArgs(args); err != nil {
		return err
	}
	return t.Validate(env)
}

// Complete completes a Deployment's name: from the snapshot with -f, else
// from the live cluster's namespace. Errors complete nothing.
func (t *Target) Complete(env *Env) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 && !(len(args) == 1 && deploymentKinds[strings.ToLower(args[0])]) {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		if t.Live() {
			c, err := env.Client()
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			ns, _, err := env.Namespace()
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			list, err := c.AppsV1().Deployments(ns).List(env.ctx(), metav1.ListOptions{})
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			for _, d := range list.Items {
				names = append(names, d.Name)
			}
		} else {
			objs, err := t.read(env)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			for _, d := range objs.Deployments {
				names = append(names, d.Name)
			}
		}
		slices.Sort(names)
		var out []cobra.Completion
		for _, n := range slices.Compact(names) {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
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
