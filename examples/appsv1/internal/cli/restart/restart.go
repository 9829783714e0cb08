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

const long = `Restarts a workload's pods with a new rollout, as 'kubectl rollout restart'
does: it sets the pod template annotation kubectl.kubernetes.io/restartedAt
to the time used, on a Deployment, a StatefulSet or a DaemonSet. Live, the
time is now and the strategic merge patch is sent; on a snapshot (-f) the
time is the latest timestamp the snapshot holds unless --now, and nothing is
sent.`

const example = `  # Restart deployment/web
  kubectl rolloutplan restart deployment/web

  # Restart a StatefulSet and a DaemonSet
  kubectl rolloutplan restart statefulset/db
  kubectl rolloutplan restart ds/fluentd -n kube-system

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
	t.Accept(rolloutio.Kinds...)
	cmd := &cobra.Command{
		Use:               "restart (NAME | KIND/NAME) [flags]",
		Short:             "Restart a Deployment, StatefulSet or DaemonSet",
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
				patch, name, tm, err := restartPatch(src, ref)
				if i == 0 && !tm.At.IsZero() {
					tm.Print(env.ErrOut)
				}
				if err != nil {
					return err
				}
				if string(patch) == "{}" {
					return fmt.Errorf("failed to create patch for %v: if restart has already been triggered within the past second, please wait before attempting to trigger another", name)
				}
				if err := src.Patch(ref, types.PatchType(rollout.StrategicMergePatchType), patch, dry); err != nil {
					return err
				}
				fmt.Fprintf(env.Out, "%s restarted%s\n", ref.Kind.ObjectName(name), dry.Suffix())
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

// restartPatch reads the workload ref and returns the patch kubectl's
// restarter builds for it at the time used, with the workload's name and
// that time. A paused Deployment is kubectl's refusal; the time is printed
// before it.
func restartPatch(src *rolloutio.Source, ref rolloutio.Ref) (patch []byte, name string, tm rolloutio.Time, err error) {
	switch ref.Kind {
	case rolloutio.StatefulSet:
		s, err := src.GetStatefulSet(ref, 0)
		if err != nil {
			return nil, "", tm, err
		}
		patch, err := rollout.StatefulSetRestart(s.StatefulSet, s.Time.At)
		return patch, s.StatefulSet.Name, s.Time, err
	case rolloutio.DaemonSet:
		s, err := src.GetDaemonSet(ref, 0)
		if err != nil {
			return nil, "", tm, err
		}
		patch, err := rollout.DaemonSetRestart(s.DaemonSet, s.Time.At)
		return patch, s.DaemonSet.Name, s.Time, err
	}
	s, err := src.Get(ref, 0)
	if err != nil {
		return nil, "", tm, err
	}
	d := s.Deployment
	patch, err = rollout.Restart(d, s.Time.At)
	if errors.Is(err, rollout.ErrRestartPaused) {
		err = rolloutio.Refused(d, err)
	}
	return patch, d.Name, s.Time, err
}
