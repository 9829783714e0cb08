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
}

var (
	pause = command{"pause", "paused", "Mark a Deployment as paused",
		`Marks a Deployment as paused, as 'kubectl rollout pause' does: the
controller stops rolling out changes to its pod template until it is resumed.
Live, the patch {"spec":{"paused":true}} is sent; on a snapshot (-f) nothing
is sent. A paused Deployment is refused, with kubectl's error.`,
		`  # Pause deployment/web, change it, then resume it
  kubectl rolloutplan pause deployment/web
  kubectl set image deployment/web web=nginx:1.27
  kubectl rolloutplan resume deployment/web`, rollout.Pause}
	resume = command{"resume", "resumed", "Resume a paused Deployment",
		`Resumes a paused Deployment, as 'kubectl rollout resume' does: the
controller rolls out the changes made while it was paused. Live, the patch
{"spec":{"paused":null}} is sent; on a snapshot (-f) nothing is sent. A
Deployment that is not paused is refused, with kubectl's error.`,
		`  # Resume deployment/web
  kubectl rolloutplan resume deployment/web

  # What kubectl would do to a snapshot
  kubectl rolloutplan resume web -f web.yaml --show-patch`, rollout.Resume}
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
				s, err := src.Get(ref, 0)
				if err != nil {
					return err
				}
				d := s.Deployment
				patch, err := c.patch(d)
				if err != nil {
					return rolloutio.Refused(d, err)
				}
				if err := src.Patch(s.Ref, types.PatchType(rollout.StrategicMergePatchType), patch, dry); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "%s %s%s\n", rolloutio.ObjectName(d), c.done, dry.Suffix())
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
