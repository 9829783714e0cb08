package model

import (
	"fmt"
	"maps"
	"slices"
)

// SelectorOperator is the operator of a [LabelSelectorRequirement].
type SelectorOperator string

// The four set-based selector operators of metav1.LabelSelector.
const (
	SelectorOpIn           SelectorOperator = "In"
	SelectorOpNotIn        SelectorOperator = "NotIn"
	SelectorOpExists       SelectorOperator = "Exists"
	SelectorOpDoesNotExist SelectorOperator = "DoesNotExist"
)

// LabelSelector selects objects by their labels: every MatchLabels pair and
// every MatchExpressions requirement must hold.
//
// A nil *LabelSelector matches nothing and an empty one matches everything,
// as upstream's LabelSelectorAsSelector has it.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one set-based requirement. In and NotIn need at
// least one value; Exists and DoesNotExist take none.
type LabelSelectorRequirement struct {
	Key      string           `json:"key"`
	Operator SelectorOperator `json:"operator"`
	Values   []string         `json:"values,omitempty"`
}

// IsEmpty reports whether the selector is non-nil with neither MatchLabels nor
// MatchExpressions set (both nil): upstream's "selecting all pods" guard. An
// empty but non-nil map is not caught, as upstream compares with plain
// equality.
func (s *LabelSelector) IsEmpty() bool {
	return s != nil && s.MatchLabels == nil && s.MatchExpressions == nil
}

// Check returns an error if the selector cannot be evaluated, as upstream's
// LabelSelectorAsSelector would: an unknown operator, In/NotIn without
// values, Exists/DoesNotExist with values, or a key or value that is not valid
// label syntax. A nil selector is valid (it matches nothing).
func (s *LabelSelector) Check() error {
	if s == nil {
		return nil
	}
	for i, r := range s.MatchExpressions {
		if err := r.check(); err != nil {
			return fmt.Errorf("matchExpressions[%d]: %w", i, err)
		}
	}
	if labelsValid(s.MatchLabels) {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
		if msg := checkLabelKey(k); msg != "" {
			return selectorError("matchLabels: key %q: %s", k, msg)
		}
		if msg := checkLabelValue(s.MatchLabels[k]); msg != "" {
			return selectorError("matchLabels: value %q of key %q: %s", s.MatchLabels[k], k, msg)
		}
	}
	return nil
}

func (r LabelSelectorRequirement) check() error {
	if msg := checkLabelKey(r.Key); msg != "" {
		return selectorError("key %q: %s", r.Key, msg)
	}
	for _, v := range r.Values {
		if msg := checkLabelValue(v); msg != "" {
			return selectorError("value %q of key %q: %s", v, r.Key, msg)
		}
	}
	switch r.Operator {
	case SelectorOpIn, SelectorOpNotIn:
		if len(r.Values) == 0 {
			return selectorError("operator %s for key %q needs at least one value", r.Operator, r.Key)
		}
	case SelectorOpExists, SelectorOpDoesNotExist:
		if len(r.Values) != 0 {
			return selectorError("operator %s for key %q takes no values", r.Operator, r.Key)
		}
	default:
		return selectorError("%q is not a valid label selector operator", r.Operator)
	}
	return nil
}

// Matches reports whether labels satisfy the selector. A nil selector matches
// nothing, an empty one everything. It returns an error, and false, for a
// selector that fails [LabelSelector.Check].
func (s *LabelSelector) Matches(labels map[string]string) (bool, error) {
	if s == nil {
		return false, nil
	}
	if err := s.Check(); err != nil {
		return false, err
	}
	return s.matches(labels), nil
}

// matches evaluates a selector already known to be valid.
func (s *LabelSelector) matches(labels map[string]string) bool {
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return s.matchesExpressions(labels)
}

// matchesExpressions evaluates the match expressions of a selector already
// known to be valid.
func (s *LabelSelector) matchesExpressions(labels map[string]string) bool {
	for _, r := range s.MatchExpressions {
		got, ok := labels[r.Key]
		switch r.Operator {
		case SelectorOpIn:
			if !ok || !slices.Contains(r.Values, got) {
				return false
			}
		case SelectorOpNotIn:
			if ok && slices.Contains(r.Values, got) {
				return false
			}
		case SelectorOpExists:
			if !ok {
				return false
			}
		case SelectorOpDoesNotExist:
			if ok {
				return false
			}
		}
	}
	return true
}

// Matcher is a selector checked once and then evaluated many times, for
// matching a selector against thousands of pods without re-validating it.
// Its matchLabels are kept as key/value pairs, each one lookup in the labels
// matched, where iterating the selector's map for every object costs more
// than the lookups. The zero Matcher matches nothing.
type Matcher struct {
	// pairs[:n] are the first matchLabels, more the rest (nil unless
	// there are more than matcherPairs, so that the usual selector costs
	// no allocation).
	pairs [matcherPairs]matcherPair
	more  []matcherPair
	// exprs holds the match expressions (nil when there are none).
	exprs *LabelSelector
	n     int32
	ok    bool // false for the zero Matcher, which matches nothing
}

// matcherPairs is how many matchLabels a Matcher keeps without an
// allocation; selectors rarely have more.
const matcherPairs = 4

// matcherPair is one label a Matcher requires.
type matcherPair struct{ key, value string }

// labelsMatcher returns a Matcher requiring every label of labels, with the
// match expressions exprs. Which labels go to pairs and which to more
// follows the map's order: every one is required, so the order does not
// change what matches.
func labelsMatcher(labels map[string]string, exprs *LabelSelector) Matcher {
	m := Matcher{exprs: exprs, ok: true}
	if len(labels) > matcherPairs {
		m.more = make([]matcherPair, 0, len(labels)-matcherPairs)
	}
	for k, v := range labels {
		if m.n < matcherPairs {
			m.pairs[m.n] = matcherPair{k, v}
			m.n++
		} else {
			m.more = append(m.more, matcherPair{k, v})
		}
	}
	return m
}

// NewMatcher checks s and returns a Matcher for it. The Matcher keeps its
// own copy of what it evaluates, so later changes to s do not affect it.
// A nil s gives a Matcher matching nothing, an empty one a Matcher matching
// everything.
func NewMatcher(s *LabelSelector) (Matcher, error) {
	if err := s.Check(); err != nil || s == nil {
		return Matcher{}, err
	}
	var exprs *LabelSelector
	if len(s.MatchExpressions) > 0 {
		exprs = &LabelSelector{MatchExpressions: make([]LabelSelectorRequirement, len(s.MatchExpressions))}
		for i, r := range s.MatchExpressions {
			r.Values = slices.Clone(r.Values)
			exprs.MatchExpressions[i] = r
		}
	}
	return labelsMatcher(s.MatchLabels, exprs), nil
}

// NewSharedMatcher is NewMatcher without the copy: the Matcher evaluates
// s's match expressions themselves, so s must not change while the Matcher
// is in use (as a planner's input, which it only reads). It saves the copy's
// allocations where a selector is matched against a few objects.
func NewSharedMatcher(s *LabelSelector) (Matcher, error) {
	if err := s.Check(); err != nil {
		return Matcher{}, err
	}
	return NewPreValidatedMatcher(s), nil
}

// NewPreValidatedMatcher is NewSharedMatcher for a selector that has
// already passed [LabelSelector.Check] and not changed since, such as the
// selector of a Deployment a planner validated: it skips the check, which
// costs more than matching a few objects (upstream's "pre-validated"
// selectors skip it likewise). Given a selector that fails Check, its
// Matcher never panics but its answers are unspecified (an unknown
// operator constrains nothing, an In without values matches nothing); use
// NewSharedMatcher when s is not known to be valid. A nil s gives a
// Matcher matching nothing.
func NewPreValidatedMatcher(s *LabelSelector) Matcher {
	if s == nil {
		return Matcher{}
	}
	var exprs *LabelSelector
	if len(s.MatchExpressions) > 0 {
		exprs = s
	}
	return labelsMatcher(s.MatchLabels, exprs)
}

// LabelsMatcher returns a Matcher requiring every label of labels with its
// value (a nil or empty map matches everything), without checking the
// labels' syntax: the selector the ReplicaSet controller builds from its
// template's labels to count fullyLabeledReplicas, which upstream does not
// validate either (labels.Set.AsSelectorPreValidated). The Matcher does not
// keep labels, so later changes to it do not affect the Matcher.
func LabelsMatcher(labels map[string]string) Matcher {
	return labelsMatcher(labels, nil)
}

// Matches reports whether labels satisfy the selector. Its receiver is a
// pointer (so a Matcher returned by a call must be stored in a variable
// before it matches): copying the Matcher for every object matched costs
// more than the lookups themselves.
func (m *Matcher) Matches(labels map[string]string) bool {
	if !m.ok {
		return false
	}
	for _, p := range m.pairs[:m.n] {
		if got, ok := labels[p.key]; !ok || got != p.value {
			return false
		}
	}
	for _, p := range m.more {
		if got, ok := labels[p.key]; !ok || got != p.value {
			return false
		}
	}
	// Most selectors have no match expressions: no call for them.
	return m.exprs == nil || m.exprs.matchesExpressions(labels)
}

// DeepCopy returns a copy sharing nothing with s; nil stays nil.
func (s *LabelSelector) DeepCopy() *LabelSelector {
	if s == nil {
		return nil
	}
	out := new(LabelSelector)
	s.deepCopyInto(out)
	return out
}

// deepCopyInto sets *out to a copy of the non-nil s sharing nothing with it,
// for a copy placed in a block allocated with others.
func (s *LabelSelector) deepCopyInto(out *LabelSelector) {
	*out = LabelSelector{MatchLabels: maps.Clone(s.MatchLabels)}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]LabelSelectorRequirement, len(s.MatchExpressions))
		for i, r := range s.MatchExpressions {
			r.Values = slices.Clone(r.Values)
			out.MatchExpressions[i] = r
		}
	}
}

// SelectorFromLabels returns a selector requiring every label in labels, as
// the ReplicaSet controller builds from template labels to count
// fullyLabeledReplicas.
func SelectorFromLabels(labels map[string]string) *LabelSelector {
	return &LabelSelector{MatchLabels: maps.Clone(labels)}
}

// SelectorError says why a selector cannot be evaluated. It matches
// [ErrInvalid] with errors.Is.
type SelectorError struct {
	Detail string
}

// Error returns the detail, e.g. `key "a b": name part must consist of ...`.
func (e *SelectorError) Error() string { return e.Detail }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *SelectorError) Is(target error) bool { return target == ErrInvalid }

func selectorError(format string, args ...any) error {
	return &SelectorError{Detail: fmt.Sprintf(format, args...)}
}
