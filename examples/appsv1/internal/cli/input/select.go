package input

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// Why an item was ignored.
const (
	WhyOtherKind       = "not an apps/v1 Deployment or ReplicaSet or a v1 Pod"
	WhyOtherNamespace  = "other namespace"
	WhyOtherDeployment = "another Deployment"
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

// Selector chooses the Deployment and the clock of the state.
type Selector struct {
	// Deployment and Namespace name the Deployment; empty means the only
	// one (in Namespace, when given).
	Deployment, Namespace string
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
		return appsv1.State{}, nil, fmt.Errorf("%w: the input has no Deployment%s%s", appsv1.ErrNoDeployment, inNamespace(sel.Namespace), parenthesized(o.ignoredNote()))
	case len(matches) == 0:
		return appsv1.State{}, nil, fmt.Errorf("%w: %q%s (the input has %s%s)", appsv1.ErrNoDeployment, sel.Deployment, inNamespace(sel.Namespace), o.deploymentNames(nil), prefixed("; ", o.ignoredNote()))
	case len(matches) > 1:
		return appsv1.State{}, nil, fmt.Errorf("%d Deployments match (%s): name one, with -n NAMESPACE when the name is in several", len(matches), o.deploymentNames(matches))
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
	for _, rs := range o.ReplicaSets {
		if rs.Namespace != d.Namespace {
			skip("ReplicaSet", rs.Namespace, WhyOtherNamespace)
			continue
		}
		s.ReplicaSets = append(s.ReplicaSets, rs)
	}
	for _, p := range o.Pods {
		if p.Namespace != d.Namespace {
			skip("Pod", p.Namespace, WhyOtherNamespace)
			continue
		}
		s.Pods = append(s.Pods, p)
	}
	if s.Now.IsZero() {
		s.Now = LatestTime(s)
	}
	out := slices.Clone(o.Ignored)
	for g, n := range ignored {
		g.Count = n
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b Ignored) int {
		return strings.Compare(a.Why+"\x00"+a.Kind+"\x00"+a.APIVersion+"\x00"+a.Namespace, b.Why+"\x00"+b.Kind+"\x00"+b.APIVersion+"\x00"+b.Namespace)
	})
	return s, out, nil
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
