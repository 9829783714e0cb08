package rolloutio

import (
	"fmt"
	"time"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/model"
)

// NeedRevisions asks for the ControllerRevisions of a StatefulSet's or
// DaemonSet's namespace (its history). NeedPods asks, for those kinds, for
// the whole state their controller reads: the pods of the namespace, and
// a StatefulSet's claims or every Node for a DaemonSet.
const NeedRevisions Need = 1 << 2

// StatefulSetState is what a subcommand reads for one StatefulSet: the
// apps/v1 state at its time, and the model of the set and of the
// ControllerRevisions it controls (its history, as kubectl reads it).
type StatefulSetState struct {
	Apps        appsv1.StatefulSetState
	StatefulSet *model.StatefulSet
	// Revisions are the ControllerRevisions of Apps the set controls,
	// each with the template its data restores.
	Revisions []*model.ControllerRevision
	Time      Time
	Ref       Ref
	// Manifest is the StatefulSet as written when the snapshot has it as a
	// manifest: Apps.StatefulSet is then a copy with the API server's
	// defaults filled in.
	Manifest *apps.StatefulSet
}

// DaemonSetState is StatefulSetState for a DaemonSet.
type DaemonSetState struct {
	Apps      appsv1.DaemonSetState
	DaemonSet *model.DaemonSet
	// Revisions are the ControllerRevisions of Apps the DaemonSet
	// controls.
	Revisions []*model.ControllerRevision
	Time      Time
	Ref       Ref
	// Manifest is the DaemonSet as written when the snapshot has it as a
	// manifest.
	Manifest *apps.DaemonSet
}

// GetStatefulSet reads the state of one StatefulSet: the set, and what
// need asks for, at the time the clock rule gives.
func (s *Source) GetStatefulSet(ref Ref, need Need) (*StatefulSetState, error) {
	if s.Live() {
		set, err := s.client.AppsV1().StatefulSets(ref.Namespace).Get(s.env.ctx(), ref.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		return s.RefreshStatefulSet(set, need)
	}
	now, why := s.clock()
	st, ignored, err := s.objs.SelectStatefulSet(input.Selector{Name: ref.Name, Namespace: ref.Namespace, Now: now, Latest: true})
	if err != nil {
		return nil, err
	}
	s.report(ignored)
	why = s.snapshotWhy(now, why, &st.Now)
	set := st.StatefulSet
	if err := s.checkSnapshot(&set.ObjectMeta, "statefulset", set.Status.ObservedGeneration > 0, set.Status.Replicas > 0, len(st.ControllerRevisions), len(st.Pods), need,
		"statefulset,controllerrevisions,pods,persistentvolumeclaims"); err != nil {
		return nil, err
	}
	var manifest *apps.StatefulSet
	if !fromServerMeta(&set.ObjectMeta) {
		manifest = set
		st.StatefulSet = statefulSetDefaults(set)
	} else {
		st.StatefulSet = StatefulSetSpecDefaults(set)
	}
	out, err := statefulSetModel(st, Time{At: st.Now, Why: why})
	if err != nil {
		return nil, err
	}
	out.Manifest = manifest
	return out, nil
}

// RefreshStatefulSet is GetStatefulSet for a StatefulSet the caller read
// from the live cluster (the object of a watch event).
func (s *Source) RefreshStatefulSet(set *apps.StatefulSet, need Need) (*StatefulSetState, error) {
	set.SetGroupVersionKind(apps.SchemeGroupVersion.WithKind("StatefulSet"))
	now, why := s.clock()
	st := appsv1.StatefulSetState{Now: now, StatefulSet: set}
	ctx, c, ns := s.env.ctx(), s.client, set.Namespace
	if need&(NeedRevisions|NeedPods) != 0 {
		var err error
		if st.ControllerRevisions, err = s.listRevisions(ns); err != nil {
			return nil, err
		}
	}
	if need&NeedPods != 0 {
		// Every pod and claim of the namespace, as the controller lists
		// them: it adopts orphans its selector matches and releases owned
		// pods it no longer matches.
		var err error
		if st.Pods, err = s.listPods(ns); err != nil {
			return nil, err
		}
		claims, err := c.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for i := range claims.Items {
			st.PVCs = append(st.PVCs, &claims.Items[i])
		}
	}
	return statefulSetModel(st, Time{At: now, Why: why})
}

// listRevisions lists every ControllerRevision of namespace ns, with its
// kind set (a list's items carry none), as the controllers list them.
func (s *Source) listRevisions(ns string) ([]*apps.ControllerRevision, error) {
	list, err := s.client.AppsV1().ControllerRevisions(ns).List(s.env.ctx(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := make([]*apps.ControllerRevision, 0, len(list.Items))
	for i := range list.Items {
		r := &list.Items[i]
		r.SetGroupVersionKind(apps.SchemeGroupVersion.WithKind("ControllerRevision"))
		out = append(out, r)
	}
	return out, nil
}

// listPods lists every pod of namespace ns: the StatefulSet and DaemonSet
// controllers adopt orphans their selector matches and release owned pods
// it no longer matches, so they see the whole namespace.
func (s *Source) listPods(ns string) ([]*core.Pod, error) {
	list, err := s.client.CoreV1().Pods(ns).List(s.env.ctx(), metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := make([]*core.Pod, 0, len(list.Items))
	for i := range list.Items {
		out = append(out, &list.Items[i])
	}
	return out, nil
}

// statefulSetModel converts st to the model: the set, and the revisions
// it controls.
func statefulSetModel(st appsv1.StatefulSetState, tm Time) (*StatefulSetState, error) {
	set := st.StatefulSet
	m, err := appsv1.StatefulSetModel(set)
	if err != nil {
		return nil, err
	}
	out := &StatefulSetState{Apps: st, StatefulSet: m, Time: tm, Ref: Ref{set.Namespace, set.Name, StatefulSet}}
	for _, r := range st.ControllerRevisions {
		if !metav1.IsControlledBy(r, set) {
			continue
		}
		mr, err := appsv1.ControllerRevisionToModel(r, &set.Spec.Template)
		if err != nil {
			return nil, err
		}
		out.Revisions = append(out.Revisions, mr)
	}
	return out, nil
}

// GetDaemonSet reads the state of one DaemonSet: the DaemonSet, and what
// need asks for, at the time the clock rule gives.
func (s *Source) GetDaemonSet(ref Ref, need Need) (*DaemonSetState, error) {
	if s.Live() {
		ds, err := s.client.AppsV1().DaemonSets(ref.Namespace).Get(s.env.ctx(), ref.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		return s.RefreshDaemonSet(ds, need)
	}
	now, why := s.clock()
	st, ignored, err := s.objs.SelectDaemonSet(input.Selector{Name: ref.Name, Namespace: ref.Namespace, Now: now, Latest: true})
	if err != nil {
		return nil, err
	}
	s.report(ignored)
	why = s.snapshotWhy(now, why, &st.Now)
	ds := st.DaemonSet
	if err := s.checkSnapshot(&ds.ObjectMeta, "daemonset", ds.Status.ObservedGeneration > 0, ds.Status.DesiredNumberScheduled > 0, len(st.ControllerRevisions), len(st.Nodes), need,
		"daemonset,controllerrevisions,pods,nodes"); err != nil {
		return nil, err
	}
	var manifest *apps.DaemonSet
	if !fromServerMeta(&ds.ObjectMeta) {
		manifest = ds
		st.DaemonSet = daemonSetDefaults(ds)
	} else {
		st.DaemonSet = DaemonSetSpecDefaults(ds)
	}
	out, err := daemonSetModel(st, Time{At: st.Now, Why: why})
	if err != nil {
		return nil, err
	}
	out.Manifest = manifest
	return out, nil
}

// RefreshDaemonSet is GetDaemonSet for a DaemonSet the caller read from
// the live cluster.
func (s *Source) RefreshDaemonSet(ds *apps.DaemonSet, need Need) (*DaemonSetState, error) {
	ds.SetGroupVersionKind(apps.SchemeGroupVersion.WithKind("DaemonSet"))
	now, why := s.clock()
	st := appsv1.DaemonSetState{Now: now, DaemonSet: ds}
	ctx, c, ns := s.env.ctx(), s.client, ds.Namespace
	if need&(NeedRevisions|NeedPods) != 0 {
		var err error
		if st.ControllerRevisions, err = s.listRevisions(ns); err != nil {
			return nil, err
		}
	}
	if need&NeedPods != 0 {
		var err error
		if st.Pods, err = s.listPods(ns); err != nil {
			return nil, err
		}
		nodes, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		for i := range nodes.Items {
			st.Nodes = append(st.Nodes, &nodes.Items[i])
		}
	}
	return daemonSetModel(st, Time{At: now, Why: why})
}

// daemonSetModel converts st to the model: the DaemonSet, and the
// revisions it controls.
func daemonSetModel(st appsv1.DaemonSetState, tm Time) (*DaemonSetState, error) {
	ds := st.DaemonSet
	own := appsv1.DaemonSetState{DaemonSet: ds}
	for _, r := range st.ControllerRevisions {
		if metav1.IsControlledBy(r, ds) {
			own.ControllerRevisions = append(own.ControllerRevisions, r)
		}
	}
	m, err := own.Model()
	if err != nil {
		return nil, err
	}
	return &DaemonSetState{Apps: st, DaemonSet: m.DaemonSet, Revisions: m.ControllerRevisions, Time: tm, Ref: Ref{ds.Namespace, ds.Name, DaemonSet}}, nil
}

// report prints the objects the first snapshot read ignored.
func (s *Source) report(ignored []input.Ignored) {
	if s.reported {
		return
	}
	s.reported = true
	if s.multi {
		ignored = s.objs.Ignored
	}
	input.Report(s.env.ErrOut, s.command, ignored)
}

// snapshotWhy says where a snapshot's time comes from (why is the clock
// flag's, or ""), and sets *at to now when the snapshot holds no time.
func (s *Source) snapshotWhy(now time.Time, why string, at *time.Time) string {
	switch {
	case why != "":
		return why
	case s.objs.Case && now.IsZero() && !s.objs.Now.IsZero():
		return TimeCase
	case at.IsZero():
		*at = s.env.Now()
		return TimeNone
	}
	return TimeSnapshot
}

// checkSnapshot refuses a snapshot that holds a StatefulSet or DaemonSet
// as the cluster returned it but not what need asks for: its history
// (none of the namespace's ControllerRevisions, when the controller has
// seen it) or the rest of its controller's state (no pod for a set with
// replicas; no node for a DaemonSet that should run pods).
func (s *Source) checkSnapshot(m *metav1.ObjectMeta, kind string, observed, populated bool, revisions, rest int, need Need, give string) error {
	if !fromServerMeta(m) {
		return nil
	}
	what := ""
	switch {
	case need&(NeedRevisions|NeedPods) != 0 && observed && revisions == 0:
		what = "ControllerRevisions"
	case need&NeedPods != 0 && populated && rest == 0 && kind == "statefulset":
		what = "pods"
	case need&NeedPods != 0 && populated && rest == 0:
		what = "nodes"
	default:
		return nil
	}
	return fmt.Errorf("the snapshot has %s %q as the cluster returned it but none of its %s; %s needs them: give 'kubectl get %s -n %s -o yaml'",
		kind, m.Name, what, s.command, give, m.Namespace)
}

// fromServerMeta reports an object read from an API server (it has a UID
// or a resourceVersion), as opposed to a manifest.
func fromServerMeta(m *metav1.ObjectMeta) bool { return m.UID != "" || m.ResourceVersion != "" }

// statefulSetDefaults returns a copy of a manifest's StatefulSet as the
// API server would create it: ManifestUID, generation 1, the apps/v1 spec
// defaults (replicas 1, podManagementPolicy OrderedReady, updateStrategy
// RollingUpdate with partition 0, revisionHistoryLimit 10, the claim
// retention policy Retain) and the pod template's
// (appsv1.DefaultPodTemplate). The volumeClaimTemplates are left
// as written.
func statefulSetDefaults(set *apps.StatefulSet) *apps.StatefulSet {
	out := StatefulSetSpecDefaults(set)
	if out == set {
		out = set.DeepCopy()
	}
	manifestMeta(&out.ObjectMeta)
	appsv1.DefaultPodTemplate(&out.Spec.Template)
	return out
}

// daemonSetDefaults returns a copy of a manifest's DaemonSet as the API
// server would create it: ManifestUID, generation 1, the apps/v1 spec
// defaults (updateStrategy RollingUpdate with maxUnavailable 1 and
// maxSurge 0, revisionHistoryLimit 10) and the pod template's
// (appsv1.DefaultPodTemplate).
func daemonSetDefaults(ds *apps.DaemonSet) *apps.DaemonSet {
	out := DaemonSetSpecDefaults(ds)
	if out == ds {
		out = ds.DeepCopy()
	}
	manifestMeta(&out.ObjectMeta)
	appsv1.DefaultPodTemplate(&out.Spec.Template)
	return out
}

// manifestMeta gives a manifest's object the UID and generation the API
// server gives a new object.
func manifestMeta(m *metav1.ObjectMeta) {
	if m.UID == "" {
		m.UID = ManifestUID
	}
	if m.Generation == 0 {
		m.Generation = 1
	}
}
