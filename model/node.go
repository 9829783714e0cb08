package model

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
)

// Node is a v1 Node, reduced to what the DaemonSet controller reads of it:
// its name and labels (matched by a daemon pod's nodeSelector and required
// node affinity) and its taints (matched against the pod's tolerations).
type Node struct {
	ObjectMeta `json:"metadata"`
	Spec       NodeSpec `json:"spec"`
}

// NodeSpec mirrors the scheduling part of v1 NodeSpec.
type NodeSpec struct {
	// Unschedulable marks a cordoned node. The DaemonSet controller does not
	// read it: a cordon shows up to it as the taint
	// node.kubernetes.io/unschedulable:NoSchedule, which every daemon pod
	// tolerates ([TaintNodeUnschedulable]), so cordoned nodes keep their
	// daemon pods and get new ones. It is carried so that a plan can say so.
	Unschedulable bool    `json:"unschedulable,omitempty"`
	Taints        []Taint `json:"taints,omitempty"`
}

// TaintEffect is what a taint does to pods that do not tolerate it.
type TaintEffect string

// The three taint effects of v1.
const (
	// TaintEffectNoSchedule keeps new pods that do not tolerate the taint
	// off the node.
	TaintEffectNoSchedule TaintEffect = "NoSchedule"
	// TaintEffectPreferNoSchedule is a soft NoSchedule, ignored by the
	// DaemonSet controller.
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	// TaintEffectNoExecute also evicts running pods that do not tolerate
	// it.
	TaintEffectNoExecute TaintEffect = "NoExecute"
)

// Taint keys the node lifecycle controller sets, each tolerated by every
// daemon pod (see [DaemonPodTolerations]).
const (
	TaintNodeNotReady           = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable        = "node.kubernetes.io/unreachable"
	TaintNodeDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintNodeMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintNodePIDPressure        = "node.kubernetes.io/pid-pressure"
	TaintNodeUnschedulable      = "node.kubernetes.io/unschedulable"
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
)

// Taint mirrors v1 Taint.
type Taint struct {
	Key    string      `json:"key"`
	Value  string      `json:"value,omitempty"`
	Effect TaintEffect `json:"effect"`
	// TimeAdded is informational (set for NoExecute taints); nothing here
	// reads it.
	TimeAdded *time.Time `json:"timeAdded,omitempty"`
}

// String renders the taint as kubectl does: "key=value:Effect", or
// "key:Effect" without a value.
func (t Taint) String() string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}

// TolerationOperator is how a toleration compares its value with a taint's.
type TolerationOperator string

// Toleration operators. An empty operator means Equal.
const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
	// TolerationOpLt and TolerationOpGt compare values as integers behind
	// the alpha gate TaintTolerationComparisonOperators, off by default in
	// v1.36: with the gate off they tolerate nothing, which is what
	// [Toleration.ToleratesTaint] does.
	TolerationOpLt TolerationOperator = "Lt"
	TolerationOpGt TolerationOperator = "Gt"
)

// Toleration mirrors v1 Toleration.
type Toleration struct {
	// Key is the taint key matched; empty matches every key (with
	// operator Exists).
	Key      string             `json:"key,omitempty"`
	Operator TolerationOperator `json:"operator,omitempty"`
	Value    string             `json:"value,omitempty"`
	// Effect is the taint effect matched; empty matches every effect.
	Effect TaintEffect `json:"effect,omitempty"`
	// TolerationSeconds bounds how long a NoExecute taint is tolerated; it
	// does not change what is tolerated.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// ToleratesTaint reports whether t tolerates taint (upstream
// Toleration.ToleratesTaint with the comparison operators gate off): the
// effects agree or t's is empty, the keys agree or t's is empty, and the
// operator is Exists, or Equal (or empty) with equal values. Lt, Gt and
// unknown operators tolerate nothing.
//
// For example {Key: "dedicated", Operator: Equal, Value: "gpu"} tolerates
// dedicated=gpu:NoSchedule and dedicated=gpu:NoExecute but not
// dedicated=infra:NoSchedule; {Operator: Exists} tolerates every taint.
func (t Toleration) ToleratesTaint(taint Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	}
	return false
}

// String renders the toleration compactly, e.g. "dedicated=gpu:NoSchedule",
// "dedicated:NoSchedule (Exists)" or "* (Exists)" for the toleration of
// everything.
func (t Toleration) String() string {
	key := t.Key
	if key == "" {
		key = "*"
	}
	s := key
	if t.Operator != TolerationOpExists && t.Value != "" {
		s += "=" + t.Value
	}
	if t.Effect != "" {
		s += ":" + string(t.Effect)
	}
	if t.Operator == TolerationOpExists || (t.Operator != "" && t.Operator != TolerationOpEqual) {
		s += " (" + string(t.Operator) + ")"
	}
	return s
}

// sameToleration reports whether a and b have the same key, effect,
// operator and value (upstream Toleration.MatchToleration): the identity
// under which a default daemon toleration replaces a template's.
func sameToleration(a, b Toleration) bool {
	return a.Key == b.Key && a.Effect == b.Effect && a.Operator == b.Operator && a.Value == b.Value
}

// TolerationsTolerateTaint reports whether any of tolerations tolerates
// taint (upstream TolerationsTolerateTaint).
func TolerationsTolerateTaint(tolerations []Toleration, taint Taint) bool {
	for _, t := range tolerations {
		if t.ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// FindUntoleratedTaint returns the first taint of taints, among those
// with one of effects, that no toleration tolerates, and true; or the zero
// Taint and false when all of them are tolerated (upstream
// FindMatchingUntoleratedTaint with an effect filter). For example, taints
// [dedicated=gpu:NoSchedule] with no tolerations and effects
// [NoSchedule NoExecute] give dedicated=gpu:NoSchedule.
func FindUntoleratedTaint(taints []Taint, tolerations []Toleration, effects ...TaintEffect) (Taint, bool) {
	for _, taint := range taints {
		if !slices.Contains(effects, taint.Effect) {
			continue
		}
		if !TolerationsTolerateTaint(tolerations, taint) {
			return taint, true
		}
	}
	return Taint{}, false
}

// NodeSelectorOperator is the operator of a [NodeSelectorRequirement].
type NodeSelectorOperator string

// Node selector operators. Gt and Lt compare a label's value as an integer.
const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// NodeNameField is the only node field a matchFields requirement can name.
const NodeNameField = "metadata.name"

// NodeSelectorRequirement mirrors v1 NodeSelectorRequirement.
type NodeSelectorRequirement struct {
	Key      string               `json:"key"`
	Operator NodeSelectorOperator `json:"operator"`
	Values   []string             `json:"values,omitempty"`
}

// NodeSelectorTerm mirrors v1 NodeSelectorTerm: every requirement of both
// lists must hold.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelector mirrors v1 NodeSelector, the required node affinity of a
// pod: a node matches when any term matches.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// DeepCopy returns a copy sharing nothing with s; nil stays nil.
func (s *NodeSelector) DeepCopy() *NodeSelector {
	if s == nil {
		return nil
	}
	out := &NodeSelector{}
	if s.NodeSelectorTerms != nil {
		out.NodeSelectorTerms = make([]NodeSelectorTerm, len(s.NodeSelectorTerms))
		for i, t := range s.NodeSelectorTerms {
			out.NodeSelectorTerms[i] = NodeSelectorTerm{
				MatchExpressions: copyRequirements(t.MatchExpressions),
				MatchFields:      copyRequirements(t.MatchFields),
			}
		}
	}
	return out
}

func copyRequirements(rs []NodeSelectorRequirement) []NodeSelectorRequirement {
	if rs == nil {
		return nil
	}
	out := make([]NodeSelectorRequirement, len(rs))
	for i, r := range rs {
		r.Values = slices.Clone(r.Values)
		out[i] = r
	}
	return out
}

// Match reports whether node satisfies the selector as the scheduler's
// node affinity does (upstream's lazy-error node selector): terms with
// neither expressions nor fields are skipped, and the node matches when
// any remaining term matches, so a selector whose terms are all empty
// matches nothing. A term that cannot be parsed (an unknown operator, In
// without values, a Gt whose value is not an integer, a matchFields
// requirement without exactly one value...) matches nothing; when no term
// matches, the error lists why such terms were ignored, and the DaemonSet
// controller ignores it, as upstream does.
//
// Within a term, match expressions are label requirements (Gt and Lt
// compare the label's value as a decimal int64; a label that does not
// parse fails them) and match fields compare the node's name: In is
// equality, NotIn inequality, and a field other than metadata.name reads
// as "". A node without a name satisfies every match field.
func (s *NodeSelector) Match(node *Node) (bool, error) {
	if s == nil || node == nil {
		return false, nil
	}
	var errs []error
	for i, t := range s.NodeSelectorTerms {
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		ok, err := t.match(node)
		if err != nil {
			errs = append(errs, fmt.Errorf("nodeSelectorTerms[%d]: %w", i, err))
			continue
		}
		if ok {
			return true, nil
		}
	}
	return false, errors.Join(errs...)
}

// match checks one term, parsing it first as upstream does (any parse
// error makes the whole term fail).
func (t NodeSelectorTerm) match(node *Node) (bool, error) {
	var errs []error
	for i, r := range t.MatchExpressions {
		if err := r.checkExpression(); err != nil {
			errs = append(errs, fmt.Errorf("matchExpressions[%d]: %w", i, err))
		}
	}
	for i, r := range t.MatchFields {
		if err := r.checkField(); err != nil {
			errs = append(errs, fmt.Errorf("matchFields[%d]: %w", i, err))
		}
	}
	if len(errs) > 0 {
		return false, errors.Join(errs...)
	}
	for _, r := range t.MatchExpressions {
		if !r.matchesLabels(node.Labels) {
			return false, nil
		}
	}
	if node.Name == "" {
		return true, nil
	}
	for _, r := range t.MatchFields {
		v := ""
		if r.Key == NodeNameField {
			v = node.Name
		}
		if (r.Operator == NodeSelectorOpIn) != (v == r.Values[0]) {
			return false, nil
		}
	}
	return true, nil
}

// checkExpression is upstream's label requirement parsing.
func (r NodeSelectorRequirement) checkExpression() error {
	if msg := checkLabelKey(r.Key); msg != "" {
		return fmt.Errorf("key %q: %s", r.Key, msg)
	}
	switch r.Operator {
	case NodeSelectorOpIn, NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			return fmt.Errorf("operator %s needs at least one value", r.Operator)
		}
	case NodeSelectorOpExists, NodeSelectorOpDoesNotExist:
		if len(r.Values) != 0 {
			return fmt.Errorf("operator %s takes no values", r.Operator)
		}
	case NodeSelectorOpGt, NodeSelectorOpLt:
		if len(r.Values) != 1 {
			return fmt.Errorf("operator %s takes exactly one value", r.Operator)
		}
		if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			return fmt.Errorf("operator %s: value %q is not an integer", r.Operator, r.Values[0])
		}
	default:
		return fmt.Errorf("unsupported operator %q", r.Operator)
	}
	for _, v := range r.Values {
		if msg := checkLabelValue(v); msg != "" {
			return fmt.Errorf("value %q: %s", v, msg)
		}
	}
	return nil
}

// checkField is upstream's field requirement parsing.
func (r NodeSelectorRequirement) checkField() error {
	switch r.Operator {
	case NodeSelectorOpIn, NodeSelectorOpNotIn:
		if len(r.Values) != 1 {
			return fmt.Errorf("operator %s on a field takes exactly one value", r.Operator)
		}
		return nil
	}
	return fmt.Errorf("unsupported operator %q on a field: supported values: \"In\", \"NotIn\"", r.Operator)
}

// matchesLabels evaluates a requirement that passed checkExpression.
func (r NodeSelectorRequirement) matchesLabels(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case NodeSelectorOpIn:
		return ok && slices.Contains(r.Values, v)
	case NodeSelectorOpNotIn:
		return !ok || !slices.Contains(r.Values, v)
	case NodeSelectorOpExists:
		return ok
	case NodeSelectorOpDoesNotExist:
		return !ok
	case NodeSelectorOpGt, NodeSelectorOpLt:
		if !ok {
			return false
		}
		have, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		want, _ := strconv.ParseInt(r.Values[0], 10, 64)
		if r.Operator == NodeSelectorOpGt {
			return have > want
		}
		return have < want
	}
	return false
}

// NodeNameAffinity returns the required node affinity that pins a pod to
// the node named name: one term whose single match field is
// metadata.name In [name] (upstream ReplaceDaemonSetPodNodeNameNodeAffinity
// writes it into every daemon pod it creates).
func NodeNameAffinity(name string) *NodeSelector {
	return &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{{
		MatchFields: []NodeSelectorRequirement{{Key: NodeNameField, Operator: NodeSelectorOpIn, Values: []string{name}}},
	}}}
}

// DeepCopy returns a copy sharing nothing with n.
func (n *Node) DeepCopy() *Node {
	if n == nil {
		return nil
	}
	out := &Node{ObjectMeta: n.ObjectMeta.DeepCopy(), Spec: n.Spec}
	if n.Spec.Taints != nil {
		out.Spec.Taints = make([]Taint, len(n.Spec.Taints))
		for i, t := range n.Spec.Taints {
			if t.TimeAdded != nil {
				t.TimeAdded = TimePtr(*t.TimeAdded)
			}
			out.Spec.Taints[i] = t
		}
	}
	return out
}

// cloneTolerations copies a toleration list, pointers included.
func cloneTolerations(ts []Toleration) []Toleration {
	if ts == nil {
		return nil
	}
	out := make([]Toleration, len(ts))
	for i, t := range ts {
		if t.TolerationSeconds != nil {
			s := *t.TolerationSeconds
			t.TolerationSeconds = &s
		}
		out[i] = t
	}
	return out
}

// ValidateNode checks what the DaemonSet planner reads of a node: a name
// (a DNS subdomain), valid label keys and values, and taints with a valid
// key and one of the three effects, no two with the same key and effect
// (the API server's rules).
func ValidateNode(n *Node) error {
	var errs fieldErrs
	validateNode(&errs, prefix{index: -1}, n)
	return errs.err()
}

func validateNode(errs *fieldErrs, at prefix, n *Node) {
	if n == nil {
		errs.add(at.nilPath("node"), "", "must not be nil")
		return
	}
	if msg := checkDNSSubdomain(n.Name); msg != "" {
		errs.add(at.field("metadata.name"), n.Name, "%s", msg)
	}
	validateUID(errs, at, n.UID)
	if !labelsValid(n.Labels) {
		for _, k := range slices.Sorted(maps.Keys(n.Labels)) {
			if msg := checkLabelKey(k); msg != "" {
				errs.add(at.field("metadata.labels"), k, "%s", msg)
			}
			if msg := checkLabelValue(n.Labels[k]); msg != "" {
				errs.add(at.field("metadata.labels["+k+"]"), n.Labels[k], "%s", msg)
			}
		}
	}
	type keyEffect struct {
		key    string
		effect TaintEffect
	}
	seen := map[keyEffect]int{}
	for i, t := range n.Spec.Taints {
		path := at.field("spec.taints[" + strconv.Itoa(i) + "]")
		if msg := checkLabelKey(t.Key); msg != "" {
			errs.add(path+".key", t.Key, "%s", msg)
		}
		if msg := checkLabelValue(t.Value); msg != "" {
			errs.add(path+".value", t.Value, "%s", msg)
		}
		switch t.Effect {
		case TaintEffectNoSchedule, TaintEffectPreferNoSchedule, TaintEffectNoExecute:
		default:
			errs.add(path+".effect", string(t.Effect), `supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"`)
		}
		k := keyEffect{t.Key, t.Effect}
		if j, dup := seen[k]; dup {
			errs.add(path, t.String(), "taints must be unique by key and effect pair (also spec.taints[%d])", j)
		} else {
			seen[k] = i
		}
	}
}
