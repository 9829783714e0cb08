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

const long = `Rolls a Deployment, a StatefulSet or a DaemonSet back to a previous
revision, as 'kubectl rollout undo' does: live, it sends kubectl's patch (for
a Deployment a JSON patch of the revision's pod template and annotations, for
a StatefulSet or DaemonSet the strategic merge patch its ControllerRevision
records); on a snapshot (-f) nothing is sent and it prints what kubectl would
print. Only the ReplicaSets (ControllerRevisions) of the workload's namespace
that it controls are revisions, as for kubectl.

--dry-run=client prints the pod template that would be restored;
--dry-run=server sends the patch as a server dry run; --show-patch prints the
patch after kubectl's line.`

const example = `  # Roll back to the previous revision
  kubectl rolloutplan undo deployment/web

  # See revision 3's pod template, then the patch that restores it, without sending it
  kubectl rolloutplan undo web --to-revision=3 --dry-run=client
  kubectl rolloutplan undo web --to-revision=3 -f state.yaml --show-patch

  # Roll a StatefulSet back to revision 2, from what kubectl get prints
  kubectl get statefulset,controllerrevisions -n prod -o yaml > db.yaml
  kubectl rolloutplan undo sts/db --to-revision=2 -f db.yaml --show-patch`

// NewCommand returns the undo subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t          rolloutio.Target
		toRevision int64
		dryRun     string
		showPatch  bool
	)
	t.Accept(rolloutio.Kinds...)
	cmd := &cobra.Command{
		Use:               "undo (NAME | KIND/NAME) [flags]",
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
				var err error
				switch ref.Kind {
				case rolloutio.StatefulSet, rolloutio.DaemonSet:
					err = undoSet(env, src, ref, toRevision, d, showPatch)
				default:
					var s *rolloutio.State
					if s, err = src.Get(ref, rolloutio.NeedReplicaSets); err == nil {
						err = undo(env, src, s, toRevision, d, showPatch)
					}
				}
				if err != nil {
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
	fs.BoolVar(&showPatch, "show-patch", false, "Also print the patch kubectl sends to the workload")
	_ = cmd.RegisterFlagCompletionFunc("dry-run", cobra.FixedCompletions([]cobra.Completion{"none", "client", "server"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func undo(env *rolloutio.Env, src *rolloutio.Source, s *rolloutio.State, toRevision int64, dryRun rolloutio.DryRun, showPatch bool) error {
	d := s.Deployment
	warnLastApplied(env, s.Ref, d.Name, d.Annotations)
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

// undoSet is undo for a StatefulSet or DaemonSet: kubectl's rollbacker
// for those kinds, whose patch is the target ControllerRevision's data.
func undoSet(env *rolloutio.Env, src *rolloutio.Source, ref rolloutio.Ref, toRevision int64, dryRun rolloutio.DryRun, showPatch bool) error {
	var (
		name, dryOut string
		annotations  map[string]string
		res          rollout.StatefulSetUndoResult
		err          error
	)
	if ref.Kind == rolloutio.StatefulSet {
		s, gerr := src.GetStatefulSet(ref, rolloutio.NeedRevisions)
		if gerr != nil {
			return gerr
		}
		name, annotations = s.StatefulSet.Name, s.Apps.StatefulSet.Annotations
		warnLastApplied(env, ref, name, annotations)
		if dryRun == "client" {
			dryOut, err = rollout.StatefulSetUndoDryRun(s.StatefulSet, s.Revisions, toRevision)
		} else {
			res, err = rollout.StatefulSetUndo(s.StatefulSet, s.Revisions, toRevision, appsv1.TemplateJSON)
		}
	} else {
		s, gerr := src.GetDaemonSet(ref, rolloutio.NeedRevisions)
		if gerr != nil {
			return gerr
		}
		name, annotations = s.DaemonSet.Name, s.Apps.DaemonSet.Annotations
		warnLastApplied(env, ref, name, annotations)
		if dryRun == "client" {
			dryOut, err = rollout.DaemonSetUndoDryRun(s.DaemonSet, s.Revisions, toRevision)
		} else {
			var r rollout.DaemonSetUndoResult
			r, err = rollout.DaemonSetUndo(s.DaemonSet, s.Revisions, toRevision, appsv1.TemplateJSON)
			res = rollout.StatefulSetUndoResult(r)
		}
	}
	if err != nil {
		return err
	}
	if dryRun == "client" {
		fmt.Fprintf(env.Out, "%s %s (dry run)\n", ref.Kind.ObjectName(name), dryOut)
		return nil
	}
	if res.Patch != nil {
		if err := src.Patch(ref, types.PatchType(rollout.StrategicMergePatchType), res.Patch, dryRun); err != nil {
			// kubectl names the revision as asked (0: the previous one).
			return fmt.Errorf("failed restoring revision %d: %v", toRevision, err)
		}
	}
	fmt.Fprintf(env.Out, "%s %s%s\n", ref.Kind.ObjectName(name), res.Output, dryRun.Suffix())
	if showPatch && res.Patch != nil {
		fmt.Fprintf(env.Out, "%s\n", res.Patch)
	}
	return nil
}

// warnLastApplied prints kubectl's warning for a workload last changed
// with kubectl apply: the rollback leaves the annotation behind.
func warnLastApplied(env *rolloutio.Env, ref rolloutio.Ref, name string, annotations map[string]string) {
	if _, ok := annotations[model.LastAppliedConfigAnnotation]; ok {
		fmt.Fprintf(env.ErrOut, "Warning: resource %[1]s/%[2]s was previously managed with '%[4]s apply'. "+
			"Rolling back will not update the %[3]s annotation, which may cause unexpected behavior on future '%[4]s apply' operations. "+
			"Consider using '%[4]s apply' with your previous configuration file instead.\n", ref.Kind.Resource(), name, model.LastAppliedConfigAnnotation, "kubectl")
	}
}
