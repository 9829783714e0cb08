package model

// NewCheckedMatcher is [NewSharedMatcher] for a selector that has already
// passed [LabelSelector.Check] and has not changed since, such as the
// selector of a Deployment a planner validated: it does not check s again,
// which costs more than matching a few objects. Given a selector that fails
// Check, its Matcher still never panics, but answers as if the invalid
// parts were absent (an unknown operator constrains nothing); use
// NewSharedMatcher when s is not known to be valid.
func NewCheckedMatcher(s *LabelSelector) Matcher { return newMatcher(s) }
