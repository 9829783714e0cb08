package input

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// Why an item was ignored.
const (
	WhyOtherKind       = "not a kind rolloutplan reads"
	WhyOtherNamespace  = "other namespace"
	WhyOtherDeployment = "another Deployment"
	// WhyOtherStatefulSet and WhyOtherDaemonSet are the other workloads
	// of their kind when one StatefulSet or DaemonSet is selected.
	WhyOtherStatefulSet = "another StatefulSet"
	WhyOtherDaemonSet   = "another DaemonSet"
	// WhyNotForDeployment, WhyNotForStatefulSet and WhyNotForDaemonSet
	// are the objects the selected workload's controller does not read
	// (ControllerRevisions for a Deployment, ReplicaSets for a
	// StatefulSet, claims for a DaemonSet, the other workload kinds).
	WhyNotForDeployment  = "not read for a Deployment"
	WhyNotForStatefulSet = "not read for a StatefulSet"
	WhyNotForDaemonSet   = "not read for a DaemonSet"
)

// Ignored is a group of input items a command does not use.
type Ignored struct {
	Kind       string
	APIVersion string // for other kinds
	Namespace  string // for other namespaces and Deployments
	Count      int
	Why        string
}

// String describes the group: "5 Pod in namespace kube-system (other
// namespace)".
func (g Ignored) String() string {
	s := fmt.Sprintf("%d %s", g.Count, g.Kind)
	if g.APIVersion != "" && g.Why == WhyOtherKind {
		s += " (" + g.APIVersion + ")"
	}
	if g.Namespace != "" {
		s += " in namespace " + g.Namespace
	}
	return s + " (" + g.Why + ")"
}

// Report writes one line naming every ignored group and the total, or
// nothing when none was ignored. Commands call it with standard error.
func Report(w io.Writer, command string, ignored []Ignored) {
	if len(ignored) == 0 {
		return
	}
	total := 0
	for _, g := range ignored {
		total += g.Count
	}
	fmt.Fprintf(w, "%s: ignored %d input objects: %s\n", command, total, describe(ignored))
}

// describe names the groups, separated by commas.
func describe(groups []Ignored) string {
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = g.String()
	}
	return strings.Join(parts, ", ")
}

// Selector chooses the workload and the clock of the state.
type Selector struct {
	// Deployment and Namespace name the Deployment; empty means the only
	// one (in Namespace, when given).
	Deployment, Namespace string
	// Name names the StatefulSet ([Objects.SelectStatefulSet]) or the
	// DaemonSet ([Objects.SelectDaemonSet]) in Namespace; empty means the
	// only one.
	Name string
	// Now is the controller's clock; zero uses a Case's own.
	Now time.Time
	// Latest, when neither Now nor the input gives a clock, uses the latest
	// time the selected state records ([LatestTime]) instead of failing
	// with [ErrNoClock].
	Latest bool
}

// ErrNoClock is returned when neither the Selector nor the input gives a
// clock.
var ErrNoClock = errors.New("no clock: a List has no time of its own")

// Select returns the state of one Deployment: it, and the ReplicaSets and
// Pods of its namespace, at sel.Now. Everything else is returned as
// Ignored, with the groups of ReadObjects, sorted. A missing Deployment
// wraps appsv1.ErrNoDeployment.
func (o *Objects) Select(sel Selector) (appsv1.State, []Ignored, error) {
	var matches []int
	for i, d := range o.Deployments {
		if (sel.Deployment == "" || d.Name == sel.Deployment) && (sel.Namespace == "" || d.Namespace == sel.Namespace) {
			matches = append(matches, i)
		}
	}
	switch {
	case len(matches) == 0 && sel.Deployment == "":
		return appsv1.State{}, nil, fmt.Errorf("%w: the input has no Deployment%s%s", appsv1.ErrNoDeployment, inNamespace(sel.Namespace), parenthesized(o.notes(KindDeployment)))
	case len(matches) == 0:
		return appsv1.State{}, nil, fmt.Errorf("%w: %q%s (the input has %s%s)", appsv1.ErrNoDeployment, sel.Deployment, inNamespace(sel.Namespace), o.deploymentNames(nil), prefixed("; ", o.notes(KindDeployment)))
	case len(matches) > 1:
		var keys []string
		for _, i := range matches {
			keys = append(keys, o.Deployments[i].Namespace+"/"+o.Deployments[i].Name)
		}
		return appsv1.State{}, nil, tooMany("Deployment", keys)
	}
	d := o.Deployments[matches[0]]
	now := sel.Now
	if now.IsZero() {
		now = o.Now
	}
	if now.IsZero() && !sel.Latest {
		return appsv1.State{}, nil, ErrNoClock
	}
	s := appsv1.State{Now: now, Deployment: d}
	ignored := map[Ignored]int{}
	skip := func(kind, ns, why string) { ignored[Ignored{Kind: kind, Namespace: ns, Why: why}]++ }
	for i, other := range o.Deployments {
		if i == matches[0] {
			continue
		}
		skip("Deployment", other.Namespace, WhyOtherDeployment)
	}
	s.ReplicaSets = ofNamespace(o.ReplicaSets, d.Namespace, "ReplicaSet", skip)
	s.Pods = ofNamespace(o.Pods, d.Namespace, "Pod", skip)
	o.skipAll(skip, WhyNotForDeployment, "StatefulSet", "DaemonSet", "ControllerRevision", "PersistentVolumeClaim", "Node")
	if s.Now.IsZero() {
		s.Now = LatestTime(s)
	}
	return s, o.ignoredWith(ignored), nil
}

// ofNamespace returns the objects of list in namespace ns (nil for none)
// and counts each other one of the kind as ignored for another namespace.
func ofNamespace[T metav1.Object](list []T, ns, kind string, skip func(kind, ns, why string)) []T {
	var out []T
	for _, x := range list {
		if x.GetNamespace() != ns {
			skip(kind, x.GetNamespace(), WhyOtherNamespace)
			continue
		}
		out = append(out, x)
	}
	return out
}

// skipAll counts every object of the given kinds as ignored for why.
func (o *Objects) skipAll(skip func(kind, ns, why string), why string, kinds ...string) {
	for _, kind := range kinds {
		for _, ns := range o.namespaces(kind) {
			skip(kind, ns, why)
		}
	}
}

// namespaces lists the namespace of every object of kind the input holds
// ("" for a Node), one entry per object.
func (o *Objects) namespaces(kind string) []string {
	switch kind {
	case "Deployment":
		return namespacesOf(o.Deployments)
	case "ReplicaSet":
		return namespacesOf(o.ReplicaSets)
	case "StatefulSet":
		return namespacesOf(o.StatefulSets)
	case "DaemonSet":
		return namespacesOf(o.DaemonSets)
	case "ControllerRevision":
		return namespacesOf(o.ControllerRevisions)
	case "PersistentVolumeClaim":
		return namespacesOf(o.PVCs)
	case "Node":
		return namespacesOf(o.Nodes)
	}
	return nil
}

// namespacesOf lists the namespace of each object of list.
func namespacesOf[T metav1.Object](list []T) []string {
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = x.GetNamespace()
	}
	return out
}

// ignoredWith returns the groups ignored when reading with those counted
// by a selection, sorted.
func (o *Objects) ignoredWith(counted map[Ignored]int) []Ignored {
	out := slices.Clone(o.Ignored)
	for g, n := range counted {
		g.Count = n
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b Ignored) int {
		return strings.Compare(a.Why+"\x00"+a.Kind+"\x00"+a.APIVersion+"\x00"+a.Namespace, b.Why+"\x00"+b.Kind+"\x00"+b.APIVersion+"\x00"+b.Namespace)
	})
	return out
}

// pickOne returns the index of the one object of kind whose name and
// namespace are those asked ("" matches any), or an error naming what the
// input has; names and namespaces are the objects'.
func (o *Objects) pickOne(kind, name, namespace string, names, namespaces []string) (int, error) {
	var matches []int
	for i := range names {
		if (name == "" || names[i] == name) && (namespace == "" || namespaces[i] == namespace) {
			matches = append(matches, i)
		}
	}
	list := func(only []int) string {
		var out []string
		for i := range names {
			if only == nil || slices.Contains(only, i) {
				out = append(out, namespaces[i]+"/"+names[i])
			}
		}
		if len(out) == 0 {
			return "none"
		}
		slices.Sort(out)
		return strings.Join(out, ", ")
	}
	lower := strings.ToLower(kind)
	switch {
	case len(matches) == 0 && name == "":
		return 0, fmt.Errorf("no such %s: the input has no %s%s%s", lower, kind, inNamespace(namespace), parenthesized(o.notes(kind)))
	case len(matches) == 0:
		return 0, fmt.Errorf("no such %s: %q%s (the input has %s%s)", lower, name, inNamespace(namespace), list(nil), prefixed("; ", o.notes(kind)))
	case len(matches) > 1:
		var keys []string
		for _, i := range matches {
			keys = append(keys, namespaces[i]+"/"+names[i])
		}
		return 0, tooMany(kind, keys)
	}
	return matches[0], nil
}

// tooMany is the error for several objects of kind matching a selection,
// keys their namespace/name. When the input holds one object twice, no
// flag can choose: it says so.
func tooMany(kind string, keys []string) error {
	keys = slices.Clone(keys)
	slices.Sort(keys)
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			n := 0
			for _, k := range keys {
				if k == keys[i] {
					n++
				}
			}
			return fmt.Errorf("the input holds %s %s %d times, which no cluster can (one object per name in a namespace): remove the copies", kind, keys[i], n)
		}
	}
	return fmt.Errorf("%d %ss match (%s): name one, with -n NAMESPACE when the name is in several", len(keys), kind, strings.Join(keys, ", "))
}

// SelectStatefulSet returns the state of one StatefulSet: it, and the
// Pods, ControllerRevisions and PersistentVolumeClaims of its namespace,
// at sel.Now (sel.Name and sel.Namespace choose it; sel.Now and
// sel.Latest are read as by Select). Everything else is returned as
// Ignored.
func (o *Objects) SelectStatefulSet(sel Selector) (appsv1.StatefulSetState, []Ignored, error) {
	names, namespaces := make([]string, len(o.StatefulSets)), make([]string, len(o.StatefulSets))
	for i, x := range o.StatefulSets {
		names[i], namespaces[i] = x.Name, x.Namespace
	}
	at, err := o.pickOne("StatefulSet", sel.Name, sel.Namespace, names, namespaces)
	if err != nil {
		return appsv1.StatefulSetState{}, nil, err
	}
	set := o.StatefulSets[at]
	now, err := o.clock(sel)
	if err != nil {
		return appsv1.StatefulSetState{}, nil, err
	}
	s := appsv1.StatefulSetState{Now: now, StatefulSet: set}
	ignored := map[Ignored]int{}
	skip := func(kind, ns, why string) { ignored[Ignored{Kind: kind, Namespace: ns, Why: why}]++ }
	for i, other := range o.StatefulSets {
		if i != at {
			skip("StatefulSet", other.Namespace, WhyOtherStatefulSet)
		}
	}
	ns := set.Namespace
	s.Pods = ofNamespace(o.Pods, ns, "Pod", skip)
	s.ControllerRevisions = ofNamespace(o.ControllerRevisions, ns, "ControllerRevision", skip)
	s.PVCs = ofNamespace(o.PVCs, ns, "PersistentVolumeClaim", skip)
	o.skipAll(skip, WhyNotForStatefulSet, "Deployment", "ReplicaSet", "DaemonSet", "Node")
	if s.Now.IsZero() {
		s.Now = LatestStatefulSetTime(s)
	}
	return s, o.ignoredWith(ignored), nil
}

// SelectDaemonSet returns the state of one DaemonSet: it, the Pods and
// ControllerRevisions of its namespace and every Node, at sel.Now (read as
// by SelectStatefulSet). Everything else is returned as Ignored.
func (o *Objects) SelectDaemonSet(sel Selector) (appsv1.DaemonSetState, []Ignored, error) {
	names, namespaces := make([]string, len(o.DaemonSets)), make([]string, len(o.DaemonSets))
	for i, x := range o.DaemonSets {
		names[i], namespaces[i] = x.Name, x.Namespace
	}
	at, err := o.pickOne("DaemonSet", sel.Name, sel.Namespace, names, namespaces)
	if err != nil {
		return appsv1.DaemonSetState{}, nil, err
	}
	ds := o.DaemonSets[at]
	now, err := o.clock(sel)
	if err != nil {
		return appsv1.DaemonSetState{}, nil, err
	}
	s := appsv1.DaemonSetState{Now: now, DaemonSet: ds, Nodes: o.Nodes}
	ignored := map[Ignored]int{}
	skip := func(kind, ns, why string) { ignored[Ignored{Kind: kind, Namespace: ns, Why: why}]++ }
	for i, other := range o.DaemonSets {
		if i != at {
			skip("DaemonSet", other.Namespace, WhyOtherDaemonSet)
		}
	}
	ns := ds.Namespace
	s.Pods = ofNamespace(o.Pods, ns, "Pod", skip)
	s.ControllerRevisions = ofNamespace(o.ControllerRevisions, ns, "ControllerRevision", skip)
	o.skipAll(skip, WhyNotForDaemonSet, "Deployment", "ReplicaSet", "StatefulSet", "PersistentVolumeClaim")
	if s.Now.IsZero() {
		s.Now = LatestDaemonSetTime(s)
	}
	return s, o.ignoredWith(ignored), nil
}

// clock is the time sel asks for: sel.Now, else a Case's own; zero when
// neither gives one and sel.Latest (the caller takes the latest time of
// the state), else ErrNoClock.
func (o *Objects) clock(sel Selector) (time.Time, error) {
	now := sel.Now
	if now.IsZero() {
		now = o.Now
	}
	if now.IsZero() && !sel.Latest {
		return time.Time{}, ErrNoClock
	}
	return now, nil
}

// Read is ReadObjects followed by Select.
func Read(r io.Reader, opts Options, sel Selector) (appsv1.State, []Ignored, error) {
	objs, err := ReadObjects(r, opts)
	if err != nil {
		return appsv1.State{}, nil, err
	}
	return objs.Select(sel)
}

func (o *Objects) deploymentNames(only []int) string {
	var out []string
	for i, d := range o.Deployments {
		if only == nil || slices.Contains(only, i) {
			out = append(out, d.Namespace+"/"+d.Name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// ignoredNote names the objects of other kinds the input has, for the
// error of a missing Deployment ("" when there are none): a Deployment of
// another apiVersion, or a document the user did not expect to be read
// apart, shows there.
func (o *Objects) ignoredNote() string {
	if len(o.Ignored) == 0 {
		return ""
	}
	return "ignored: " + describe(o.Ignored)
}

// notes is what the error of a missing workload of kind adds: the
// workloads of the other kinds the input holds ("it holds StatefulSet
// default/web") and the ignored objects.
func (o *Objects) notes(kind string) string {
	var parts []string
	for _, k := range []string{KindDeployment, KindStatefulSet, KindDaemonSet} {
		if k == kind {
			continue
		}
		var names []string
		switch k {
		case KindDeployment:
			for _, x := range o.Deployments {
				names = append(names, x.Namespace+"/"+x.Name)
			}
		case KindStatefulSet:
			for _, x := range o.StatefulSets {
				names = append(names, x.Namespace+"/"+x.Name)
			}
		case KindDaemonSet:
			for _, x := range o.DaemonSets {
				names = append(names, x.Namespace+"/"+x.Name)
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			parts = append(parts, "it holds "+k+" "+strings.Join(names, ", "))
		}
	}
	if n := o.ignoredNote(); n != "" {
		parts = append(parts, n)
	}
	return strings.Join(parts, "; ")
}

func parenthesized(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func prefixed(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return " in namespace " + ns
}

func sortedKeys(m map[string]int) []string {
	return slices.Sorted(maps.Keys(m))
}
