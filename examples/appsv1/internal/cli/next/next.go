// Package next is `kubectl rolloutplan next`: "what will the controller do
// next?". It reads a Deployment's, a StatefulSet's or a DaemonSet's state
// (the live cluster, or a snapshot with -f: a List, or a conformance Case
// of the rolloutplan repository), plans one sync the way
// kube-controller-manager v1.36 does, and prints the writes, events,
// requeue and error as JSON (the conformance Output of the rolloutplan
// repository), or YAML with -o yaml.
//
// With --explain, standard error gets one line per write with the
// planner's reason (and whether a real API server rejects it), the fields
// each write of the workload's status changes (old → new), then the
// planner's notes; standard output stays one document.
//
// The standalone command rolloutplan-next is this subcommand reading
// standard input when -f is not given (NewStandalone).
package next

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	apps "k8s.io/api/apps/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan"
)

const long = `Plans the controller's next sync of a Deployment, a StatefulSet or a
DaemonSet, as kube-controller-manager v1.36 would carry it out, and prints
it as JSON: the writes in upstream's order (each with its verb, resource,
object and reason), the events, the requeue and the error the sync ends
with.

The time of the sync: live, now; on a snapshot, the latest timestamp it
holds unless --now. The snapshot must hold what the controller reads:
'kubectl get deployment,replicasets,pods -o yaml' for a Deployment,
'kubectl get statefulset,controllerrevisions,pods,pvc -o yaml' for a
StatefulSet, 'kubectl get daemonset,controllerrevisions,pods,nodes -o yaml'
for a DaemonSet; or a conformance Case of the rolloutplan repository
({"now", "deployment" | "statefulSet" | "daemonSet", ...}), or a manifest
(the first sync of a new workload). Live, it reads the same: every pod,
ControllerRevision and claim of the namespace, and for a DaemonSet every
node.

--max-work bounds the sync, and with it the memory next takes beyond its
input: the objects the sync models count a unit each, those it may create
(every missing pod of a Parallel StatefulSet at once, with its claims) %d
units each, at about %d bytes a unit. A sync past it is refused before it
is planned.`

const example = `  # The next sync of deployment/web, with the reasons on standard error
  kubectl rolloutplan next deployment/web --explain

  # On a snapshot, at a given time, as YAML
  kubectl get deployment,replicasets,pods -n shop -o yaml > state.yaml
  kubectl rolloutplan next web -f state.yaml --now 2025-03-01T10:00:00Z -o yaml

  # A StatefulSet's and a DaemonSet's next sync
  kubectl rolloutplan next statefulset/db --explain
  kubectl rolloutplan next ds/fluentd -n kube-system`

// NewCommand returns the next subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command { return newCommand(env, false) }

// NewStandalone returns the command rolloutplan-next: next, reading
// standard input when -f is not given.
func NewStandalone(env *rolloutio.Env) *cobra.Command { return newCommand(env, true) }

func newCommand(env *rolloutio.Env, stdin bool) *cobra.Command {
	var (
		t          rolloutio.Target
		out        rolloutio.Output
		deployment string
		explainOn  bool
		maxWork    int64
	)
	t.Accept(rolloutio.Kinds...)
	cmd := &cobra.Command{
		Use:               "next (NAME | KIND/NAME) [flags]",
		Short:             "Show the writes, events and requeue of the controller's next sync",
		Long:              fmt.Sprintf(long, predict.SyncCreateUnits, predict.BytesPerUnit),
		Example:           example,
		ValidArgsFunction: t.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := t.ParseArgs(args); err != nil {
				return err
			}
			rolloutio.Warn(env, cmd, "deployment", "give the name as the argument: next NAME")
			if err := t.TakeNameFlag(deployment); err != nil {
				return err
			}
			if stdin && t.Live() {
				t.Files = []string{"-"}
			}
			if err := t.Validate(env); err != nil {
				return err
			}
			if err := out.Validate(); err != nil {
				return err
			}
			if err := predict.ValidateMaxWork(maxWork); err != nil {
				return &rolloutio.UsageError{Err: err}
			}
			src, err := t.Open(env, cmd.Name())
			if err != nil {
				return err
			}
			refs, err := src.Refs()
			if err != nil {
				return err
			}
			switch refs[0].Kind {
			case rolloutio.StatefulSet:
				return nextStatefulSet(env, src, refs[0], out.Format, explainOn, maxWork)
			case rolloutio.DaemonSet:
				return nextDaemonSet(env, src, refs[0], out.Format, explainOn, maxWork)
			}
			st, err := src.Get(refs[0], rolloutio.NeedReplicaSets|rolloutio.NeedPods)
			if err != nil {
				return err
			}
			st.Time.Print(env.ErrOut)
			if err := predict.CheckSyncWork(predict.DeploymentSyncWork(st.Apps), maxWork); err != nil {
				return err
			}
			// A sync that ends with an error (a *plan.SyncError) is a plan
			// too: its writes and error are printed, as upstream's sync ends.
			o, p, err := appsv1.Sync(st.Apps)
			var syncErr *plan.SyncError
			if err != nil && !errors.As(err, &syncErr) {
				return fmt.Errorf("planning: %w", err)
			}
			if err := printPlan(env.Out, out.Format, o.Actions, o.Error, o.Events, o.Requeue); err != nil {
				return err
			}
			if explainOn {
				explain(env.ErrOut, st.Apps.Deployment, o, p)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	t.AddFlags(fs, rolloutio.WithNow)
	out.AddFlag(fs)
	fs.Lookup("output").Usage = "Output format: json (the default) or yaml"
	fs.BoolVar(&explainOn, "explain", false, "Print each write's reason, the fields it changes and the planner's notes on standard error")
	predict.AddMaxWorkFlag(fs, &maxWork, predict.SyncWorkUsage)
	fs.StringVar(&deployment, "deployment", "", "The Deployment's name, as the NAME argument")
	rolloutio.Deprecate(cmd, "deployment")
	rolloutio.CompleteOutput(cmd)
	if stdin {
		cmd.Use = "rolloutplan-next (NAME | KIND/NAME) [flags] < state"
		cmd.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: "rolloutplan-next"}
		cmd.Long += "\n\nWithout -f it reads standard input."
		cmd.Example = `  kubectl get deployment,replicasets,pods -n shop -o yaml | rolloutplan-next web --explain`
	}
	return cmd
}

func explain(w io.Writer, d *apps.Deployment, out appsv1.Output, p plan.Plan) {
	cur := d
	for i, a := range out.Actions {
		res := a.Resource
		if a.Subresource != "" {
			res += "/" + a.Subresource
		}
		conflict := ""
		if a.Conflict {
			conflict = " [a real API server rejects this write: conflict]"
		}
		fmt.Fprintf(w, "write %d: %s %s %s/%s%s: %s\n", i+1, a.Verb, res, a.Namespace, a.Name, conflict, a.Reason)
		if next, ok := a.Object.(*apps.Deployment); ok && next != nil {
			changes := statusChanges(cur, next)
			for _, c := range changes {
				fmt.Fprintf(w, "  %s\n", c)
			}
			if len(changes) == 0 {
				fmt.Fprintf(w, "  (no field changes)\n")
			}
			if !a.Conflict {
				cur = next
			}
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if out.Error != "" {
		fmt.Fprintf(w, "the sync ends with: %s\n", out.Error)
	}
	for _, r := range out.Requeue {
		if r.Kind == string(plan.RequeueAfter) {
			fmt.Fprintf(w, "requeue after %gs\n", r.Seconds)
		} else {
			fmt.Fprintf(w, "requeue: %s\n", r.Kind)
		}
	}
}
