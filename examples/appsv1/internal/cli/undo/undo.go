// Package undo is `kubectl rolloutplan undo`: `kubectl rollout undo` for a
// Deployment. Live, it sends kubectl's patch; on a snapshot it prints what
// kubectl prints and, with --show-patch, the patch it would send.
package undo

import (
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	"github.com/rolloutplan/rolloutplan/revision"
)

const long = `Rolls a Deployment back to a previous revision, as 'kubectl rollout undo'
does: live, it sends kubectl's JSON patch (the revision's pod template and
annotations); on a snapshot (-f) nothing is sent and it prints what kubectl
would print. Only the ReplicaSets of the Deployment's namespace that it
controls are revisions, as for kubectl.

--dry-run=client prints the pod template that would be restored;
--dry-run=server sends the patch as a server dry run; --show-patch prints the
patch after kubectl's line.`

const example = `  # Roll back to the previous revision
  kubectl rolloutplan undo deployment/web

  # See revision 3's pod template, then the patch that restores it, without sending it
  kubectl rolloutplan undo web --to-revision=3 --dry-run=client
  kubectl rolloutplan undo web --to-revision=3 -f state.yaml --show-patch`

// NewCommand returns the undo subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t          rolloutio.Target
		toRevision int64
		dryRun     string
		showPatch  bool
	)
	cmd := &cobra.Command{
		Use:               "undo (NAME | deployment/NAME) [flags]",
		Short:             "Undo a previous rollout",
		Long:              long,
		Example:           example,
		ValidArgsFunction: t.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.Prepare(env, args); err != nil {
				return err
			}
			d := rolloutio.DryRun(dryRun)
			if err := d.Validate(); err != nil {
				return err
			}
			src, err := t.Open(env, "undo")
			if err != nil {
				return err
			}
			refs, err := src.Refs()
			if err != nil {
				return err
			}
			for _, ref := range refs {
				s, err := src.Get(ref, rolloutio.NeedReplicaSets)
				if err != nil {
					return err
				}
				if err := undo(env, src, s, toRevision, d, showPatch); err != nil {
					return err
				}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	t.AddFlags(fs, rolloutio.WithSelector)
	fs.Int64Var(&toRevision, "to-revision", 0, "The revision to roll back to (0: the previous one)")
	fs.StringVar(&dryRun, "dry-run", "none", "Dry run: none, client (print the pod template that would be restored) or server (send the patch as a server dry run)")
	fs.BoolVar(&showPatch, "show-patch", false, "Also print the JSON patch kubectl sends to the Deployment")
	_ = cmd.RegisterFlagCompletionFunc("dry-run", cobra.FixedCompletions([]cobra.Completion{"none", "client", "server"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func undo(env *rolloutio.Env, src *rolloutio.Source, s *rolloutio.State, toRevision int64, dryRun rolloutio.DryRun, showPatch bool) error {
	d := s.Deployment
	if _, ok := d.Annotations[model.LastAppliedConfigAnnotation]; ok {
		fmt.Fprintf(env.ErrOut, "Warning: resource deployments/%[1]s was previously managed with '%[3]s apply'. "+
			"Rolling back will not update the %[2]s annotation, which may cause unexpected behavior on future '%[3]s apply' operations. "+
			"Consider using '%[3]s apply' with your previous configuration file instead.\n", d.Name, model.LastAppliedConfigAnnotation, "kubectl")
	}
	if dryRun == "client" {
		out, err := rollout.UndoDryRun(d, s.ReplicaSets, toRevision)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Out, "%s %s (dry run)\n", rolloutio.ObjectName(d), out)
		return nil
	}
	r, err := rollout.Undo(d, s.ReplicaSets, toRevision, appsv1.TemplateJSON)
	if err != nil {
		return err
	}
	if r.Patch != nil {
		if err := src.Patch(s.Ref, types.PatchType(rollout.JSONPatchType), r.Patch, dryRun); err != nil {
			v, _ := revision.Revision(r.Target.Annotations)
			return fmt.Errorf("failed restoring revision %d: %v", v, err)
		}
	}
	fmt.Fprintf(env.Out, "%s %s%s\n", rolloutio.ObjectName(d), r.Output, dryRun.Suffix())
	if showPatch && r.Patch != nil {
		fmt.Fprintf(env.Out, "%s\n", r.Patch)
	}
	return nil
}
