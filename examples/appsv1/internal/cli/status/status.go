// Package status is `kubectl rolloutplan status`: what `kubectl rollout
// status` prints for a Deployment, a StatefulSet or a DaemonSet, watching
// the live rollout until it is done as kubectl does (or one look with
// --watch=false, and always on a snapshot), with --explain why the rollout
// waits, from the controller's own reasons for its next sync, and with
// --predict how long it will take, from the simulator (package predict,
// shared with simulate; Deployments and StatefulSets).
package status

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	watchpkg "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

const long = `Shows the status of a rollout of a Deployment, a StatefulSet or a
DaemonSet, as 'kubectl rollout status' does: on the live cluster it watches
the rollout until it is done, printing kubectl's line at every change
(--watch=false: one look); on a snapshot (-f) it is one look. As kubectl,
--revision applies to Deployments only, and a StatefulSet or DaemonSet
whose update strategy is not RollingUpdate is an error.

--explain adds, after each line, why the rollout waits: the controller's
next sync and the arithmetic behind it, then the workload's pods that are
not ready and why (a container waiting with ImagePullBackOff, ErrImagePull,
CrashLoopBackOff, CreateContainerConfigError…, PodScheduled=False with the
scheduler's message, a failing readiness probe). --max-work bounds that
sync too, and with it its memory: the objects it models count a unit each,
those it may create (every missing pod of a Parallel StatefulSet at once)
%d units each, at about %d bytes a unit. --predict adds how long
the rollout will take, or why it will stall, from the simulator (as
'kubectl rolloutplan simulate' predicts it; --ready-after, --grace,
--never-ready, --fidelity, --max-work and --svg set what it assumes; a
DaemonSet is simulated over its nodes). Without --ready-after, pods are taken
to become ready as the workload's own pods did (the median delay from
creation to ready), a pod stuck past the longest seen (or waiting on an
error the kubelet keeps retrying) is a stall, and the line under the
prediction's header says what was assumed and when the progress deadline
fires.

With -o json|yaml each look is printed as one document: the workload, the
time, kubectl's message, whether it is done, and the explanation and
prediction asked for.`

// longHelp is long with the sync's work bound.
var longHelp = fmt.Sprintf(long, predict.SyncCreateUnits, predict.BytesPerUnit)

const example = `  # Watch the rollout of deployment/web until it is done, as kubectl does
  kubectl rolloutplan status deployment/web

  # One look, with why it waits and how long it will take
  kubectl rolloutplan status web --watch=false --explain --predict --ready-after 20s

  # The same on a snapshot taken with kubectl get
  kubectl get deployment,replicasets,pods -n shop -o yaml > state.yaml
  kubectl rolloutplan status web -f state.yaml --explain

  # A StatefulSet's and a DaemonSet's rollout
  kubectl rolloutplan status statefulset/db --explain
  kubectl rolloutplan status ds/fluentd -n kube-system`

type options struct {
	env      *rolloutio.Env
	target   rolloutio.Target
	out      rolloutio.Output
	world    predict.World
	revision int64
	watch    bool
	timeout  time.Duration
	explain  bool
	predict  bool
	cmd      *cobra.Command
}

// NewCommand returns the status subcommand.
func NewCommand(env *rolloutio.Env) *cobra.Command {
	o := &options{env: env}
	o.target.Accept(rolloutio.Kinds...)
	cmd := &cobra.Command{
		Use:               "status (NAME | KIND/NAME) [flags]",
		Short:             "Show the status of a rollout, why it waits and how long it will take",
		Long:              longHelp,
		Example:           example,
		ValidArgsFunction: o.target.Complete(env),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.cmd = cmd
			return o.run(args)
		},
	}
	fs := cmd.Flags()
	o.target.AddFlags(fs, rolloutio.WithNow|rolloutio.WithSelector)
	o.out.AddFlag(fs)
	fs.Int64Var(&o.revision, "revision", 0, "Pin to a specific revision for showing its status; a Deployment at another one is an error (0: any)")
	fs.BoolVarP(&o.watch, "watch", "w", true, "Watch the status of the rollout until it is done (live cluster only)")
	fs.DurationVar(&o.timeout, "timeout", 0, "The length of time to wait before ending the watch, zero means never (e.g. 1s, 2m, 3h)")
	fs.BoolVar(&o.explain, "explain", false, "After kubectl's line, say why the rollout waits: the controller's next sync and its arithmetic, and the pods not ready and why")
	fs.BoolVar(&o.predict, "predict", false, "After kubectl's line, predict how long the rollout will take, or why it will stall")
	o.world.AddFlags(fs)
	rolloutio.CompleteOutput(cmd)
	return cmd
}

func (o *options) run(args []string) error {
	if err := o.target.Prepare(o.env, args); err != nil {
		return err
	}
	if err := o.world.Validate(); err != nil {
		return &rolloutio.UsageError{Err: err}
	}
	if err := o.out.Validate(); err != nil {
		return err
	}
	if o.timeout < 0 {
		return rolloutio.Usagef("--timeout %s: must not be negative", o.timeout)
	}
	fs := o.cmd.Flags()
	for _, name := range []string{"ready-after", "grace", "never-ready", "fidelity", "svg"} {
		if fs.Changed(name) && !o.predict {
			return rolloutio.Usagef("--%s sets what --predict assumes: add --predict", name)
		}
	}
	if fs.Changed("max-work") && !o.predict && !o.explain {
		return rolloutio.Usagef("--max-work bounds --explain's sync and --predict's simulation: add one")
	}
	if o.target.Live() {
		if !o.watch && fs.Changed("timeout") {
			return rolloutio.Usagef("--timeout applies to --watch only")
		}
	} else {
		if o.watch && fs.Changed("watch") {
			return rolloutio.Usagef("--watch: a snapshot (-f) cannot be watched; it is one look, as --watch=false")
		}
		if fs.Changed("timeout") {
			return rolloutio.Usagef("--timeout applies to watching the live cluster, not to a snapshot (-f)")
		}
	}
	// kubectl checks the revision after the flags, and ends with its error.
	if err := rolloutio.CheckRevision(o.revision); err != nil {
		return err
	}
	src, err := o.target.Open(o.env, "status")
	if err != nil {
		return err
	}
	refs, err := src.Refs()
	if err != nil {
		return err
	}
	// Each workload in turn, as kubectl visits them.
	for i, ref := range refs {
		var err error
		switch ref.Kind {
		case rolloutio.StatefulSet, rolloutio.DaemonSet:
			err = o.runSet(src, ref, i == 0)
		default:
			err = o.runDeployment(src, ref, i == 0)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// runDeployment looks at one Deployment, and watches it until it is done.
func (o *options) runDeployment(src *rolloutio.Source, ref rolloutio.Ref, first bool) error {
	st, err := src.Get(ref, o.need())
	if err != nil {
		return err
	}
	if first && (o.explain || o.predict) {
		st.Time.Print(o.env.ErrOut)
	}
	done, err := o.look(st)
	if err != nil || done || !src.Live() || !o.watch {
		return err
	}
	return o.watchRollout(src, st.Ref, st.Apps.Deployment.ResourceVersion, func(obj runtime.Object) (bool, error) {
		d, ok := obj.(*apps.Deployment)
		if !ok {
			return false, nil
		}
		// The status viewer reads the object of the event, as kubectl's.
		st, err := src.Refresh(d.DeepCopy(), o.need())
		if err != nil {
			return false, err
		}
		return o.look(st)
	})
}

func (o *options) need() rolloutio.Need {
	if o.explain || o.predict {
		return rolloutio.NeedReplicaSets | rolloutio.NeedPods
	}
	return 0
}

// Look is one look as -o json|yaml prints it: the workload (one of
// Deployment, StatefulSet and DaemonSet, "namespace/name"), and its status
// as stored (an apps/v1 DeploymentStatus, StatefulSetStatus or
// DaemonSetStatus).
type Look struct {
	Deployment  string           `json:"deployment,omitempty"`
	StatefulSet string           `json:"statefulSet,omitempty"`
	DaemonSet   string           `json:"daemonSet,omitempty"`
	Time        *time.Time       `json:"time,omitempty"`
	Message     string           `json:"message,omitempty"`
	Done        bool             `json:"done"`
	Error       string           `json:"error,omitempty"`
	Explanation *Explanation     `json:"explanation,omitempty"`
	Prediction  *predict.Summary `json:"prediction,omitempty"`
	Revision    string           `json:"revision,omitempty"`
	Status      any              `json:"status"`
}

// look prints kubectl's line for the Deployment of st and what --explain
// and --predict add, and returns whether the rollout is done, or kubectl's
// error.
func (o *options) look(st *rolloutio.State) (bool, error) {
	s := st.Apps
	msg, done, statusErr := rollout.Status(model.Default(st.Deployment), o.revision)
	return o.lookAt(view{
		ref: st.Ref, msg: msg, done: done, err: statusErr, now: s.Now, status: s.Deployment.Status,
		revision: s.Deployment.Annotations["deployment.kubernetes.io/revision"],
		explain: func() (Explanation, error) {
			if err := predict.CheckSyncWork(predict.DeploymentSyncWork(s), o.world.MaxWork); err != nil {
				return Explanation{}, fmt.Errorf("explain: %w", err)
			}
			return Explain(s)
		},
		predict: func() (*predict.Prediction, error) { return predict.Run(s, o.world) },
	})
}

// view is one look at a workload: kubectl's message, whether the rollout
// is done and its error, and how to explain and predict it.
type view struct {
	ref      rolloutio.Ref
	msg      string
	done     bool
	err      error
	now      time.Time
	why      string // where now comes from
	status   any
	revision string
	explain  func() (Explanation, error)
	// predict simulates the rest of the rollout.
	predict func() (*predict.Prediction, error)
}

// lookAt prints kubectl's line of v and what --explain and --predict add
// (or, with -o, one document), and returns whether the rollout is done, or
// kubectl's error.
func (o *options) lookAt(v view) (bool, error) {
	w := o.env.Out
	var doc *Look
	if o.out.Structured() {
		doc = &Look{Message: strings.TrimSuffix(v.msg, "\n"), Done: v.done, Revision: v.revision, Status: v.status}
		switch v.ref.Kind {
		case rolloutio.StatefulSet:
			doc.StatefulSet = v.ref.String()
		case rolloutio.DaemonSet:
			doc.DaemonSet = v.ref.String()
		default:
			doc.Deployment = v.ref.String()
		}
		if v.err != nil {
			doc.Error = v.err.Error()
		}
		if o.explain || o.predict {
			at := v.now.UTC()
			doc.Time = &at
		}
		w = io.Discard
	}
	fmt.Fprint(w, v.msg)
	if o.explain {
		e, err := v.explain()
		if err != nil {
			return false, err
		}
		e.Write(w)
		if doc != nil {
			doc.Explanation = &e
		}
	}
	if o.predict && v.predict != nil {
		p, err := v.predict()
		if err != nil {
			return false, fmt.Errorf("predict: %w", err)
		}
		// The assumptions first: a prediction is only as good as them.
		p.WriteHeader(w)
		p.WriteVerdict(w)
		if err := p.WriteChart(o.env.ErrOut); err != nil {
			return false, fmt.Errorf("predict: %w", err)
		}
		if doc != nil {
			s := p.Summarize()
			doc.Prediction = &s
		}
	}
	if doc != nil {
		if err := o.out.Print(o.env.Out, doc); err != nil {
			return false, err
		}
	}
	return v.done, v.err
}

// watchRollout watches the workload ref as kubectl rollout status does
// (an informer on the one object, until the status viewer says done, the
// object is deleted or --timeout passes), calling look with the object of
// every event but the one of resource version seen, which was looked at.
func (o *options) watchRollout(src *rolloutio.Source, ref rolloutio.Ref, seen string, look func(runtime.Object) (bool, error)) error {
	ns, name := ref.Namespace, ref.Name
	client := src.Client()
	fieldSelector := fields.OneTermEqualSelector("metadata.name", name).String()
	parent := o.env.Context
	if parent == nil {
		parent = o.cmd.Context()
	}
	var (
		list  func(context.Context, metav1.ListOptions) (runtime.Object, error)
		watch func(context.Context, metav1.ListOptions) (watchpkg.Interface, error)
		obj   runtime.Object
	)
	switch ref.Kind {
	case rolloutio.StatefulSet:
		c := client.AppsV1().StatefulSets(ns)
		list = func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) { return c.List(ctx, opts) }
		watch, obj = c.Watch, &apps.StatefulSet{}
	case rolloutio.DaemonSet:
		c := client.AppsV1().DaemonSets(ns)
		list = func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) { return c.List(ctx, opts) }
		watch, obj = c.Watch, &apps.DaemonSet{}
	default:
		c := client.AppsV1().Deployments(ns)
		list = func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) { return c.List(ctx, opts) }
		watch, obj = c.Watch, &apps.Deployment{}
	}
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.FieldSelector = fieldSelector
			return list(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watchpkg.Interface, error) {
			opts.FieldSelector = fieldSelector
			return watch(ctx, opts)
		},
	}
	ctx, cancel := watchtools.ContextWithOptionalTimeout(parent, o.timeout)
	defer cancel()
	// The client says whether it streams the initial list in a watch (a
	// fake clientset does not).
	_, err := watchtools.UntilWithSync(ctx, cache.ToListWatcherWithWatchListSemantics(lw, client), obj, nil, func(e watchpkg.Event) (bool, error) {
		switch e.Type {
		case watchpkg.Added, watchpkg.Modified:
			m, err := meta.Accessor(e.Object)
			if err != nil || m.GetName() != name || m.GetNamespace() != ns {
				return false, nil
			}
			// The first look was printed from the same object.
			if m.GetResourceVersion() == seen {
				return false, nil
			}
			seen = ""
			return look(e.Object)
		case watchpkg.Deleted:
			// As kubectl: abort rather than silently watch a new object.
			return true, errors.New("object has been deleted")
		default:
			return true, fmt.Errorf("internal error: unexpected event %#v", e)
		}
	})
	return err
}

// Explanation is why the rollout waits: the controller's next sync.
type Explanation struct {
	Time   time.Time `json:"time"`
	Writes []Write   `json:"writes"`
	Notes  []string  `json:"notes,omitempty"`
	// SyncError is the error the sync ends with.
	SyncError string `json:"syncError,omitempty"`
	// RequeueAfter is when the controller syncs again by itself: a
	// Deployment's progress deadline check, a StatefulSet's or DaemonSet's
	// minReadySeconds (or a DaemonSet's failed-pod backoff).
	RequeueAfter string `json:"requeueAfter,omitempty"`
	// Pods are the workload's pods that are not ready, with why (at most
	// ten, longest waiting first; MorePods counts the others).
	Pods     []PodWait `json:"pods,omitempty"`
	MorePods int       `json:"morePods,omitempty"`

	// controller names the controller ("" : the Deployment controller).
	controller Kind
}

// Kind is a workload kind, as the explanation names its controller.
type Kind = rolloutio.Kind

// Write is one write of the next sync.
type Write struct {
	Kind     string `json:"kind"`
	Object   string `json:"object"`
	Reason   string `json:"reason"`
	Conflict bool   `json:"conflict,omitempty"`
	// Rejected is the message with which a real API server rejects a
	// StatefulSet controller's write (a create whose name is taken, an
	// invalid status).
	Rejected string `json:"rejected,omitempty"`
}

// Explain plans the controller's next sync of s.
func Explain(s appsv1.State) (Explanation, error) {
	_, p, err := appsv1.Sync(s)
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return Explanation{}, fmt.Errorf("explain: planning the next sync: %w", err)
	}
	e := Explanation{Time: s.Now.UTC()}
	for _, a := range p.Actions {
		e.Writes = append(e.Writes, Write{Kind: string(writeKind(a.Kind)), Object: a.Object.Namespace + "/" + a.Object.Name, Reason: reasonLine(a.Reason), Conflict: a.Conflict})
	}
	for _, n := range p.Notes {
		e.Notes = append(e.Notes, reasonLine(n))
	}
	e.finish(syncErr, p.Requeue)
	m, err := s.Model()
	if err != nil {
		return Explanation{}, fmt.Errorf("explain: %w", err)
	}
	e.Pods, e.MorePods = podWaits(predict.DeploymentPods(m.Deployment, m.ReplicaSets, m.Pods), s.Now, replicaSetOf(m.Deployment, m.ReplicaSets))
	return e, nil
}

// Write prints the explanation as text.
func (e Explanation) Write(w io.Writer) {
	controller := cmp.Or(e.controller, rolloutio.Deployment)
	fmt.Fprintf(w, "Why: the %s controller's next sync (at %s)", controller, e.Time.Format(time.RFC3339))
	if len(e.Writes) == 0 {
		fmt.Fprintln(w, " writes nothing.")
	} else {
		fmt.Fprintln(w, " writes:")
		for _, a := range e.Writes {
			fmt.Fprintf(w, "  - %s %s", a.Kind, a.Object)
			if a.Conflict {
				fmt.Fprint(w, " (rejected with a conflict by a real API server)")
			}
			if a.Rejected != "" {
				fmt.Fprintf(w, " (rejected by a real API server: %s)", a.Rejected)
			}
			fmt.Fprintf(w, "\n    %s\n", a.Reason)
		}
	}
	if len(e.Notes) > 0 {
		fmt.Fprintln(w, "and notes:")
		for _, n := range e.Notes {
			fmt.Fprintf(w, "  - %s\n", n)
		}
	}
	e.writePods(w)
	if e.SyncError != "" {
		fmt.Fprintf(w, "The sync ends with the error: %s\n", e.SyncError)
	}
	switch {
	case e.RequeueAfter == "":
	case controller == rolloutio.Deployment:
		fmt.Fprintf(w, "The controller checks the progress deadline again in %s.\n", e.RequeueAfter)
	default:
		fmt.Fprintf(w, "The controller syncs it again in %s.\n", e.RequeueAfter)
	}
}

// writeKind names an action by the write request upstream sends for it, as
// package plan/render names it: a scale is an update of the ReplicaSet.
func writeKind(k plan.ActionKind) plan.ActionKind {
	if k == plan.ScaleReplicaSet {
		return plan.UpdateReplicaSet
	}
	return k
}

// reasonLine renders a reason with its numbers: "Code: message [a=1 b=2]".
func reasonLine(r plan.Reason) string {
	if len(r.Values) == 0 {
		return r.String()
	}
	vals := make([]string, len(r.Values))
	for i, v := range r.Values {
		vals[i] = fmt.Sprintf("%s=%d", v.Name, v.Value)
	}
	return fmt.Sprintf("%s [%s]", r, strings.Join(vals, " "))
}
