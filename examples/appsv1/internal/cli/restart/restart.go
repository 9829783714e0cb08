// Package restart is `kubectl rolloutplan restart`: `kubectl rollout
// restart` for a Deployment. Live, it sends kubectl's patch; on a snapshot
// it prints what kubectl prints and, with --show-patch, the patch it would
// send.
package restart

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/types"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

const long = `Restarts a Deployment's pods with a new rollout, as 'kubectl rollout restart'
does: it sets the pod template annotation kubectl.kubernetes.io/restartedAt
to the time used. Live, the time is now and the strategic merge patch is
sent; on a snapshot (-f) the time is the latest timestamp the snapshot
holds unless --now, and nothing is sent.`

const example = `  # Restart deployment/web
  kubectl rolloutplan restart deployment/web

  # Every Deployment labelled app=web, as a server dry run
  kubectl rolloutplan restart -l app=web --dry-run=server

  # The patch kubectl would send for a snapshot, at a given time
  kubectl rolloutplan restart web -f web.yaml --now 2025-03-01T10:00:00Z --show-patch`

// NewCommand returns the restart subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t         rolloutio.Target
		dryRun    string
		showPatch bool
	)
	cmd := &cobra.Command{
		Use:               "restart (NAME | deployment/NAME) [flags]",
		Short:             "Restart a Deployment",
		Long:              long,
		Example:           example,
		ValidArgsFunction: t.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.Prepare(env, args); err != nil {
				return err
			}
			dry := rolloutio.DryRun(dryRun)
			if err := dry.Validate(); err != nil {
				return err
			}
			src, err := t.Open(env, "restart")
			if err != nil {
				return err
			}
			refs, err := src.Refs()
			if err != nil {
				return err
			}
			for i, ref := range refs {
				s, err := src.Get(ref, 0)
				if err != nil {
					return err
				}
				if i == 0 {
					s.Time.Print(env.ErrOut)
				}
				d := s.Deployment
				patch, err := rollout.Restart(d, s.Time.At)
				switch {
				case errors.Is(err, rollout.ErrRestartPaused):
					return rolloutio.Refused(d, err)
				case err != nil:
					return err
				case string(patch) == "{}":
					return fmt.Errorf("failed to create patch for %v: if restart has already been triggered within the past second, please wait before attempting to trigger another", d.Name)
				}
				if err := src.Patch(s.Ref, types.PatchType(rollout.StrategicMergePatchType), patch, dry); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "%s restarted%s\n", rolloutio.ObjectName(d), dry.Suffix())
				if showPatch {
					fmt.Fprintf(env.Out, "%s\n", patch)
				}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	t.AddFlags(fs, rolloutio.WithSelector|rolloutio.WithNow)
	rolloutio.AddPatchFlags(cmd, &dryRun, &showPatch, "strategic merge patch")
	return cmd
}
