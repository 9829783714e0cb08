package model

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ValidateDeployment checks every rule the planners rely on: the apps/v1
// validation rules (required selector matching the template labels,
// well-formed non-negative fenceposts that are not both literally zero,
// maxUnavailable at most 100%, progressDeadlineSeconds greater than
// minReadySeconds, no rollingUpdate block on Recreate...) plus what would make
// a planner misbehave on unvalidated input (nil replicas or fenceposts, i.e.
// undefaulted input; negative counts; an empty UID). It returns nil or a
// *[ValidationError] listing every problem.
func ValidateDeployment(d *Deployment) error {
	var errs fieldErrs
	validateDeployment(&errs, "", d)
	return errs.err()
}

func validateDeployment(errs *fieldErrs, path string, d *Deployment) {
	if d == nil {
		errs.add(nilPath(path, "deployment"), "", "must not be nil")
		return
	}
	validateMeta(errs, path+"metadata", &d.ObjectMeta)
	spec := path + "spec"
	s := &d.Spec
	if s.Replicas == nil {
		errs.add(spec+".replicas", "", "must be set (apply model.Default to undefaulted input)")
	} else if *s.Replicas < 0 {
		errs.add(spec+".replicas", itoa(*s.Replicas), "must be greater than or equal to 0")
	}
	validateSelector(errs, spec+".selector", s.Selector, true)
	validateTemplate(errs, spec+".template", s.Template)
	if s.Selector != nil && s.Selector.Check() == nil && !s.Selector.IsEmpty() && !s.Selector.matches(s.Template.Labels) {
		errs.add(spec+".template.metadata.labels", fmt.Sprint(s.Template.Labels), "`selector` does not match template `labels`")
	}
	validateStrategy(errs, spec+".strategy", s.Strategy)
	if s.MinReadySeconds < 0 {
		errs.add(spec+".minReadySeconds", itoa(s.MinReadySeconds), "must be greater than or equal to 0")
	}
	if s.RevisionHistoryLimit != nil && *s.RevisionHistoryLimit < 0 {
		errs.add(spec+".revisionHistoryLimit", itoa(*s.RevisionHistoryLimit), "must be greater than or equal to 0")
	}
	if p := s.ProgressDeadlineSeconds; p != nil {
		switch {
		case *p <= 0:
			errs.add(spec+".progressDeadlineSeconds", itoa(*p), "must be greater than 0")
		case *p <= s.MinReadySeconds:
			errs.add(spec+".progressDeadlineSeconds", itoa(*p), "must be greater than minReadySeconds")
		}
	}
	st := &d.Status
	status := path + "status"
	nonNegative(errs, status+".replicas", st.Replicas)
	nonNegative(errs, status+".updatedReplicas", st.UpdatedReplicas)
	nonNegative(errs, status+".readyReplicas", st.ReadyReplicas)
	nonNegative(errs, status+".availableReplicas", st.AvailableReplicas)
	nonNegative(errs, status+".unavailableReplicas", st.UnavailableReplicas)
	if st.CollisionCount != nil {
		nonNegative(errs, status+".collisionCount", *st.CollisionCount)
	}
	if st.TerminatingReplicas != nil {
		nonNegative(errs, status+".terminatingReplicas", *st.TerminatingReplicas)
	}
	seen := map[DeploymentConditionType]bool{}
	for i, c := range st.Conditions {
		if seen[c.Type] {
			errs.add(fmt.Sprintf("%s.conditions[%d].type", status, i), string(c.Type), "duplicate condition type")
		}
		seen[c.Type] = true
	}
}

func validateStrategy(errs *fieldErrs, path string, s Strategy) {
	switch s.Type {
	case RecreateStrategy:
		if s.RollingUpdate != nil {
			errs.add(path+".rollingUpdate", "", "may not be specified when strategy `type` is 'Recreate'")
		}
	case RollingUpdateStrategy:
		ru := s.RollingUpdate
		if ru == nil {
			errs.add(path+".rollingUpdate", "", "must be set for strategy `type` 'RollingUpdate' (apply model.Default to undefaulted input)")
			return
		}
		surge, surgeOK := validateFencepost(errs, path+".rollingUpdate.maxSurge", ru.MaxSurge, false)
		unav, unavOK := validateFencepost(errs, path+".rollingUpdate.maxUnavailable", ru.MaxUnavailable, true)
		if surgeOK && unavOK && surge == 0 && unav == 0 {
			errs.add(path+".rollingUpdate.maxUnavailable", ru.MaxUnavailable.String(), "may not be 0 when `maxSurge` is 0")
		}
	default:
		errs.add(path+".type", string(s.Type), `supported values: "Recreate", "RollingUpdate"`)
	}
}

// validateFencepost checks one of maxSurge/maxUnavailable and returns its
// literal number (the integer, or the percentage before resolution).
func validateFencepost(errs *fieldErrs, path string, v *IntOrString, capAt100 bool) (int64, bool) {
	if v == nil {
		errs.add(path, "", "must be set (apply model.Default to undefaulted input)")
		return 0, false
	}
	switch v.Type {
	case Int:
		if v.IntVal < 0 {
			errs.add(path, v.String(), "must be greater than or equal to 0")
			return 0, false
		}
		return int64(v.IntVal), true
	case String:
		// a percentage, parsed below
	default:
		errs.add(path, v.StrVal, "unknown IntOrString type %d: must be an integer or a percentage", v.Type)
		return 0, false
	}
	n, err := ParsePercent(v.StrVal)
	if err != nil {
		errs.add(path, v.StrVal, "%s", err.Error())
		return 0, false
	}
	if capAt100 && n > 100 {
		errs.add(path, v.StrVal, "must not be greater than 100%%")
		return 0, false
	}
	return n, true
}

// ParsePercent reads a percentage the way apps/v1 validation accepts it: one
// or more decimal digits followed by "%" ("25%", "0%", "150%"). Signs, spaces
// and fractions are rejected.
func ParsePercent(s string) (int64, error) {
	digits, ok := strings.CutSuffix(s, "%")
	if !ok || digits == "" {
		return 0, fmt.Errorf(`must be an integer or a percentage such as "25%%"`)
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, fmt.Errorf(`must be an integer or a percentage such as "25%%"`)
		}
	}
	n, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("percentage out of range")
	}
	return n, nil
}

func validateMeta(errs *fieldErrs, path string, m *ObjectMeta) {
	if msg := checkDNSSubdomain(m.Name); msg != "" {
		errs.add(path+".name", m.Name, "%s", msg)
	}
	if m.UID == "" {
		errs.add(path+".uid", "", "must not be empty: owner references and pods are matched by UID")
	}
	if m.Generation < 0 {
		errs.add(path+".generation", strconv.FormatInt(m.Generation, 10), "must be greater than or equal to 0")
	}
}

func validateSelector(errs *fieldErrs, path string, s *LabelSelector, required bool) {
	if s == nil {
		if required {
			errs.add(path, "", "must be set: a nil selector matches nothing")
		}
		return
	}
	if len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0 {
		errs.add(path, "{}", "empty selector is invalid for deployment")
		return
	}
	if err := s.Check(); err != nil {
		errs.add(path, "", "%s", err.Error())
	}
}

func validateTemplate(errs *fieldErrs, path string, t PodTemplate) {
	for _, k := range slices.Sorted(maps.Keys(t.Labels)) {
		v := t.Labels[k]
		if msg := checkLabelKey(k); msg != "" {
			errs.add(path+".metadata.labels", k, "%s", msg)
		}
		if msg := checkLabelValue(v); msg != "" {
			errs.add(path+".metadata.labels["+k+"]", v, "%s", msg)
		}
	}
}

// ValidateReplicaSet checks a ReplicaSet: name and UID, a set non-negative
// spec.replicas, a valid selector, and non-negative status counts.
func ValidateReplicaSet(rs *ReplicaSet) error {
	var errs fieldErrs
	validateReplicaSet(&errs, "", rs)
	return errs.err()
}

func validateReplicaSet(errs *fieldErrs, path string, rs *ReplicaSet) {
	if rs == nil {
		errs.add(nilPath(path, "replicaSet"), "", "must not be nil")
		return
	}
	validateMeta(errs, path+"metadata", &rs.ObjectMeta)
	spec := path + "spec"
	if rs.Spec.Replicas == nil {
		errs.add(spec+".replicas", "", "must be set (apply model.DefaultReplicaSet to undefaulted input)")
	} else if *rs.Spec.Replicas < 0 {
		errs.add(spec+".replicas", itoa(*rs.Spec.Replicas), "must be greater than or equal to 0")
	}
	if rs.Spec.MinReadySeconds < 0 {
		errs.add(spec+".minReadySeconds", itoa(rs.Spec.MinReadySeconds), "must be greater than or equal to 0")
	}
	if rs.Spec.Selector == nil {
		errs.add(spec+".selector", "", "must be set")
	} else if err := rs.Spec.Selector.Check(); err != nil {
		errs.add(spec+".selector", "", "%s", err.Error())
	}
	st := rs.Status
	status := path + "status"
	nonNegative(errs, status+".replicas", st.Replicas)
	nonNegative(errs, status+".fullyLabeledReplicas", st.FullyLabeledReplicas)
	nonNegative(errs, status+".readyReplicas", st.ReadyReplicas)
	nonNegative(errs, status+".availableReplicas", st.AvailableReplicas)
	if st.TerminatingReplicas != nil {
		nonNegative(errs, status+".terminatingReplicas", *st.TerminatingReplicas)
	}
	if st.ObservedGeneration < 0 {
		errs.add(status+".observedGeneration", strconv.FormatInt(st.ObservedGeneration, 10), "must be greater than or equal to 0")
	}
}

// ValidatePod checks the pod fields the planners read: a name, and no
// negative restart counts.
func ValidatePod(p *Pod) error {
	var errs fieldErrs
	validatePod(&errs, "", p)
	return errs.err()
}

func validatePod(errs *fieldErrs, path string, p *Pod) {
	if p == nil {
		errs.add(nilPath(path, "pod"), "", "must not be nil")
		return
	}
	if p.Name == "" {
		errs.add(path+"metadata.name", "", "must not be empty")
	}
	for i, c := range p.Status.ContainerStatuses {
		if c.RestartCount < 0 {
			errs.add(fmt.Sprintf("%sstatus.containerStatuses[%d].restartCount", path, i), itoa(c.RestartCount), "must be greater than or equal to 0")
		}
	}
}

// Validate checks a whole snapshot: the Deployment, every ReplicaSet and Pod
// (with paths such as "replicaSets[2].spec.replicas"), and that no two
// ReplicaSets share a name or UID and no two Pods share a name or UID.
func Validate(d *Deployment, replicaSets []*ReplicaSet, pods []*Pod) error {
	var errs fieldErrs
	validateDeployment(&errs, "deployment.", d)
	names := make(map[string]int, len(replicaSets))
	uids := make(map[string]int, len(replicaSets))
	for i, rs := range replicaSets {
		path := fmt.Sprintf("replicaSets[%d].", i)
		validateReplicaSet(&errs, path, rs)
		if rs == nil {
			continue
		}
		if j, dup := names[rs.Namespace+"/"+rs.Name]; dup {
			errs.add(path+"metadata.name", rs.Name, "duplicate ReplicaSet name (also replicaSets[%d])", j)
		} else {
			names[rs.Namespace+"/"+rs.Name] = i
		}
		if j, dup := uids[rs.UID]; dup && rs.UID != "" {
			errs.add(path+"metadata.uid", rs.UID, "duplicate ReplicaSet UID (also replicaSets[%d])", j)
		} else {
			uids[rs.UID] = i
		}
	}
	podNames := make(map[string]int, len(pods))
	podUIDs := make(map[string]int, len(pods))
	for i, p := range pods {
		path := fmt.Sprintf("pods[%d].", i)
		validatePod(&errs, path, p)
		if p == nil {
			continue
		}
		if j, dup := podNames[p.Namespace+"/"+p.Name]; dup {
			errs.add(path+"metadata.name", p.Name, "duplicate Pod name (also pods[%d])", j)
		} else {
			podNames[p.Namespace+"/"+p.Name] = i
		}
		if j, dup := podUIDs[p.UID]; dup && p.UID != "" {
			errs.add(path+"metadata.uid", p.UID, "duplicate Pod UID (also pods[%d])", j)
		} else {
			podUIDs[p.UID] = i
		}
	}
	return errs.err()
}

func nonNegative(errs *fieldErrs, path string, v int32) {
	if v < 0 {
		errs.add(path, itoa(v), "must be greater than or equal to 0")
	}
}

// nilPath names a nil object: its kind when validated alone ("deployment"),
// its place in a snapshot otherwise ("replicaSets[2]").
func nilPath(path, kind string) string {
	if path == "" {
		return kind
	}
	return strings.TrimSuffix(path, ".")
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }
