// Package pauseresume is `kubectl rolloutplan pause` and `resume`:
// `kubectl rollout pause` and `kubectl rollout resume` for a Deployment.
// Live, each sends kubectl's patch; on a snapshot it prints what kubectl
// prints and, with --show-patch, the patch it would send. The two differ
// only in the patch and the words, so one implementation serves both.
package pauseresume

import (
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// command is one of the two subcommands.
type command struct {
	name    string // the subcommand and kubectl's verb
	done    string // what kubectl prints after the object's name
	short   string
	long    string
	example string
	patch   func(*model.Deployment) ([]byte, error)
	// setPatch and dsPatch are the patches of StatefulSets and
	// DaemonSets: kubectl's refusals.
	setPatch func(*model.StatefulSet) ([]byte, error)
	dsPatch  func(*model.DaemonSet) ([]byte, error)
}

var (
	pause = command{"pause", "paused", "Mark a Deployment as paused",
		`Marks a Deployment as paused, as 'kubectl rollout pause' does: the
controller stops rolling out changes to its pod template until it is resumed.
Live, the patch {"spec":{"paused":true}} is sent; on a snapshot (-f) nothing
is sent. A paused Deployment is refused, with kubectl's error, and so is a
StatefulSet or a DaemonSet, which kubectl cannot pause.`,
		`  # Pause deployment/web, change it, then resume it
  kubectl rolloutplan pause deployment/web
  kubectl set image deployment/web web=nginx:1.27
  kubectl rolloutplan resume deployment/web`, rollout.Pause, rollout.StatefulSetPause, rollout.DaemonSetPause}
	resume = command{"resume", "resumed", "Resume a paused Deployment",
		`Resumes a paused Deployment, as 'kubectl rollout resume' does: the
controller rolls out the changes made while it was paused. Live, the patch
{"spec":{"paused":null}} is sent; on a snapshot (-f) nothing is sent. A
Deployment that is not paused is refused, with kubectl's error, and so is a
StatefulSet or a DaemonSet, which kubectl cannot resume.`,
		`  # Resume deployment/web
  kubectl rolloutplan resume deployment/web

  # What kubectl would do to a snapshot
  kubectl rolloutplan resume web -f web.yaml --show-patch`, rollout.Resume, rollout.StatefulSetResume, rollout.DaemonSetResume}
)

// NewPause returns the pause subcommand.
func NewPause(env *rolloutio.Env) *cobra.Command { return pause.command(env) }

// NewResume returns the resume subcommand.
func NewResume(env *rolloutio.Env) *cobra.Command { return resume.command(env) }

func (c command) command(env *rolloutio.Env) *cobra.Command {
	var (
		t         rolloutio.Target
		dryRun    string
		showPatch bool
	)
	// StatefulSets and DaemonSets are read, and refused with kubectl's
	// error, as kubectl refuses them.
	t.Accept(rolloutio.Kinds...)
	cmd := &cobra.Command{
		Use:               c.name + " (NAME | deployment/NAME) [flags]",
		Short:             c.short,
		Long:              c.long,
		Example:           c.example,
		ValidArgsFunction: t.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.Prepare(env, args); err != nil {
				return err
			}
			dry := rolloutio.DryRun(dryRun)
			if err := dry.Validate(); err != nil {
				return err
			}
			src, err := t.Open(env, c.name)
			if err != nil {
				return err
			}
			refs, err := src.Refs()
			if err != nil {
				return err
			}
			for _, ref := range refs {
				patch, name, err := c.patchFor(src, ref)
				if err != nil {
					return err
				}
				if err := src.Patch(ref, types.PatchType(rollout.StrategicMergePatchType), patch, dry); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "%s %s%s\n", ref.Kind.ObjectName(name), c.done, dry.Suffix())
				if showPatch {
					fmt.Fprintf(env.Out, "%s\n", patch)
				}
			}
			return nil
		},
	}
	t.AddFlags(cmd.Flags(), rolloutio.WithSelector)
	rolloutio.AddPatchFlags(cmd, &dryRun, &showPatch, "strategic merge patch")
	return cmd
}

// patchFor reads the workload ref and returns kubectl's patch for it and
// its name, or kubectl's refusal: of a Deployment already paused (not
// paused), and of every StatefulSet and DaemonSet.
func (c command) patchFor(src *rolloutio.Source, ref rolloutio.Ref) ([]byte, string, error) {
	var (
		patch []byte
		name  string
		err   error
	)
	switch ref.Kind {
	case rolloutio.StatefulSet:
		s, gerr := src.GetStatefulSet(ref, 0)
		if gerr != nil {
			return nil, "", gerr
		}
		name = s.StatefulSet.Name
		patch, err = c.setPatch(s.StatefulSet)
	case rolloutio.DaemonSet:
		s, gerr := src.GetDaemonSet(ref, 0)
		if gerr != nil {
			return nil, "", gerr
		}
		name = s.DaemonSet.Name
		patch, err = c.dsPatch(s.DaemonSet)
	default:
		s, gerr := src.Get(ref, 0)
		if gerr != nil {
			return nil, "", gerr
		}
		name = s.Deployment.Name
		patch, err = c.patch(s.Deployment)
	}
	if err != nil {
		kind := ref.Kind
		if kind == "" {
			kind = rolloutio.Deployment
		}
		return nil, "", kind.Refused(name, err)
	}
	return patch, name, nil
}
