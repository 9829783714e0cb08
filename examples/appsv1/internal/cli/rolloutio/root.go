package rolloutio

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// DisplayName is how help and messages name the command: kubectl runs the
// kubectl-rolloutplan executable as the plugin "kubectl rolloutplan".
const DisplayName = "kubectl rolloutplan"

// helpTemplate is cobra's, with the exit codes at the end of every help.
const helpTemplate = `{{with (or .Long .Short)}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}
` + ExitCodes + "\n"

const rootLong = `Answers what 'kubectl rollout' answers, and what it cannot tell: why a
rollout waits, what the controller does next, and how long the rollout will
take, for Deployments, StatefulSets and DaemonSets. The answers are the
Kubernetes v1.36 controllers' and kubectl v0.36's own, decision for decision
and byte for byte.

The workload is NAME (a Deployment), or KIND/NAME or KIND NAME with the
kinds and short names kubectl takes: deployment/web, sts/db, ds/fluentd.
Without -f every subcommand reads the live cluster, as kubectl does (the
kubeconfig, --context, -n or the context's namespace); the subcommands that
change a workload (undo, restart, pause, resume) send kubectl's patch, or
kubectl's refusal. With -f FILE (- for standard input) it reads a snapshot
instead and sends nothing: a manifest, what 'kubectl get deployment NAME -o
yaml' prints, or for the subcommands that need the whole state 'kubectl get
deployment,replicasets,pods -o yaml', 'kubectl get
statefulset,controllerrevisions,pods,pvc -o yaml' or 'kubectl get
daemonset,controllerrevisions,pods,nodes -o yaml'; in a snapshot a NAME is
the workload of that name, whatever its kind. Objects without a namespace
take -n or the context's namespace, as with 'kubectl apply -f'.

The time: live, now; on a snapshot, the latest timestamp it holds unless
--now is given. Subcommands that use the time print it.`

// NewRoot returns the root command with the cluster flags, the given
// subcommands, version and completion.
func NewRoot(env *Env, cmds ...*cobra.Command) *cobra.Command {
	root := &cobra.Command{
		Use:   "kubectl-rolloutplan",
		Short: "Explain and predict rollouts as kubectl and the controllers see them",
		Long:  rootLong,
		Example: `  # Watch a rollout, saying why it waits and when it will finish
  kubectl rolloutplan status deployment/web --explain --predict

  # What the Deployment controller does in its next sync, as JSON
  kubectl rolloutplan next web -n shop

  # A StatefulSet's rollout, why it waits and how long it will take
  kubectl rolloutplan status sts/db --explain --predict --ready-after 30s

  # Review a manifest's strategy before it is applied
  kubectl rolloutplan explain -f nginx-deployment.yaml`,
		Annotations:       map[string]string{cobra.CommandDisplayNameAnnotation: DisplayName},
		SilenceErrors:     true,
		SilenceUsage:      true,
		DisableAutoGenTag: true,
	}
	root.SetIn(env.In)
	root.SetOut(env.Out)
	root.SetErr(env.ErrOut)
	env.ConfigFlags.AddFlags(root.PersistentFlags())
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{err} })
	root.SetHelpTemplate(helpTemplate)
	root.AddCommand(cmds...)
	root.AddCommand(newVersion(env))
	return root
}

// AsRoot makes cmd a command of its own (rolloutplan-next): the cluster
// flags, the help style and the error handling of NewRoot.
func AsRoot(env *Env, cmd *cobra.Command) *cobra.Command {
	cmd.SetIn(env.In)
	cmd.SetOut(env.Out)
	cmd.SetErr(env.ErrOut)
	cmd.SilenceErrors, cmd.SilenceUsage, cmd.DisableAutoGenTag = true, true, true
	env.ConfigFlags.AddFlags(cmd.PersistentFlags())
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{err} })
	cmd.SetHelpTemplate(helpTemplate)
	return cmd
}

// Version is the build's version and commit, from the Go build information.
type Version struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	Go         string `json:"go"`
	Kubernetes string `json:"kubernetes"`
	APIVersion string `json:"k8s.io/api,omitempty"`
}

// BuildVersion reads the Go build information.
func BuildVersion() Version {
	v := Version{Version: "(unknown)", Kubernetes: "v1.36 (kube-controller-manager's decisions, kubectl v0.36's views)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Version, v.Go = bi.Main.Version, bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	for _, d := range bi.Deps {
		if d.Path == "k8s.io/api" {
			v.APIVersion = d.Version
		}
	}
	return v
}

func newVersion(env *Env) *cobra.Command {
	var out Output
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of kubectl-rolloutplan",
		Long:  "Prints the version of kubectl-rolloutplan, its commit and the Kubernetes version whose behaviour it reproduces.",
		Args:  NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := out.Validate(); err != nil {
				return err
			}
			v := BuildVersion()
			if out.Format != "" {
				return out.Print(env.Out, v)
			}
			commit := v.Commit
			if commit == "" {
				commit = "unknown"
			} else if v.Modified {
				commit += " (modified)"
			}
			fmt.Fprintf(env.Out, "kubectl-rolloutplan %s\ncommit: %s\ngo: %s\nkubernetes: %s\n", v.Version, commit, v.Go, v.Kubernetes)
			return nil
		},
	}
	out.AddFlag(cmd.Flags())
	return cmd
}

// NoArgs refuses positional arguments with a usage error.
func NoArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("unexpected argument %q", args[0])
	}
	return nil
}

// Normalize makes the flag names in aliases (alias → name) spellings of
// the names: pflag then lists each flag once.
func Normalize(fs *pflag.FlagSet, aliases map[string]string) {
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		if n, ok := aliases[name]; ok {
			return pflag.NormalizedName(n)
		}
		return pflag.NormalizedName(name)
	})
}
