// Package history is `kubectl rolloutplan history`: what `kubectl rollout
// history` prints for a Deployment, the table of revisions or, with
// --revision, one revision's pod template; with -o json|yaml the
// ReplicaSets of the revisions, as kubectl prints them.
package history

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/spf13/cobra"
	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

const long = `Shows a Deployment's rollout history, as 'kubectl rollout history' does:
the table of revisions, or with --revision one revision's pod template. With
-o json|yaml it prints the ReplicaSets of the revisions (with --revision,
that revision's), as kubectl does.

Only the ReplicaSets of the Deployment's namespace that the Deployment
controls count, as for kubectl. A snapshot (-f) must hold them:
'kubectl get deployment,replicasets -o yaml'.`

const example = `  # The revisions of deployment/web
  kubectl rolloutplan history deployment/web

  # The pod template of revision 3
  kubectl rolloutplan history web --revision=3

  # Every Deployment's history in every namespace
  kubectl rolloutplan history -A`

// NewCommand returns the history subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t        rolloutio.Target
		out      rolloutio.Output
		revision int64
	)
	cmd := &cobra.Command{
		Use:               "history (NAME | deployment/NAME) [flags]",
		Short:             "View a Deployment's rollout history",
		Long:              long,
		Example:           example,
		ValidArgsFunction: t.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.Prepare(env, args); err != nil {
				return err
			}
			if err := out.Validate(); err != nil {
				return err
			}
			if err := rolloutio.CheckRevision(revision); err != nil {
				return err
			}
			src, err := t.Open(env, "history")
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
				if out.Structured() {
					if err := printRevisions(env, &out, s, revision); err != nil {
						return err
					}
					continue
				}
				// kubectl logs these through klog before printing; here they
				// are plain lines on standard error.
				warnings, err := rollout.HistoryWarnings(s.Deployment, s.ReplicaSets)
				if err != nil {
					return err
				}
				for _, w := range warnings {
					fmt.Fprintf(env.ErrOut, "warning: %s\n", w)
				}
				text, err := rollout.HistoryRevision(s.Deployment, s.ReplicaSets, revision)
				if err != nil {
					return err
				}
				with := ""
				if revision > 0 {
					with = fmt.Sprintf("with revision #%d", revision)
				}
				// kubectl prints the object's name with the history as the
				// operation.
				fmt.Fprintf(env.Out, "%s %s\n%s\n", rolloutio.ObjectName(s.Deployment), with, text)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	t.AddFlags(fs, rolloutio.WithSelector|rolloutio.WithAllNamespaces)
	out.AddFlag(fs)
	fs.Int64Var(&revision, "revision", 0, "See the details, including the pod template, of this revision (0: the table of all)")
	rolloutio.CompleteOutput(cmd)
	return cmd
}

// printRevisions prints the ReplicaSets of the history, as kubectl's
// history with -o: one per revision, in revision order (a later ReplicaSet
// of the same revision wins, as in kubectl's map), or the one of revision.
func printRevisions(env *rolloutio.Env, out *rolloutio.Output, s *rolloutio.State, revision int64) error {
	d := s.Apps.Deployment
	byRevision := map[int64]*apps.ReplicaSet{}
	for _, rs := range s.Apps.ReplicaSets {
		if !metav1.IsControlledBy(rs, d) {
			continue
		}
		v, err := strconv.ParseInt(rs.Annotations["deployment.kubernetes.io/revision"], 10, 64)
		if err != nil {
			continue
		}
		rs = rs.DeepCopy()
		rs.SetGroupVersionKind(apps.SchemeGroupVersion.WithKind("ReplicaSet"))
		byRevision[v] = rs
	}
	if revision > 0 {
		rs, ok := byRevision[revision]
		if !ok {
			return fmt.Errorf("unable to find the specified revision")
		}
		return out.Print(env.Out, rs)
	}
	keys := make([]int64, 0, len(byRevision))
	for k := range byRevision {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := out.Print(env.Out, byRevision[k]); err != nil {
			return err
		}
	}
	return nil
}
