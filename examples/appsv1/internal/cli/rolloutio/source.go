package rolloutio

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/model"
)

// Source is where a subcommand reads its Deployments: a snapshot or the
// live cluster.
type Source struct {
	env     *Env
	t       *Target
	command string

	objs *input.Objects // snapshot

	client kubernetes.Interface // live

	// ns is -n, or live the context's namespace; nsExplicit reports -n.
	ns         string
	nsExplicit bool

	reported bool
	multi    bool
	manifest *apps.Deployment // of the last snapshot Get
}

// Ref names one workload: a Deployment, StatefulSet or DaemonSet. In a
// snapshot, an empty Name is the snapshot's only workload of the kind (in
// Namespace, when set).
type Ref struct {
	Namespace, Name string
	Kind            Kind
}

// String is "namespace/name".
func (r Ref) String() string { return r.Namespace + "/" + r.Name }

// ObjectName is how kubectl names the workload: "statefulset.apps/NAME".
func (r Ref) ObjectName() string { return r.Kind.ObjectName(r.Name) }

// workload is a workload of a snapshot or the live cluster, with its
// labels for -l.
type workload struct {
	Ref
	labels map[string]string
}

// Need says what of a Deployment's state a subcommand reads.
type Need uint8

// What a subcommand needs besides the Deployment.
const (
	NeedReplicaSets Need = 1 << iota
	NeedPods
)

// State is what a subcommand reads for one Deployment: the apps/v1 state
// at its time, and the model of the Deployment and its ReplicaSets.
type State struct {
	Apps        appsv1.State
	Deployment  *model.Deployment
	ReplicaSets []*model.ReplicaSet
	// Time says how Apps.Now was chosen.
	Time Time
	// Ref is the Deployment's namespace and name.
	Ref Ref
	// Manifest is the Deployment as written when the snapshot has it as a
	// manifest (no UID or resourceVersion): Apps.Deployment is then a copy
	// with the API server's spec defaults filled in.
	Manifest *apps.Deployment
}

// Time is the time a subcommand works at and where it comes from.
type Time struct {
	At  time.Time
	Why string
}

// String is "2025-03-01T10:00:06Z (why)".
func (t Time) String() string { return t.At.Format(time.RFC3339) + " (" + t.Why + ")" }

// Print writes the time used on w: "Time: 2025-03-01T10:00:06Z (the latest
// timestamp in the snapshot; --now sets another)".
func (t Time) Print(w io.Writer) { fmt.Fprintf(w, "Time: %s\n", t) }

// The reasons for a time.
const (
	TimeFlag     = "--now"
	TimeLive     = "now"
	TimeSnapshot = "the latest timestamp in the snapshot; --now sets another"
	TimeCase     = "the case's own time; --now sets another"
	TimeNone     = "now: the snapshot holds no timestamp; --now sets another"
)

// Live reports the live cluster.
func (s *Source) Live() bool { return s.client != nil }

// Client is the API client of the live mode (nil for a snapshot).
func (s *Source) Client() kubernetes.Interface { return s.client }

// defaultNamespaces gives the snapshot's objects without a namespace -n or
// the context's namespace, as kubectl apply -f does (Nodes have none).
func (s *Source) defaultNamespaces(objs *input.Objects) error {
	var metas []*metav1.ObjectMeta
	for _, x := range objs.Deployments {
		metas = append(metas, &x.ObjectMeta)
	}
	for _, x := range objs.ReplicaSets {
		metas = append(metas, &x.ObjectMeta)
	}
	for _, x := range objs.Pods {
		metas = append(metas, &x.ObjectMeta)
	}
	for _, x := range objs.StatefulSets {
		metas = append(metas, &x.ObjectMeta)
	}
	for _, x := range objs.DaemonSets {
		metas = append(metas, &x.ObjectMeta)
	}
	for _, x := range objs.ControllerRevisions {
		metas = append(metas, &x.ObjectMeta)
	}
	for _, x := range objs.PVCs {
		metas = append(metas, &x.ObjectMeta)
	}
	if !slices.ContainsFunc(metas, func(m *metav1.ObjectMeta) bool { return m.Namespace == "" }) {
		return nil
	}
	ns := s.ns
	if !s.nsExplicit {
		var err error
		if ns, _, err = s.env.Namespace(); err != nil {
			return err
		}
	}
	for _, m := range metas {
		if m.Namespace == "" {
			m.Namespace = ns
		}
	}
	return nil
}

// Refs resolves the Target to the workloads it names: the named one,
// those -l selects, every one with -A, or (in a snapshot) the only one.
// Their kind is the one the arguments give; without one, a Deployment on
// the live cluster, and in a snapshot the kind (of those the subcommand
// takes) of the workloads it holds, when they are of one kind.
func (s *Source) Refs() ([]Ref, error) {
	t := s.t
	var sel labels.Selector
	if t.Selector != "" {
		var err error
		if sel, err = labels.Parse(t.Selector); err != nil {
			return nil, Usagef("-l %q: %v", t.Selector, err)
		}
	}
	kind, err := s.kind()
	if err != nil {
		return nil, err
	}
	switch {
	case t.Name != "":
		if s.Live() {
			return []Ref{{s.ns, t.Name, kind}}, nil
		}
		return []Ref{{s.snapshotNamespace(), t.Name, kind}}, nil
	case sel == nil && !t.AllNamespaces:
		if s.Live() {
			if len(t.accepted()) > 1 {
				return nil, Usagef("required resource not specified: give NAME, KIND/NAME or KIND -l SELECTOR")
			}
			return nil, Usagef("required resource not specified: give NAME, deployment/NAME or -l SELECTOR")
		}
		return []Ref{{Namespace: s.snapshotNamespace(), Kind: kind}}, nil
	}
	if sel == nil {
		sel = labels.Everything()
	}
	var found []workload
	if s.Live() {
		refs, err := listLive(s.env, s.client, kind, s.ns, sel.String())
		if err != nil {
			return nil, err
		}
		found = refs
	} else {
		for _, w := range snapshotWorkloads(s.objs, kind) {
			if s.ns == "" || !s.nsExplicit || w.Namespace == s.ns {
				found = append(found, w)
			}
		}
	}
	var refs []Ref
	for _, w := range found {
		if sel.Matches(labels.Set(w.labels)) {
			refs = append(refs, w.Ref)
		}
	}
	slices.SortFunc(refs, func(a, b Ref) int { return strings.Compare(a.String(), b.String()) })
	refs = slices.Compact(refs)
	if len(refs) == 0 {
		// Nothing to act on is no error for kubectl rollout: status,
		// restart, pause and resume say so on standard error, history and
		// undo print nothing; both exit 0.
		if s.Live() && !t.AllNamespaces {
			switch s.command {
			case "status", "restart", "pause", "resume":
				fmt.Fprintf(s.env.ErrOut, "No resources found in %s namespace.\n", s.ns)
				return nil, Exit(ExitOK)
			case "history", "undo":
				return nil, Exit(ExitOK)
			}
		}
		where := "in namespace " + s.ns
		if t.AllNamespaces || (!s.Live() && !s.nsExplicit) {
			where = "in any namespace"
		}
		if !s.Live() {
			where += " of the snapshot"
		}
		if t.Selector != "" {
			return nil, fmt.Errorf("no %s match -l %s %s", kind.Plural(), t.Selector, where)
		}
		return nil, fmt.Errorf("no %s %s", kind.Plural(), where)
	}
	s.multi = len(refs) > 1
	return refs, nil
}

// kind is the kind the Target names: the arguments', else a Deployment on
// the live cluster; in a snapshot, the kind of the workloads it holds that
// the name (and -n) match, when they are of one kind the subcommand takes
// (a Deployment when it holds none).
func (s *Source) kind() (Kind, error) {
	t := s.t
	if t.Kind != "" {
		return t.Kind, nil
	}
	if s.Live() {
		return Deployment, nil
	}
	var kinds []Kind
	var names []string
	for _, kind := range t.accepted() {
		found := false
		for _, w := range snapshotWorkloads(s.objs, kind) {
			if (t.Name == "" || w.Name == t.Name) && (!s.nsExplicit || w.Namespace == s.ns) {
				found = true
				names = append(names, kind.Lower()+"/"+w.Name)
			}
		}
		if found {
			kinds = append(kinds, kind)
		}
	}
	switch len(kinds) {
	case 0:
		return Deployment, nil
	case 1:
		return kinds[0], nil
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if t.Name != "" {
		return "", Usagef("the snapshot holds %s: give the kind with the name", strings.Join(names, " and "))
	}
	return "", Usagef("the snapshot holds workloads of several kinds (%s): name one as KIND/NAME", strings.Join(names, ", "))
}

// snapshotWorkloads lists the snapshot's workloads of kind.
func snapshotWorkloads(objs *input.Objects, kind Kind) []workload {
	var out []workload
	add := func(m *metav1.ObjectMeta) {
		out = append(out, workload{Ref{m.Namespace, m.Name, kind}, m.Labels})
	}
	switch kind {
	case Deployment:
		for _, x := range objs.Deployments {
			add(&x.ObjectMeta)
		}
	case StatefulSet:
		for _, x := range objs.StatefulSets {
			add(&x.ObjectMeta)
		}
	case DaemonSet:
		for _, x := range objs.DaemonSets {
			add(&x.ObjectMeta)
		}
	}
	return out
}

// listLive lists the workloads of kind in namespace ns ("" for every one)
// that the label selector selects.
func listLive(env *Env, c kubernetes.Interface, kind Kind, ns, selector string) ([]workload, error) {
	opts := metav1.ListOptions{LabelSelector: selector}
	var out []workload
	add := func(m *metav1.ObjectMeta) {
		out = append(out, workload{Ref{m.Namespace, m.Name, kind}, m.Labels})
	}
	switch kind {
	case StatefulSet:
		list, err := c.AppsV1().StatefulSets(ns).List(env.ctx(), opts)
		if err != nil {
			return nil, err
		}
		for i := range list.Items {
			add(&list.Items[i].ObjectMeta)
		}
	case DaemonSet:
		list, err := c.AppsV1().DaemonSets(ns).List(env.ctx(), opts)
		if err != nil {
			return nil, err
		}
		for i := range list.Items {
			add(&list.Items[i].ObjectMeta)
		}
	default:
		list, err := c.AppsV1().Deployments(ns).List(env.ctx(), opts)
		if err != nil {
			return nil, err
		}
		for i := range list.Items {
			add(&list.Items[i].ObjectMeta)
		}
	}
	return out, nil
}

// snapshotNamespace is the namespace a snapshot's Deployment is looked up
// in: -n when given, else any (the objects carry their own).
func (s *Source) snapshotNamespace() string {
	if s.nsExplicit {
		return s.ns
	}
	return ""
}

// Get reads the state of one Deployment: the Deployment, and what need
// asks for (the ReplicaSets of its namespace, its Pods), at the time the
// clock rule gives. StatefulSets and DaemonSets are read by GetStatefulSet
// and GetDaemonSet.
func (s *Source) Get(ref Ref, need Need) (*State, error) {
	var (
		st  appsv1.State
		tm  Time
		err error
	)
	if ref.Kind != "" && ref.Kind != Deployment {
		return nil, fmt.Errorf("internal error: Get reads Deployments, not a %s (GetStatefulSet, GetDaemonSet)", ref.Kind)
	}
	s.manifest = nil
	if s.Live() {
		st, tm, err = s.getLive(ref, need)
	} else {
		st, tm, err = s.getSnapshot(ref, need)
	}
	if err != nil {
		return nil, err
	}
	return s.model(st, tm)
}

// model converts st to the model.
func (s *Source) model(st appsv1.State, tm Time) (*State, error) {
	d, err := appsv1.DeploymentToModel(st.Deployment)
	if err != nil {
		return nil, fmt.Errorf("deployment %q: %w", st.Deployment.Name, err)
	}
	out := &State{Apps: st, Deployment: d, Time: tm, Ref: Ref{st.Deployment.Namespace, st.Deployment.Name, Deployment}, Manifest: s.manifest}
	for _, rs := range st.ReplicaSets {
		m, err := appsv1.ReplicaSetToModel(rs)
		if err != nil {
			return nil, fmt.Errorf("replicaset %q: %w", rs.Name, err)
		}
		out.ReplicaSets = append(out.ReplicaSets, m)
	}
	return out, nil
}

func (s *Source) clock() (time.Time, string) {
	if !s.t.now.IsZero() {
		return s.t.now, TimeFlag
	}
	if s.Live() {
		// Whole seconds, the resolution of the API's timestamps: the
		// durations derived from it read as the controller's.
		return s.env.Now().Truncate(time.Second), TimeLive
	}
	return time.Time{}, ""
}

func (s *Source) getLive(ref Ref, need Need) (appsv1.State, Time, error) {
	d, err := s.client.AppsV1().Deployments(ref.Namespace).Get(s.env.ctx(), ref.Name, metav1.GetOptions{})
	if err != nil {
		return appsv1.State{}, Time{}, err
	}
	return s.liveState(d, need)
}

// Refresh is Get for a Deployment the caller read from the live cluster
// (the object of a watch event): it reads what need asks for besides.
func (s *Source) Refresh(d *apps.Deployment, need Need) (*State, error) {
	st, tm, err := s.liveState(d, need)
	if err != nil {
		return nil, err
	}
	return s.model(st, tm)
}

func (s *Source) liveState(d *apps.Deployment, need Need) (appsv1.State, Time, error) {
	ctx := s.env.ctx()
	d.SetGroupVersionKind(apps.SchemeGroupVersion.WithKind("Deployment"))
	now, why := s.clock()
	st := appsv1.State{Now: now, Deployment: d}
	if need&NeedReplicaSets != 0 {
		// Every ReplicaSet of the namespace, as the controller lists them:
		// it adopts orphans its selector matches and releases owned ones it
		// no longer matches.
		list, err := s.client.AppsV1().ReplicaSets(d.Namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return appsv1.State{}, Time{}, err
		}
		for i := range list.Items {
			rs := &list.Items[i]
			if rs.Namespace != d.Namespace {
				continue
			}
			rs.SetGroupVersionKind(apps.SchemeGroupVersion.WithKind("ReplicaSet"))
			st.ReplicaSets = append(st.ReplicaSets, rs)
		}
	}
	if need&NeedPods != 0 && d.Spec.Selector != nil {
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			return appsv1.State{}, Time{}, fmt.Errorf("deployment %q: spec.selector: %w", d.Name, err)
		}
		list, err := s.client.CoreV1().Pods(d.Namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
		if err != nil {
			return appsv1.State{}, Time{}, err
		}
		for i := range list.Items {
			if p := &list.Items[i]; p.Namespace == d.Namespace && sel.Matches(labels.Set(p.Labels)) {
				st.Pods = append(st.Pods, p)
			}
		}
	}
	return st, Time{At: now, Why: why}, nil
}

func (s *Source) getSnapshot(ref Ref, need Need) (appsv1.State, Time, error) {
	now, why := s.clock()
	st, ignored, err := s.objs.Select(input.Selector{Deployment: ref.Name, Namespace: ref.Namespace, Now: now, Latest: true})
	if err != nil {
		return appsv1.State{}, Time{}, err
	}
	s.report(ignored)
	why = s.snapshotWhy(now, why, &st.Now)
	d := st.Deployment
	if need&NeedReplicaSets != 0 && len(st.ReplicaSets) == 0 && fromServer(d) && d.Status.ObservedGeneration > 0 {
		return appsv1.State{}, Time{}, fmt.Errorf("the snapshot has deployment %q as the cluster returned it but none of its ReplicaSets; %s needs them: give 'kubectl get deployment,replicasets,pods -n %s -o yaml'",
			d.Name, s.command, d.Namespace)
	}
	if !fromServer(d) {
		s.manifest = d
		st.Deployment = withDefaults(d)
	} else {
		st.Deployment = DeploymentSpecDefaults(d)
	}
	return st, Time{At: st.Now, Why: why}, nil
}

// fromServer reports an object read from an API server (it has a UID or a
// resourceVersion), as opposed to a manifest.
func fromServer(d *apps.Deployment) bool {
	return d.UID != "" || d.ResourceVersion != ""
}

// ManifestUID is the UID a manifest's Deployment is given, standing for
// the one the API server assigns when it is created: the controller's
// writes name their owner by UID.
const ManifestUID = "uid-assigned-by-the-api-server"

// withDefaults returns a copy of a manifest's Deployment as the API server
// would create it: ManifestUID, and the spec defaults of apps/v1 (replicas
// 1, strategy RollingUpdate with maxSurge and maxUnavailable 25 %,
// revisionHistoryLimit 10, progressDeadlineSeconds 600) and the pod
// template's (appsv1.DefaultPodTemplate), so that the pod-template-hash,
// and with it the new ReplicaSet's name, is the one the cluster would give.
func withDefaults(d *apps.Deployment) *apps.Deployment {
	out := DeploymentSpecDefaults(d)
	if out == d {
		out = d.DeepCopy()
	}
	manifestMeta(&out.ObjectMeta)
	appsv1.DefaultPodTemplate(&out.Spec.Template)
	return out
}

// ObjectName is how kubectl names a Deployment in its output:
// deployment.apps/NAME.
func ObjectName(d *model.Deployment) string { return "deployment.apps/" + d.Name }

// Refused is kubectl's refusal of an operation on Deployment d: "error:
// deployments.apps "NAME" REASON".
func Refused(d *model.Deployment, err error) error {
	return fmt.Errorf("deployments.apps %q %v", d.Name, err)
}

// CheckRevision refuses a negative --revision with kubectl's error.
func CheckRevision(revision int64) error {
	if revision < 0 {
		return fmt.Errorf("revision must be a positive integer: %v", revision)
	}
	return nil
}

// DryRun is the --dry-run flag of the subcommands that change a
// Deployment: none, client or server, as kubectl's.
type DryRun string

// Validate refuses any other value with kubectl's error.
func (d DryRun) Validate() error {
	switch d {
	case "none", "client", "server":
		return nil
	}
	// kubectl's text, capitalised as kubectl has it.
	//lint:ignore ST1005 kubectl's message, byte for byte
	return fmt.Errorf("Invalid dry-run value (%s). Must be \"none\", \"server\", or \"client\".", string(d))
}

// Suffix is what kubectl's printer adds after its message: " (dry run)",
// " (server dry run)" or nothing.
func (d DryRun) Suffix() string {
	switch d {
	case "client":
		return " (dry run)"
	case "server":
		return " (server dry run)"
	}
	return ""
}

// Patch sends a patch of patchType to the live workload ref, unless d is
// a client dry run (a server dry run is sent as one). On a snapshot it
// does nothing: a snapshot is never written.
func (s *Source) Patch(ref Ref, patchType types.PatchType, patch []byte, d DryRun) error {
	if !s.Live() || d == "client" {
		return nil
	}
	opts := metav1.PatchOptions{}
	if d == "server" {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	var err error
	switch ref.Kind {
	case StatefulSet:
		_, err = s.client.AppsV1().StatefulSets(ref.Namespace).Patch(s.env.ctx(), ref.Name, patchType, patch, opts)
	case DaemonSet:
		_, err = s.client.AppsV1().DaemonSets(ref.Namespace).Patch(s.env.ctx(), ref.Name, patchType, patch, opts)
	default:
		_, err = s.client.AppsV1().Deployments(ref.Namespace).Patch(s.env.ctx(), ref.Name, patchType, patch, opts)
	}
	return err
}
