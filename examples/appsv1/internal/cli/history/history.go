// Package history is `kubectl rolloutplan history`: what `kubectl rollout
// history` prints for a Deployment, a StatefulSet or a DaemonSet, the table
// of revisions or, with --revision, one revision's pod template; with -o
// json|yaml the ReplicaSets of a Deployment's revisions, or a StatefulSet
// or DaemonSet with each revision applied, as kubectl prints them.
package history

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

const long = `Shows a workload's rollout history, as 'kubectl rollout history' does: the
table of revisions, or with --revision one revision's pod template. With -o
json|yaml it prints, as kubectl does, the ReplicaSets of a Deployment's
revisions, or a StatefulSet or DaemonSet as each revision restores it (with
--revision, that revision's).

Only the ReplicaSets (for a StatefulSet or DaemonSet, the
ControllerRevisions) of the workload's namespace that it controls count, as
for kubectl. A snapshot (-f) must hold them: 'kubectl get
deployment,replicasets -o yaml', or 'kubectl get
statefulset,controllerrevisions -o yaml'.`

const example = `  # The revisions of deployment/web
  kubectl rolloutplan history deployment/web

  # The pod template of revision 3
  kubectl rolloutplan history web --revision=3

  # Every Deployment's history in every namespace
  kubectl rolloutplan history -A

  # A StatefulSet's and a DaemonSet's
  kubectl rolloutplan history sts/db
  kubectl rolloutplan history daemonset/fluentd -n kube-system --revision=2`

// NewCommand returns the history subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	var (
		t        rolloutio.Target
		out      rolloutio.Output
		revision int64
	)
	t.Accept(rolloutio.Kinds...)
	cmd := &cobra.Command{
		Use:               "history (NAME | KIND/NAME) [flags]",
		Short:             "View a rollout history",
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
				if ref.Kind == rolloutio.StatefulSet || ref.Kind == rolloutio.DaemonSet {
					if err := setHistory(env, &out, src, ref, revision); err != nil {
						return err
					}
					continue
				}
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
		// kubectl's printers leave the managed fields out.
		rs.ManagedFields = nil
		byRevision[v] = rs
	}
	if revision > 0 {
		rs, ok := byRevision[revision]
		if !ok {
			return fmt.Errorf("unable to find the specified revision")
		}
		return out.PrintObject(env.Out, rs)
	}
	keys := make([]int64, 0, len(byRevision))
	for k := range byRevision {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := out.PrintObject(env.Out, byRevision[k]); err != nil {
			return err
		}
	}
	return nil
}

// setHistory is history for a StatefulSet or DaemonSet: kubectl's history
// viewer for those kinds, over the ControllerRevisions the workload
// controls.
func setHistory(env *rolloutio.Env, out *rolloutio.Output, src *rolloutio.Source, ref rolloutio.Ref, revision int64) error {
	var (
		name, text string
		err        error
		obj        metav1.Object
		revisions  []*apps.ControllerRevision
	)
	if ref.Kind == rolloutio.StatefulSet {
		s, gerr := src.GetStatefulSet(ref, rolloutio.NeedRevisions)
		if gerr != nil {
			return gerr
		}
		name, obj, revisions = s.StatefulSet.Name, s.Apps.StatefulSet, s.Apps.ControllerRevisions
		if !out.Structured() {
			text, err = rollout.StatefulSetHistoryRevision(s.StatefulSet, s.Revisions, revision)
		}
	} else {
		s, gerr := src.GetDaemonSet(ref, rolloutio.NeedRevisions)
		if gerr != nil {
			return gerr
		}
		name, obj, revisions = s.DaemonSet.Name, s.Apps.DaemonSet, s.Apps.ControllerRevisions
		if !out.Structured() {
			text, err = rollout.DaemonSetHistoryRevision(s.DaemonSet, s.Revisions, revision)
		}
	}
	if err != nil {
		return err
	}
	if out.Structured() {
		return printApplied(env, out, obj, revisions, revision)
	}
	with := ""
	if revision > 0 {
		with = fmt.Sprintf("with revision #%d", revision)
	}
	fmt.Fprintf(env.Out, "%s %s\n%s\n", ref.Kind.ObjectName(name), with, text)
	return nil
}

// printApplied prints what kubectl's history with -o prints for a
// StatefulSet or DaemonSet: the workload with each revision's data applied
// as a strategic merge patch, in revision order (of two revisions with one
// number, the later in name order), or the one of revision.
func printApplied(env *rolloutio.Env, out *rolloutio.Output, obj metav1.Object, revisions []*apps.ControllerRevision, revision int64) error {
	owned := slices.Clone(revisions)
	owned = slices.DeleteFunc(owned, func(r *apps.ControllerRevision) bool { return !metav1.IsControlledBy(r, obj) })
	// The API server lists them by name.
	slices.SortStableFunc(owned, func(a, b *apps.ControllerRevision) int { return strings.Compare(a.Name, b.Name) })
	byRevision := map[int64]*apps.ControllerRevision{}
	for _, r := range owned {
		byRevision[r.Revision] = r
	}
	apply := func(r *apps.ControllerRevision) (any, error) {
		switch o := obj.(type) {
		case *apps.StatefulSet:
			return applyRevision(o, &apps.StatefulSet{}, r, "StatefulSet")
		case *apps.DaemonSet:
			return applyRevision(o, &apps.DaemonSet{}, r, "DaemonSet")
		}
		return nil, fmt.Errorf("history: unexpected %T", obj)
	}
	if revision > 0 {
		r, ok := byRevision[revision]
		if !ok {
			return fmt.Errorf("unable to find the specified revision")
		}
		applied, err := apply(r)
		if err != nil {
			return err
		}
		return out.PrintObject(env.Out, applied)
	}
	// kubectl applies every revision before it prints one.
	keys := slices.Sorted(maps.Keys(byRevision))
	applied := make([]any, len(keys))
	for i, k := range keys {
		var err error
		if applied[i], err = apply(byRevision[k]); err != nil {
			return err
		}
	}
	for _, a := range applied {
		if err := out.PrintObject(env.Out, a); err != nil {
			return err
		}
	}
	return nil
}

// applyRevision returns a copy of obj (a StatefulSet or DaemonSet, into
// whose type empty decodes) with r's data applied as kubectl applies it
// (strategicpatch.StrategicMergePatch over the object's JSON), with its
// apiVersion and kind set and without managed fields, as kubectl prints
// it.
func applyRevision[T interface {
	runtime.Object
	metav1.Object
}](obj, empty T, r *apps.ControllerRevision, kind string) (T, error) {
	var zero T
	data, err := json.Marshal(obj)
	if err != nil {
		return zero, err
	}
	patched, err := strategicpatch.StrategicMergePatch(data, r.Data.Raw, empty)
	if err != nil {
		return zero, err
	}
	if err := json.Unmarshal(patched, empty); err != nil {
		return zero, err
	}
	empty.GetObjectKind().SetGroupVersionKind(apps.SchemeGroupVersion.WithKind(kind))
	empty.SetManagedFields(nil)
	return empty, nil
}
